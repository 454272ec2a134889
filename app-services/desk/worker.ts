/**
 * The desk at work (docs/app-services.md, "Trade desk"): while this process acts for the
 * desk's key, every DESK_POLL_MS it
 *   1. proposes every recorded RFQ still pending (one intent per RFQ: desk/rfq/<id>), so an
 *      RFQ recorded by any replica, or left by a crash, is proposed once;
 *   2. answers every pending proposal to the desk, judged on the chain's own copy and a fresh
 *      book: accepted (desk/accept/<id>) when judgeOffer says so; otherwise cancelled, at most
 *      DESK_CANCEL_BATCH of them in one tx per pass (desk/cancel/<hash of the ids>). A proposal
 *      whose proposer escrows less than DESK_DUST (valued at the desk's mid) is neither
 *      accepted nor cancelled: the chain's expiry sweep returns it, and it costs the desk no tx
 *      and no chain query after the first look.
 */
import { createHash } from 'crypto';
import { PollingWorker, type Step } from '../polling-worker';
import type { ChainQueries } from '../chain/queries';
import { isFinal, type IntentMessage } from '../intents/intent-log';
import type { AppLogger } from '../logger';
import * as msg from '../chain/messages';
import { unitsKey, type Book, type DeskBook } from './book';
import { escrowedValue, judgeOffer, type OfferLeg, type Verdict } from './offers';
import { WHOLE_SHARE } from './pricing';
import { rfqExpiry, type DeskRepository, type RfqRow } from './repository';

export interface DeskWorkerOptions {
  repository: DeskRepository;
  book: DeskBook;
  queries: ChainQueries;
  denom: string;
  maxTrade: bigint;
  /** DESK_MAX_POSITION */
  maxPosition: bigint;
  /** DESK_DUST: stable base units */
  dust: bigint;
  /** DESK_CANCEL_BATCH: cancels per tx (and per pass) */
  cancelBatch: number;
  pollMs: number;
  log: AppLogger;
}

/** A proposal this close to its expiry is left to the chain's sweep (a cancel could fail in its block). */
const EXPIRING_MS = 10_000;

const GIVE = 'LEG_DIRECTION_GIVE';
const ASK = 'LEG_DIRECTION_ASK';

export const deskIntentIds = {
  rfq: (id: string) => `desk/rfq/${id}`,
  accept: (settlement: string) => `desk/accept/${settlement}`,
  cancel: (settlements: string[]) =>
    `desk/cancel/${createHash('sha256').update(settlements.join(',')).digest('hex').slice(0, 32)}`,
};

/** The desk's proposal for an RFQ: its own side given (escrowed at propose), the requester's asked. */
export function rfqProposal(desk: string, r: RfqRow, denom: string, kindIds: number[]): IntentMessage {
  const coin = { direction: r.side === 'sell' ? GIVE : ASK, coin: { denom, amount: r.amount } };
  const rights = kindIds.map((k) => ({
    direction: r.side === 'sell' ? ASK : GIVE,
    right: { asset_id: r.asset_id, kind_id: k, units: r.units },
  }));
  return {
    typeUrl: '/svc.settlement.v1.MsgPropose',
    value: { proposer: desk, counterparty: r.requester, legs: [coin, ...rights], expiry: rfqExpiry(r), memo_hash: '' },
  };
}

/** What an accepted trade leaves of the desk's inventory, for the rest of the pass. */
function takeFromBook(book: Book, v: Extract<Verdict, { accept: true }>): void {
  book.cash += v.deskBuys ? -v.amount : v.amount;
  for (const k of v.quote.kinds) {
    const key = unitsKey(v.quote.asset_id, k);
    book.units.set(key, (book.units.get(key) ?? 0n) + (v.deskBuys ? v.units : -v.units));
  }
}

export class DeskWorker extends PollingWorker {
  readonly name = 'desk';

  constructor(private readonly o: DeskWorkerOptions) {
    super(o.pollMs, o.log);
  }

  protected steps(): Step[] {
    return [
      ['propose RFQs', () => this.proposePending()],
      ['answer proposals', () => this.answerProposals()],
    ];
  }

  private async proposePending(): Promise<void> {
    for (const r of await this.o.repository.pending()) await this.propose(r);
  }

