/**
 * The lender at work (docs/app-services.md, "Lender"): while this process acts for the
 * lender's key, every LENDER_POLL_MS it
 *   1. carries on every action already started for an open loan (principal, repayment,
 *      liquidation): a restart never leaves one half done, and never does one twice;
 *   2. sorts the pledges to the lender seen in the indexed store: a complete set, confirmed
 *      on the chain with the pool price, opens a loan and its principal is paid; a refused
 *      pledge is released;
 *   3. accepts a repayment proposal for an active loan (accept + release of every pledge in
 *      one tx) and cancels any other proposal to the lender;
 *   4. exercises every pledge of a loan whose principal reached the liquidation threshold;
 *   5. now and then claims the income routed to it, recording each pledge's share.
 * Every chain action is an intent with a deterministic id, so it happens once.
 */
import { PollingWorker, type Step } from '../polling-worker';
import type { ChainQueries, ChainSettlement } from '../chain/queries';
import { isFinal } from '../intents/intent-log';
import type { AppLogger } from '../logger';
import * as msg from '../chain/messages';
import { sortPledges, type PledgeSet } from './pledge-sets';
import type { ProposalSeen } from '../store/indexer-reads';
import { loanIdOf, type LenderRepository, type LoanRow } from './repository';
import { mustLiquidate, principalFor, sharesValue, type LenderTerms } from './terms';

export interface LenderWorkerOptions {
  repository: LenderRepository;
  queries: ChainQueries;
  terms: LenderTerms;
  pollMs: number;
  claimEveryMs: number;
  /** pledges below this height are an earlier lender's (the devnet's scripted history) */
  fromHeight: number;
  /** the intents table, quoted (release and claim bookkeeping joins it) */
  intentsTable: string;
  log: AppLogger;
}

const ACTIVE = 'ENCUMBRANCE_STATUS_ACTIVE';
const PENDING = 'STATUS_PENDING';
const GIVE = 'LEG_DIRECTION_GIVE';

export const intentIds = {
  principal: (loan: string) => `lender/principal/${loan}`,
  repay: (loan: string, settlement: bigint | string) => `lender/repay/${loan}/${settlement}`,
  liquidate: (loan: string) => `lender/liquidate/${loan}`,
  release: (pledge: bigint) => `lender/release/${pledge}`,
  cancel: (settlement: bigint | string) => `lender/cancel/${settlement}`,
  claim: (assetId: string, kindId: number, denom: string, height: number) =>
    `lender/claim/${assetId}/${kindId}/${denom}/${height}`,
};

/** The coin a repayment proposal gives, when it is one: exactly one leg, a coin given, nothing asked. */
export function repaymentAmount(legs: readonly ProposalSeen['legs'][number][], denom: string): bigint | null {
  if (legs.length !== 1) return null;
  const [leg] = legs;
  if (leg.direction !== GIVE || !leg.coin || leg.right || leg.coin.denom !== denom) return null;
  return /^[0-9]+$/.test(String(leg.coin.amount ?? '')) ? BigInt(String(leg.coin.amount)) : null;
}

export class LenderWorker extends PollingWorker {
  readonly name = 'lender';
  private lastClaimMs = 0;

  constructor(private readonly o: LenderWorkerOptions) {
    super(o.pollMs, o.log);
  }

  protected steps(): Step[] {
    return [
      ['carry on started actions', () => this.carryOnStarted()],
      ['open loans', () => this.openLoans()],
      ['release refused pledges', () => this.releaseRefused()],
      ['answer proposals', () => this.answerProposals()],
      ['watch prices', () => this.watchPrices()],
      ['claim income', () => this.claimIncome()],
    ];
  }

  // ---------------------------------------------------------------- 1. started actions

  private async carryOnStarted(): Promise<void> {
    for (const loan of await this.o.repository.openLoans()) {
      if (loan.status === 'opening') await this.payPrincipal(loan);
      else if (loan.repay_settlement !== null) await this.repay(loan, BigInt(loan.repay_settlement));
      else if (await this.actor.intents.get(intentIds.liquidate(loan.id))) await this.liquidate(loan);
    }
  }

  // ---------------------------------------------------------------- 2. opening

  private async openLoans(): Promise<void> {
    const pledges = await this.o.repository.unassignedPledges(this.o.fromHeight);
    if (!pledges.length) return;
    const { timeMs } = await this.actor.signer.chainClient.latestBlock();
    const sorted = sortPledges(pledges, timeMs, this.o.terms.pledgeWindowMs);
    for (const r of sorted.refused) await this.refuse(r.pledge.id, r.reason);
    for (const set of sorted.complete) await this.openLoan(set);
  }

