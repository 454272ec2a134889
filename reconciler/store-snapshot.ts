/**
 * The indexer's side of a reconciliation: one REPEATABLE READ transaction that reads the node's
 * last processed height H and every row the checks need, so all of it is the store as of H
 * (the node commits a batch's entities and its `_metadata` in one transaction).
 */
import type { Pool, PoolClient } from 'pg';
import {
  METADATA_KEY,
  metadataInt,
  readMetadataValue,
  withTransaction,
  type AccrualAnswer,
  type Tables,
} from '../src/store';

export interface IndexedKind {
  kindId: number;
  supply: string;
  holderCount: number;
  holdersSum: string;
  svc20Address: string;
  /** every accrual row of the kind, by denom */
  accruals: AccrualAnswer[];
}

export interface IndexedAsset {
  assetId: string;
  bundleAddress: string;
  /** the asset's distribution allowlist: denoms the chain may hold accruals in */
  distributionDenoms: string[];
  kinds: IndexedKind[];
}

export interface IndexedRouteRow {
  routeId: string;
  direction: string;
  outbound: bigint;
  inbound: bigint;
}

export interface StoreSnapshot {
  height: number;
  assets: IndexedAsset[];
  routes: IndexedRouteRow[];
}

/** The node's last processed height (0 before its first block). */
export async function indexedHeight(pool: Pool | PoolClient, t: Tables): Promise<number> {
  return metadataInt(await readMetadataValue(pool, t.metadata, METADATA_KEY.indexedHeight));
}

interface KindRow {
  asset_id: string;
  kind_id: number;
  supply: string;
  holder_count: number;
  holders_sum: string;
  svc20_address: string;
}

type AccrualRow = AccrualAnswer & { asset_id: string; kind_id: number };

/** The store as of its last processed height, or null before the node's first block. */
export async function readStoreSnapshot(pool: Pool, t: Tables): Promise<StoreSnapshot | null> {
  return withTransaction(
    pool,
    async (client) => {
      const height = await indexedHeight(client, t);
      if (height === 0) return null;
      const assets = await client.query<{ id: string; bundle_address: string; distribution_denoms: string[] | null }>(
        `SELECT id, bundle_address, distribution_denoms FROM ${t.assets} ORDER BY id`,
      );
      const kinds = await client.query<KindRow>(
        `SELECT k.asset_id, k.kind_id, k.supply::text, k.holder_count, k.svc20_address, COALESCE(h.units, 0)::text AS holders_sum
         FROM ${t.kinds} k
         LEFT JOIN (SELECT asset_id, kind_id, sum(units) AS units FROM ${t.holdings} GROUP BY asset_id, kind_id) h
           ON h.asset_id = k.asset_id AND h.kind_id = k.kind_id
         ORDER BY k.asset_id, k.kind_id`,
      );
      const accruals = await client.query<AccrualRow>(
        `SELECT asset_id, kind_id, denom, index::text, carry_scaled::text, module_held::text, total_distributed::text, total_paid::text, distributions_count
         FROM ${t.accruals} ORDER BY asset_id, kind_id, denom`,
      );
      const routes = await client.query<{ id: string; direction: string; outbound: string; inbound: string }>(
        `SELECT id, direction, outbound::text, inbound::text FROM ${t.bridgeRoutes} ORDER BY id`,
      );
      return {
        height,
        assets: assembleAssets(assets.rows, kinds.rows, accruals.rows),
        routes: routes.rows.map((r) => ({
          routeId: r.id,
          direction: r.direction,
          outbound: BigInt(r.outbound),
          inbound: BigInt(r.inbound),
        })),
      };
    },
    'ISOLATION LEVEL REPEATABLE READ READ ONLY',
  );
}

function assembleAssets(
  assets: { id: string; bundle_address: string; distribution_denoms: string[] | null }[],
  kinds: KindRow[],
  accruals: AccrualRow[],
): IndexedAsset[] {
  const byAsset = new Map<string, IndexedAsset>(
    assets.map((a) => [
      a.id,
      { assetId: a.id, bundleAddress: a.bundle_address, distributionDenoms: a.distribution_denoms ?? [], kinds: [] },
    ]),
  );
  const byKind = new Map<string, IndexedKind>();
  for (const k of kinds) {
    const kind: IndexedKind = {
      kindId: k.kind_id,
      supply: k.supply,
      holderCount: k.holder_count,
      holdersSum: k.holders_sum,
      svc20Address: k.svc20_address,
      accruals: [],
    };
    byAsset.get(k.asset_id)?.kinds.push(kind);
    byKind.set(`${k.asset_id}/${k.kind_id}`, kind);
  }
  for (const { asset_id, kind_id, ...accrual } of accruals)
    byKind.get(`${asset_id}/${kind_id}`)?.accruals.push(accrual);
  return [...byAsset.values()];
}
