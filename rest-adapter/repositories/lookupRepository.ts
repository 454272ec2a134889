/** SQL behind /v1/lookup: existence checks by each identifier shape. */
import type { Sql } from '../db/sql';
import type { Tables } from '../db/tables';

export interface TxRef {
  hash: string;
  height: number;
}

export interface TokenAsset {
  asset_id: string;
  /** null for the bundle token */
  kind_id: number | null;
}

export function createLookupRepository(t: Tables) {
  async function assetExists(sql: Sql, id: string): Promise<boolean> {
    return (await sql.one(`SELECT 1 FROM ${t.assets} WHERE id = $1`, [id])) !== undefined;
  }

  async function txByHash(sql: Sql, hash: string): Promise<TxRef | undefined> {
    return sql.one<TxRef>(`SELECT hash, height FROM ${t.txes} WHERE id = $1`, [hash]);
  }

  async function txByEthHash(sql: Sql, ethHash: string): Promise<TxRef | undefined> {
    return sql.one<TxRef>(`SELECT tx_hash AS hash, height FROM ${t.evmTxes} WHERE id = $1`, [ethHash]);
  }

  /** Assets with a right-token (kind) or bundle-token precompile at the EIP-55 `address`; kinds first. */
  async function tokenAssets(sql: Sql, address: string): Promise<TokenAsset[]> {
    return sql.rows<TokenAsset>(
      `(SELECT asset_id, kind_id FROM ${t.kinds} WHERE svc20_address = $1 ORDER BY asset_id, kind_id)
       UNION ALL
       (SELECT id AS asset_id, NULL::int AS kind_id FROM ${t.assets} WHERE bundle_address = $1 ORDER BY id)`,
      [address],
    );
  }

  return { assetExists, txByHash, txByEthHash, tokenAssets };
}

export type LookupRepository = ReturnType<typeof createLookupRepository>;
