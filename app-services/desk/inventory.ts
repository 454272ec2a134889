/**
 * The desk's inventory (docs/app-services.md, "Inventory"): what it holds of an asset is
 * brought back to a target by selling the excess into the asset's own pool, a slice at a
 * time, so that the world's flow of sellers never fills its caps (a market maker's
 * inventory rule, as Hummingbot's inventory skew keeps a target base share). Pure: the
 * worker (desk/worker.ts) reads the book and signs the sale.
 *
 * - The holding is measured at what the desk paid for it (its exposure at cost): that is
 *   the room its caps count. What it holds from before DESK_FROM_HEIGHT, or was given, cost
 *   it nothing and is kept: the desk sells only what its own buying brought in, so it never
 *   leans on a pool with stock it did not take from the flow. A price that fell still frees
 *   the room the cost takes; a price that rose does not make it sell.
 * - The target is DESK_INVENTORY_TARGET_BPS of the asset's own room (the lesser of its
 *   position cap for its tier and its pool-share cap), and the same share of the tier's total
 *   cap for the tier's assets together: past the latter, each asset sells its part of the
 *   excess in proportion to its cost; and the same share of the issuer's room
 *   (RISK_MAX_PER_ISSUER, or its community counterpart) for that issuer's assets, which the
 *   lender shares: the desk's flow never takes more than that share of an issuer's room, so
 *   the issuer's borrowers keep the rest. So neither one asset, nor one issuer's, nor all of
 *   them together fill a cap with what the flow brings.
 * - One slice moves the pool's price by at most DESK_REBALANCE_IMPACT_BPS, and nothing is
 *   sold into a dump (market/pool-sale.ts, the rule the lender's recovery sales follow too).
 *   Only whole bundles it may move are sold, never more than the excess.
 */
import { poolSlice, type Sale } from '../market/pool-sale';

export type { Sale } from '../market/pool-sale';

const BPS = 10_000n;

export interface InventoryRule {
  /** DESK_INVENTORY_TARGET_BPS */
  targetBps: number;
  /** DESK_REBALANCE_IMPACT_BPS */
  impactBps: number;
}

export interface HoldingState {
  /** the desk's exposure to the asset at cost */
  cost: bigint;
  /** the asset's own room: the lesser of its position cap for its tier and its pool-share cap */
  positionCap: bigint;
  /** the desk's exposure at cost to every asset of the tier, and the tier's total cap */
  tierCost: bigint;
  tierCap: bigint;
  /** the desk's exposure at cost to the issuer's assets of the tier, and the issuer's cap (shared with the lender) */
  issuerCost: bigint;
  issuerCap: bigint;
  /** whole-bundle base units it may move (the least of its movable units over the kinds) */
  movableBundles: bigint;
  /** price per whole bundle at the twap, and the bundle's decimals (market/units.ts) */
  twap: bigint;
  spot: bigint;
  priceDecimals: number;
  baseReserve: bigint;
  quoteReserve: bigint;
  /** PRICE_MAX_DIVERGENCE_BPS */
  maxDivergenceBps: number;
}

/** The excess over the target, in stable base units (0 when within it). */
export function excessOf(
  h: Pick<HoldingState, 'cost' | 'positionCap' | 'tierCost' | 'tierCap' | 'issuerCost' | 'issuerCap'>,
  rule: InventoryRule,
): bigint {
  const target = (h.positionCap * BigInt(rule.targetBps)) / BPS;
  const own = h.cost > target ? h.cost - target : 0n;
  // past a group's target, each of its assets sells its part of the group's excess, in proportion to its cost
  const partOf = (groupCost: bigint, groupCap: bigint) => {
    const groupTarget = (groupCap * BigInt(rule.targetBps)) / BPS;
    return groupCost > groupTarget && groupCost > 0n ? ((groupCost - groupTarget) * h.cost) / groupCost : 0n;
  };
  return [own, partOf(h.tierCost, h.tierCap), partOf(h.issuerCost, h.issuerCap)].reduce((a, b) => (a > b ? a : b));
}

/** The next slice of the excess to sell into the pool, or null when there is none to sell now. */
export function nextSale(h: HoldingState, rule: InventoryRule): Sale | null {
  if (h.twap <= 0n) return null;
  const excess = excessOf(h, rule);
  if (excess === 0n) return null;
  // the bundles the pool pays the excess for now (spot reserves), at least those the twap says
  const whole = 10n ** BigInt(h.priceDecimals);
  const forExcess = (excess * whole) / (h.twap < h.spot ? h.spot : h.twap);
  const wanted = h.movableBundles < forExcess ? h.movableBundles : forExcess;
  return poolSlice(wanted, h, { impactBps: rule.impactBps, maxDivergenceBps: h.maxDivergenceBps });
}
