/**
 * The desk at work (docs/app-services.md, "Trade desk"): while this process acts for the
 * desk's key, every DESK_POLL_MS it
 *   1. proposes every recorded RFQ still pending (one intent per RFQ: desk/rfq/<id>), so an
 *      RFQ recorded by any replica, or left by a crash, is proposed once;
 *   2. settles the answers a previous pass (or process) left in flight;
 *   3. answers every pending proposal to the desk, judged on the chain's own copy and a fresh
 *      book: a purchase is also judged against the desk's caps under the risk lock, with every
 *      accept before it in this pass or any other counted, and recorded as in flight before
 *      its accept is signed (desk/accept/<id>); refused ones are cancelled, at most
 *      DESK_CANCEL_BATCH of them in one tx per pass (desk/cancel/<hash of the ids>), and of
 *      one proposer's tx only its first DESK_CANCEL_BATCH proposals to the desk: the rest are
 *      left to the chain's expiry sweep, so one tx of junk costs the desk at most
 *      DESK_CANCEL_BATCH cancel messages. The same tx withdraws the desk's own proposals for
 *      sell RFQs whose requester can no longer deliver the units (they moved after the RFQ).
 *      A proposal whose proposer escrows less than DESK_DUST (valued at the desk's mid) is neither
 *      accepted nor cancelled: the chain's expiry sweep returns it, and it costs the desk no tx
 *      and no chain query after the first look. Every verdict is kept with its reason
 *      (GET /api/desk/offers);
 *   4. charges a loss when what it holds of an asset, at mid, has fallen below what it paid
 *      for it by more than RISK_DESK_LOSS_TOLERANCE_BPS: charged once, it keeps its room used
 *      until an operator writes it off (npm run risk -- reset) and starts the asset's
 *      cool-off (risk/exposure.ts cooloffUntil);
 *   5. sells the excess of what it holds of an asset over its target into the asset's pool,
 *      one slice per asset every DESK_REBALANCE_EVERY_BLOCKS (desk/inventory.ts): recorded
 *      before it is signed (desk/sell/<asset>/<height>), settled from its intent with what
 *      the pool paid, which lowers what the desk paid for the asset, net.
 */
import { createHash } from 'crypto';
import { PollingWorker, type Step } from '../polling-worker';
import type { Market } from '../market/eligibility';
import type { AddressedEvents } from '../chain/addressed-events';
import { SETTLEMENT_PROPOSED, withSeenProposals, type ProposalSeen } from '../store/indexer-reads';
import type { ChainQueries } from '../chain/queries';
import { isFinal } from '../intents/intent-log';
import type { PartLogger } from '../../src/lib/logger';
import { decodeTypedEvent } from '../../src/lib/typed-event';
import type { EventSettlementProposed } from '../../src/mappings/generated/proto-json';
import * as msg from '../chain/messages';
import { deskAssetRoom, purchaseRefusal, type DeskLimitSettings, type SharedRiskSettings } from '../risk/exposure';
import { refusal, type Refusal } from '../risk/reasons';
import type { RiskRepository } from '../risk/repository';
import { exposureAtCost, holdingAtMid, type Book, type DeskBook } from './book';
import { nextSale, type InventoryRule } from './inventory';
import { escrowedValue, judgeOffer, offerAmountOf, offerAssetOf, type OfferLeg, type Verdict } from './offers';
import { WHOLE_SHARE } from './pricing';
import { instrumentOf } from './presenter';
import { rfqExpiry, type DeskRepository, type OfferRepository, type OfferVerdict, type RfqRow } from './repository';

export interface DeskWorkerOptions {
  repository: DeskRepository;
  /** to value what the desk holds of assets it no longer quotes */
  market: Market;
  offers: OfferRepository;
  risk: RiskRepository;
  book: DeskBook;
  queries: ChainQueries;
  denom: string;
  maxTrade: bigint;
  limits: DeskLimitSettings;
  shared: SharedRiskSettings;
  /** RISK_DESK_LOSS_TOLERANCE_BPS */
  lossToleranceBps: number;
  /** DESK_DUST: stable base units */
  dust: bigint;
  /** DESK_CANCEL_BATCH: cancels per tx (and per pass) */
  cancelBatch: number;
  /** DESK_INVENTORY_TARGET_BPS, DESK_REBALANCE_IMPACT_BPS, DESK_REBALANCE_EVERY_BLOCKS */
  inventory: InventoryRule & { everyBlocks: number };
  pollMs: number;
  /** proposals to the desk in committed blocks the index has not reached yet */
  seen?: AddressedEvents;
  log: PartLogger;
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
  sell: (assetId: string, height: number) => `desk/sell/${assetId}/${height}`,
};