  private async refuse(pledge: bigint, reason: string): Promise<void> {
    this.o.log.info('lender: a pledge opens no loan; it will be released', {
      encumbrance_id: pledge.toString(),
      reason,
    });
    await this.o.repository.refuse(pledge, reason);
  }

  /** Confirms the set on the chain (every pledge as indexed, a pool price), records the loan and pays its principal. */
  private async openLoan(set: PledgeSet): Promise<void> {
    for (const p of set.pledges) {
      const e = await this.o.queries.encumbrance(p.id);
      if (e?.status !== ACTIVE) return; // the index is behind the chain: the next pass sees it
      const agrees =
        e.beneficiary === this.actor.address &&
        e.holder === set.borrower &&
        e.units === set.units &&
        e.exercisable &&
        e.income_to_beneficiary &&
        !e.holder_release_after &&
        !e.expiry;
      if (!agrees) return this.refuseSet(set, 'the chain disagrees with the indexed pledge');
    }
    const principal = await this.principalOf(set.assetId, set.units);
    if (principal === null) return this.refuseSet(set, 'the asset has no pool price against the stable denom');
    if (principal === 0n)
      return this.refuseSet(set, 'the pledged shares are worth less than one base unit of principal');
    await this.o.repository.insertOpening(set, principal);
    this.o.log.info('lender: opening a loan', {
      loan: loanIdOf(set),
      borrower: set.borrower,
      units: set.units.toString(),
      principal: principal.toString(),
    });
    const loan = await this.o.repository.loan(loanIdOf(set));
    if (loan?.status === 'opening') await this.payPrincipal(loan);
  }

  private async refuseSet(set: PledgeSet, reason: string): Promise<void> {
    for (const p of set.pledges) await this.refuse(p.id, reason);
  }

  private async principalOf(assetId: string, units: bigint): Promise<bigint | null> {
    const value = await this.valueOf(assetId, units);
    return value === null ? null : principalFor(value, this.o.terms);
  }

  /** The shares' value at the pool price now; null without a pool. */
  private async valueOf(assetId: string, units: bigint): Promise<bigint | null> {
    const [price, decimals] = await Promise.all([
      this.o.queries.poolPrice(assetId, this.o.terms.denom),
      this.o.repository.decimalsOf(assetId),
    ]);
    if (!price || decimals === undefined) return null;
    return sharesValue(units, price.pricePerWhole, decimals);
  }

  private async payPrincipal(loan: LoanRow): Promise<void> {
    const done = await this.act({
      id: intentIds.principal(loan.id),
      kind: 'lender.principal',
      messages: [msg.bankSend(this.actor.address, loan.borrower, this.o.terms.denom, BigInt(loan.principal))],
    });
    if (!done || !isFinal(done.status)) return;
    if (done.status === 'committed') {
      await this.o.repository.setStatus(loan.id, 'active', { open_tx: done.txHash! });
      this.o.log.info('lender: loan open', { loan: loan.id, open_tx: done.txHash });
    } else {
      // not paid (the lender lacks funds, say): no loan; the pledges go back
      await this.o.repository.setStatus(loan.id, 'cancelled');
      for (const p of loan.pledges)
        await this.refuse(BigInt(p), `the principal could not be paid (${done.codespace}/${done.code})`);
    }
  }

  private async releaseRefused(): Promise<void> {
    for (const pledge of await this.o.repository.refusalsToRelease(this.o.intentsTable)) {
      await this.act({
        id: intentIds.release(pledge),
        kind: 'lender.release',
        messages: [msg.release(this.actor.address, pledge)],
      });
    }
  }

  // ---------------------------------------------------------------- 3. repayment

  private async answerProposals(): Promise<void> {
    const proposals = await this.o.repository.pendingProposals();
    if (!proposals.length) return;
    const loans = (await this.o.repository.openLoans()).filter((l) => l.status === 'active');
    for (const p of proposals) {
      const loan = this.loanRepaidBy(p, loans);
      if (loan) {
        loans.splice(loans.indexOf(loan), 1);
        await this.startRepayment(loan, BigInt(p.id));
      } else if (!loans.some((l) => l.repay_settlement === p.id)) {
        await this.act({
          id: intentIds.cancel(p.id),
          kind: 'lender.cancel',
          messages: [msg.cancel(this.actor.address, BigInt(p.id))],
        });
      }
    }
  }

