/**
 * /api/lender (app-services/openapi.yaml):
 *   GET /terms                  the lender's address and terms
 *   GET /loans?address=<addr>   the loans of a borrower (bech32 or 0x), newest first
 */
import { tryParseAccountAddress } from '../../src/lib/address';
import { badRequest, HttpError } from '../../src/http/http-errors';
import type { AppRoutes } from '../http/routes';
import { presentLoan, presentTerms } from './presenter';
import type { LenderRepository } from './repository';
import type { LenderTerms } from './terms';

export interface LenderRouteDeps {
  hrp: string;
  terms: LenderTerms;
  /** undefined while no lender key is configured */
  lender(): { address: string; repository: LenderRepository } | undefined;
}

function requireLender(deps: LenderRouteDeps) {
  const lender = deps.lender();
  if (!lender) throw new HttpError('unavailable', 'the lender is not configured here (no LENDER_KEY); see /ready');
  return lender;
}

export function registerLenderRoutes(routes: AppRoutes, deps: LenderRouteDeps): void {
  routes.get('/api/lender/terms', () => presentTerms(requireLender(deps).address, deps.terms));

  routes.get('/api/lender/loans', async (req) => {
    const raw = req.query.address;
    if (raw === undefined || raw === '') throw badRequest('address is required (a bech32 or 0x account address)');
    if (typeof raw !== 'string') throw badRequest('address must be given once');
    const address = tryParseAccountAddress(raw, deps.hrp);
    if (!address)
      throw badRequest(
        `address is not an account address: bech32 with prefix ${deps.hrp}1, or 0x + 40 hex (EIP-55 when mixed case)`,
      );
    const { repository } = requireLender(deps);
    return { address: address.bech32, loans: (await repository.loansOf(address.bech32)).map(presentLoan) };
  });
}
