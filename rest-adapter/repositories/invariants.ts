/** SQL for the reconciler's latest results. */
import { statement } from '../db/statement';
import { SqlParams } from '../db/params';
import type { InvariantCheckRead, Svc20CheckRead, Tables } from '../../src/store';

function assetScope(p: SqlParams, assetId: string | undefined): string {
  return assetId === undefined ? '' : `WHERE asset_id = ${p.add(assetId)}`;
}

/** The latest invariant check per (asset, kind), in (asset_id, kind_id) order; `where` scopes the checks ('' = all). */
export function latestChecksSql(t: Tables, where: string): string {
  return `SELECT DISTINCT ON (asset_id, kind_id) asset_id, kind_id, height, agree, chain, indexer
          FROM ${t.invariantChecks} ${where} ORDER BY asset_id, kind_id, height DESC`;
}

/** /v1/invariants as read: the latest checks and the latest registry rows. */
export interface LatestInvariants {
  checks: InvariantCheckRead[];
  registry: Svc20CheckRead[];
}

export function createInvariantRepository(t: Tables) {
  /**
   * In one statement: the latest check per (asset, kind), by asset_id then kind_id; the
   * latest registry row per (asset, kind | bundle), per asset the kind rows by kind_id then
   * the bundle row. Each list is aggregated as JSON, which keeps its fields exactly (text,
   * int4, booleans, jsonb).
   */
  const latest = statement('values', async (sql, assetId: string | undefined): Promise<LatestInvariants> => {
    const p = new SqlParams();
    const scope = assetScope(p, assetId);
    const row = await sql.one<{ checks: InvariantCheckRead[] | null; registry: Svc20CheckRead[] | null }>(
      `SELECT
         (SELECT json_agg(c ORDER BY c.asset_id, c.kind_id) FROM (${latestChecksSql(t, scope)}) c) AS checks,
         (SELECT json_agg(r ORDER BY r.asset_id, r.bundle, r.kind_id) FROM (
            SELECT DISTINCT ON (asset_id, bundle, kind_id) asset_id, kind_id, bundle, height, indexer_address, chain_address, evaluated, agree
            FROM ${t.svc20Checks} ${scope} ORDER BY asset_id, bundle, kind_id, height DESC
          ) r) AS registry`,
      p.values,
    );
    return { checks: row?.checks ?? [], registry: row?.registry ?? [] };
  });

  return { latest };
}

export type InvariantRepository = ReturnType<typeof createInvariantRepository>;
