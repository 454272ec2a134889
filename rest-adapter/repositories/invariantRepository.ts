/** SQL for the reconciler's latest results. */
import { SqlParams } from '../db/params';
import type { Sql } from '../db/sql';
import type { Tables } from '../db/tables';
import type { InvariantCheckRow } from '../presenters/asset';

export interface Svc20CheckRow {
  asset_id: string;
  kind_id: number | null;
  bundle: boolean;
  height: number;
  indexer_address: string;
  chain_address: string;
  evaluated: boolean;
  agree: boolean;
}

function assetScope(p: SqlParams, assetId: string | undefined): string {
  return assetId === undefined ? '' : `WHERE asset_id = ${p.add(assetId)}`;
}

export function createInvariantRepository(t: Tables) {
  /** Latest check per (asset, kind), by asset_id then kind_id. */
  async function latestChecks(sql: Sql, assetId: string | undefined): Promise<InvariantCheckRow[]> {
    const p = new SqlParams();
    return sql.rows<InvariantCheckRow>(
      `SELECT DISTINCT ON (asset_id, kind_id) asset_id, kind_id, height, agree, chain, indexer
       FROM ${t.invariantChecks} ${assetScope(p, assetId)} ORDER BY asset_id, kind_id, height DESC`,
      p.values,
    );
  }

  /** Latest registry row per (asset, kind | bundle): per asset the kind rows by kind_id, then the bundle row. */
  async function latestSvc20(sql: Sql, assetId: string | undefined): Promise<Svc20CheckRow[]> {
    const p = new SqlParams();
    return sql.rows<Svc20CheckRow>(
      `SELECT DISTINCT ON (asset_id, bundle, kind_id) asset_id, kind_id, bundle, height, indexer_address, chain_address, evaluated, agree
       FROM ${t.svc20Checks} ${assetScope(p, assetId)} ORDER BY asset_id, bundle, kind_id, height DESC`,
      p.values,
    );
  }

  return { latestChecks, latestSvc20 };
}

export type InvariantRepository = ReturnType<typeof createInvariantRepository>;
