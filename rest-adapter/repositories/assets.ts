/** SQL for assets, kinds, accruals, holders, distributions, liquidation data and invariant checks. */
import { statement } from '../db/statement';
import { limitLiteral, SqlParams } from '../db/params';
import { AssetScoped, assetScopedSql, splitAssetScoped } from '../db/asset-scoped';
import { jsonList } from '../db/json-list';
import { oneWithChildren } from '../db/with-children';
import { currentAt, versionAt } from '../db/at-height';
import { metadataInt } from '../../src/store';
import { indexedHeightSql } from './status';
import { latestChecksSql } from './invariants';
import { PENDING_SQL, type InvariantCheckRead, type Tables } from '../../src/store';

export interface AssetRow {
  id: string;
  issuer: string;
  status: string;
  kind_count: number;
  issuance_locked: boolean;
  meta_hash: string;
  created_height: number;
  created_at: string;
}

export interface AssetDetailRow extends AssetRow {
  nonce: string;
  policy: unknown;
  roles: unknown;
  settlement_denom: string;
  liens_allowed: boolean;
  distribution_denoms: unknown;
  bundle_address: string;
  created_tx_hash: string;
  updated_height: number;
}

export interface KindRow {
  kind_id: number;
  kind_class: string;
  decimals: number;
  bundle: boolean;
  transferable: boolean;
  term: unknown;
  policy_override: unknown;
  bridgeable: boolean;
  multiplier: string;
  supply: string;
  holder_count: number;
  svc20_address: string;
}

export interface AccrualRow {
  kind_id: number;
  denom: string;
  index: string;
  carry_scaled: string;
  total_distributed: string;
  total_paid: string;
  distributions_count: number;
  module_held: string;
  /** Σ over the accrual's claimable entries of accrued + pending, computed in SQL */
  sum_claimable: string;
  updated_height: number;
}

export interface HoldingRow {
  holder: string;
  units: string;
  locked: string;
  locks: unknown;
}

export interface EncumbranceSummaryRow {
  id: string;
  kind: string;
  beneficiary: string;
  units: string;
  status: string;
  expiry: string | null;
  holder_release_after: string | null;
}

/** A lock held by an encumbrance: `encumbrance/<id>` (the id is the first group; also read in SQL, see holdersPage below). */
export const ENCUMBRANCE_REF_PATTERN = '^encumbrance/([0-9]+)$';

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

export interface AssetGraphRead {
  status: string;
  /** by kind_id */
  kinds: Pick<KindRow, 'kind_id' | 'kind_class' | 'supply' | 'holder_count'>[];
  /** per kind (by kind_id) the top holders */
  holders: GraphHolderRow[];
}

export interface HoldersPageRead {
  status: string;
  kindExists: boolean;
  holders: HoldingRow[];
  /** the encumbrances the page's locks refer to (`encumbrance/<id>` refs), by id */
  encumbrances: EncumbranceSummaryRow[];
}

