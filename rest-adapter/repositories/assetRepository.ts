/** SQL for assets, kinds, accruals, holders, distributions, liquidation data and invariant checks. */
import { SqlParams } from '../db/params';
import { AssetScoped, assetScopedSql, splitAssetScoped } from '../db/asset-scoped';
import type { Sql } from '../db/sql';
import { oneWithChildren } from '../db/with-children';
import { indexedHeightSql, metadataInt } from './chainRepository';
import type { Tables } from '../db/tables';
import type {
  AccrualRow,
  AssetDetailRow,
  AssetRow,
  EncumbranceSummaryRow,
  HoldingRow,
  InvariantCheckRow,
  KindRow,
} from '../presenters/asset';

export interface GraphHolderRow extends HoldingRow {
  kind_id: number;
}

export interface DistributionRow {
  height: number;
  tx_index: number;
  event_index: number;
  kind_id: number;
  denom: string;
  payer: string;
  amount: string;
  supply: string;
  new_index: string;
  carry_scaled: string;
  tx_hash: string;
  block_time: string;
}

export interface LiquidationRow {
  denom: string;
  proceeds: string;
  surplus: string;
  started_height: number;
  started_at: string;
  completed_height: number | null;
}

export interface RedemptionPoolRow {
  kind_id: number;
  denom: string;
  amount: string;
  units_outstanding: string;
}

/** floor(units × (index − snapshot) / 10^18) per entry, as src/lib/accrual pendingIncome, in exact numeric. */
export const PENDING_SQL = (c: string, a: string) =>
  `div(${c}.units * GREATEST(${a}.index - ${c}.snapshot_index, 0), 1000000000000000000::numeric)`;

/** What /v1/assets/{id} reads in one statement (accruals aside: they are kept per height). */
export interface AssetDetail {
  asset: AssetDetailRow;
  indexedHeight: number;
  kinds: KindRow[];
  latestChecks: InvariantCheckRow[];
}

