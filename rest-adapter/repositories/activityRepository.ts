/** SQL for the activity feeds: one ActivityEntry row per (subject, typed event), index (feed, seq). */
import { SqlParams } from '../db/params';
import type { Sql } from '../db/sql';
import type { Tables } from '../db/tables';

export interface ActivityRow {
  height: number;
  tx_index: number;
  event_index: number;
  tx_hash: string | null;
  block_time: string;
  type: string;
  mode: string | null;
  decoded: unknown;
}

/** Feed ids as the mappings write them (src/mappings/util/activity.ts). */
export const assetFeed = (assetId: string) => `asset:${assetId}`;
export const accountFeed = (bech32: string) => `account:${bech32}`;

export function createActivityRepository(t: Tables) {
  /** Up to n entries of `feed` below `belowSeq` (newest first). */
  async function page(sql: Sql, feed: string, belowSeq: bigint | null, n: number): Promise<ActivityRow[]> {
    const p = new SqlParams();
    const conditions = [`feed = ${p.add(feed)}`];
    if (belowSeq !== null) conditions.push(`seq < ${p.add(belowSeq.toString())}`);
    return sql.rows<ActivityRow>(
      `SELECT height, tx_index, event_index, tx_hash, block_time, type, mode, decoded
       FROM ${t.activityEntries} WHERE ${conditions.join(' AND ')} ORDER BY seq DESC LIMIT ${p.add(n)}`,
      p.values,
    );
  }

  return { page };
}

export type ActivityRepository = ReturnType<typeof createActivityRepository>;
