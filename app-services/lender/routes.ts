/**
 * /api/lender (app-services/openapi.yaml):
 *   GET /terms                  the lender's address and terms
 *   GET /loans?address=<addr>   the loans of a borrower (bech32 or 0x), newest first, with the
 *                               pledge sets still inside their window as `pending` entries
 */
import { HttpError } from '../../src/http/http-errors';
import { addressParam } from '../http/params';
import type { AppRoutes } from '../http/routes';
import type { LenderCapacity } from './capacity';
import { sortPledges, type PledgeSet } from './pledge-sets';
import { presentLoan, presentTerms } from './presenter';
import { loanIdOf, type LenderRepository, type LoanView } from './repository';
import type { LenderTerms } from './terms';

export interface LenderRouteDeps {
  hrp: string;
  terms: LenderTerms;
  /** the intents table, quoted (a refused set's release tx) */
  intentsTable: string;
  /** LENDER_FROM_HEIGHT: pledges below it are an earlier lender's, never shown as pending */
  fromHeight: number;
  /** undefined while no lender key is configured; capacity undefined while there is no chain to price with */
  lender(): { address: string; repository: LenderRepository; capacity?: LenderCapacity } | undefined;
}

/**
 * The borrower's pledge sets that opened no loan yet and were not refused, as `pending`
 * entries: a set that still lacks a kind within its window (sorted as the lender's worker
 * sorts them: lender/pledge-sets.ts), and a complete set the lender has not opened yet (it
 * opens it on its next pass, or waits while the asset cannot be valued, until the window ends).
 */
async function pendingSetsOf(
  repository: LenderRepository,
  borrower: string,
  deps: LenderRouteDeps,
  nowMs: number,
): Promise<LoanView[]> {
  const pledges = await repository.unassignedPledges(deps.fromHeight, borrower);
  if (!pledges.length) return [];
  const windowMs = deps.terms.pledgeWindowMs;
  const sorted = sortPledges(pledges, nowMs, windowMs);
  const firstMs = (set: PledgeSet) => Math.min(...set.pledges.map((p) => p.createdMs));
  const sets = [
    ...sorted.open,
    ...sorted.complete.map((set) => ({ ...set, missingKinds: [] as number[], windowEndsMs: firstMs(set) + windowMs })),
  ];
  const symbols = await repository.symbolsOf([...new Set(sets.map((s) => s.assetId))]);
  return sets.map((set): LoanView => {
    const left = Math.max(0, Math.ceil((set.windowEndsMs - nowMs) / 1000));
    const detail = set.missingKinds.length
      ? `pledges of kinds ${set.missingKinds.join(', ')} (${set.units} units each) are still missing; ` +
        `they must be created within ${left} s (the pledge window, LENDER_PLEDGE_WINDOW_S ${windowMs / 1000}), or the set is refused and released`
      : `complete: the lender opens the loan once it has confirmed the pledges on the chain and can value the shares ` +
        `(it waits for a price until the window ends, ${left} s from now)`;
    return {
      id: loanIdOf(set),
      borrower: set.borrower,
      asset_id: set.assetId,
      units: set.units.toString(),
      principal: '0',
      status: 'pending',
      open_tx: null,
      close_tx: null,
      repay_settlement: null,
      pledges: set.pledges.map((p) => p.id.toString()),
      issuer: null,
      reason: null,
      detail,
      limited_by: null,
      created_at: new Date(firstMs(set)),
      symbol: symbols.get(set.assetId) ?? null,
      base_reserve: null,
      quote_reserve: null,
      decimals: null,
      claimed: '0',
      claimable: '0',
      pending: {
        missing_kinds: set.missingKinds,
        window_seconds_left: left,
        window_ends_at: new Date(set.windowEndsMs).toISOString(),
      },
    };
  });
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
    const [pending, loans] = await Promise.all([
      pendingSetsOf(repository, address, deps, Date.now()),
      repository.loansOf(address, deps.intentsTable),
    ]);
    const opened = new Set(loans.map((l) => l.id)); // a set opened or refused between the two reads shows once
    return { address, loans: [...pending.filter((p) => !opened.has(p.id)), ...loans].map(presentLoan) };
  });
}