/** The desk's proposal for an RFQ: its own side given (escrowed at propose), the requester's asked. */
export function rfqProposal(desk: string, r: RfqRow, denom: string, kindIds: number[]): msg.IntentMessage {
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

type Accept = Extract<Verdict, { accept: true }>;

/** What an accepted trade leaves of the desk's inventory, for the rest of the pass (its exposure is in the risk account). */
function takeFromBook(book: Book, v: Accept): void {
  book.cash += v.deskBuys ? -v.amount : v.amount;
  for (const k of v.quote.kinds) {
    const change = v.deskBuys ? v.units : -v.units;
    v.asset.movable.set(k, (v.asset.movable.get(k) ?? 0n) + change);
    v.asset.held.set(k, (v.asset.held.get(k) ?? 0n) + change);
  }
}

const BPS = 10_000n;

/** How a sell RFQ its requester could no longer deliver is marked failed (its error starts so). */
export const UNDELIVERABLE = 'undeliverable';

export class DeskWorker extends PollingWorker {
  readonly name = 'desk';

  constructor(private readonly o: DeskWorkerOptions) {
    super(o.pollMs, o.log);
  }

  protected steps(): Step[] {
    return [
      ['propose RFQs', () => this.proposePending()],
      ['settle answers in flight', () => this.settleInFlight()],
      ['answer proposals', () => this.answerProposals()],
      ['charge losses', () => this.chargeLosses()],
      ['sell excess inventory', () => this.sellExcess()],
    ];
  }

  private async proposePending(): Promise<void> {
    for (const r of await this.o.repository.pending()) await this.propose(r);
  }

  /** Proposes the RFQ (once) and records its settlement id; the row as it stands after. */
  async propose(r: RfqRow): Promise<RfqRow | undefined> {
    const kinds = await this.kindsOfRfq(r);
    const short =
      r.side === 'sell' &&
      !(await this.actor.intents.get(deskIntentIds.rfq(r.id))) &&
      (await this.undeliverable(r, kinds));
    if (short) {
      await this.o.repository.settle(r.id, { status: 'failed', error: `${UNDELIVERABLE}: ${short}` });
      return this.o.repository.get(r.id);
    }
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

  /** Why the requester of a sell RFQ cannot deliver it now (null: it can): checked again before the desk proposes. */
  private async undeliverable(r: RfqRow, kinds: number[]): Promise<string | null> {
    const short = await this.o.book.shortfall(r.requester, r.asset_id, kinds, BigInt(r.units));
    return (
      short &&
      `the requester holds ${short.movable} units of kind ${short.kindId} it may move, the RFQ sells ${r.units}`
    );
  }

  private kindsOfRfq(r: RfqRow): Promise<number[]> {
    return r.kind_id === WHOLE_SHARE ? this.kindsOf(r.asset_id) : Promise.resolve([r.kind_id]);
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
    const decoded =
      event && (decodeTypedEvent(event.type, event.attributes) as Partial<EventSettlementProposed> | null);
    if (decoded?.settlement_id === undefined) throw new Error(`tx ${txHash} proposed no settlement`);
    return String(decoded.settlement_id);
  }

  /** Accepts a previous pass or process left in flight: done on the chain, or not to be done. */
  private async settleInFlight(): Promise<void> {
    for (const id of await this.o.offers.accepting()) {
      const latest = await this.actor.intents.latest(deskIntentIds.accept(id));
      if (!latest) await this.o.offers.acceptFailed(id, 'no accept was signed');
      else if (latest.status === 'committed')
        await this.o.offers.settled([id], 'accepted', latest.txHash!, latest.height);
      else if (isFinal(latest.status))
        await this.o.offers.acceptFailed(id, `the accept failed on the chain (${latest.codespace}/${latest.code})`);
    }
  }

  /** Settlement ids left to expire (dust, near expiry, a cancel that failed) while they stay pending: not looked at again. */
  private readonly leftAlone = new Set<string>();

  /** The pass's one cancel tx: the desk's own proposals it withdraws, then the proposals to it it refuses. */
  private async answerProposals(): Promise<void> {
    const cancels = await this.undeliverableRfqs(this.o.cancelBatch);
    await this.judgeProposals(cancels);
    if (cancels.length) await this.cancel(cancels);
  }

  /**
   * The desk's proposals for sell RFQs whose requester can no longer deliver them (the units
   * moved, or were locked or pledged, after the RFQ) are withdrawn: one lot of units relayed
   * from requester to requester reserves the desk's room for one RFQ at a time, not one per
   * relay. Each is judged on the chain's own copy (still pending: an accept moves the units
   * too) and recorded as refused `undeliverable` in the requester's offers list.
   */
  private async undeliverableRfqs(max: number): Promise<string[]> {
    const withdrawn: string[] = [];
    for (const r of await this.o.repository.proposedSells()) {
      const settlementId = r.settlement_id;
      if (withdrawn.length >= max) break;
      if (!settlementId) continue;
      const short = await this.undeliverable(r, await this.kindsOfRfq(r));
      if (!short) continue;
      const onChain = await this.o.queries.settlement(BigInt(settlementId));
      if (onChain?.status !== 'STATUS_PENDING') continue;
      this.o.log.info('desk: withdrawing an RFQ its requester can no longer deliver', {
        rfq: r.id,
        settlement: settlementId,
        detail: short,
      });
      const why = refusal(
        'undeliverable',
        `the desk withdrew its proposal for your RFQ ${r.id}: ${short}; ask again once the units are yours to move`,
      );
      await this.o.offers.record(
        this.verdictOf({ id: settlementId, proposer: r.requester }, onChain.legs as OfferLeg[], 'refused', why),
      );
      withdrawn.push(settlementId);
    }
    return withdrawn;
  }

  /** Judges every pending proposal to the desk; the refused ones to cancel join `cancels`, up to DESK_CANCEL_BATCH. */
  private async judgeProposals(cancels: string[]): Promise<void> {
    const indexedHeight = this.o.seen ? await this.o.repository.indexedHeight() : 0;
    const proposals = withSeenProposals(
      await this.o.repository.pendingProposals(this.actor.address),
      this.o.seen?.above(indexedHeight, SETTLEMENT_PROPOSED) ?? [],
    );
    const pendingIds = new Set(proposals.map((p) => p.id));
    for (const id of this.leftAlone) if (!pendingIds.has(id)) this.leftAlone.delete(id);
    const fresh = proposals.filter((p) => !this.leftAlone.has(p.id));
    if (!fresh.length) return;
    const book = await this.o.book.fresh();
    const earlier = await this.earlierInTx(fresh);
    for (const p of fresh) {
      if (escrowedValue(p.legs, book, this.o.denom) < this.o.dust) {
        await this.leaveAlone(
          p,
          p.legs,
          refusal('dust', `escrows less than ${this.o.dust} (DESK_DUST): left to expire`),
        );
        continue;
      }
      // judged on the chain's own copy: the index may be a block behind, and it is what accept moves
      const onChain = await this.o.queries.settlement(BigInt(p.id));
      if (onChain?.status !== 'STATUS_PENDING') continue;
      const legs = onChain.legs as OfferLeg[];
      if (onChain.expiryMs - Date.now() < EXPIRING_MS) {
        await this.leaveAlone(p, legs, refusal('expiring', 'within 10 s of its expiry: left to the chain'));
        continue;
      }
      const verdict = judgeOffer(legs, book, { denom: this.o.denom, maxTrade: this.o.maxTrade });
      const refused = verdict.accept ? await this.accept(p, legs, verdict, book) : verdict;
      if (refused && (earlier.get(p.id) ?? 0) >= this.o.cancelBatch) {
        // one tx of many refused proposals gets one cancel tx, at most: the rest expire on their own
        await this.leaveAlone(
          p,
          legs,
          refusal(
            refused.reason,
            `${refused.detail}; beyond the first ${this.o.cancelBatch} proposals of its tx (DESK_CANCEL_BATCH): left to expire`,
          ),
        );
        continue;
      }
      if (refused && cancels.length < this.o.cancelBatch) {
        this.o.log.info('desk: cancelling a proposal', {
          settlement: p.id,
          reason: refused.reason,
          detail: refused.detail,
        });
        await this.o.offers.record(this.verdictOf(p, legs, 'refused', refused));
        cancels.push(p.id);
      }
    }
  }

  /**
   * How many proposals to the desk each proposal's proposer made earlier in the same tx: from
   * the index for those it holds (cancelled or settled ones count), else among the proposals
   * seen in the same tx (a tx's proposals are indexed together).
   */
  private async earlierInTx(proposals: readonly ProposalSeen[]): Promise<Map<string, number>> {
    const indexed = await this.o.repository.earlierInTx(
      this.actor.address,
      proposals.map((p) => p.id),
    );
    const seen = new Map<string, number>();
    for (const p of [...proposals].sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)))) {
      if (indexed.has(p.id) || !p.txHash) continue;
      const key = `${p.proposer}|${p.txHash}`;
      indexed.set(p.id, seen.get(key) ?? 0);
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    return indexed;
  }

  private verdictOf(
    p: { id: string; proposer: string },
    legs: readonly OfferLeg[],
    verdict: OfferVerdict['verdict'],
    why: Refusal | null,
    buysValue: bigint | null = null,
    issuer: string | null = null,
  ): OfferVerdict {
    return {
      settlementId: p.id,
      proposer: p.proposer,
      assetId: offerAssetOf(legs),
      issuer,
      amount: offerAmountOf(legs, this.o.denom),
      buysValue,
      verdict,
      why,
    };
  }

  private async leaveAlone(
    p: { id: string; proposer: string },
    legs: readonly OfferLeg[],
    why: Refusal,
  ): Promise<void> {
    this.leftAlone.add(p.id);
    await this.o.offers.record(this.verdictOf(p, legs, 'left_to_expire', why));
  }

  /**
   * Accepts an offer the book takes. A purchase must also fit the desk's caps, judged under
   * the risk lock on everything the desk (and the lender) has out, this pass's accepts
   * included, and is recorded in flight before the lock is released; a refusal is returned.
   * The accept is retried (after a backoff, under a new attempt id) while the chain's copy is
   * pending and the offer still good.
   */
  private async accept(
    p: { id: string; proposer: string },
    legs: readonly OfferLeg[],
    v: Accept,
    book: Book,
  ): Promise<Refusal | null> {
    const { asset } = v;
    const issuer = asset.asset.issuer;
    const refused = await this.o.risk.underRiskLock(async (c) => {
      if (v.deskBuys) {
        const subject = { assetId: asset.asset.asset_id, issuer, poolQuoteReserve: asset.poolQuoteReserve };
        const why = purchaseRefusal(
          await this.o.risk.snapshot(c),
          subject,
          v.buysValue,
          this.o.limits,
          this.o.shared,
          Date.now(),
        );
        if (why) {
          return refusal(
            why.reason,
            `the offer asks ${v.amount} for ${v.units} base units of ${instrumentOf(v.quote.symbol, v.quote.kind)} (the desk bids ${v.quote.bid} per whole unit, mid ${v.quote.mid}): ${why.detail}`,
          );
        }
      }
      await this.o.offers.record(
        this.verdictOf(p, legs, 'accepting', null, v.deskBuys ? v.buysValue : null, issuer),
        c,
      );
      return null;
    });
    if (refused) return refused;
    const done = await this.actRetrying({
      id: deskIntentIds.accept(p.id),
      kind: 'desk.accept',
      messages: [msg.accept(this.actor.address, BigInt(p.id))],
    });
    if (done?.status === 'committed') {
      this.o.log.info('desk: accepted a proposal', { settlement: p.id, amount: v.amount.toString() });
      await this.o.offers.settled([p.id], 'accepted', done.txHash!, done.height);
      takeFromBook(book, v);
    } else if (done && isFinal(done.status))
      await this.o.offers.acceptFailed(p.id, `the accept failed on the chain (${done.codespace}/${done.code})`);
    return null;
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
    if (!done || !isFinal(done.status)) return;
    if (done.status === 'committed') return this.o.offers.settled(ids, 'cancelled', done.txHash!, done.height);
    const onChain = await Promise.all(ids.map((id) => this.o.queries.settlement(BigInt(id))));
    if (onChain.every((x) => x?.status === 'STATUS_PENDING')) for (const id of ids) this.leftAlone.add(id);
  }

  // ---------------------------------------------------------------- losses

  /**
   * A holding marked at mid more than RISK_DESK_LOSS_TOLERANCE_BPS (of what the desk paid for
   * the asset, net) below that cost is a loss: charged as it grows, once (every loss charged
   * before, written off or not, is taken from the shortfall first), never released by a
   * recovery. Every asset the desk has paid for is judged, quoted or not: an attacker who
   * drains his pool takes the asset out of the quotes, not its loss; a holding that cannot
   * be priced at all is charged whole, once.
   */
  private async chargeLosses(): Promise<void> {
    const book = await this.o.book.current();
    for (const [assetId, cost] of book.costs) {
      if (cost.paid <= 0n) continue;
      const quoted = book.assets.get(assetId);
      const value = quoted ? holdingAtMid(quoted) : await this.unquotedValue(assetId);
      if (value === undefined) continue;
      const unrecorded = cost.paid - value - cost.charged;
      if (unrecorded <= 0n || unrecorded * BPS < cost.paid * BigInt(this.o.lossToleranceBps)) continue;
      const recorded = await this.o.risk.recordLoss({
        source: 'desk',
        assetId,
        issuer: cost.issuer,
        amount: unrecorded,
        ref: `desk/${assetId}/${book.height}`,
        height: book.height,
      });
      if (recorded)
        this.o.log.warn('desk: a position fell below its cost; the loss is charged against the caps until reset', {
          asset: assetId,
          cost: cost.paid.toString(),
          at_mid: value.toString(),
          loss: unrecorded.toString(),
        });
    }
  }

  /**
   * What the desk holds of an asset it no longer quotes, at mid (0 once it has no pool);
   * undefined while a new pool's price window fills or the asset cannot be valued in one unit.
   */
  private async unquotedValue(assetId: string): Promise<bigint | undefined> {
    const v = await this.o.market.valuation(assetId);
    if (!v || (!v.reading.price && v.reading.missing.why !== 'no_pool')) return undefined;
    const twap = v.reading.price?.twap ?? 0n;
    const held = new Map<number, bigint>();
    for (const kindId of v.units.kindIds)
      held.set(kindId, (await this.o.queries.position(assetId, kindId, this.actor.address)).units);
    return v.units.holdingValue(held, twap);
  }

  // ---------------------------------------------------------------- inventory

  /** Sells one slice of each quoted asset's excess (desk/inventory.ts), after settling the sales a crash left. */
  private async sellExcess(): Promise<void> {
    await this.settleSales(this.o.repository.sales);
    const book = await this.o.book.current();
    const { limits, shared, inventory } = this.o;
    const tierCost = { listed: 0n, community: 0n };
    const issuerCost = new Map<string, bigint>(); // by tier and issuer
    const issuerKey = (assetId: string, issuer: string) => `${shared.tiers.tierOf(assetId)}/${issuer}`;
    for (const [assetId, c] of book.costs) {
      const cost = exposureAtCost(c);
      tierCost[shared.tiers.tierOf(assetId)] += cost;
      const issuer = book.assets.get(assetId)?.asset.issuer;
      if (!issuer) continue;
      const key = issuerKey(assetId, issuer);
      issuerCost.set(key, (issuerCost.get(key) ?? 0n) + cost);
    }
    for (const a of book.assets.values()) {
      const assetId = a.asset.asset_id;
      const cost = book.costs.get(assetId);
      const listed = shared.tiers.isListed(assetId);
      const sale = nextSale(
        {
          cost: cost ? exposureAtCost(cost) : 0n,
          positionCap: deskAssetRoom({ assetId, poolQuoteReserve: a.poolQuoteReserve }, limits, shared),
          tierCost: tierCost[listed ? 'listed' : 'community'],
          tierCap: listed ? limits.maxTotal : limits.communityMaxTotal,
          issuerCost: issuerCost.get(issuerKey(assetId, a.asset.issuer)) ?? 0n,
          issuerCap: listed ? shared.maxPerIssuer : shared.communityMaxPerIssuer,
          movableBundles:
            a.units.kindIds.reduce<bigint | null>((least, k) => {
              const m = a.movable.get(k) ?? 0n;
              return least === null || m < least ? m : least;
            }, null) ?? 0n,
          twap: a.price.twap,
          spot: a.price.spot,
          priceDecimals: a.units.priceDecimals,
          baseReserve: a.price.baseReserve,
          quoteReserve: a.price.quoteReserve,
          maxDivergenceBps: this.o.market.settings.maxDivergenceBps,
        },
        inventory,
      );
      if (!sale || sale.expected < this.o.dust) continue;
      const last = await this.o.repository.sales.lastHeight(assetId);
      if (last !== null && book.height - last < inventory.everyBlocks) continue;
      const ref = deskIntentIds.sell(assetId, book.height);
      if (
        !(await this.o.repository.sales.starting({
          ref,
          assetId,
          issuer: a.asset.issuer,
          units: sale.units,
          height: book.height,
        }))
      )
        continue;
      this.o.log.info('desk: selling excess inventory into the pool', {
        asset: assetId,
        units: sale.units.toString(),
        expected: sale.expected.toString(),
      });
      const done = await this.act({
        id: ref,
        kind: 'desk.sell',
        messages: [msg.swap(this.actor.address, a.price.poolId, true, sale.units, sale.minOut)],
      });
      if (done && isFinal(done.status)) await this.settleSale(this.o.repository.sales, ref);
    }
  }
}
