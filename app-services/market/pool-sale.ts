/**
 * One slice of a holding sold back into the asset's own pool: the desk's excess inventory
 * (desk/inventory.ts) and the units the lender seized in a liquidation (lender/worker.ts,
 * "recover"). Pure.
 *
 * - A slice moves the pool's price by at most `impactBps`: for x·y = k, selling Δ into a
 *   base reserve B moves the price by (B / (B + Δ))², so Δ = B × bps / 20,000 stays within it.
 * - Nothing is sold while spot is below the twap by more than the market's divergence bound:
 *   a seller never sells into a dump (one an attacker holds for the block it looks).
 * - Its min_out is what the pool pays now less twice the impact bound: the price may move in
 *   the swap's own block, never by more than that before the swap fails instead.
 */
const BPS = 10_000n;

/** The pool as the slice is judged: the market's price reading (market/price-oracle.ts MarketPrice). */
export interface PoolState {
  twap: bigint;
  spot: bigint;
  baseReserve: bigint;
  quoteReserve: bigint;
}

export interface SliceRule {
  /** the most one slice may move the pool's price, basis points */
  impactBps: number;
  /** PRICE_MAX_DIVERGENCE_BPS: spot this far below the twap is a dump, not a price to sell at */
  maxDivergenceBps: number;
}

export interface Sale {
  /** whole-bundle base units to sell */
  units: bigint;
  /** what the pool pays for them now (x·y = k, no fee) */
  expected: bigint;
  /** the swap's min_out: what it pays less twice the impact bound */
  minOut: bigint;
}

/** True when spot is below the twap by more than the divergence bound: the pool is being dumped. */
export function inDump(pool: Pick<PoolState, 'spot' | 'twap'>, maxDivergenceBps: number): boolean {
  return pool.spot < pool.twap && ((pool.twap - pool.spot) * BPS) / pool.twap > BigInt(maxDivergenceBps);
}

/** The most of `wanted` units one slice sells now, or null when nothing may be sold (no pool, a dump, nothing wanted). */
export function poolSlice(wanted: bigint, pool: PoolState, rule: SliceRule): Sale | null {
  if (pool.twap <= 0n || pool.baseReserve <= 0n || pool.quoteReserve <= 0n) return null;
  if (inDump(pool, rule.maxDivergenceBps)) return null;
  const slice = (pool.baseReserve * BigInt(rule.impactBps)) / (2n * BPS);
  const units = wanted < slice ? wanted : slice;
  if (units <= 0n) return null;
  const expected = (pool.quoteReserve * units) / (pool.baseReserve + units);
  if (expected === 0n) return null;
  return { units, expected, minOut: (expected * (BPS - 2n * BigInt(rule.impactBps))) / BPS };
}
