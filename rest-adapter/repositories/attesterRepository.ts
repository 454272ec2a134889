/** SQL for an attester's per-credential-type aggregates. */
import type { Sql } from '../db/sql';
import type { Tables } from '../db/tables';

export interface AttesterTypeRow {
  type: string;
  active: number;
  revoked: number;
  expired: number;
  total: number;
}

export function createAttesterRepository(t: Tables) {
  /**
   * Counts per type at `latestBlockTime` (store timestamp text): active = live, revoked,
   * expired = not revoked and expiry reached; total = distinct subjects (one row each).
   * Counted per request because live/expired move with block time.
   */
  async function typeCounts(sql: Sql, attester: string, latestBlockTime: string): Promise<AttesterTypeRow[]> {
    return sql.rows<AttesterTypeRow>(
      `SELECT type,
              count(*) FILTER (WHERE NOT revoked AND expiry > $2::timestamp)::int AS active,
              count(*) FILTER (WHERE revoked)::int AS revoked,
              count(*) FILTER (WHERE NOT revoked AND expiry <= $2::timestamp)::int AS expired,
              count(*)::int AS total
       FROM ${t.attestations} WHERE attester = $1 GROUP BY type ORDER BY type`,
      [attester, latestBlockTime],
    );
  }

  return { typeCounts };
}

export type AttesterRepository = ReturnType<typeof createAttesterRepository>;
