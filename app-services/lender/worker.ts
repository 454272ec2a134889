/**
 * The lender at work (docs/app-services.md, "Lender"): while this process acts for the
 * lender's key, every LENDER_POLL_MS it
 *   1. carries on every action already started for an open loan (principal, repayment,
 *      liquidation): a restart never leaves one half done, and never does one twice;
 *   2. sorts the pledges to the lender seen in the indexed store: a complete set, confirmed
 *      on the chain, of an eligible asset (app-services/market), valued at the lowest of
 *      spot, twap and the window's median (market/price-oracle.ts lendablePrice) and fitted,
 *      under the risk lock, to the caps it shares with the desk (app-services/risk), opens a
 *      loan and its principal is paid; refused pledges are released in batches within the gas
 *      limit, those of the most value per message first, dust by the rule of
 *      release-batches.ts, their reason kept for the loans list;
 *   3. accepts a repayment proposal for an active loan (accept + release of every pledge in
 *      one tx) and cancels the other proposals to the lender worth more than dust, confirmed
 *      pending on the chain, all of a pass in one tx;
 *   4. exercises every pledge of a loan whose principal reached the liquidation threshold at
 *      the twap (one block's spot cannot liquidate);
 *   5. sells the units a liquidation seized back into the asset's pool, a slice at a time and
 *      never into a dump (market/pool-sale.ts); the principal less what they fetched so far is
 *      its exposure meanwhile, and once the sale ends what it fell short of the principal is
 *      charged as a loss, which keeps its room used until an operator resets it (so a dump
 *      held for the block the lender looks makes no loss, and a pool drained for good does);
 *   6. now and then claims the income routed to it, recording each pledge's share.
 * Every chain action is an intent with a deterministic id, so it happens once.
 */
import { PollingWorker, type Step } from '../polling-worker';
import type { AddressedEvents, SeenEvent } from '../chain/addressed-events';
import type { ChainQueries, ChainSettlement } from '../chain/queries';
import { isFinal } from '../intents/intent-log';
import type { PartLogger } from '../../src/lib/logger';
import { decodeTypedEvent } from '../../src/lib/typed-event';
import type { EventClaimed } from '../../src/mappings/generated/proto-json';
import * as msg from '../chain/messages';
import { sortPledges, type PledgeSeen, type PledgeSet, type Refusal as SortRefusal } from './pledge-sets';
import { SETTLEMENT_PROPOSED, withSeenProposals, type ProposalSeen } from '../store/indexer-reads';
import { diverges, type Market } from '../market/eligibility';
import { lendablePrice, poolShareReserve } from '../market/price-oracle';
import {
  cooloffUntil,
  fitToLimits,
  lenderLimits,
  type LenderLimitSettings,
  type SharedRiskSettings,
} from '../risk/exposure';
import { cooloffRefusal, refusal, type Refusal } from '../risk/reasons';
import type { RiskRepository } from '../risk/repository';
import { loanIdOf, type LenderRepository, type LoanRow, type QueuedRelease, type RefusedPledge } from './repository';
import { planReleases, type Releasable } from './release-batches';
import { isOutOfGas } from '../chain/signer';
import { mustLiquidate, principalFor, type LenderTerms } from './terms';
import { nextRecoveryStep } from './recovery';

export interface LenderWorkerOptions {
  repository: LenderRepository;
  queries: ChainQueries;
  terms: LenderTerms;
  /** eligibility and the robust price (shared with the desk) */
  market: Market;
  /** the exposure account and losses ledger (shared with the desk) */
  risk: RiskRepository;
  caps: LenderLimitSettings;
  shared: SharedRiskSettings;
  /** a proposal whose stable legs sum to at most this is left to expire */
  dust: bigint;
  /** messages in one release or cancel tx */
  batchMax: number;
  /** the most messages one tx holds within APP_TX_GAS at APP_TX_GAS_PER_MSG (none: no bound but batchMax) */
  gasMessagesMax?: number;
  /** LENDER_RELEASE_MIN_VALUE: a refused pledge worth less (or unpriceable) is dust (release-batches.ts) */
  releaseMinValue: bigint;
  /** LENDER_SALE_IMPACT_BPS, LENDER_SALE_EVERY_BLOCKS: the sale of what a liquidation seized */
  sale: { impactBps: number; everyBlocks: number };
  pollMs: number;
  claimEveryMs: number;
  /** pledges below this height are an earlier lender's (the devnet's scripted history) */
  fromHeight: number;
  /** the intents table, quoted (release and claim bookkeeping joins it) */
  intentsTable: string;
  /** pledges and proposals to the lender in committed blocks the index has not reached yet */
  seen?: AddressedEvents;
  log: PartLogger;
}

