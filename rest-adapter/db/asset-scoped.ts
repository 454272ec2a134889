/**
 * A page of an asset's rows together with the asset's status, in one statement: every
 * /v1/assets/{id}/… page must answer 404 when there is no such asset, and a separate
 * existence query would cost a round trip and a transaction (BEGIN, COMMIT) around both.
 */
import type { SqlParams } from './params';
import type { Tables } from '../../src/store';

/**
 * SQL of `page` (a complete SELECT whose rows all have a non-null `height`) beside the
 * asset's status: no row when there is no such asset, one row of null page columns when
 * the page is empty. `order` orders the outer rows (columns of `page` as r.<name>).
 */
export function assetScopedSql(t: Tables, p: SqlParams, assetId: string, page: string, order: string): string {
  return `SELECT a.status AS asset_status, r.*
          FROM (SELECT status FROM ${t.assets} WHERE id = ${p.add(assetId)}) a
          LEFT JOIN LATERAL (${page}) r ON true
          ORDER BY ${order}`;
}

export interface AssetScoped<R> {
  status: string;
  rows: R[];
}

/** Splits the rows of assetScopedSql; undefined when there is no such asset. */
export function splitAssetScoped<R extends { height: number }>(
  rows: readonly (R & { asset_status: string })[],
): AssetScoped<R> | undefined {
  if (rows.length === 0) return undefined;
  return {
    status: rows[0].asset_status,
    rows: rows.filter((r) => r.height !== null).map(({ asset_status: _status, ...row }) => row as unknown as R),
  };
}
