/**
 * waterfall: liquidation of an asset through priority tiers into redemption
 * pools, and funded redemption pools of REDEMPTION kinds.
 *
 * MsgLiquidate (issuer or operator, asset ACTIVE, waterfall set): the asset
 * becomes LIQUIDATING; every PENDING settlement with a right leg of it is
 * cancelled (reason LIQUIDATION, cancelled_by = the waterfall module
 * account); the proceeds pay the tiers in rank order (owed = claim_per_unit ×
 * supply) into each tier kind's pool; the rest is surplus left in the module.
 * MsgRedeem burns units for floor(pool × units / units_outstanding). When
 * every tier kind's supply is 0 the asset is LIQUIDATED (final).
 * One pool per (asset, kind); its denom is fixed by the first funding.
 */
import type { KvReader } from '../store';
import { Env, emitTyped, moduleAccount, nonNegativeAmount, positiveAmount, requireAddress } from '../env';
import { waterfallErrors } from '../errors';
import {
  AssetRec,
  ASSET_ACTIVE,
  ASSET_LIQUIDATED,
  ASSET_LIQUIDATING,
  requireAsset,
  requireKind,
  setAssetStatus,
  saveAsset,
} from './asset-state';
import * as rights from './rights';
import { parseCoin, send } from './bank';
import { cancelForLiquidation } from './settlement';

export interface TierRec {
  rank: number;
  kind_id: number;
  claim_per_unit: bigint;
}

export interface TierPaymentRec {
  rank: number;
  kind_id: number;
  owed: bigint;
  paid: bigint;
  cumulative_paid: bigint;
}

export interface PoolRec {
  kind_id: number;
  denom: string;
  amount: bigint;
  units_outstanding: bigint;
}

export interface LiquidationRec {
  authority: string;
  denom: string;
  proceeds: bigint;
  payments: TierPaymentRec[];
  surplus: bigint;
  started_height: number;
  completed: boolean;
}

const WATERFALL_MODULE = 'waterfall';
const tiersKey = (a: string) => `waterfall/tiers/${a}`;
const liquidationKey = (a: string) => `waterfall/liquidation/${a}`;
const poolParent = (a: string) => `waterfall/pool/${a}/`;
const poolKey = (a: string, k: number) => `${poolParent(a)}${String(k).padStart(10, '0')}`;

export function getTiers(kv: KvReader, a: string): TierRec[] {
  return kv.get<TierRec[]>(tiersKey(a)) ?? [];
}

export function getLiquidation(kv: KvReader, a: string): LiquidationRec | undefined {
  return kv.get<LiquidationRec>(liquidationKey(a));
}

export function getPool(kv: KvReader, a: string, k: number): PoolRec | undefined {
  return kv.get<PoolRec>(poolKey(a, k));
}

export function listPools(kv: KvReader, a: string): PoolRec[] {
  return kv.keys(poolParent(a)).map((key) => kv.get<PoolRec>(key)!);
}

function requireIssuer(asset: AssetRec, sender: string): void {
  if (sender !== asset.issuer) throw waterfallErrors.unauthorized(`${sender} is not the issuer`);
}

/** Adds coins to a kind's pool and resets units_outstanding to the kind's supply. */
function fundPool(env: Env, asset: AssetRec, kindId: number, denom: string, amount: bigint): PoolRec {
  const existing = getPool(env.kv, asset.asset_id, kindId);
  if (existing && existing.denom !== denom)
    throw waterfallErrors.denomMismatch(`pool of kind ${kindId} is in ${existing.denom}`);
  const pool: PoolRec = {
    kind_id: kindId,
    denom,
    amount: (existing?.amount ?? 0n) + amount,
    units_outstanding: rights.getSupply(env.kv, asset.asset_id, kindId).supply,
  };
  env.kv.set(poolKey(asset.asset_id, kindId), pool);
  return pool;
}

/** Pays the tiers in rank order; returns the payments and the surplus. */
function payTiers(
  env: Env,
  asset: AssetRec,
  tiers: TierRec[],
  denom: string,
  proceeds: bigint,
): { payments: TierPaymentRec[]; surplus: bigint } {
  let remaining = proceeds;
  let cumulative = 0n;
  const payments = tiers.map((tier) => {
    const owed = tier.claim_per_unit * rights.getSupply(env.kv, asset.asset_id, tier.kind_id).supply;
    const paid = owed < remaining ? owed : remaining;
    remaining -= paid;
    cumulative += paid;
    fundPool(env, asset, tier.kind_id, denom, paid);
    return { rank: tier.rank, kind_id: tier.kind_id, owed, paid, cumulative_paid: cumulative };
  });
  return { payments, surplus: remaining };
}

/** LIQUIDATING → LIQUIDATED once every tier kind's supply is 0. */
function completeIfRedeemed(env: Env, asset: AssetRec): void {
  if (asset.status !== ASSET_LIQUIDATING) return;
  const tiers = getTiers(env.kv, asset.asset_id);
  if (tiers.some((t) => rights.getSupply(env.kv, asset.asset_id, t.kind_id).supply > 0n)) return;
  const liquidation = getLiquidation(env.kv, asset.asset_id);
  if (liquidation) env.kv.set(liquidationKey(asset.asset_id), { ...liquidation, completed: true });
  emitTyped(env, 'svc.waterfall.v1.EventLiquidationCompleted', { asset_id: asset.asset_id });
  setAssetStatus(env, asset, ASSET_LIQUIDATED);
}

// ------------------------------------------------------------------ messages