export const ENCUMBRANCE_CREATED = 'svc.encumbrance.v1.EventEncumbranceCreated';

/** A pledge to the lender as its EventEncumbranceCreated says it (the index's row, before the index has it). */
function pledgeOf(e: SeenEvent, kindCount: number): PledgeSeen {
  const f = e.fields;
  const time = (v: unknown) => (v === undefined || v === null || v === '' ? null : String(v));
  return {
    id: BigInt(String(f.encumbrance_id)),
    assetId: String(f.asset_id),
    kindId: Number(f.kind_id ?? 0),
    holder: String(f.holder),
    units: BigInt(String(f.units ?? '0')),
    exercisable: f.exercisable === true,
    incomeToBeneficiary: f.income_to_beneficiary === true,
    holderReleaseAfter: time(f.holder_release_after),
    expiry: time(f.expiry),
    txHash: e.txHash,
    createdMs: e.timeMs,
    kindCount,
  };
}

const ACTIVE = 'ENCUMBRANCE_STATUS_ACTIVE';
const PENDING = 'STATUS_PENDING';
const GIVE = 'LEG_DIRECTION_GIVE';

const DUST_RELEASE_PREFIX = 'lender/release-dust/';
const RELEASE_KINDS = ['lender.release', 'lender.release-dust'];
/** the mark of dust the lender does not release (pledge_refusals.release_intent) */
export const LEFT_TO_HOLDER = 'left-to-holder';

export const intentIds = {
  principal: (loan: string) => `lender/principal/${loan}`,
  repay: (loan: string, settlement: bigint | string) => `lender/repay/${loan}/${settlement}`,
  liquidate: (loan: string) => `lender/liquidate/${loan}`,
  /** one slice of a liquidated loan's seized units sold into the pool, named by the height it was judged at */
  sellSeized: (loan: string, height: number) => `lender/sell/${loan}/${height}`,
  /** one tx for refused pledges of value, named by them */
  release: (pledges: readonly bigint[]) => `lender/release/${[...pledges].sort(byValue).join('+')}`,
  /** one low-priority tx for dust, named by its pledges */
  releaseDust: (pledges: readonly bigint[]) => `${DUST_RELEASE_PREFIX}${[...pledges].sort(byValue).join('+')}`,
  /** one tx for proposals, named by their settlements */
  cancel: (settlements: readonly bigint[]) => `lender/cancel/${[...settlements].sort(byValue).join('+')}`,
  claim: (assetId: string, kindId: number, denom: string, height: number) =>
    `lender/claim/${assetId}/${kindId}/${denom}/${height}`,
};

