/**
 * /api/lender (app-services/openapi.yaml):
 *   GET /terms                  the lender's address and terms
 *   GET /loans?address=<addr>   the loans of a borrower (bech32 or 0x), newest first
 */
import type { AppSchema } from '../contract';
import type { RequestHandler, Router } from 'express';
import { tryParseAccountAddress } from '../../src/lib/address';
import { AppHttpError, badRequest } from '../http/errors';
import type { LenderRepository, LoanView } from './repository';
import { loanToValueBps, sharesValue, type LenderTerms } from './terms';

export interface LenderRouteDeps {
  hrp: string;
  terms: LenderTerms;
  /** undefined while no lender key is configured */
  lender(): { address: string; repository: LenderRepository } | undefined;
}

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
  };
}

function requireLender(deps: LenderRouteDeps) {
  const lender = deps.lender();
  if (!lender) throw new AppHttpError('unavailable', 'the lender is not configured here (no LENDER_KEY); see /ready');
  return lender;
}

function terms(deps: LenderRouteDeps): RequestHandler {
  return (_req, res) => {
    const { address } = requireLender(deps);
    res.json({
      lender: address,
      ltv_bps: deps.terms.ltvBps,
      liquidation_ltv_bps: deps.terms.liquidationLtvBps,
      max_principal: deps.terms.maxPrincipal.toString(),
      denom: deps.terms.denom,
      pledge_window_seconds: deps.terms.pledgeWindowMs / 1000,
    } satisfies AppSchema<'LenderTerms'>);
  };
}

function loans(deps: LenderRouteDeps): RequestHandler {
  return async (req, res) => {
    const raw = req.query.address;
    if (raw === undefined || raw === '') throw badRequest('address is required (a bech32 or 0x account address)');
    if (typeof raw !== 'string') throw badRequest('address must be given once');
    const address = tryParseAccountAddress(raw, deps.hrp);
    if (!address)
      throw badRequest(
        `address is not an account address: bech32 with prefix ${deps.hrp}1, or 0x + 40 hex (EIP-55 when mixed case)`,
      );
    const { repository } = requireLender(deps);
    res.json({
      address: address.bech32,
      loans: (await repository.loansOf(address.bech32)).map(presentLoan),
    } satisfies AppSchema<'LoanList'>);
  };
}

export function registerLenderRoutes(
  router: Router,
  deps: LenderRouteDeps,
  allow: (methods: string) => RequestHandler,
): void {
  router.route('/lender/terms').get(terms(deps)).all(allow('GET'));
  router.route('/lender/loans').get(loans(deps)).all(allow('GET'));
}
