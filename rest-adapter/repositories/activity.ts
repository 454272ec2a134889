/**
 * SQL for the activity feeds: one ActivityEntry row per (subject, typed event), index (feed, seq).
 * A row keeps only its feed, seq and tx hash; the rest is read from where the indexer keeps it:
 * height, tx_index and event_index from seq (height * 10^10 + (tx_index + 1) * 10^5 + (event_index + 1)),
 * the time from the block, the raw event from its tx's events (tx_hash set) or the block's
 * events (block-level), at position event_index. Only that event leaves the database.
 */
import { statement, type PlannedSql } from '../db/statement';
import { SqlParams } from '../db/params';
import { AssetScoped, assetScopedSql, splitAssetScoped } from '../db/asset-scoped';
import type { Tables } from '../../src/store';
import type { RawEvent } from '../db/raw-event';

export interface ActivityRow {
  height: number;
  tx_index: number;
  event_index: number;
  tx_hash: string | null;
  block_time: string;
  /** the tx's result code; null for block-level events */
  code: number | null;
  /** the raw event at event_index of the tx's or the block's events (null if the store lacks it) */
  event: RawEvent | null;
}

/** Feed ids as the mappings write them (src/mappings/domain/activity.ts). */
export const assetFeed = (assetId: string) => `asset:${assetId}`;
export const accountFeed = (bech32: string) => `account:${bech32}`;

export function createActivityRepository(t: Tables) {
  /**
   * SQL of the entries of `feed` meeting `seqConditions` (on `seq`), in `order` of seq, with
   * `rest` (a LIMIT) after it. The inner query is the scan of the (feed, seq) index; the
   * joins run on its rows.
   */
  function entriesSql(p: SqlParams, feed: string, seqConditions: string[], order: 'ASC' | 'DESC', rest = ''): string {
    const conditions = [`feed = ${p.add(feed)}`, ...seqConditions];
    return `SELECT a.seq, a.height, a.tx_index, a.event_index, a.tx_hash, b.time AS block_time, t.code,
         CASE WHEN a.tx_hash IS NULL THEN b.events::json -> a.event_index ELSE t.events::json -> a.event_index END AS event
       FROM (
         SELECT seq, tx_hash,
           div(seq, 10000000000)::int AS height,
           (mod(div(seq, 100000), 100000) - 1)::int AS tx_index,
           (mod(seq, 100000) - 1)::int AS event_index
         FROM ${t.activityEntries} WHERE ${conditions.join(' AND ')} ORDER BY seq ${order} ${rest}
       ) a
       JOIN ${t.blocks} b ON b.id = a.height::text
       LEFT JOIN ${t.txes} t ON t.id = a.tx_hash`;
  }

  /** SQL of up to n entries of `feed` below `belowSeq` (newest first). */
  function pageSql(sql: PlannedSql, p: SqlParams, feed: string, belowSeq: bigint | null, n: number): string {
    const below = belowSeq === null ? [] : [`seq < ${p.add(belowSeq.toString())}`];
    return entriesSql(p, feed, below, 'DESC', `LIMIT ${sql.limit(p, n)}`);
  }

  /** Every entry of `feed` with fromSeq <= seq < toSeq, in chain order (oldest first): the live stream's read. */
  const range = statement(
    'values',
    async (sql, feed: string, fromSeq: bigint, toSeq: bigint): Promise<ActivityRow[]> => {
      const p = new SqlParams();
      const within = [`seq >= ${p.add(fromSeq.toString())}`, `seq < ${p.add(toSeq.toString())}`];
      return sql.rows<ActivityRow>(`${entriesSql(p, feed, within, 'ASC')} ORDER BY a.seq ASC`, p.values);
    },
  );

  /** Up to n entries of `feed` below `belowSeq` (newest first). */
  // the (feed, seq) index serves both the filter and the order
  const page = statement(
    'page',
    async (sql, feed: string, belowSeq: bigint | null, n: number): Promise<ActivityRow[]> => {
      const p = new SqlParams();
      return sql.rows<ActivityRow>(`${pageSql(sql, p, feed, belowSeq, n)} ORDER BY a.seq DESC`, p.values);
    },
  );

  /** The asset's feed page with the asset's status (one statement); undefined when there is no such asset. The (feed, seq) index serves both. */
  const assetPage = statement(
    'page',
    async (sql, assetId: string, belowSeq: bigint | null, n: number): Promise<AssetScoped<ActivityRow> | undefined> => {
      const p = new SqlParams();
      const text = assetScopedSql(t, p, assetId, pageSql(sql, p, assetFeed(assetId), belowSeq, n), 'r.seq DESC');
      return splitAssetScoped(await sql.rows<ActivityRow & { asset_status: string }>(text, p.values));
    },
  );

  return { page, assetPage, range };
}

export type ActivityRepository = ReturnType<typeof createActivityRepository>;
