/**
 * Waterfall, RedemptionPool and Liquidation rows, one of each per asset (pools per kind and
 * denom): the tiers a waterfall stores, what a liquidation records when it starts and completes.
 */
import { AnyJson, Liquidation, RedemptionPool, Waterfall } from '../../types';
import type { EventLiquidationStarted, Tier as TierJson } from '../generated/proto-json';
import { load, put } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';
import { big, str } from '../infra/values';
import { change, touch } from './entity';
import { getKind } from './holdings';

/** A tier as Waterfall.tiers stores it: the chain's tier and what the last liquidation paid it. */
export interface StoredTier extends TierJson {
  owed: string;
  paid: string;
  cumulative_paid: string;
}

/** What a liquidation paid one tier (decimal strings), as a StoredTier keeps it. */
export type TierPaid = Pick<StoredTier, 'owed' | 'paid' | 'cumulative_paid'>;

/** The kind's redemption pool in `denom`; a new pool is empty and covers the kind's current supply. */
export async function getRedemptionPool(
  ctx: EventCtx<unknown>,
  assetId: string,
  kindId: number,
  denom: string,
): Promise<RedemptionPool> {
  const id = `${assetId}-${kindId}-${denom}`;
  const found = await load(RedemptionPool, id);
  if (found) return found;
  const supply = (await getKind(assetId, kindId))?.supply ?? 0n;
  return put(
    RedemptionPool,
    RedemptionPool.create({
      id,
      assetId,
      kindId,
      denom,
      amount: 0n,
      unitsOutstanding: supply,
      updatedHeight: ctx.height,
    }),
  );
}

/** The asset's waterfall, created without tiers when missing. */
export async function getWaterfall(ctx: EventCtx<unknown>, assetId: string): Promise<Waterfall> {
  return (
    (await load(Waterfall, assetId)) ??
    put(Waterfall, Waterfall.create({ id: assetId, tiers: [], updatedHeight: ctx.height }))
  );
}

/** The asset's liquidation record, created empty (started at the event in hand) when missing. */
export async function getLiquidation(ctx: EventCtx<unknown>, assetId: string): Promise<Liquidation> {
  return (
    (await load(Liquidation, assetId)) ??
    put(
      Liquidation,
      Liquidation.create({
        id: assetId,
        authority: '',
        denom: '',
        proceeds: 0n,
        surplus: 0n,
        tiers: [],
        startedHeight: ctx.height,
        startedTxHash: '',
        startedAt: ctx.blockTime,
      }),
    )
  );
}

/** The waterfall's tiers, in rank order. */
export function tiersOf(w: Waterfall): StoredTier[] {
  return w.tiers as unknown as StoredTier[];
}

/** Replaces the waterfall's tiers. */
export function setTiers(ctx: EventCtx<unknown>, w: Waterfall, tiers: StoredTier[]): void {
  w.tiers = tiers as unknown as AnyJson[];
  touch(ctx, w);
}

/** Records on a tier of `tiersOf` what a liquidation paid it (stored by the next `setTiers`). */
export function recordTierPaid(tier: StoredTier, paid: TierPaid): void {
  Object.assign(tier, paid);
}

/** A liquidation started at the event in hand (a new one replaces the asset's previous record). */
export function startLiquidation(ctx: EventCtx<EventLiquidationStarted>, record: Liquidation): void {
  const e = ctx.decoded;
  change(record, {
    authority: str(e.authority),
    denom: str(e.denom),
    proceeds: big(e.proceeds),
    surplus: big(e.surplus),
    tiers: (e.tiers ?? []) as unknown as AnyJson[],
    startedHeight: ctx.height,
    startedTxHash: str(ctx.txHash),
    startedAt: ctx.blockTime,
    completedHeight: undefined,
  });
}

export function completeLiquidation(ctx: EventCtx<unknown>, record: Liquidation): void {
  change(record, { completedHeight: ctx.height });
}
