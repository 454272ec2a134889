/** svc.dex.v1: constant-product pools of an asset's whole bundles against a quote denom. */
import { DexPool } from '../../types';
import type { EventPoolCreated, EventSwapped } from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, subjectAccount, subjectAsset } from '../infra/context';
import { expectEqual } from '../entities/drift';
import { requireEntity, update } from '../entities/entity';
import { requireAsset } from '../entities/assets';
import { checkPositionsAfter, moveUnits } from '../domain/positions';
import { createDexPool } from '../entities/dex';
import { bundleKindIds } from '../entities/holdings';
import { big, str } from '../infra/values';

/** Moves whole bundles (the same units of every bundle kind) between two accounts. */
async function moveBundles(
  ctx: EventCtx<unknown>,
  assetId: string,
  from: string,
  to: string,
  units: bigint,
): Promise<void> {
  const asset = await requireAsset(ctx, assetId);
  if (!asset) return;
  for (const kindId of await bundleKindIds(assetId, asset.kindCount))
    await moveUnits(ctx, assetId, kindId, from, to, units);
}

export async function handleDexPoolCreated(ctx: EventCtx<EventPoolCreated>): Promise<void> {
  const e = ctx.decoded;
  const pool = createDexPool(ctx, e);
  await moveBundles(ctx, e.asset_id, pool.creator, pool.poolAddress, pool.baseReserve);
  await checkPositionsAfter(ctx, e.positions_after);
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.creator);
}

export async function handleDexSwapped(ctx: EventCtx<EventSwapped>): Promise<void> {
  const e = ctx.decoded;
  const pool = await requireEntity(ctx, DexPool, 'DexPool', str(e.pool_id));
  if (pool) {
    const amountIn = big(e.amount_in);
    const amountOut = big(e.amount_out);
    const [baseDelta, quoteDelta] = e.sell_base ? [amountIn, -amountOut] : [-amountOut, amountIn];
    if (e.sell_base) await moveBundles(ctx, pool.assetId, e.trader, pool.poolAddress, amountIn);
    else await moveBundles(ctx, pool.assetId, pool.poolAddress, e.trader, amountOut);
    update(ctx, pool, { baseReserve: pool.baseReserve + baseDelta, quoteReserve: pool.quoteReserve + quoteDelta });
    await expectEqual(ctx, 'DexPool', pool.id, 'base_reserve', e.base_reserve_after, pool.baseReserve);
    await expectEqual(ctx, 'DexPool', pool.id, 'quote_reserve', e.quote_reserve_after, pool.quoteReserve);
  }
  await checkPositionsAfter(ctx, e.positions_after);
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.trader);
}

/** dex: typed event type → handler. */
export const dexHandlers: HandlerTable = {
  events: {
    'svc.dex.v1.EventPoolCreated': handleDexPoolCreated,
    'svc.dex.v1.EventSwapped': handleDexSwapped,
  },
};
