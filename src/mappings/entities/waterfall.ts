/** Waterfall, RedemptionPool and Liquidation rows, one of each per asset (pools per kind and denom). */
import { Liquidation, RedemptionPool, Waterfall } from '../../types';
import { load, put } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';
import { getKind } from './holdings';

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
