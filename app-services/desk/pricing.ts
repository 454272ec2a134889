/**
 * The desk's prices (docs/app-services.md, "Trade desk"), in exact integers: base units of
 * the stable denom per whole unit (10^decimals base units).
 *
 * An asset's instruments are its whole share (one base unit of every kind per base unit,
 * priced per 10^D as the pool prices a bundle: market/units.ts) and each kind, at its class's
 * share of the bundle price. The mid is the time-weighted price (twap), which one trade cannot
 * move. The desk never pays a counterparty more than the pool would, nor sells for less: the
 * bid is 2 % under the lendable price, the lowest of spot, twap and the window's lower median
 * (market/price-oracle.ts `lendablePrice`, the price the lender lends at: a pump held for at
 * most half the window lifts the twap but not the median, so it cannot lift the bid either),
 * rounded down; the ask 2 % over the higher of spot and twap (rounded up). So buying from the
 * pool to sell to the desk, or from the desk to sell to the pool, always loses the spread.
 */
import { lendablePrice, type MarketPrice } from '../market/price-oracle';
import type { AssetUnits } from '../market/units';

export const SPREAD_BPS = 200n;
const BPS = 10_000n;
/** kind -1: a whole share, one unit of every kind */
export const WHOLE_SHARE = -1;

export const bidOf = (mid: bigint) => (mid * (BPS - SPREAD_BPS)) / BPS;
export const askOf = (mid: bigint) => (mid * (BPS + SPREAD_BPS) + BPS - 1n) / BPS;

/** What `units` base units cost at `pricePerWhole`: rounded down when the desk pays, up when it is paid. */
export function amountFor(pricePerWhole: bigint, units: bigint, decimals: number, deskPays: boolean): bigint {
  const scale = 10n ** BigInt(decimals);
  const exact = pricePerWhole * units;
  return deskPays ? exact / scale : (exact + scale - 1n) / scale;
}

/** One instrument the desk quotes, priced but not yet judged against its inventory and caps. */
export interface Instrument {
  /** -1: a whole share */
  kind: number;
  /** the kinds it moves, in equal base units */
  kinds: number[];
  /** base units per whole unit: D for a whole share, the kind's own decimals for a kind */
  decimals: number;
  mid: bigint;
  bid: bigint;
  ask: bigint;
}

/** The whole share, then each kind whose mid is above zero. */
export function instrumentsOf(units: AssetUnits, price: Pick<MarketPrice, 'spot' | 'twap' | 'median'>): Instrument[] {
  // the bid's price is the lender's, from the same function: the desk must not buy at a price
  // the lender would not lend at
  const low = lendablePrice(price);
  const high = price.spot > price.twap ? price.spot : price.twap;
  const whole: Instrument = {
    kind: WHOLE_SHARE,
    kinds: units.kindIds,
    decimals: units.priceDecimals,
    mid: price.twap,
    bid: bidOf(low),
    ask: askOf(high),
  };
  const kinds = units.kinds
    .map((k) => ({
      kind: k.kind_id,
      kinds: [k.kind_id],
      decimals: k.decimals,
      mid: units.kindPrice(k.kind_id, price.twap),
      bid: bidOf(units.kindPrice(k.kind_id, low)),
      ask: askOf(units.kindPrice(k.kind_id, high)),
    }))
    .filter((i) => i.mid > 0n);
  return [whole, ...kinds];
}

/** What `units` base units of the instrument are worth at mid: what buying them adds to the desk's exposure. */
export function valueAtMid(units: AssetUnits, instrumentKinds: readonly number[], n: bigint, twap: bigint): bigint {
  return units.holdingValue(new Map(instrumentKinds.map((k) => [k, n])), twap);
}
