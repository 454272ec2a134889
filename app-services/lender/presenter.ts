/** The /api/lender answers (app-services/openapi.yaml `Loan`, `LenderTerms`). */
import type { AppSchema } from '../contract';
import { sharesValue } from '../market/units';
import type { Capacity } from './capacity';
import type { LoanView } from './repository';
import { loanToValueBps, type LenderTerms } from './terms';

/** principal over the pledged shares' value at the pool's current reserves (the indexed pool). */
function currentLtv(loan: LoanView): number | null {
  if (
    loan.base_reserve === null ||
    loan.quote_reserve === null ||
    loan.decimals === null ||
    BigInt(loan.base_reserve) === 0n
  )
    return null;
  const pricePerWhole = (BigInt(loan.quote_reserve) * 10n ** BigInt(loan.decimals)) / BigInt(loan.base_reserve);
  return loanToValueBps(BigInt(loan.principal), sharesValue(BigInt(loan.units), pricePerWhole, loan.decimals));
}

export function presentLoan(loan: LoanView): AppSchema<'Loan'> {
  return {
    id: loan.id,
    symbol: loan.symbol,
    asset_id: loan.asset_id,
    units: loan.units,
    principal: loan.principal,
    ltv_bps: currentLtv(loan),
    open_tx: loan.open_tx,
    status: loan.status,
    close_tx: loan.close_tx,
    routed_income: (BigInt(loan.claimed) + BigInt(loan.claimable)).toString(),
    pledges: loan.pledges.map(Number),
    reason: loan.reason,
    detail: loan.detail,
    limited_by: loan.limited_by,
    pending: loan.pending ?? null,
  };
}

export function presentTerms(lender: string, terms: LenderTerms, capacity: Capacity[]): AppSchema<'LenderTerms'> {
  return {
    lender,
    ltv_bps: terms.ltvBps,
    liquidation_ltv_bps: terms.liquidationLtvBps,
    max_principal: terms.maxPrincipal.toString(),
    denom: terms.denom,
    pledge_window_seconds: terms.pledgeWindowMs / 1000,
    capacity: capacity.map((c) => ({
      asset_id: c.assetId,
      symbol: c.symbol,
      lendable: c.lendable.toString(),
      limited_by: c.limitedBy?.reason ?? null,
      detail: c.limitedBy?.detail ?? null,
    })),
  };
}
