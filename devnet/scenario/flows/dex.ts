/**
 * DEX: the community and equity issuers open constant-product pools of their
 * whole bundles against the stable denom (the lender and desk price from
 * them); swaps in both directions follow here and in the background.
 */
import type { Actor } from '../accounts';
import type { Ctx, LaunchedAsset } from '../context';
import { script, type Flow } from '../flow';
import * as msg from '../messages';
import { WHOLE } from './util';

export const POOLED_ASSETS = ['community', 'equity'];

function bundleKinds(asset: LaunchedAsset): number[] {
  return Array.from({ length: asset.kindCount }, (_, k) => k);
}

/**
 * The stable side of each pool: deep enough that the lender's and the desk's share of it
 * (LENDER_MAX_POOL_SHARE_BPS, DESK_MAX_POOL_SHARE_BPS, 10 %) leaves room for an outside
 * borrower's largest principal and a trade at the desk's cap beside the scenario's own.
 */
export const POOL_QUOTE = 200_000n * WHOLE;

async function createPool(ctx: Ctx, key: string): Promise<'wait' | void> {
  const asset = ctx.issuedAsset(key);
  if (!asset) return 'wait';
  const kinds = bundleKinds(asset);
  // 0.50 to 3.00 units of the stable denom per whole unit
  const base = (POOL_QUOTE * 100n) / BigInt(ctx.rng.int(50, 300));
  if (ctx.availableBundles(asset.issuer.address, asset.assetId, kinds) < base) return 'wait';
  const quote = POOL_QUOTE;
  kinds.forEach((k) => ctx.reserveUnits(asset.issuer.address, asset.assetId, k, base));
  ctx.reserveCoins(asset.issuer.address, ctx.config.stableDenom, quote);
  await ctx.submit(asset.issuer, [
    msg.createPool(asset.issuer.address, asset.assetId, ctx.config.stableDenom, base, quote),
  ]);
}

/**
 * The chance that a swap sells the asset. Live, the traders lean against the pool's move away
 * from its launch price, as arbitrage against a fair value does, so the price walks around it:
 * with an even coin, sells are capped by what the traders still hold while buys grow with the
 * pool's stable side, and the default world's main equity drifted to 47× its price in an hour
 * of 150 ms blocks (`npm run soak:services`), filling every cap the services value it by. With
 * x·y = k and no fee, quote / POOL_QUOTE is √(price / launch price): at 1.2 (the price ×1.44)
 * four swaps in five sell. The history keeps the even coin, so its blocks stay as recorded.
 */
export function sellChance(quoteReserve: bigint, live: boolean): number {
  if (!live) return 0.5;
  const lean = 1.5 * Math.log(Number(quoteReserve) / Number(POOL_QUOTE));
  return Math.min(0.9, Math.max(0.1, 0.5 + lean));
}

/**
 * Live, a sell is made by a holder who can deliver it: `trader` when it holds `cap` bundles it
 * may move, else the holder who holds the most. Buys are paid from stable balances that never
 * run short, so with sells capped by the one trader's own stock the flow's value leaned to
 * buying whatever the lean said (bench/world-flow.ts); the holders together hold the stock.
 */
function sellerOf(ctx: Ctx, trader: Actor, assetId: string, kinds: number[], cap: bigint): Actor {
  let best = trader;
  let most = ctx.availableBundles(trader.address, assetId, kinds);
  if (most >= cap) return trader;
  for (const h of ctx.cast.holders) {
    const have = ctx.availableBundles(h.address, assetId, kinds);
    if (have > most) [best, most] = [h, have];
  }
  return best;
}

/** A swap of a small part of what the trader can give; false when it cannot trade this pool now. */
export async function trySwap(ctx: Ctx, trader: Actor, key: string): Promise<boolean> {
  const asset = ctx.issuedAsset(key);
  const pool = asset && ctx.view.pool(asset.assetId, ctx.config.stableDenom);
  if (!asset || !pool || pool.base === 0n || pool.quote === 0n) return false;
  // one swap per pool per block keeps the 5 % slippage guard meaningful
  if (!ctx.claimOnce(`swap:${key}`)) return false;
  const sellBase = ctx.rng.chance(sellChance(pool.quote, ctx.config.live));
  const kinds = bundleKinds(asset);
  if (sellBase && ctx.config.live) trader = sellerOf(ctx, trader, asset.assetId, kinds, pool.base / 50n);
  const have = sellBase
    ? ctx.availableBundles(trader.address, asset.assetId, kinds)
    : ctx.availableCoins(trader.address, ctx.config.stableDenom);
  // at most 2 % of the pool's side, so the price moves without draining it
  const cap = (sellBase ? pool.base : pool.quote) / 50n;
  const limit = have < cap ? have : cap;
  if (limit < 1000n) return false;
  const amount = ctx.rng.bigint(limit / 10n + 1n, limit);
  const out = sellBase ? (pool.quote * amount) / (pool.base + amount) : (pool.base * amount) / (pool.quote + amount);
  if (out === 0n) return false;
  if (sellBase) kinds.forEach((k) => ctx.reserveUnits(trader.address, asset.assetId, k, amount));
  else ctx.reserveCoins(trader.address, ctx.config.stableDenom, amount);
  // slippage guard of 5 %: earlier swaps of the same block may move the price
  await ctx.submit(trader, [msg.swap(trader.address, pool.poolId, sellBase, amount, (out * 95n) / 100n)]);
  return true;
}

export function dexFlow(): Flow {
  return script('dex', {}, [
    (ctx) => createPool(ctx, 'community'),
    (ctx) => createPool(ctx, 'equity'),
    async (ctx) => {
      for (const trader of ctx.cast.holders.slice(0, 2)) await trySwap(ctx, trader, 'community');
    },
  ]);
}