export interface LiquidationRead {
  status: string;
  /** the waterfall's tiers (jsonb); undefined without a waterfall */
  tiers: unknown;
  liquidation: LiquidationRow | undefined;
  /** by kind_id then denom */
  pools: RedemptionPoolRow[];
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

/** What /v1/assets/{id} reads in one statement (accruals aside: they are kept per height). */
export interface AssetDetail {
  asset: AssetDetailRow;
  indexedHeight: number;
  kinds: KindRow[];
  latestChecks: InvariantCheckRead[];
}

/** The conditions of a holders page after the keyset (units, holder) of its previous page. */
function holdersKeyset(p: SqlParams, kindRef: string, after: [bigint, string] | null): string[] {
  const conditions = [`kind_ref = ${kindRef}`, 'units > 0'];
  if (after) {
    const units = p.add(after[0].toString());
    // `units <= $u` bounds the index range; the OR picks up where the page left off
    conditions.push(`units <= ${units}`, `(units < ${units} OR (units = ${units} AND holder > ${p.add(after[1])}))`);
  }
  return conditions;
}

export function createAssetRepository(t: Tables) {
  const summaryColumns = 'id, issuer, status, kind_count, issuance_locked, meta_hash, created_height, created_at';
  const kindColumns =
    'kind_id, kind_class, decimals, bundle, transferable, term, policy_override, bridgeable, multiplier, supply, holder_count, svc20_address';

  const list = statement('page', async (sql, after: string | null, n: number): Promise<AssetRow[]> => {
    const p = new SqlParams();
    const where = after === null ? '' : `WHERE id > ${p.add(after)}`;
    const limit = sql.limit(p, n);
    return sql.rows<AssetRow>(
      `SELECT ${summaryColumns} FROM ${t.assets} ${where} ORDER BY id LIMIT ${limit}`,
      p.values,
    );
  });

  /**
   * The asset with the indexed height, the latest invariant check of each kind and its
   * kinds (by kind_id), in one statement. The checks are aggregated as JSON (their fields
   * are ints, booleans and jsonb, which JSON keeps exactly); the kinds are joined rows.
   */
  const detail = statement('once', async (sql, id: string): Promise<AssetDetail | undefined> => {
    const found = await oneWithChildren<
      AssetDetailRow & { indexed: unknown; latest_checks: InvariantCheckRead[] | null },
      KindRow
    >(
      sql,
      `SELECT ${summaryColumns}, nonce, policy, roles, settlement_denom, liens_allowed, distribution_denoms, bundle_address, created_tx_hash, updated_height,
              ${indexedHeightSql(t)} AS indexed,
              (SELECT json_agg(c ORDER BY c.kind_id) FROM (${latestChecksSql(t, 'WHERE asset_id = $1')}) c) AS latest_checks
       FROM ${t.assets} WHERE id = $1`,
      [id],
      { table: t.kinds, columns: kindColumns.split(', '), parentKey: 'asset_id', orderBy: 'kind_id' },
    );
    if (!found) return undefined;
    const { indexed, latest_checks, ...asset } = found.parent;
    return { asset, indexedHeight: metadataInt(indexed), kinds: found.children, latestChecks: latest_checks ?? [] };
  });

  /** Accruals by kind then denom, each with Σ claimable (accrued + pending) over its entries. */
  const accruals = statement('once', async (sql, assetId: string): Promise<AccrualRow[]> => {
    return sql.rows<AccrualRow>(
      `SELECT a.kind_id, a.denom, a.index, a.carry_scaled, a.total_distributed, a.total_paid, a.distributions_count, a.module_held, a.updated_height,
              COALESCE((SELECT sum(c.accrued + ${PENDING_SQL('c', 'a')}) FROM ${t.claimables} c WHERE c.accrual_id = a.id), 0) AS sum_claimable
       FROM ${t.accruals} a WHERE a.asset_id = $1 ORDER BY a.kind_id, a.denom`,
      [assetId],
    );
  });

  /**
   * /v1/assets/{id}/graph in one statement: the asset's status, its kinds, and per kind the
   * top `perKind` holders (units > 0) by units desc, holder asc; undefined when there is no
   * such asset.
   */
  const graph = statement(
    'once',
    async (sql, assetId: string, perKind: number): Promise<AssetGraphRead | undefined> => {
      return sql.one<AssetGraphRead>(
        `SELECT a.status,
              ${jsonList(`SELECT kind_id, kind_class, supply::text, holder_count FROM ${t.kinds} WHERE asset_id = a.id`, 'x.kind_id')} AS kinds,
              ${jsonList(
                `SELECT k.kind_id, h.holder, h.units::text, h.locked::text, h.locks
                 FROM ${t.kinds} k
                 CROSS JOIN LATERAL (
                   SELECT holder, units, locked, locks FROM ${t.holdings}
                   WHERE kind_ref = k.id AND units > 0 ORDER BY units DESC, holder ASC LIMIT ${limitLiteral(perKind)}
                 ) h
                 WHERE k.asset_id = a.id`,
                'x.kind_id, x.units::numeric DESC, x.holder ASC',
              )} AS holders
       FROM ${t.assets} a WHERE a.id = $1`,
        [assetId],
      );
    },
  );

  /**
   * A page of one kind's holders after the keyset (units, holder), in (units desc, holder
   * asc) order, with the asset's status, whether the kind exists, and the encumbrances the
   * page's locks refer to: one statement; undefined when there is no such asset.
   */
  const holdersPage = statement(
    'page', // the (kind_ref, units) index serves both the filter and the order
    async (
      sql,
      assetId: string,
      kindId: number,
      after: [bigint, string] | null,
      n: number,
    ): Promise<HoldersPageRead | undefined> => {
      const p = new SqlParams();
      const asset = p.add(assetId);
      const kindRef = p.add(`${assetId}-${kindId}`);
      const conditions = holdersKeyset(p, kindRef, after);
      const limit = sql.limit(p, n);
      return sql.one<HoldersPageRead>(
        `WITH page AS (SELECT holder, units, locked, locks FROM ${t.holdings} WHERE ${conditions.join(' AND ')} ORDER BY units DESC, holder ASC LIMIT ${limit})
       SELECT a.status,
              EXISTS (SELECT 1 FROM ${t.kinds} WHERE id = ${kindRef}) AS "kindExists",
              ${jsonList('SELECT holder, units::text, locked::text, locks FROM page', 'x.units::numeric DESC, x.holder ASC')} AS holders,
              ${jsonList(
                `SELECT id, kind, beneficiary, units::text, status, expiry::text, holder_release_after::text FROM ${t.encumbrances}
                 WHERE id IN (SELECT substring(l.value ->> 'ref' FROM ${p.add(ENCUMBRANCE_REF_PATTERN)})
                              FROM page, jsonb_array_elements(coalesce(page.locks, '[]')) l)`,
                'x.id',
              )} AS encumbrances
       FROM ${t.assets} a WHERE a.id = ${asset}`,
        p.values,
      );
    },
  );

  /**
   * `holdersPage` as it answered when the index stood at `height` (a height in the kept range,
   * http/height.ts checkHeight). Holdings and encumbrances
   * are their state at H (db/at-height.ts); the page is one ordered, limited scan per branch with
   * the keyset inside, never an OFFSET. An asset created after H is not there.
   */
  const holdersPageAt = statement(
    'page', // each branch walks its (kind_ref, units) index
    async (
      sql,
      assetId: string,
      kindId: number,
      after: [bigint, string] | null,
      n: number,
      height: number,
    ): Promise<HoldersPageRead | undefined> => {
      const p = new SqlParams();
      const asset = p.add(assetId);
      const kindRef = p.add(`${assetId}-${kindId}`);
      const h = p.add(height);
      const conditions = holdersKeyset(p, kindRef, after).join(' AND ');
      const limit = sql.limit(p, n);
      const order = 'ORDER BY units DESC, holder ASC';
      return sql.one<HoldersPageRead>(
        `WITH page AS (
          SELECT holder, units, locked, locks FROM (
            (SELECT holder, units, locked, locks FROM ${t.holdings}
              WHERE ${conditions} AND ${currentAt(h)} ${order} LIMIT ${limit})
            UNION ALL
            (SELECT holder, units, locked, locks FROM ${t.holdingVersions}
              WHERE ${conditions} AND ${versionAt(h)} ${order} LIMIT ${limit})
          ) b ${order} LIMIT ${limit}),
        refs AS (SELECT substring(l.value ->> 'ref' FROM ${p.add(ENCUMBRANCE_REF_PATTERN)}) AS id
                 FROM page, jsonb_array_elements(coalesce(page.locks, '[]')) l)
       SELECT a.status,
              EXISTS (SELECT 1 FROM ${t.kinds} WHERE id = ${kindRef}) AS "kindExists",
              ${jsonList('SELECT holder, units::text, locked::text, locks FROM page', 'x.units::numeric DESC, x.holder ASC')} AS holders,
              ${jsonList(
                `SELECT id, kind, beneficiary, units::text, status, expiry::text, holder_release_after::text FROM ${t.encumbrances}
                 WHERE id IN (SELECT id FROM refs) AND ${currentAt(h)}
                 UNION ALL
                 SELECT "of" AS id, kind, beneficiary, units::text, status, expiry::text, holder_release_after::text FROM ${t.encumbranceVersions}
                 WHERE "of" IN (SELECT id FROM refs) AND ${versionAt(h)}`,
                'x.id',
              )} AS encumbrances
       FROM ${t.assets} a WHERE a.id = ${asset} AND a.created_height <= ${h}`,
        p.values,
      );
    },
  );

  /** Up to n distributions of the asset below `belowSeq`, newest first, with the asset's status (one statement); undefined when there is no such asset. */
  const distributions = statement(
    'page', // the (asset_id, seq) index serves both
    async (
      sql,
      assetId: string,
      belowSeq: bigint | null,
      n: number,
    ): Promise<AssetScoped<DistributionRow> | undefined> => {
      const p = new SqlParams();
      const conditions = [`asset_id = ${p.add(assetId)}`];
      if (belowSeq !== null) conditions.push(`seq < ${p.add(belowSeq.toString())}`);
      const limit = sql.limit(p, n);
      const page = `SELECT seq, height, tx_index, event_index, kind_id, denom, payer, amount, supply, new_index, carry_scaled, tx_hash, block_time
       FROM ${t.distributions} WHERE ${conditions.join(' AND ')} ORDER BY seq DESC LIMIT ${limit}`;
      return splitAssetScoped(
        await sql.rows<DistributionRow & { asset_status: string }>(
          assetScopedSql(t, p, assetId, page, 'r.seq DESC'),
          p.values,
        ),
      );
    },
  );

  /**
   * /v1/assets/{id}/liquidation in one statement: the asset's status, its waterfall tiers,
   * its liquidation record (at most one) and its redemption pools by kind then denom;
   * undefined when there is no such asset.
   */
  const liquidationRead = statement('once', async (sql, assetId: string): Promise<LiquidationRead | undefined> => {
    const row = await sql.one<Omit<LiquidationRead, 'liquidation'> & { liquidation: LiquidationRow[] }>(
      `SELECT a.status,
              (SELECT tiers FROM ${t.waterfalls} WHERE id = a.id) AS tiers,
              ${jsonList(`SELECT denom, proceeds::text, surplus::text, started_height, started_at::text, completed_height FROM ${t.liquidations} WHERE id = a.id`, 'x.denom')} AS liquidation,
              ${jsonList(`SELECT kind_id, denom, amount::text, units_outstanding::text FROM ${t.redemptionPools} WHERE asset_id = a.id`, 'x.kind_id, x.denom')} AS pools
       FROM ${t.assets} a WHERE a.id = $1`,
      [assetId],
    );
    return row && { ...row, liquidation: row.liquidation[0] };
  });

  return {
    list,
    detail,
    accruals,
    graph,
    holdersPage,
    holdersPageAt,
    distributions,
    liquidationRead,
  };
}

export type AssetRepository = ReturnType<typeof createAssetRepository>;
