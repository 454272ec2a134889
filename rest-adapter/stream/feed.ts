/**
 * The stream's events read by position, for a consumer that is not an open connection (the app
 * services' webhooks, wired by src/runtime/app-services.ts): the same store reads, presenters,
 * event ids and order as /v1/stream's replay (route.ts `replayThenJoin`, source.ts), with the
 * position kept by the caller (a webhook subscription's cursor in PostgreSQL) rather than by a
 * connection. Nothing here is kept between calls, so the events of a position are regenerated
 * from the index whenever they are asked for again (after a crash, on a redelivery).
 */
import type { Pool } from 'pg';
import { InvalidInputError } from '../../src/lib/errors';
import { createStore, type Store } from '../db/sql';
import { toJson } from '../json';
import { presentActivity } from '../presenters/activity';
import { presentTxRows } from '../presenters/txs';
import { createRepositories, type Repositories } from '../repositories';
import { parseStreamFilter, type StreamFilter } from './filter';
import {
  comparePositions,
  decodeEventId,
  encodeEventId,
  endOfHeight,
  isHeightEnd,
  type StreamPosition,
} from './position';
import { HEIGHTS_PER_READ, StreamSource } from './source';

/** What a subscriber follows: at most one of account (either address form), asset, method; none: the chain. */
export interface FeedFilterInput {
  account?: string;
  asset?: string;
  method?: string;
}

/** A subscriber's position: after the event `eventId`, or (without one) after every event of `height`. */
export interface FeedCursor {
  height: number;
  eventId: string | null;
}

/** One event as /v1/stream sends it: its id, its event name and its data line (JSON). */
export interface FeedEvent {
  id: string;
  kind: 'block' | 'tx' | 'activity';
  height: number;
  /** the `data:` of the SSE frame: the same JSON */
  json: string;
}

export interface StreamFeedOptions {
  pool: Pool;
  schema: string;
  hrp: string;
  gasDenom: string;
  statementTimeoutMs?: number;
}

const positionOf = (cursor: FeedCursor): StreamPosition =>
  cursor.eventId === null ? endOfHeight(cursor.height) : decodeEventId(cursor.eventId)!;

export class StreamFeed {
  private readonly store: Store;
  private readonly repos: Repositories;
  private readonly source: StreamSource;

  constructor(private readonly o: StreamFeedOptions) {
    this.store = createStore(o.pool, { statementTimeoutMs: o.statementTimeoutMs ?? 10_000 });
    this.repos = createRepositories(o.schema);
    this.source = new StreamSource(this.store, this.repos, {
      presentTxs: (rows) => presentTxRows(rows, o.gasDenom),
      presentActivities: (rows) => rows.map(presentActivity),
    });
  }

  /** The filter's canonical form (an account as bech32); InvalidInputError with the reason when malformed. */
  checkFilter(input: FeedFilterInput): FeedFilterInput {
    const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
    const filter = parseStreamFilter(given, this.o.hrp);
    if (filter.kind === 'asset' && !/^[0-9a-f]{64}$/.test(filter.assetId))
      throw new InvalidInputError('asset must be 64 lower-case hex characters');
    if (filter.kind === 'method' && !/^\/[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)+$/.test(filter.method))
      throw new InvalidInputError('method must be a type URL of the form /<package>.<Msg>');
    return toInput(filter);
  }

  /** The height of an event id this stream writes; InvalidInputError when it is not one. */
  heightOfEventId(id: string): number {
    const position = decodeEventId(id);
    if (!position) throw new InvalidInputError('malformed cursor');
    return position.height;
  }

  /** The height the node has committed (events up to it can be read whole); undefined when the store cannot tell. */
  async indexedHeight(): Promise<number | undefined> {
    const head = await this.store.readOne((sql) => this.repos.status.head(sql));
    return head.indexedHeight;
  }

  /**
   * The events of `filter` after `cursor`, in stream order, from at most HEIGHTS_PER_READ heights
   * up to `indexed`; `through`: the height every event up to which has been read (the cursor may
   * move to its end once they are delivered).
   */
  async after(
    input: FeedFilterInput,
    cursor: FeedCursor,
    indexed: number,
  ): Promise<{ events: FeedEvent[]; through: number }> {
    const position = positionOf(cursor);
    const after = isHeightEnd(position) ? position.height : position.height - 1; // a height partly sent is read again
    const through = Math.min(indexed, after + HEIGHTS_PER_READ);
    if (through <= after) return { events: [], through: Math.max(after, cursor.height) };
    const filter = parseStreamFilter({ ...input } as Record<string, string>, this.o.hrp);
    const events = await this.source.all(filter, after, through);
    return {
      events: events
        .filter((e) => comparePositions(e.position, position) > 0)
        .map((e) => ({ id: encodeEventId(e.position), kind: e.kind, height: e.position.height, json: toJson(e.data) })),
      through,
    };
  }

  /** The one event `id` of `filter`, regenerated from the index (a redelivery); undefined when the index has none. */
  async event(input: FeedFilterInput, id: string): Promise<FeedEvent | undefined> {
    const position = decodeEventId(id);
    if (!position) throw new InvalidInputError('malformed cursor');
    const filter = parseStreamFilter({ ...input } as Record<string, string>, this.o.hrp);
    const events = await this.source.all(filter, position.height - 1, position.height);
    const found = events.find((e) => comparePositions(e.position, position) === 0);
    return found && { id, kind: found.kind, height: position.height, json: toJson(found.data) };
  }
}

function toInput(filter: StreamFilter): FeedFilterInput {
  switch (filter.kind) {
    case 'chain':
      return {};
    case 'account':
      return { account: filter.account };
    case 'asset':
      return { asset: filter.assetId };
    case 'method':
      return { method: filter.method };
  }
}
