/**
 * svc.waterfall.v1: liquidation of an asset through ranked tiers into
 * redemption pools, and redemption (burning) of units against those pools.
 */
import { Liquidation, RedemptionPool, Waterfall } from '../../types';
import type {
  EventLiquidationCompleted,
  EventLiquidationStarted,
  EventRedeemed,
  EventRedemptionFunded,
  EventWaterfallSet,
  RedemptionPool as PoolJson,
  TierPayment as TierPaymentJson,
} from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, subjectAccount, subjectAsset } from '../infra/context';
import { expectEqual } from '../entities/drift';
import { requireEntity, update } from '../entities/entity';
import { changeSupply, changeUnits, checkPositionsAfter } from '../domain/positions';
import { getKind, requireKind } from '../entities/holdings';
import {
  completeLiquidation,
  getLiquidation,
  getRedemptionPool,
  getWaterfall,
  recordTierPaid,
  setTiers,
  startLiquidation,
  type StoredTier,
  tiersOf,
} from '../entities/waterfall';
import { big, int, str } from '../infra/values';

async function checkPoolAfter(
  ctx: EventCtx<unknown>,
  p: RedemptionPool,
  after: PoolJson | null | undefined,
): Promise<void> {
  if (!after) return;
  await expectEqual(ctx, 'RedemptionPool', p.id, 'amount', after.amount, p.amount);
  await expectEqual(ctx, 'RedemptionPool', p.id, 'units_outstanding', after.units_outstanding, p.unitsOutstanding);
}

export async function handleWaterfallSet(ctx: EventCtx<EventWaterfallSet>): Promise<void> {
  const e = ctx.decoded;
  const tiers: StoredTier[] = [...(e.tiers ?? [])]
    .sort((a, b) => int(a.rank) - int(b.rank))
    .map((t) => ({
      rank: int(t.rank),
      kind_id: int(t.kind_id),
      claim_per_unit: str(t.claim_per_unit),
      owed: '0',
      paid: '0',
      cumulative_paid: '0',
    }));
  setTiers(ctx, await getWaterfall(ctx, e.asset_id), tiers);
  subjectAsset(ctx, e.asset_id);
}

/** Tier payments checked against the waterfall (owed = claim_per_unit x supply, running cumulative) and stored on it. */
async function applyTierPayments(
  ctx: EventCtx<unknown>,
  assetId: string,
  payments: readonly TierPaymentJson[],
): Promise<void> {
  const w = await requireEntity(ctx, Waterfall, 'Waterfall', assetId);
  if (!w) return;
  const tiers = tiersOf(w);
  let cumulative = 0n;
  for (const p of payments) {
    const tier = tiers.find((t) => t.rank === int(p.rank));
    const supply = (await getKind(assetId, int(p.kind_id)))?.supply ?? 0n;
    cumulative += big(p.paid);
    const tierId = `${assetId}#${int(p.rank)}`;
    if (tier) await expectEqual(ctx, 'Waterfall', tierId, 'owed', p.owed, big(tier.claim_per_unit) * supply);
    await expectEqual(ctx, 'Waterfall', tierId, 'cumulative_paid', p.cumulative_paid, cumulative);
    if (tier) recordTierPaid(tier, { owed: str(p.owed), paid: str(p.paid), cumulative_paid: cumulative.toString() });
  }
  setTiers(ctx, w, [...tiers]);
}

export async function handleWaterfallLiquidationStarted(ctx: EventCtx<EventLiquidationStarted>): Promise<void> {
  const e = ctx.decoded;
  const payments = e.tiers ?? [];
  await applyTierPayments(ctx, e.asset_id, payments);
  for (const p of payments) {
    const target = await getRedemptionPool(ctx, e.asset_id, int(p.kind_id), e.denom);
    const supply = (await getKind(e.asset_id, int(p.kind_id)))?.supply;
    update(ctx, target, { amount: target.amount + big(p.paid), unitsOutstanding: supply ?? target.unitsOutstanding });
  }
  for (const after of e.pools_after ?? []) {
    await checkPoolAfter(ctx, await getRedemptionPool(ctx, e.asset_id, int(after.kind_id), after.denom), after);
  }
  startLiquidation(ctx, await getLiquidation(ctx, e.asset_id));
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.authority);
}

export async function handleWaterfallRedemptionFunded(ctx: EventCtx<EventRedemptionFunded>): Promise<void> {
  const e = ctx.decoded;
  const p = await getRedemptionPool(ctx, e.asset_id, int(e.kind_id), e.denom);
  update(ctx, p, { amount: p.amount + big(e.amount) });
  await checkPoolAfter(ctx, p, e.pool_after);
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.issuer);
}

export async function handleWaterfallRedeemed(ctx: EventCtx<EventRedeemed>): Promise<void> {
  const e = ctx.decoded;
  const kindId = int(e.kind_id);
  const units = big(e.units);
  const p = await getRedemptionPool(ctx, e.asset_id, kindId, e.denom);
  // payout = amount * units / units_outstanding (floor), against the pool before this redemption
  const expected = p.unitsOutstanding > 0n ? (p.amount * units) / p.unitsOutstanding : 0n;
  await expectEqual(ctx, 'RedemptionPool', p.id, 'payout', e.amount, expected);
  update(ctx, p, { amount: p.amount - big(e.amount), unitsOutstanding: p.unitsOutstanding - units });
  await changeUnits(ctx, e.asset_id, kindId, e.holder, -units);
  const kind = await requireKind(ctx, e.asset_id, kindId);
  if (kind) {
    changeSupply(ctx, kind, -units);
    await expectEqual(ctx, 'Kind', kind.id, 'supply', e.supply_after, kind.supply);
  }
  await checkPoolAfter(ctx, p, e.pool_after);
  await checkPositionsAfter(ctx, e.positions_after);
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.holder);
}

export async function handleWaterfallLiquidationCompleted(ctx: EventCtx<EventLiquidationCompleted>): Promise<void> {
  const e = ctx.decoded;
  const record = await requireEntity(ctx, Liquidation, 'Liquidation', e.asset_id);
  if (record) completeLiquidation(ctx, record);
  subjectAsset(ctx, e.asset_id);
}

/** waterfall: typed event type → handler. */
export const waterfallHandlers: HandlerTable = {
  events: {
    'svc.waterfall.v1.EventWaterfallSet': handleWaterfallSet,
    'svc.waterfall.v1.EventLiquidationStarted': handleWaterfallLiquidationStarted,
    'svc.waterfall.v1.EventRedemptionFunded': handleWaterfallRedemptionFunded,
    'svc.waterfall.v1.EventRedeemed': handleWaterfallRedeemed,
    'svc.waterfall.v1.EventLiquidationCompleted': handleWaterfallLiquidationCompleted,
  },
};
