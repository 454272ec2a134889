/**
 * The desk at work (docs/app-services.md, "Trade desk"): while this process acts for the
 * desk's key, every DESK_POLL_MS it
 *   1. proposes every recorded RFQ still pending (one intent per RFQ: desk/rfq/<id>), so an
 *      RFQ recorded by any replica, or left by a crash, is proposed once;
 *   2. answers every pending proposal to the desk: accepted (desk/accept/<id>) when
 *      judgeOffer says so on a fresh book, cancelled (desk/cancel/<id>) otherwise.
 */
import { PollingWorker, type Step } from '../polling-worker';
import type { ChainQueries } from '../chain/queries';
import { isFinal, type IntentMessage } from '../intents/intent-log';
import type { AppLogger } from '../logger';
import * as msg from '../chain/messages';
import { unitsKey, type Book, type DeskBook } from './book';
import { judgeOffer, type OfferLeg, type Verdict } from './offers';
import { WHOLE_SHARE } from './pricing';
import { rfqExpiry, type DeskRepository, type RfqRow } from './repository';

export interface DeskWorkerOptions {
  repository: DeskRepository;
  book: DeskBook;
  queries: ChainQueries;
  denom: string;
  maxTrade: bigint;
  pollMs: number;
  log: AppLogger;
}

const GIVE = 'LEG_DIRECTION_GIVE';
const ASK = 'LEG_DIRECTION_ASK';

export const deskIntentIds = {
  rfq: (id: string) => `desk/rfq/${id}`,
  accept: (settlement: string) => `desk/accept/${settlement}`,
  cancel: (settlement: string) => `desk/cancel/${settlement}`,
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
      else
        await this.o.repository.settle(r.id, {
          status: 'failed',
          error: `the chain refused the proposal (${done.codespace}/${done.code}): ${done.log}`,
        });
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

  private async answerProposals(): Promise<void> {
    const proposals = await this.o.repository.pendingProposals(this.actor.address);
    if (!proposals.length) return;
    const book = await this.o.book.fresh();
    for (const p of proposals) {
      // judged on the chain's own copy: the index may be a block behind, and it is what accept moves
      const onChain = await this.o.queries.settlement(BigInt(p.id));
      if (onChain?.status !== 'STATUS_PENDING') continue;
      const verdict = judgeOffer(onChain.legs as OfferLeg[], book, { denom: this.o.denom, maxTrade: this.o.maxTrade });
      if (verdict.accept && onChain.expiryMs > Date.now()) {
        const done = await this.act({
          id: deskIntentIds.accept(p.id),
          kind: 'desk.accept',
          messages: [msg.accept(this.actor.address, BigInt(p.id))],
        });
        if (done?.status === 'committed') {
          this.o.log.info('desk: accepted a proposal', { settlement: p.id, amount: verdict.amount.toString() });
          takeFromBook(book, verdict);
        }
      } else {
        this.o.log.info('desk: cancelling a proposal', {
          settlement: p.id,
          reason: verdict.accept ? 'expired' : verdict.reason,
        });
        await this.act({
          id: deskIntentIds.cancel(p.id),
          kind: 'desk.cancel',
          messages: [msg.cancel(this.actor.address, BigInt(p.id))],
        });
      }
    }
  }
}