  /** Proposes the RFQ (once) and records its settlement id; the row as it stands after. */
  async propose(r: RfqRow): Promise<RfqRow | undefined> {
    const kinds = r.kind_id === WHOLE_SHARE ? await this.kindsOf(r.asset_id) : [r.kind_id];
    const done = await this.act({
      id: deskIntentIds.rfq(r.id),
      kind: 'desk.rfq',
      messages: [rfqProposal(this.actor.address, r, this.o.denom, kinds)],
    });
    if (done && isFinal(done.status)) {
      if (done.status === 'committed')
        await this.o.repository.settle(r.id, {
          status: 'proposed',
          settlementId: await this.settlementIdOf(done.txHash!),
        });
      else {
        const error = `the chain refused the proposal (${done.codespace}/${done.code}): ${done.log}`;
        this.o.log.warn('desk: an RFQ proposal failed', { rfq: r.id, error });
        await this.o.repository.settle(r.id, { status: 'failed', error });
      }
    }
    return this.o.repository.get(r.id);
  }

  private async kindsOf(assetId: string): Promise<number[]> {
    const kinds = await this.o.repository.kindIds(assetId);
    if (!kinds.length) throw new Error(`asset ${assetId} has no kinds in the store`);
    return kinds;
  }

  /** The settlement id from the proposal's EventSettlementProposed. */
  private async settlementIdOf(txHash: string): Promise<string> {
    const tx = await this.actor.signer.chainClient.findTx(txHash);
    const event = tx?.events.find((e) => e.type === 'svc.settlement.v1.EventSettlementProposed');
    const raw = event?.attributes.find((a) => a.key === 'settlement_id')?.value;
    if (raw === undefined) throw new Error(`tx ${txHash} proposed no settlement`);
    return String(JSON.parse(raw));
  }

  /** Settlement ids left to expire (dust, near expiry, a cancel that failed) while they stay pending: not looked at again. */
  private readonly leftAlone = new Set<string>();

  private async answerProposals(): Promise<void> {
    const proposals = await this.o.repository.pendingProposals(this.actor.address);
    const pendingIds = new Set(proposals.map((p) => p.id));
    for (const id of this.leftAlone) if (!pendingIds.has(id)) this.leftAlone.delete(id);
    const fresh = proposals.filter((p) => !this.leftAlone.has(p.id));
    if (!fresh.length) return;
    const book = await this.o.book.fresh();
    const cancels: string[] = [];
    for (const p of fresh) {
      if (escrowedValue(p.legs, book, this.o.denom) < this.o.dust) {
        this.leftAlone.add(p.id);
        continue;
      }
      // judged on the chain's own copy: the index may be a block behind, and it is what accept moves
      const onChain = await this.o.queries.settlement(BigInt(p.id));
      if (onChain?.status !== 'STATUS_PENDING') continue;
      if (onChain.expiryMs - Date.now() < EXPIRING_MS) {
        this.leftAlone.add(p.id);
        continue;
      }
      const verdict = judgeOffer(onChain.legs as OfferLeg[], book, {
        denom: this.o.denom,
        maxTrade: this.o.maxTrade,
        maxPosition: this.o.maxPosition,
      });
      if (verdict.accept) await this.accept(p.id, verdict, book);
      else if (cancels.length < this.o.cancelBatch) {
        this.o.log.info('desk: cancelling a proposal', { settlement: p.id, reason: verdict.reason });
        cancels.push(p.id);
      }
    }
    if (cancels.length) await this.cancel(cancels);
  }

  /** Retried (after a backoff, under a new attempt id) while the chain's copy is pending and the offer still good. */
  private async accept(id: string, verdict: Extract<Verdict, { accept: true }>, book: Book): Promise<void> {
    const done = await this.actRetrying({
      id: deskIntentIds.accept(id),
      kind: 'desk.accept',
      messages: [msg.accept(this.actor.address, BigInt(id))],
    });
    if (done?.status === 'committed') {
      this.o.log.info('desk: accepted a proposal', { settlement: id, amount: verdict.amount.toString() });
      takeFromBook(book, verdict);
    }
  }

  /**
   * One tx for the pass's cancels. If it fails because one of them left the chain's pending
   * set, the next pass judges again without it (another set, another intent). If every one
   * is still pending, the same set would fail again: those proposals are left to expire.
   */
  private async cancel(ids: string[]): Promise<void> {
    const done = await this.act({
      id: deskIntentIds.cancel(ids),
      kind: 'desk.cancel',
      messages: ids.map((id) => msg.cancel(this.actor.address, BigInt(id))),
    });
    if (!done || !isFinal(done.status) || done.status === 'committed') return;
    const onChain = await Promise.all(ids.map((id) => this.o.queries.settlement(BigInt(id))));
    if (onChain.every((x) => x?.status === 'STATUS_PENDING')) for (const id of ids) this.leftAlone.add(id);
  }
}