export function handleSetWaterfall(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const issuer = requireAddress(env, msg.issuer, 'issuer');
  const asset = requireAsset(env.kv, msg.asset_id);
  requireIssuer(asset, issuer);
  if (asset.status !== ASSET_ACTIVE) throw waterfallErrors.assetNotActive(asset.status);
  const tiers = ((msg.tiers as Record<string, unknown>[]) ?? []).map((t) => ({
    rank: Number(t.rank ?? 0),
    kind_id: requireKind(asset, t.kind_id).kind_id,
    claim_per_unit: nonNegativeAmount(t.claim_per_unit, waterfallErrors.invalidTiers),
  }));
  if (tiers.length === 0) throw waterfallErrors.invalidTiers('at least one tier');
  if (new Set(tiers.map((t) => t.rank)).size !== tiers.length)
    throw waterfallErrors.invalidTiers('ranks must be unique');
  if (new Set(tiers.map((t) => t.kind_id)).size !== tiers.length)
    throw waterfallErrors.invalidTiers('kinds must be unique');
  tiers.sort((x, y) => x.rank - y.rank);
  env.kv.set(tiersKey(asset.asset_id), tiers);
  saveAsset(env, asset);
  emitTyped(env, 'svc.waterfall.v1.EventWaterfallSet', { asset_id: asset.asset_id, tiers });
  return {};
}

export function handleLiquidate(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const authority = requireAddress(env, msg.authority, 'authority');
  let asset = requireAsset(env.kv, msg.asset_id);
  if (authority !== asset.issuer && authority !== asset.roles.operator)
    throw waterfallErrors.unauthorized('issuer or operator only');
  if (asset.status !== ASSET_ACTIVE) throw waterfallErrors.assetNotActive(asset.status);
  const tiers = getTiers(env.kv, asset.asset_id);
  if (tiers.length === 0) throw waterfallErrors.noWaterfall(asset.asset_id);
  const proceeds = parseCoin(msg.proceeds, waterfallErrors.invalidAmount);
  const waterfallAccount = moduleAccount(env.config, WATERFALL_MODULE);
  send(env, authority, waterfallAccount, [proceeds]);
  asset = setAssetStatus(env, asset, ASSET_LIQUIDATING);
  cancelForLiquidation(env, asset, waterfallAccount);
  const { payments, surplus } = payTiers(env, asset, tiers, proceeds.denom, proceeds.amount);
  env.kv.set(liquidationKey(asset.asset_id), {
    authority,
    denom: proceeds.denom,
    proceeds: proceeds.amount,
    payments,
    surplus,
    started_height: env.height,
    completed: false,
  });
  emitTyped(env, 'svc.waterfall.v1.EventLiquidationStarted', {
    asset_id: asset.asset_id,
    authority,
    denom: proceeds.denom,
    proceeds: proceeds.amount,
    tiers: payments,
    pools_after: listPools(env.kv, asset.asset_id),
    surplus,
  });
  completeIfRedeemed(env, asset);
  return {};
}

export function handleFundRedemption(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const issuer = requireAddress(env, msg.issuer, 'issuer');
  const asset = requireAsset(env.kv, msg.asset_id);
  requireIssuer(asset, issuer);
  const kind = requireKind(asset, msg.kind_id);
  if (kind.class !== 'KIND_CLASS_REDEMPTION')
    throw waterfallErrors.notRedemptionKind(`kind ${kind.kind_id} is ${kind.class}`);
  const coin = parseCoin(msg.amount, waterfallErrors.invalidAmount);
  if (rights.getSupply(env.kv, asset.asset_id, kind.kind_id).supply === 0n)
    throw waterfallErrors.invalidAmount('kind has no supply');
  send(env, issuer, moduleAccount(env.config, WATERFALL_MODULE), [coin]);
  const pool = fundPool(env, asset, kind.kind_id, coin.denom, coin.amount);
  emitTyped(env, 'svc.waterfall.v1.EventRedemptionFunded', {
    asset_id: asset.asset_id,
    kind_id: kind.kind_id,
    issuer,
    denom: coin.denom,
    amount: coin.amount,
    pool_after: pool,
  });
  return {};
}

export function handleRedeem(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const holder = requireAddress(env, msg.holder, 'holder');
  const asset = requireAsset(env.kv, msg.asset_id);
  const kind = requireKind(asset, msg.kind_id);
  const units = positiveAmount(msg.units, waterfallErrors.invalidAmount);
  const pool = getPool(env.kv, asset.asset_id, kind.kind_id);
  if (!pool || pool.units_outstanding === 0n) throw waterfallErrors.noPool(`${asset.asset_id}/${kind.kind_id}`);
  if (units > pool.units_outstanding) throw waterfallErrors.invalidAmount('more units than outstanding');
  const amount = (pool.amount * units) / pool.units_outstanding;
  rights.burn(env, asset.asset_id, kind.kind_id, holder, units);
  const poolAfter = { ...pool, amount: pool.amount - amount, units_outstanding: pool.units_outstanding - units };
  env.kv.set(poolKey(asset.asset_id, kind.kind_id), poolAfter);
  if (amount > 0n) send(env, moduleAccount(env.config, WATERFALL_MODULE), holder, [{ denom: pool.denom, amount }]);
  emitTyped(env, 'svc.waterfall.v1.EventRedeemed', {
    asset_id: asset.asset_id,
    kind_id: kind.kind_id,
    holder,
    units,
    denom: pool.denom,
    amount,
    supply_after: rights.getSupply(env.kv, asset.asset_id, kind.kind_id).supply,
    pool_after: poolAfter,
    positions_after: [rights.positionAfter(env.kv, asset.asset_id, kind.kind_id, holder)],
  });
  completeIfRedeemed(env, requireAsset(env.kv, asset.asset_id));
  return {};
}
