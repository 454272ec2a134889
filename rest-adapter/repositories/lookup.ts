/** SQL behind /v1/lookup: existence checks by each identifier shape. */
import { statement } from '../db/statement';
import type { Tables } from '../../src/store';
import { metadataInt } from '../../src/store';
import { indexedHeightSql } from './status';

export interface TxRef {
  hash: string;
  height: number;
}

export interface TokenAsset {
  asset_id: string;
  /** null for the bundle token */
  kind_id: number | null;
}

/** What a 64-hex query names: an asset id and/or a consensus tx hash. */
export interface Hex64Found {
  asset: boolean;
  tx: TxRef | undefined;
}

/** What a 0x-address query names: precompile tokens, and whether the account is known. */
export interface EvmAddressFound {
  tokens: TokenAsset[];
  known: boolean;
}

/** What an integer query names. */
export interface IntegerFound {
  indexedHeight: number;
  settlement: boolean;
  encumbrance: boolean;
}

/** Each shape's candidates in one statement: a lookup is one round trip. */
export function createLookupRepository(t: Tables) {
  const hex64 = statement('once', async (sql, assetId: string, txHash: string): Promise<Hex64Found> => {
    const row = await sql.one<{ asset: boolean; hash: string | null; height: number | null }>(
      `SELECT EXISTS (SELECT 1 FROM ${t.assets} WHERE id = $1) AS asset, x.hash, x.height
       FROM (SELECT 1) one LEFT JOIN ${t.txes} x ON x.id = $2`,
      [assetId, txHash],
    );
    return { asset: row?.asset === true, tx: row?.hash ? { hash: row.hash, height: row.height as number } : undefined };
  });

  const txByEthHash = statement('once', async (sql, ethHash: string): Promise<TxRef | undefined> => {
    return sql.one<TxRef>(`SELECT tx_hash AS hash, height FROM ${t.evmTxes} WHERE id = $1`, [ethHash]);
  });

  /**
   * Assets with a right-token (kind) or bundle-token precompile at the EIP-55 `address`,
   * kinds first, and whether `account` (its bech32 form) has an Account row.
   */
  const evmAddress = statement('once', async (sql, address: string, account: string): Promise<EvmAddressFound> => {
    const rows = await sql.rows<{ known: boolean; asset_id: string | null; kind_id: number | null }>(
      `SELECT EXISTS (SELECT 1 FROM ${t.accounts} WHERE id = $2) AS known, tok.asset_id, tok.kind_id
       FROM (SELECT 1) one
       LEFT JOIN LATERAL (
         (SELECT asset_id, kind_id, 0 AS part FROM ${t.kinds} WHERE svc20_address = $1)
         UNION ALL
         (SELECT id AS asset_id, NULL::int AS kind_id, 1 AS part FROM ${t.assets} WHERE bundle_address = $1)
       ) tok ON true
       ORDER BY tok.part, tok.asset_id, tok.kind_id`,
      [address, account],
    );
    const tokens = rows
      .filter((r) => r.asset_id !== null)
      .map((r) => ({ asset_id: r.asset_id as string, kind_id: r.kind_id }));
    return { tokens, known: rows[0]?.known === true };
  });

  const integer = statement('once', async (sql, id: string): Promise<IntegerFound> => {
    const row = await sql.one<{ indexed: unknown; settlement: boolean; encumbrance: boolean }>(
      `SELECT ${indexedHeightSql(t)} AS indexed,
              EXISTS (SELECT 1 FROM ${t.settlements} WHERE id = $1) AS settlement,
              EXISTS (SELECT 1 FROM ${t.encumbrances} WHERE id = $1) AS encumbrance`,
      [id],
    );
    return {
      indexedHeight: metadataInt(row?.indexed),
      settlement: row?.settlement === true,
      encumbrance: row?.encumbrance === true,
    };
  });

  return { hex64, txByEthHash, evmAddress, integer };
}

export type LookupRepository = ReturnType<typeof createLookupRepository>;
