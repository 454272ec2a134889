/**
 * The store reads of the stream: every event of a filter for a range of heights, in stream
 * order, through the list endpoints' repositories and presenters. The range is bounded
 * above by a height the node has committed (`_metadata.lastProcessedHeight` is written in
 * the same transaction as the rows), so a read never sees half a block.
 */
import type { Store } from '../db/sql';
import { seqOf } from '../paging/seq';
import { presentBlock } from '../presenters/blocks';
import type { Repositories } from '../repositories';
import type { RouteContext } from '../routes/context';
import { accountFeed, assetFeed } from '../repositories/activity';
import type { TxWithEvmRow } from '../repositories/txs';
import type { ActivityRow } from '../repositories/activity';
import type { StreamEvent } from './events';
import type { StreamFilter } from './filter';
import { activityPosition, blockPosition, comparePositions, txPosition } from './position';

/** Heights read per statement: bounds one read's rows when the stream is far behind. */
export const HEIGHTS_PER_READ = 20;

/** Heights after < h <= through as a seq range [from, to) (paging/seq.ts: seq grows with height). */
function seqRange(after: number, through: number): [bigint, bigint] {
  return [seqOf(after + 1, -1, -1), seqOf(through + 1, -1, -1)];
}

function feedOf(filter: StreamFilter): string | undefined {
  if (filter.kind === 'account') return accountFeed(filter.account);
  if (filter.kind === 'asset') return assetFeed(filter.assetId);
  return undefined;
}

export interface FilterRows {
  txs: TxWithEvmRow[];
  activity: ActivityRow[];
}

export class StreamSource {
  constructor(
    private readonly store: Store,
    private readonly repos: Repositories,
    /** the app's presenters: through the render cache, so a tx streamed is rendered once for its pages too */
    private readonly presenters: Pick<RouteContext, 'presentTxs' | 'presentActivities'>,
  ) {}

  /** The block events of after < height <= through: one statement, shared by every filter. */
  async blocks(after: number, through: number): Promise<StreamEvent[]> {
    const rows = await this.store.readOne((sql) => this.repos.blocks.blocksBetween(sql, after, through));
    return rows.map((row) => ({ kind: 'block', position: blockPosition(row.height), data: presentBlock(row) }));
  }

  /**
   * The tx and activity events of `filter` in after < height <= through, in stream order:
   * one snapshot per filter (the chain has none, a method one statement, a feed two).
   */
  async filtered(filter: StreamFilter, after: number, through: number): Promise<StreamEvent[]> {
    const [from, to] = seqRange(after, through);
    const feed = feedOf(filter);
    let rows: FilterRows = { txs: [], activity: [] };
    if (filter.kind === 'method')
      rows.txs = await this.store.readOne((sql) => this.repos.txs.ofMethodInRange(sql, filter.method, from, to));
    else if (feed !== undefined)
      rows = await this.store.read(async (sql) => ({
        txs: await this.repos.txs.ofFeedInRange(sql, feed, from, to),
        activity: await this.repos.activity.range(sql, feed, from, to),
      }));
    return this.present(rows);
  }

  /** Every event of `filter` in after < height <= through (blocks included), in stream order. */
  async all(filter: StreamFilter, after: number, through: number): Promise<StreamEvent[]> {
    const [blocks, filtered] = await Promise.all([this.blocks(after, through), this.filtered(filter, after, through)]);
    return mergeInOrder(blocks, filtered);
  }

  private present(rows: FilterRows): StreamEvent[] {
    const txs = this.presenters.presentTxs(rows.txs).map((data, i): StreamEvent => ({
      kind: 'tx',
      position: txPosition(rows.txs[i].height, rows.txs[i].tx_index),
      data,
    }));
    const activity = this.presenters.presentActivities(rows.activity).map((data, i): StreamEvent => ({
      kind: 'activity',
      position: activityPosition(rows.activity[i].height, rows.activity[i].tx_index, rows.activity[i].event_index),
      data,
    }));
    return [...txs, ...activity].sort((a, b) => comparePositions(a.position, b.position));
  }
}

/** Two lists each in stream order, as one. */
export function mergeInOrder(a: readonly StreamEvent[], b: readonly StreamEvent[]): StreamEvent[] {
  const out: StreamEvent[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && comparePositions(a[i].position, b[j].position) <= 0)) out.push(a[i++]);
    else out.push(b[j++]);
  }
  return out;
}
