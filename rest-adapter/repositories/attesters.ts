/** SQL for an attester's per-credential-type aggregates. */
import { statement } from '../db/statement';
import type { Tables } from '../../src/store';
import { latestBlockTimeSql } from './status';

export interface AttesterTypeRow {
  type: string;
  active: number;
  revoked: number;
  expired: number;
  total: number;
}

export interface AttesterRead {
  /** store text of the latest block time; null before the first block */
  latestBlockTime: string | null;
  /** by type */
  types: AttesterTypeRow[];
}

export function createAttesterRepository(t: Tables) {
  /**
   * Counts per type at the latest block time, read in the same statement: active = live,
   * revoked, expired = not revoked and expiry reached; total = distinct subjects (one row
   * each). Counted per request because live/expired move with block time. Before the
   * first block every unrevoked attestation is live (the epoch is before any expiry).
   */
  const typeCounts = statement('once', async (sql, attester: string): Promise<AttesterRead> => {
    const rows = await sql.rows<AttesterTypeRow & { latest_block_time: string | null }>(
      `SELECT l.latest_block_time, c.type, c.active, c.revoked, c.expired, c.total
       FROM (SELECT ${latestBlockTimeSql(t)} AS latest_block_time) l
       LEFT JOIN LATERAL (
         SELECT type,
                count(*) FILTER (WHERE NOT revoked AND expiry > coalesce(l.latest_block_time, 'epoch'))::int AS active,
                count(*) FILTER (WHERE revoked)::int AS revoked,
                count(*) FILTER (WHERE NOT revoked AND expiry <= coalesce(l.latest_block_time, 'epoch'))::int AS expired,
                count(*)::int AS total
         FROM ${t.attestations} WHERE attester = $1 GROUP BY type
       ) c ON true
       ORDER BY c.type`,
      [attester],
    );
    return {
      latestBlockTime: rows[0]?.latest_block_time ?? null,
      types: rows
        .filter((r) => r.type !== null)
        .map(({ type, active, revoked, expired, total }) => ({ type, active, revoked, expired, total })),
    };
  });

  return { typeCounts };
}

export type AttesterRepository = ReturnType<typeof createAttesterRepository>;
