/**
 * Services mode (live mode only): the lender and the desk sign from outside
 * the scenario (the app services, over RPC), so the scenario learns what they
 * did only from the committed chain, like any other client:
 *  - CommittedEvents reads the events of the successful txs of each new
 *    committed block once (the lender's principal transfers, the desk's
 *    proposals);
 *  - deskQuotesFlow plays the holders' side of the desk service's proposals
 *    (its RFQ quotes): a holder accepts most of those addressed to it when it
 *    can deliver what they ask, and leaves the rest to expire.
 * The borrower's side of a loan is in loan.ts (servicedLoanFlow, which reads
 * the principal with CommittedEvents); the holders' offers to the desk are
 * the desk RFQ loop's (settlement.ts).
 */
import type { Actor } from '../accounts';
import type { AbciEvent } from '../../app/types';
import type { Ctx } from '../context';
import type { Flow } from '../flow';
import * as msg from '../messages';
import { acceptable, reserveAsks, type LegSpec } from './settlement';

/** Events of the successful txs in blocks committed since the last read, each block read once. */
export class CommittedEvents {
  /** `after`: the last height already seen (its block and those before are never read) */
  constructor(private after: number) {}

  read(ctx: Ctx): AbciEvent[] {
    const chain = ctx.world.chain;
    const events: AbciEvent[] = [];
    for (let h = this.after + 1; h <= chain.height; h++) {
      for (const hash of chain.block(h)?.txHashes ?? []) {
        const result = chain.tx(hash)?.result;
        if (result?.code === 0) events.push(...result.events);
      }
    }
    this.after = Math.max(this.after, chain.height);
    return events;
  }
}

/** A plain attribute's value (bank events). */
function attribute(e: AbciEvent, key: string): string | undefined {
  return e.attributes.find((a) => a.key === key)?.value;
}

/** A typed event's attribute, JSON-encoded by the SDK convention; undefined when absent or not JSON. */
function typedAttribute(e: AbciEvent, key: string): unknown {
  const raw = attribute(e, key);
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** The amount of `denom` in an SDK coins string ("12ustable,3ugas"); 0 when absent. */
function coinAmount(coins: string, denom: string): bigint {
  let total = 0n;
  for (const part of coins.split(',')) {
    const m = /^(\d+)(.+)$/.exec(part.trim());
    if (m && m[2] === denom) total += BigInt(m[1]);
  }
  return total;
}

/** What `from` sent `to` in `denom` by bank transfers among `events`. */
export function transferredAmount(events: readonly AbciEvent[], from: string, to: string, denom: string): bigint {
  let total = 0n;
  for (const e of events) {
    if (e.type !== 'transfer' || attribute(e, 'sender') !== from || attribute(e, 'recipient') !== to) continue;
    total += coinAmount(attribute(e, 'amount') ?? '', denom);
  }
  return total;
}

/** Settlement ids the desk proposed to one of the cast's holders among `events`. */
function deskProposals(ctx: Ctx, events: readonly AbciEvent[]): number[] {
  const desk = ctx.cast.roles.desk.address;
  const holders = new Set(ctx.cast.holders.map((h) => h.address));
  const ids: number[] = [];
  for (const e of events) {
    if (e.type !== 'svc.settlement.v1.EventSettlementProposed' || typedAttribute(e, 'proposer') !== desk) continue;
    const counterparty = typedAttribute(e, 'counterparty');
    const id = Number(typedAttribute(e, 'settlement_id'));
    if (typeof counterparty === 'string' && holders.has(counterparty) && Number.isSafeInteger(id) && id > 0)
      ids.push(id);
  }
  return ids;
}

type Json = Record<string, unknown>;

/** The stored legs (proto-JSON) as the flows' leg specs; null when a leg is neither a right nor a coin. */
function legSpecs(legs: readonly Json[]): LegSpec[] | null {
  const out: LegSpec[] = [];
  for (const leg of legs) {
    const give = leg.direction === 'LEG_DIRECTION_GIVE';
    const right = leg.right as Json | undefined;
    const coin = leg.coin as Json | undefined;
    if (right)
      out.push({
        give,
        assetId: String(right.asset_id),
        kindId: Number(right.kind_id ?? 0),
        units: BigInt(String(right.units)),
      });
    else if (coin) out.push({ give, denom: String(coin.denom), amount: BigInt(String(coin.amount)) });
    else return null;
  }
  return out;
}

/** Share of the desk's proposals a holder accepts (when it can); the others are left to expire. */
const ACCEPT_CHANCE = 0.8;

/** The flow's name (the engine adds it once, when services mode starts). */
export const DESK_QUOTES = 'desk-quotes';

/** The holders' side of the desk service's proposals (see the file comment). */
class DeskQuotes implements Flow {
  readonly name = DESK_QUOTES;
  readonly active = true;
  private readonly events: CommittedEvents;
  /** desk proposals not answered yet → whether the holder means to accept (decided once, when first seen) */
  private readonly open = new Map<number, boolean>();

  constructor(after: number) {
    this.events = new CommittedEvents(after);
  }

  async step(ctx: Ctx): Promise<void> {
    for (const id of deskProposals(ctx, this.events.read(ctx))) this.open.set(id, ctx.rng.chance(ACCEPT_CHANCE));
    let sent = 0;
    for (const [id, accept] of [...this.open]) {
      // at least one answer per block, more while the block's budget lasts
      if (sent > 0 && ctx.budgetLeft <= 0) break;
      const answer = accept ? await this.tryAccept(ctx, id) : 'done';
      if (answer === 'sent') sent += 1;
      if (answer !== 'later') this.open.delete(id);
    }
  }

  /** Accepts a still pending proposal when the holder can deliver it now; 'later' when it cannot yet. */
  private async tryAccept(ctx: Ctx, id: number): Promise<'sent' | 'done' | 'later'> {
    const s = ctx.view.settlement(id);
    if (s?.status !== 'STATUS_PENDING' || Date.parse(String(s.expiry)) <= ctx.now) return 'done';
    const holder: Actor | undefined = ctx.cast.byAddress.get(String(s.counterparty));
    const legs = legSpecs((s.legs as Json[] | undefined) ?? []);
    if (!holder || !legs) return 'done';
    // units reserved by another flow this block, or coins still on their way: try again next block, until it expires
    if (!acceptable(ctx, String(s.proposer), holder.address, legs)) return 'later';
    reserveAsks(ctx, holder.address, legs);
    await ctx.submit(holder, [msg.accept(holder.address, id)]);
    return 'sent';
  }
}

/** Answers the desk's proposals committed after height `after`. */
export function deskQuotesFlow(after: number): Flow {
  return new DeskQuotes(after);
}
