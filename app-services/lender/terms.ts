/**
 * The lender's terms and their arithmetic, in exact integers (docs/app-services.md,
 * "Lender"): a loan's principal is `ltv_bps` of the pledged shares' value at the DEX pool
 * price, at most `max_principal`; the pledges are exercised once the principal reaches
 * `liquidation_ltv_bps` of the shares' current value.
 */

export interface LenderTerms {
  /** 5000: the principal is 50 % of the shares' value */
  ltvBps: number;
  /** 8000: liquidation when the principal reaches 80 % of the shares' current value */
  liquidationLtvBps: number;
  /** 5000000000: 5000 units of the stable denom */
  maxPrincipal: bigint;
  /** the stable denom the principal is paid and repaid in */
  denom: string;
  /** all pledges of a loan within this much block time of the first (120 s) */
  pledgeWindowMs: number;
}

export const DEFAULT_LENDER_TERMS: Omit<LenderTerms, 'denom'> = {
  ltvBps: 5000,
  liquidationLtvBps: 8000,
  maxPrincipal: 5_000_000_000n,
  pledgeWindowMs: 120_000,
};

const BPS = 10_000n;

/** Value of `units` base units of every kind (a share = one unit of each kind) at `pricePerWhole` per 10^decimals units. */
export function sharesValue(units: bigint, pricePerWhole: bigint, decimals: number): bigint {
  return (units * pricePerWhole) / 10n ** BigInt(decimals);
}

/** min(ltv of the value, max principal); 0 when the shares are worth nothing. */
export function principalFor(value: bigint, terms: Pick<LenderTerms, 'ltvBps' | 'maxPrincipal'>): bigint {
  const principal = (value * BigInt(terms.ltvBps)) / BPS;
  return principal > terms.maxPrincipal ? terms.maxPrincipal : principal;
}

/** principal / value in basis points (rounded down); null when the shares have no value. */
export function loanToValueBps(principal: bigint, value: bigint): number | null {
  return value > 0n ? Number((principal * BPS) / value) : null;
}

/** The loan has reached the liquidation threshold (or the shares have no value left). */
export function mustLiquidate(
  principal: bigint,
  value: bigint,
  terms: Pick<LenderTerms, 'liquidationLtvBps'>,
): boolean {
  return principal * BPS >= value * BigInt(terms.liquidationLtvBps);
}

/** What the lender may have out at once (docs/app-services.md, "Lender", caps). */
export interface LenderCaps {
  /** LENDER_MAX_POOL_SHARE_BPS: an asset's outstanding principal at most this share of its pool's stable reserve */
  maxPoolShareBps: number;
  /** LENDER_MAX_PER_BORROWER: outstanding principal of one borrower */
  maxPerBorrower: bigint;
  /** LENDER_MAX_PER_ASSET: outstanding principal against one asset */
  maxPerAsset: bigint;
  /** LENDER_MAX_TOTAL: outstanding principal of every loan */
  maxTotal: bigint;
}

export const DEFAULT_LENDER_CAPS: LenderCaps = {
  maxPoolShareBps: 1000,
  maxPerBorrower: 5_000_000_000n,
  maxPerAsset: 10_000_000_000n,
  maxTotal: 50_000_000_000n,
};

/** Principal of the loans still open (opening or active). */
export interface Outstanding {
  borrower: bigint;
  asset: bigint;
  total: bigint;
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
 * proportional to k × price, so quote × √(price / spot). The caps use the lower of this at
 * the twap and the reserve now, so buying into the pool (which deepens its stable side) does
 * not buy room under the pool-share cap.
 */
export function quoteReserveAt(quoteReserve: bigint, spot: bigint, price: bigint): bigint {
  if (spot <= 0n || price >= spot) return quoteReserve;
  return isqrt((quoteReserve * quoteReserve * price) / spot);
}

/** The principal reduced to fit every cap (0 when one is full), and the cap that bound it. */
export function fitToCaps(
  principal: bigint,
  caps: LenderCaps,
  outstanding: Outstanding,
  poolQuoteReserve: bigint,
): { principal: bigint; boundBy: string | null } {
  const rooms: [string, bigint][] = [
    ['LENDER_MAX_POOL_SHARE_BPS', (poolQuoteReserve * BigInt(caps.maxPoolShareBps)) / BPS - outstanding.asset],
    ['LENDER_MAX_PER_BORROWER', caps.maxPerBorrower - outstanding.borrower],
    ['LENDER_MAX_PER_ASSET', caps.maxPerAsset - outstanding.asset],
    ['LENDER_MAX_TOTAL', caps.maxTotal - outstanding.total],
  ];
  let fitted = principal;
  let boundBy: string | null = null;
  for (const [name, room] of rooms) {
    const r = room > 0n ? room : 0n;
    if (r < fitted) [fitted, boundBy] = [r, name];
  }
  return { principal: fitted, boundBy };
}