export function createAssetRepository(t: Tables) {
  const summaryColumns = 'id, issuer, status, kind_count, issuance_locked, meta_hash, created_height, created_at';
  const kindColumns =
    'kind_id, kind_class, decimals, bundle, transferable, term, policy_override, bridgeable, multiplier, supply, holder_count, svc20_address';

  async function list(sql: Sql, after: string | null, n: number): Promise<AssetRow[]> {
    const p = new SqlParams();
    const where = after === null ? '' : `WHERE id > ${p.add(after)}`;
    return sql.rows<AssetRow>(`SELECT ${summaryColumns} FROM ${t.assets} ${where} ORDER BY id LIMIT ${p.add(n)}`, p.values);
  }

  /**
   * The asset with the indexed height, the latest invariant check of each kind and its
   * kinds (by kind_id), in one statement. The checks are aggregated as JSON (their fields
   * are ints, booleans and jsonb, which JSON keeps exactly); the kinds are joined rows.
   */
  async function detail(sql: Sql, id: string): Promise<AssetDetail | undefined> {
    const found = await oneWithChildren<AssetDetailRow & { indexed: unknown; latest_checks: InvariantCheckRow[] | null }, KindRow>(
      sql,
      `SELECT ${summaryColumns}, nonce, policy, roles, settlement_denom, liens_allowed, distribution_denoms, bundle_address, created_tx_hash, updated_height,
              ${indexedHeightSql(t)} AS indexed,
              (SELECT json_agg(c ORDER BY c.kind_id) FROM (
                 SELECT DISTINCT ON (kind_id) asset_id, kind_id, height, agree, chain, indexer
                 FROM ${t.invariantChecks} WHERE asset_id = $1 ORDER BY kind_id, height DESC
               ) c) AS latest_checks
       FROM ${t.assets} WHERE id = $1`,
      [id],
      { table: t.kinds, columns: kindColumns.split(', '), parentKey: 'asset_id', orderBy: 'kind_id' },
    );
    if (!found) return undefined;
    const { indexed, latest_checks, ...asset } = found.parent;
    return { asset, indexedHeight: metadataInt(indexed), kinds: found.children, latestChecks: latest_checks ?? [] };
  }

  /** The asset's status, or undefined when there is no such asset. */
  async function status(sql: Sql, id: string): Promise<string | undefined> {
    return (await sql.one<{ status: string }>(`SELECT status FROM ${t.assets} WHERE id = $1`, [id]))?.status;
  }

  async function kinds(sql: Sql, assetId: string): Promise<KindRow[]> {
    return sql.rows<KindRow>(`SELECT ${kindColumns} FROM ${t.kinds} WHERE asset_id = $1 ORDER BY kind_id`, [assetId]);
  }

  async function kindExists(sql: Sql, assetId: string, kindId: number): Promise<boolean> {
    return (await sql.one(`SELECT 1 FROM ${t.kinds} WHERE id = $1`, [`${assetId}-${kindId}`])) !== undefined;
  }

  /** Accruals by kind then denom, each with Σ claimable (accrued + pending) over its entries. */
  async function accruals(sql: Sql, assetId: string): Promise<AccrualRow[]> {
    return sql.rows<AccrualRow>(
      `SELECT a.kind_id, a.denom, a.index, a.carry_scaled, a.total_distributed, a.total_paid, a.distributions_count, a.module_held, a.updated_height,
              COALESCE((SELECT sum(c.accrued + ${PENDING_SQL('c', 'a')}) FROM ${t.claimables} c WHERE c.accrual_id = a.id), 0) AS sum_claimable
       FROM ${t.accruals} a WHERE a.asset_id = $1 ORDER BY a.kind_id, a.denom`,
      [assetId],
    );
  }

  /** Per kind the top `perKind` holders (units > 0) by units desc, holder asc. */
  async function topHolders(sql: Sql, assetId: string, perKind: number): Promise<GraphHolderRow[]> {
    return sql.rows<GraphHolderRow>(
      `SELECT k.kind_id, h.holder, h.units, h.locked, h.locks
       FROM ${t.kinds} k
       CROSS JOIN LATERAL (
         SELECT holder, units, locked, locks FROM ${t.holdings}
         WHERE kind_ref = k.id AND units > 0 ORDER BY units DESC, holder ASC LIMIT $2
       ) h
       WHERE k.asset_id = $1
       ORDER BY k.kind_id, h.units DESC, h.holder ASC`,
      [assetId, perKind],
    );
  }

  /** Holders of one kind after the keyset (units, holder) in (units desc, holder asc) order. */
  async function holders(sql: Sql, assetId: string, kindId: number, after: [bigint, string] | null, n: number): Promise<HoldingRow[]> {
    const p = new SqlParams();
    const conditions = [`kind_ref = ${p.add(`${assetId}-${kindId}`)}`, 'units > 0'];
    if (after) {
      const units = p.add(after[0].toString());
      // `units <= $u` bounds the index range; the OR picks up where the page left off
      conditions.push(`units <= ${units}`, `(units < ${units} OR (units = ${units} AND holder > ${p.add(after[1])}))`);
    }
    return sql.rows<HoldingRow>(
      `SELECT holder, units, locked, locks FROM ${t.holdings} WHERE ${conditions.join(' AND ')} ORDER BY units DESC, holder ASC LIMIT ${p.add(n)}`,
      p.values,
    );
  }

  async function encumbrancesByIds(sql: Sql, ids: readonly string[]): Promise<EncumbranceSummaryRow[]> {
    if (ids.length === 0) return [];
    return sql.rows<EncumbranceSummaryRow>(
      `SELECT id, kind, beneficiary, units, status, expiry, holder_release_after FROM ${t.encumbrances} WHERE id = ANY($1)`,
      [ids],
    );
  }

  /** Up to n distributions of the asset below `belowSeq`, newest first, with the asset's status (one statement); undefined when there is no such asset. */
  async function distributions(sql: Sql, assetId: string, belowSeq: bigint | null, n: number): Promise<AssetScoped<DistributionRow> | undefined> {
    const p = new SqlParams();
    const conditions = [`asset_id = ${p.add(assetId)}`];
    if (belowSeq !== null) conditions.push(`seq < ${p.add(belowSeq.toString())}`);
    const page = `SELECT seq, height, tx_index, event_index, kind_id, denom, payer, amount, supply, new_index, carry_scaled, tx_hash, block_time
       FROM ${t.distributions} WHERE ${conditions.join(' AND ')} ORDER BY seq DESC LIMIT ${p.add(n)}`;
    return splitAssetScoped(await sql.rows<DistributionRow & { asset_status: string }>(assetScopedSql(t, p, assetId, page, 'r.seq DESC'), p.values));
  }

  async function waterfallTiers(sql: Sql, assetId: string): Promise<unknown> {
    return (await sql.one<{ tiers: unknown }>(`SELECT tiers FROM ${t.waterfalls} WHERE id = $1`, [assetId]))?.tiers;
  }

  async function liquidation(sql: Sql, assetId: string): Promise<LiquidationRow | undefined> {
    return sql.one<LiquidationRow>(
      `SELECT denom, proceeds, surplus, started_height, started_at, completed_height FROM ${t.liquidations} WHERE id = $1`,
      [assetId],
    );
  }

  async function redemptionPools(sql: Sql, assetId: string): Promise<RedemptionPoolRow[]> {
    return sql.rows<RedemptionPoolRow>(
      `SELECT kind_id, denom, amount, units_outstanding FROM ${t.redemptionPools} WHERE asset_id = $1 ORDER BY kind_id, denom`,
      [assetId],
    );
  }

  return {
    list,
    detail,
    status,
    kinds,
    kindExists,
    accruals,
    topHolders,
    holders,
    encumbrancesByIds,
    distributions,
    waterfallTiers,
    liquidation,
    redemptionPools,
  };
}

export type AssetRepository = ReturnType<typeof createAssetRepository>;