  /** The oldest active loan of the proposer that the proposal pays in full. */
  private loanRepaidBy(p: ProposalSeen, loans: LoanRow[]): LoanRow | undefined {
    const amount = repaymentAmount(p.legs, this.o.terms.denom);
    if (amount === null) return undefined;
    return loans.find((l) => l.borrower === p.proposer && l.repay_settlement === null && amount >= BigInt(l.principal));
  }

  private async startRepayment(loan: LoanRow, settlementId: bigint): Promise<void> {
    const s = await this.o.queries.settlement(settlementId);
    if (!this.isRepayment(s, loan)) return;
    await this.o.repository.setRepaySettlement(loan.id, settlementId);
    await this.repay(loan, settlementId);
  }

  private isRepayment(s: ChainSettlement | null, loan: LoanRow): boolean {
    if (
      !s ||
      s.status !== PENDING ||
      s.counterparty !== this.actor.address ||
      s.proposer !== loan.borrower ||
      s.expiryMs <= Date.now()
    )
      return false;
    const amount = repaymentAmount(s.legs, this.o.terms.denom);
    return amount !== null && amount >= BigInt(loan.principal);
  }

  /** Accept + release of every pledge, in one tx. */
  private async repay(loan: LoanRow, settlementId: bigint): Promise<void> {
    const messages = [
      msg.accept(this.actor.address, settlementId),
      ...loan.pledges.map((p) => msg.release(this.actor.address, p)),
    ];
    const done = await this.act({ id: intentIds.repay(loan.id, settlementId), kind: 'lender.repay', messages });
    if (!done || !isFinal(done.status)) return;
    if (done.status === 'committed') {
      await this.o.repository.setStatus(loan.id, 'repaid', { close_tx: done.txHash! });
      this.o.log.info('lender: loan repaid', { loan: loan.id, close_tx: done.txHash });
    } else {
      await this.o.repository.setRepaySettlement(loan.id, null); // that proposal is gone; the loan waits for another
    }
  }

  // ---------------------------------------------------------------- 4. liquidation

  private async watchPrices(): Promise<void> {
    for (const loan of await this.o.repository.openLoans()) {
      if (loan.status !== 'active' || loan.repay_settlement !== null) continue;
      const value = await this.valueOf(loan.asset_id, BigInt(loan.units));
      if (value !== null && mustLiquidate(BigInt(loan.principal), value, this.o.terms)) {
        this.o.log.info('lender: liquidating', { loan: loan.id, principal: loan.principal, value: value.toString() });
        await this.liquidate(loan);
      }
    }
  }

  /** Exercise of every pledge of the loan, in one tx. */
  private async liquidate(loan: LoanRow): Promise<void> {
    const done = await this.act({
      id: intentIds.liquidate(loan.id),
      kind: 'lender.liquidate',
      messages: loan.pledges.map((p) => msg.exercise(this.actor.address, p)),
    });
    if (done?.status === 'committed')
      await this.o.repository.setStatus(loan.id, 'liquidated', { close_tx: done.txHash! });
  }

  // ---------------------------------------------------------------- 5. income

  private async claimIncome(): Promise<void> {
    if (Date.now() - this.lastClaimMs >= this.o.claimEveryMs) {
      this.lastClaimMs = Date.now();
      const routed = (await this.o.queries.claimable(this.actor.address)).filter(
        (e) => e.routed_from !== '' && e.amount > 0n,
      );
      const height = await this.actor.signer.chainClient.height();
      const seen = new Set<string>();
      for (const e of routed) {
        const key = `${e.asset_id}/${e.kind_id}/${e.denom}`;
        if (seen.has(key)) continue;
        seen.add(key);
        await this.act({
          id: intentIds.claim(e.asset_id, e.kind_id, e.denom, height),
          kind: 'lender.claim',
          messages: [msg.claim(this.actor.address, e.asset_id, e.kind_id, e.denom)],
        });
      }
    }
    await this.recordClaims();
  }

  /** Each committed claim's routed entries, from its EventClaimed, into loan_income (also after a crash between the two). */
  private async recordClaims(): Promise<void> {
    for (const hash of await this.o.repository.unrecordedClaims(this.o.intentsTable)) {
      const tx = await this.actor.signer.chainClient.findTx(hash);
      if (!tx) continue;
      const entries = tx.events
        .filter((e) => e.type === 'svc.payout.v1.EventClaimed')
        .flatMap(
          (e) =>
            JSON.parse(e.attributes.find((a) => a.key === 'entries')?.value ?? '[]') as {
              ref?: string;
              amount?: string;
            }[],
        )
        .map((x) => ({ ref: String(x.ref ?? ''), amount: String(x.amount ?? '0') }));
      await this.o.repository.recordClaim(hash, entries);
    }
  }
}