function byValue(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** What a proposal moves in the stable denom, both directions summed: what a cancel is worth judging by. */
export function stableValue(legs: readonly ProposalSeen['legs'][number][], denom: string): bigint {
  let sum = 0n;
  for (const leg of legs)
    if (leg.coin?.denom === denom && /^[0-9]+$/.test(String(leg.coin.amount ?? ''))) sum += BigInt(leg.coin.amount!);
  return sum;
}

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
      ['recover liquidated loans', () => this.recoverLiquidated()],
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
    const indexedHeight = this.o.seen ? await this.o.repository.indexedHeight() : 0;
    const pledges = await this.withSeenPledges(
      await this.o.repository.unassignedPledges(this.o.fromHeight),
      indexedHeight,
    );
    if (!pledges.length) return;
    const { timeMs } = await this.actor.signer.chainClient.latestBlock();
    const sorted = sortPledges(pledges, timeMs, this.o.terms.pledgeWindowMs);
    await this.refuseSorted(sorted.refused);
    for (const set of sorted.complete) await this.openLoan(set, timeMs);
  }

  /**
   * The unassigned pledges the index holds, and those seen on the chain in the blocks above
   * `indexedHeight` (read before the index's rows, so none falls between the two), once each.
   */
  private async withSeenPledges(indexed: PledgeSeen[], indexedHeight: number): Promise<PledgeSeen[]> {
    const ids = new Set(indexed.map((p) => p.id));
    const seen = (this.o.seen?.above(indexedHeight, ENCUMBRANCE_CREATED) ?? []).filter(
      (e) =>
        e.fields.kind === 'ENCUMBRANCE_KIND_PLEDGE' &&
        e.height >= this.o.fromHeight &&
        !ids.has(BigInt(String(e.fields.encumbrance_id))),
    );
    if (!seen.length) return indexed;
    const [settled, kindCounts] = await Promise.all([
      this.o.repository.settledPledges(seen.map((e) => BigInt(String(e.fields.encumbrance_id)))),
      this.o.repository.kindCounts([...new Set(seen.map((e) => String(e.fields.asset_id)))]),
    ]);
    const fresh = seen
      .filter((e) => !settled.has(String(e.fields.encumbrance_id)) && kindCounts.has(String(e.fields.asset_id)))
      .map((e) => pledgeOf(e, kindCounts.get(String(e.fields.asset_id))!));
    return [...indexed, ...fresh];
  }

  /** Refusals of the sort, one refused set per borrower, asset and reason (released together). */
  private async refuseSorted(refused: SortRefusal[]): Promise<void> {
    const sets = new Map<string, SortRefusal[]>();
    for (const r of refused) {
      const key = `${r.pledge.holder}|${r.pledge.assetId}|${r.reason}`;
      sets.set(key, [...(sets.get(key) ?? []), r]);
    }
    for (const set of sets.values())
      await this.refuse(
        set.map((r) => r.pledge),
        refusal('pledge_terms', set[0].reason),
      );
  }

  private async refuse(pledges: readonly RefusedPledge[], why: Refusal): Promise<void> {
    this.o.log.info('lender: a pledge set opens no loan; it will be released', {
      encumbrance_ids: pledges.map((p) => p.id.toString()),
      reason: why.reason,
      detail: why.detail,
    });
    await this.o.repository.refuse(pledges, why);
  }

  /**
   * Confirms the set on the chain, values it at the lowest of spot, twap and the window's
   * median if its asset is eligible, fits the principal to the caps under the risk lock (recording the loan there,
   * so the next check counts it), and pays its principal. A set that cannot be valued yet (no
   * price, a price window filling, spot and twap apart, the index behind) waits for its pledge
   * window, then is refused.
   */
  private async openLoan(set: PledgeSet, nowMs: number): Promise<void> {
    if (!(await this.confirmedOnChain(set))) return;
    const windowPassed = nowMs - Math.min(...set.pledges.map((p) => p.createdMs)) > this.o.terms.pledgeWindowMs;
    const assessment = await this.o.market.assess(set.assetId, 'collateral', set.borrower);
    if (!assessment.ok) {
      if (assessment.lasting || windowPassed) await this.refuseSet(set, assessment.refusal);
      return;
    }
    const { price, units, issuer } = assessment;
    // a cool-off is a lasting refusal: said at once, before anything that only waits
    const coolingUntil = cooloffUntil(await this.o.risk.snapshot(), set.assetId, issuer, Date.now(), this.o.shared);
    if (coolingUntil !== null) return this.refuseSet(set, cooloffRefusal(coolingUntil));
    if (diverges(price, this.o.market.settings)) {
      if (windowPassed)
        await this.refuseSet(
          set,
          refusal(
            'price_diverged',
            `spot and twap stayed ${price.divergenceBps} bps apart, beyond PRICE_MAX_DIVERGENCE_BPS, for the pledge window`,
          ),
        );
      return;
    }
    // the lowest of spot, twap and the window's median: a pump held for up to half the window lifts none of it
    const low = lendablePrice(price);
    const wanted = principalFor(units.shareValue(set.units, low), this.o.terms);
    if (wanted === 0n)
      return this.refuseSet(
        set,
        refusal('worthless', 'the pledged shares are worth less than one base unit of principal'),
      );
    const subject = {
      assetId: set.assetId,
      issuer,
      borrower: set.borrower,
      poolQuoteReserve: poolShareReserve(price),
    };
    type Outcome = { refused: Refusal } | { principal: bigint; limitedBy: Refusal | null };
    const outcome = await this.o.risk.underRiskLock(async (c): Promise<Outcome> => {
      const snapshot = await this.o.risk.snapshot(c);
      const until = cooloffUntil(snapshot, set.assetId, issuer, Date.now(), this.o.shared);
      if (until !== null) return { refused: cooloffRefusal(until) };
      const fitted = fitToLimits(wanted, lenderLimits(snapshot, subject, this.o.caps, this.o.shared));
      const limitedBy = fitted.limitedBy
        ? refusal(
            fitted.limitedBy.reason,
            `${fitted.amount} of the ${wanted} the shares allow: ${fitted.limitedBy.setting} leaves no more`,
          )
        : null;
      if (fitted.amount === 0n) return { refused: limitedBy ?? refusal('worthless', 'no principal') };
      await this.o.repository.insertOpening(c, set, fitted.amount, { issuer, limitedBy });
      return { principal: fitted.amount, limitedBy };
    });
    if ('refused' in outcome) return this.refuseSet(set, outcome.refused);
    this.o.log.info('lender: opening a loan', {
      loan: loanIdOf(set),
      borrower: set.borrower,
      units: set.units.toString(),
      principal: outcome.principal.toString(),
      limited_by: outcome.limitedBy?.reason,
      spot: price.spot.toString(),
      twap: price.twap.toString(),
      median: price.median.toString(),
    });
    const loan = await this.o.repository.loan(loanIdOf(set));
    if (loan?.status === 'opening') await this.payPrincipal(loan);
  }

  /** Every pledge of the set as indexed, on the chain; false (and refused if it disagrees) otherwise. */
  private async confirmedOnChain(set: PledgeSet): Promise<boolean> {
    for (const p of set.pledges) {
      const e = await this.o.queries.encumbrance(p.id);
      if (e?.status !== ACTIVE) return false; // the index is behind the chain: the next pass sees it
      const agrees =
        e.beneficiary === this.actor.address &&
        e.holder === set.borrower &&
        e.units === set.units &&
        e.exercisable &&
        e.income_to_beneficiary &&
        !e.holder_release_after &&
        !e.expiry;
      if (!agrees) {
        await this.refuseSet(
          set,
          refusal('chain_disagrees', `the chain's copy of pledge ${p.id} differs from the index`),
        );
        return false;
      }
    }
    return true;
  }

  private async refuseSet(set: PledgeSet, why: Refusal): Promise<void> {
    await this.refuse(set.pledges, why);
  }

  /** The shares' value at the twap; null without a robust price. */
  private async valueAtTwap(assetId: string, units: bigint): Promise<bigint | null> {
    const v = await this.o.market.valuation(assetId);
    return v?.reading.price ? v.units.shareValue(units, v.reading.price.twap) : null;
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
      const why = refusal('principal_failed', `the chain refused the principal (${done.codespace}/${done.code})`);
      await this.o.repository.setStatus(loan.id, 'cancelled', {}, why);
      // a loan's pledges are one of each kind, by kind id
      const pledges = loan.pledges.map((id, kindId) => ({
        id: BigInt(id),
        holder: loan.borrower,
        assetId: loan.asset_id,
        kindId,
        units: BigInt(loan.units),
      }));
      await this.refuse(pledges, why);
    }
  }

  /**
   * At most one release tx of value and one of dust open at a time (release-batches.ts): the
   * refused pledges worth LENDER_RELEASE_MIN_VALUE or more, the sets of the highest value per
   * message first, a set larger than a batch split over several txs; dust only when nothing
   * of value waits, one pledge per creating tx, the rest of that tx's dust left to its holder.
   * A batch holds at most LENDER_BATCH_MAX messages and no more than APP_TX_GAS allows at
   * APP_TX_GAS_PER_MSG; one that fails out of gas anyway is halved. Each pledge is confirmed
   * still ACTIVE and the lender's on the chain first; a pledge in an open release tx is in
   * no other batch, so none is released twice.
   */
  private async releaseRefused(): Promise<void> {
    const table = this.o.intentsTable;
    await this.o.repository.settleCommittedReleases(table, RELEASE_KINDS);
    const queue = await this.o.repository.releaseQueue(table, RELEASE_KINDS);
    if (!queue.length) return;
    const txs = [...new Set(queue.flatMap((p) => (p.txHash === null ? [] : [p.txHash])))];
    const plan = planReleases(await this.valued(queue), {
      minValue: this.o.releaseMinValue,
      batchMax: this.releaseBatchMax(),
      dustTxsTaken: await this.o.repository.dustTxsTaken(table, DUST_RELEASE_PREFIX, 'lender.release-dust', txs),
    });
    if (plan.left.length) {
      this.o.log.info('lender: dust left to its holder (one pledge of each creating tx is released)', {
        encumbrance_ids: plan.left.map(String),
      });
      await this.o.repository.markReleased(plan.left, LEFT_TO_HOLDER);
    }
    if (plan.valued.length) {
      if (!(await this.o.repository.openIntentOf(table, 'lender.release')))
        await this.releaseBatch(plan.valued, 'lender.release', intentIds.release);
    } else if (plan.dust.length && !(await this.o.repository.openIntentOf(table, 'lender.release-dust')))
      await this.releaseBatch(plan.dust, 'lender.release-dust', intentIds.releaseDust);
  }

  /** Messages in one release tx: LENDER_BATCH_MAX, what APP_TX_GAS allows, and half of a batch that ran out of gas. */
  private releaseBatchMax(): number {
    return Math.max(1, Math.min(this.o.batchMax, this.o.gasMessagesMax ?? Infinity, this.outOfGasCap ?? Infinity));
  }

  private outOfGasCap: number | undefined;

  /** Each queued pledge's units as as many whole shares at the lower of spot and twap (null: no price). */
  private async valued(queue: readonly QueuedRelease[]): Promise<Releasable[]> {
    const prices = new Map<string, ((units: bigint) => bigint) | null>();
    for (const assetId of new Set(queue.flatMap((p) => (p.assetId === null ? [] : [p.assetId])))) {
      const v = await this.o.market.valuation(assetId);
      const price = v?.reading.price;
      prices.set(assetId, price ? (u) => v.units.shareValue(u, min(price.spot, price.twap)) : null);
    }
    return queue.map((p) => {
      const value = p.assetId === null || p.units === null ? null : prices.get(p.assetId);
      return { id: p.id, set: p.set, txHash: p.txHash, value: value ? value(p.units!) : null };
    });
  }

  private async releaseBatch(
    pledges: readonly bigint[],
    kind: 'lender.release' | 'lender.release-dust',
    idOf: (pledges: readonly bigint[]) => string,
  ): Promise<void> {
    const { active, gone } = await this.onChain(pledges);
    if (gone.length) await this.o.repository.markReleased(gone, 'nothing-to-release');
    if (!active.length) return;
    // the same batch after a failed attempt is tried again after the backoff; a pledge gone meanwhile makes another
    const messages = active.map((p) => msg.release(this.actor.address, p));
    const done = await this.actRetrying({ id: idOf(active), kind, messages });
    if (done?.status === 'committed') await this.o.repository.markReleased(active, done.id);
    else if (done && isFinal(done.status) && isOutOfGas(done)) {
      this.outOfGasCap = Math.max(1, Math.floor(active.length / 2));
      this.o.log.warn('lender: a release tx ran out of gas; the next batches are smaller', {
        messages: active.length,
        next: this.outOfGasCap,
      });
    }
  }

  // ---------------------------------------------------------------- 3. repayment

  private async answerProposals(): Promise<void> {
    const indexedHeight = this.o.seen ? await this.o.repository.indexedHeight() : 0;
    const proposals = withSeenProposals(
      await this.o.repository.pendingProposals(),
      this.o.seen?.above(indexedHeight, SETTLEMENT_PROPOSED) ?? [],
    );
    if (!proposals.length) return;
    const loans = (await this.o.repository.openLoans()).filter((l) => l.status === 'active');
    const others: ProposalSeen[] = [];
    for (const p of proposals) {
      const loan = this.loanRepaidBy(p, loans);
      if (loan) {
        loans.splice(loans.indexOf(loan), 1);
        await this.startRepayment(loan, BigInt(p.id));
      } else if (!loans.some((l) => l.repay_settlement === p.id)) others.push(p);
    }
    await this.cancelProposals(others);
  }

  /**
   * One cancel tx a pass, for the proposals worth more than LENDER_DUST (the rest expire on
   * their own, costing the lender nothing), each confirmed on the chain first: still pending,
   * to the lender, not its own. None while the last cancel tx is still open.
   */
  private async cancelProposals(proposals: ProposalSeen[]): Promise<void> {
    const worth = proposals.filter((p) => stableValue(p.legs, this.o.terms.denom) > this.o.dust);
    if (!worth.length || (await this.o.repository.openIntentOf(this.o.intentsTable, 'lender.cancel'))) return;
    const confirmed: bigint[] = [];
    for (const p of worth.slice(0, 2 * this.o.batchMax)) {
      if (confirmed.length >= this.o.batchMax) break;
      const s = await this.o.queries.settlement(BigInt(p.id));
      if (s?.status === PENDING && s.counterparty === this.actor.address && s.proposer !== this.actor.address)
        confirmed.push(s.id);
    }
    if (!confirmed.length) return;
    await this.act({
      id: intentIds.cancel(confirmed),
      kind: 'lender.cancel',
      messages: confirmed.map((id) => msg.cancel(this.actor.address, id)),
    });
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

  /**
   * Accept + release of every pledge, in one tx. A failed attempt is tried again (after the
   * backoff) while the chain still holds the proposal as a repayment of this loan; once it
   * does not, the loan waits for another.
   */
  private async repay(loan: LoanRow, settlementId: bigint): Promise<void> {
    const messages = [
      msg.accept(this.actor.address, settlementId),
      ...loan.pledges.map((p) => msg.release(this.actor.address, p)),
    ];
    const done = await this.actRetrying({ id: intentIds.repay(loan.id, settlementId), kind: 'lender.repay', messages });
    if (!done || !isFinal(done.status)) return;
    if (done.status === 'committed') {
      await this.o.repository.setStatus(loan.id, 'repaid', { close_tx: done.txHash! });
      this.o.log.info('lender: loan repaid', { loan: loan.id, close_tx: done.txHash });
    } else if (!this.isRepayment(await this.o.queries.settlement(settlementId), loan)) {
      await this.o.repository.setRepaySettlement(loan.id, null);
    }
  }

  // ---------------------------------------------------------------- 4. liquidation

  private async watchPrices(): Promise<void> {
    for (const loan of await this.o.repository.openLoans()) {
      if (loan.status !== 'active' || loan.repay_settlement !== null) continue;
      const value = await this.valueAtTwap(loan.asset_id, BigInt(loan.units));
      if (value !== null && mustLiquidate(BigInt(loan.principal), value, this.o.terms)) {
        this.o.log.info('lender: liquidating', { loan: loan.id, principal: loan.principal, value: value.toString() });
        await this.liquidate(loan);
      }
    }
  }

  /**
   * Exercise of every pledge of the loan still active on the chain, in one tx; a failed
   * attempt is tried again after the backoff (every pass calls this once liquidation began)
   * until one commits. Pledges nobody can exercise any more are not asked for again.
   */
  private async liquidate(loan: LoanRow): Promise<void> {
    const latest = await this.actor.intents.latest(intentIds.liquidate(loan.id));
    if (latest?.status === 'committed') return this.closeLiquidated(loan, latest.txHash!);
    const all = loan.pledges.map((p) => BigInt(p));
    const pledges = latest ? (await this.onChain(all)).active : all;
    if (!pledges.length) {
      this.o.log.error('lender: a loan in liquidation has no active pledge left on the chain', { loan: loan.id });
      return;
    }
    const done = await this.actRetrying({
      id: intentIds.liquidate(loan.id),
      kind: 'lender.liquidate',
      messages: pledges.map((p) => msg.exercise(this.actor.address, p)),
    });
    if (done?.status === 'committed') await this.closeLiquidated(loan, done.txHash!);
  }

  /** The loan is liquidated: its seized units are the lender's to sell (5. recovery). */
  private async closeLiquidated(loan: LoanRow, closeTx: string): Promise<void> {
    await this.o.repository.closeLiquidated(loan.id, closeTx);
    this.o.log.warn('lender: a loan was liquidated; its seized units will be sold back into the pool', {
      loan: loan.id,
      asset: loan.asset_id,
      principal: loan.principal,
      units: loan.units,
    });
  }

  /** The pledges the chain still holds active to the lender, and the others (released, exercised, expired). */
  private async onChain(pledges: readonly bigint[]): Promise<{ active: bigint[]; gone: bigint[] }> {
    const active: bigint[] = [];
    const gone: bigint[] = [];
    for (const id of pledges) {
      const e = await this.o.queries.encumbrance(id);
      (e?.status === ACTIVE && e.beneficiary === this.actor.address ? active : gone).push(id);
    }
    return { active, gone };
  }

  // ---------------------------------------------------------------- 5. recovery

  /**
   * One slice per asset of the oldest liquidated loan's seized units still unsold, after
   * settling the sales a crash left; a loan whose units are all sold, or whose rest the pool
   * no longer pays anything for (no pool, or a slice worth no more than LENDER_DUST), ends its
   * recovery, and what its sales fetched short of its principal is charged as its loss. A
   * pool being dumped waits: nothing is sold, and nothing is charged, until spot is back
   * within the divergence bound of the twap (the twap follows a pool held down within a
   * window, so a drained pool is charged then).
   */
  private async recoverLiquidated(): Promise<void> {
    const { sales } = this.o.repository;
    await this.settleSales(sales);
    const loans = await this.o.repository.recovering();
    if (!loans.length) return;
    const recovered = await sales.recoveredOf(loans.map((l) => l.id));
    const judged = new Set<string>();
    for (const loan of loans) {
      if (judged.has(loan.asset_id)) continue;
      judged.add(loan.asset_id);
      const done = recovered.get(loan.id) ?? { units: 0n, proceeds: 0n, inFlight: false };
      if (!done.inFlight) await this.sellSeized(loan, done);
    }
  }

  private async sellSeized(loan: LoanRow, done: { units: bigint; proceeds: bigint }): Promise<void> {
    const v = await this.o.market.valuation(loan.asset_id);
    if (!v) return; // the index has not caught up with the asset
    const price = v.reading.price;
    if (!price && v.reading.missing.why !== 'no_pool') return; // its price window is filling
    const remaining = BigInt(loan.units) - done.units;
    let held = remaining;
    for (const kindId of price ? v.units.kindIds : []) {
      const movable = await this.o.queries.transferable(loan.asset_id, kindId, this.actor.address);
      if (movable < held) held = movable;
    }
    const step = nextRecoveryStep(
      {
        remaining,
        pool: price ?? 'no_pool',
        held,
        lastSaleHeight: price ? await this.o.repository.sales.lastHeight(loan.asset_id) : null,
      },
      {
        impactBps: this.o.sale.impactBps,
        everyBlocks: this.o.sale.everyBlocks,
        maxDivergenceBps: this.o.market.settings.maxDivergenceBps,
        dust: this.o.dust,
      },
    );
    if (step.do === 'close') return this.closeRecovery(loan, done.proceeds, step.why);
    if (step.do === 'wait' || !price) return;
    const { sale } = step;
    const ref = intentIds.sellSeized(loan.id, price.height);
    const issuer = loan.issuer ?? v.issuer;
    const recorded = await this.o.repository.sales.starting({
      ref,
      assetId: loan.asset_id,
      issuer,
      units: sale.units,
      height: price.height,
      loanId: loan.id,
    });
    if (!recorded) return;
    this.o.log.info('lender: selling seized units into the pool', {
      loan: loan.id,
      units: sale.units.toString(),
      expected: sale.expected.toString(),
    });
    const acted = await this.act({
      id: ref,
      kind: 'lender.sell',
      messages: [msg.swap(this.actor.address, price.poolId, true, sale.units, sale.minOut)],
    });
    if (acted && isFinal(acted.status)) await this.settleSale(this.o.repository.sales, ref);
  }

  /** Ends the loan's recovery: what its sales fetched short of the principal is charged, once, against the caps. */
  private async closeRecovery(loan: LoanRow, proceeds: bigint, why: string): Promise<void> {
    const loss = BigInt(loan.principal) - proceeds;
    const issuer = loan.issuer ?? (await this.o.market.valuation(loan.asset_id))?.issuer ?? '';
    const entry =
      loss > 0n
        ? {
            source: 'lender' as const,
            assetId: loan.asset_id,
            issuer,
            borrower: loan.borrower,
            amount: loss,
            ref: intentIds.liquidate(loan.id),
            height: await this.actor.signer.chainClient.height(),
          }
        : null;
    if (!(await this.o.repository.closeRecovery(loan.id, entry, this.o.risk))) return;
    const fields = {
      loan: loan.id,
      asset: loan.asset_id,
      principal: loan.principal,
      recovered: proceeds.toString(),
      why,
    };
    if (entry)
      this.o.log.warn('lender: a liquidation took a loss; it is charged against the caps until reset', {
        ...fields,
        loss: loss.toString(),
      });
    else this.o.log.info('lender: a liquidation recovered its principal', fields);
  }

  // ---------------------------------------------------------------- 6. income

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
        .flatMap((e) => (decodeTypedEvent(e.type, e.attributes) as Partial<EventClaimed> | null)?.entries ?? [])
        .map((x) => ({ ref: String(x.ref ?? ''), amount: String(x.amount ?? '0') }));
      await this.o.repository.recordClaim(hash, entries);
    }
  }
}
