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
