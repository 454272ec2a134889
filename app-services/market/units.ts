/**
 * One unit for every value the lender and the desk put on an asset: base units of the stable
 * denom, at a price per whole bundle as the chain's own Query/PoolPrice gives it.
 *
 * The pool trades bundles: `n` base units of every bundle kind move together, and
 * `price_per_whole` is per 10^D of them, D the decimals of the first bundle kind
 * (proto/svc/dex/v1/query.proto). So a base unit of any kind is a base unit of a bundle,
 * whatever that kind's own decimals: valuing a kind at its own decimals would let an issuer
 * who gives one kind 0 decimals make a holding look a millionth (or a million times) of what
 * the pool pays for it. A kind's share of the bundle price is its class's weight over the
 * weights of the asset's kinds (ECONOMIC 60, INCOME 30, VOTE 10, REDEMPTION 60): an equity
 * share is 60 / 30 / 10 %, a dividend share 2/3 and 1/3, a community share all of it.
 *
 * Only an asset whose every kind is in the bundle can be valued: a kind outside it is
 * something the pool never buys back.
 */

export const CLASS_WEIGHTS: Record<string, bigint> = { ECONOMIC: 60n, INCOME: 30n, VOTE: 10n, REDEMPTION: 60n };

/** A kind of an asset as the index holds it. */
export interface AssetKind {
  kind_id: number;
  class: string;
  decimals: number;
  bundle: boolean;
}

const pow10 = (n: number) => 10n ** BigInt(n);

export class AssetUnits {
  /** D: the decimals of the first bundle kind, which PoolPrice prices a whole bundle in */
  readonly priceDecimals: number;
  private readonly totalWeight: bigint;

  private constructor(
    readonly assetId: string,
    /** by kind id */
    readonly kinds: readonly AssetKind[],
  ) {
    this.priceDecimals = kinds[0].decimals;
    this.totalWeight = kinds.reduce((sum, k) => sum + weightOf(k), 0n);
  }

  /** The asset's units, or why it cannot be valued (no kinds, or a kind outside the bundle). */
  static of(assetId: string, kinds: readonly AssetKind[]): AssetUnits | string {
    const sorted = [...kinds].sort((a, b) => a.kind_id - b.kind_id);
    if (!sorted.length) return 'the asset has no kinds in the index yet';
    const outside = sorted.filter((k) => !k.bundle).map((k) => k.kind_id);
    if (outside.length)
      return `kind${outside.length > 1 ? 's' : ''} ${outside.join(', ')} ${outside.length > 1 ? 'are' : 'is'} not in the bundle the pool trades`;
    return new AssetUnits(assetId, sorted);
  }

  get kindIds(): number[] {
    return this.kinds.map((k) => k.kind_id);
  }

  kind(kindId: number): AssetKind | undefined {
    return this.kinds.find((k) => k.kind_id === kindId);
  }

  /** `units` base units of every kind (a share) at `wholePrice` per 10^D of them, rounded down. */
  shareValue(units: bigint, wholePrice: bigint): bigint {
    return sharesValue(units, wholePrice, this.priceDecimals);
  }

  /** `units` base units of one kind: its class's share of what as many bundles are worth, rounded down. */
  kindValue(kindId: number, units: bigint, wholePrice: bigint): bigint {
    const k = this.kind(kindId);
    if (!k || this.totalWeight === 0n) return 0n;
    return (units * wholePrice * weightOf(k)) / (this.totalWeight * pow10(this.priceDecimals));
  }

  /** A holding of any kinds (kind id → base units), each valued as kindValue says; a kind the asset lacks is worth 0. */
  holdingValue(units: ReadonlyMap<number, bigint>, wholePrice: bigint): bigint {
    let value = 0n;
    for (const [kindId, n] of units) value += this.kindValue(kindId, n, wholePrice);
    return value;
  }

  /** The price of one whole unit of a kind (10^decimals of its base units), rounded down: its quote's mid. */
  kindPrice(kindId: number, wholePrice: bigint): bigint {
    const k = this.kind(kindId);
    if (!k || this.totalWeight === 0n) return 0n;
    return (wholePrice * weightOf(k) * pow10(k.decimals)) / (this.totalWeight * pow10(this.priceDecimals));
  }
}

/** Value of `units` base units of every kind (a share) at `pricePerWhole` per 10^decimals units, rounded down. */
export function sharesValue(units: bigint, pricePerWhole: bigint, decimals: number): bigint {
  return (units * pricePerWhole) / pow10(decimals);
}

function weightOf(k: AssetKind): bigint {
  return CLASS_WEIGHTS[k.class] ?? 0n;
}

/**
 * What a constant-product pool pays, in its quote, for `units` base units of bundles sold
 * into it now (x·y = k, no fee): quote × units / (base + units). What a holding can really be
 * turned into, as opposed to what it is worth at a price.
 */
export function poolPayout(units: bigint, baseReserve: bigint, quoteReserve: bigint): bigint {
  if (units <= 0n || quoteReserve <= 0n) return 0n;
  return (quoteReserve * units) / (baseReserve + units);
}

/** ⌊√n⌋ of a non-negative bigint (Newton's method). */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new Error('square root of a negative number');
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}

/**
 * The stable reserve a constant-product pool holds at `price` (its k unchanged): quote² is
 * proportional to k × price, so quote × √(price / spot). Caps on a share of the reserve use
 * the lower of this at the lendable price and the reserve now, so buying into the pool (which
 * deepens its stable side) does not buy room.
 */
export function quoteReserveAt(quoteReserve: bigint, spot: bigint, price: bigint): bigint {
  if (spot <= 0n || price >= spot) return quoteReserve;
  return isqrt((quoteReserve * quoteReserve * price) / spot);
}
