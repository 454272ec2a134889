/**
 * /api/lender (app-services/openapi.yaml):
 *   GET /terms                  the lender's address and terms
 *   GET /loans?address=<addr>   the loans of a borrower (bech32 or 0x), newest first
 */
import { HttpError } from '../../src/http/http-errors';
import { addressParam } from '../http/params';
import type { AppRoutes } from '../http/routes';
import type { LenderCapacity } from './capacity';
import { presentLoan, presentTerms } from './presenter';
import type { LenderRepository } from './repository';
import type { LenderTerms } from './terms';

export interface LenderRouteDeps {
  hrp: string;
  terms: LenderTerms;
  /** the intents table, quoted (a refused set's release tx) */
  intentsTable: string;
  /** undefined while no lender key is configured; capacity undefined while there is no chain to price with */
  lender(): { address: string; repository: LenderRepository; capacity?: LenderCapacity } | undefined;
}

function requireLender(deps: LenderRouteDeps) {
  const lender = deps.lender();
  if (!lender) throw new HttpError('unavailable', 'the lender is not configured here (no LENDER_KEY); see /ready');
  return lender;
}

export function registerLenderRoutes(routes: AppRoutes, deps: LenderRouteDeps): void {
  routes.get('/api/lender/terms', async () => {
    const { address, capacity } = requireLender(deps);
    return presentTerms(address, deps.terms, (await capacity?.list()) ?? []);
  });

  routes.get('/api/lender/loans', async (req) => {
    const address = addressParam(req.query.address, deps.hrp);
    const { repository } = requireLender(deps);
    return { address, loans: (await repository.loansOf(address, deps.intentsTable)).map(presentLoan) };
  });
}
