/**
 * The desk's prices (docs/app-services.md, "Trade desk"), in exact integers: base units of
 * the stable denom per whole unit (10^decimals base units).
 *
 * The whole-share mid is the DEX pool price. A kind's mid is its class's share of it,
 * weighted over the classes the asset has (ECONOMIC 60, INCOME 30, VOTE 10, REDEMPTION 60),
 * so an equity asset's kinds are 60 % / 30 % / 10 % and the kinds of any asset add up to
 * the whole share. Bid = mid − 2 % (rounded down), ask = mid + 2 % (rounded up).
 */

export const CLASS_WEIGHTS: Record<string, bigint> = { ECONOMIC: 60n, INCOME: 30n, VOTE: 10n, REDEMPTION: 60n };
export const SPREAD_BPS = 200n;
const BPS = 10_000n;
/** kind -1: a whole share, one unit of every kind */
export const WHOLE_SHARE = -1;

export interface KindInfo {
  kind_id: number;
  class: string;
  decimals: number;
}

/** The mid of each kind from the whole-share mid. */
export function kindMids(wholeMid: bigint, kinds: readonly KindInfo[]): Map<number, bigint> {
  const total = kinds.reduce((sum, k) => sum + (CLASS_WEIGHTS[k.class] ?? 0n), 0n);
  const mids = new Map<number, bigint>();
  for (const k of kinds) mids.set(k.kind_id, total === 0n ? 0n : (wholeMid * (CLASS_WEIGHTS[k.class] ?? 0n)) / total);
  return mids;
}

export const bidOf = (mid: bigint) => (mid * (BPS - SPREAD_BPS)) / BPS;
export const askOf = (mid: bigint) => (mid * (BPS + SPREAD_BPS) + BPS - 1n) / BPS;

/** What `units` base units cost at `pricePerWhole`: rounded down when the desk pays, up when it is paid. */
export function amountFor(pricePerWhole: bigint, units: bigint, decimals: number, deskPays: boolean): bigint {
  const scale = 10n ** BigInt(decimals);
  const exact = pricePerWhole * units;
  return deskPays ? exact / scale : (exact + scale - 1n) / scale;
}
