/**
 * Settlements: a proposal with escrowed GIVE legs, then (next block) the
 * counterparty's accept, a party's cancel, or nothing until the end-of-block
 * sweep expires it. Before accepting, the flow checks against committed state
 * that the settlement is still pending and that the counterparty can still
 * deliver its ASK legs; if not, the counterparty cancels instead.
 *
 * The desk RFQ (docs/app-services.md, "Trade desk"): the desk proposes to the requester with
 * the desk side escrowed: for `sell` it gives the stable denom at its bid and
 * asks the units, for `buy` it gives the units at its ask and asks the stable
 * denom. Holders also offer the desk whole shares at its bid, which it
 * accepts (behaviour 3). Prices: the pool price of the whole share times the kind's fraction
 * (ECONOMIC 60 %, INCOME 30 %, VOTE 10 %), 2 % either side of the mid.
 *
 * In services mode the desk is the trade-desk service's: the loop only has
 * holders offer it shares (ending 'leave': the service accepts or lets them
 * expire), and holders answer the service's own proposals (services.ts).
 */
import type { Actor } from '../accounts';
import type { Ctx, Handle, LaunchedAsset } from '../context';
import { Loop, script, type Flow } from '../flow';
import * as msg from '../messages';
import type { Leg } from '../messages';
import { expectOk, responseId, WHOLE } from './util';

/** 'leave': proposed with a long expiry and left to a counterparty outside the scenario (an app service in services mode). */
export type Ending = 'accept' | 'cancel' | 'expire' | 'leave';

export interface RightLeg {
  give: boolean;
  assetId: string;
  kindId: number;
  units: bigint;
}
export interface CoinLeg {
  give: boolean;
  denom: string;
  amount: bigint;
}
export type LegSpec = RightLeg | CoinLeg;

const isRight = (l: LegSpec): l is RightLeg => 'assetId' in l;

export function toLeg(l: LegSpec): Leg {
  if (isRight(l))
    return l.give ? msg.giveRight(l.assetId, l.kindId, l.units) : msg.askRight(l.assetId, l.kindId, l.units);
  return l.give ? msg.giveCoin(msg.coin(l.denom, l.amount)) : msg.askCoin(msg.coin(l.denom, l.amount));
}

/** Whether the proposer can escrow its GIVE legs now (reserving them when it can). */
export function reserveGives(ctx: Ctx, proposer: string, legs: LegSpec[]): boolean {
  for (const l of legs.filter((x) => x.give)) {
    const ok = isRight(l)
      ? ctx.availableUnits(proposer, l.assetId, l.kindId) >= l.units
      : ctx.availableCoins(proposer, l.denom) >= l.amount;
    if (!ok) return false;
  }
  for (const l of legs.filter((x) => x.give)) {
    if (isRight(l)) ctx.reserveUnits(proposer, l.assetId, l.kindId, l.units);
    else ctx.reserveCoins(proposer, l.denom, l.amount);
  }
  return true;
}

/** Whether the counterparty can deliver the ASK legs and both sides may receive what moves. */
export function acceptable(ctx: Ctx, proposer: string, counterparty: string, legs: LegSpec[]): boolean {
  for (const l of legs) {
    if (!isRight(l)) {
      if (!l.give && ctx.availableCoins(counterparty, l.denom) < l.amount) return false;
      continue;
    }
    const view = ctx.assetView(l.assetId);
    if (view?.status !== 'ASSET_STATUS_ACTIVE') return false;
    if (!ctx.canReceive(l.assetId, l.kindId, l.give ? counterparty : proposer)) return false;
    if (!l.give && ctx.availableUnits(counterparty, l.assetId, l.kindId) < l.units) return false;
  }
  return true;
}

export function reserveAsks(ctx: Ctx, counterparty: string, legs: LegSpec[]): void {
  for (const l of legs.filter((x) => !x.give)) {
    if (isRight(l)) ctx.reserveUnits(counterparty, l.assetId, l.kindId, l.units);
    else ctx.reserveCoins(counterparty, l.denom, l.amount);
  }
}

interface SettlementState {
  proposal?: Handle;
}

/**
 * A settlement from proposal to its ending. The GIVE legs must already be
 * reserved by the caller (reserveGives) in the proposing block.
 */
export function settlementFlow(
  name: string,
  proposer: Actor,
  counterparty: Actor,
  legs: LegSpec[],
  ending: Ending,
): Flow {
  return script<SettlementState>(name, {}, [
    async (ctx, s) => {
      const expiry = ending === 'expire' ? ctx.shortExpiry() : ctx.longExpiry();
      s.proposal = await ctx.submit(proposer, [
        msg.propose(proposer.address, counterparty.address, legs.map(toLeg), expiry),
      ]);
    },
    async (ctx, s): Promise<'stop'> => {
      const id = responseId(expectOk(ctx, s.proposal!, `${name} proposal`), 'settlement_id');
      if (ending === 'expire' || ending === 'leave') return 'stop';
      const settlement = ctx.view.settlement(id);
      const live = settlement?.status === 'STATUS_PENDING' && Date.parse(String(settlement.expiry)) > ctx.now;
      if (!live) return 'stop';
      if (ending === 'accept' && acceptable(ctx, proposer.address, counterparty.address, legs)) {
        // a flow started before services mode: the service answers for its role itself
        if (!ctx.signsFor(counterparty)) return 'stop';
        reserveAsks(ctx, counterparty.address, legs);
        await ctx.submit(counterparty, [msg.accept(counterparty.address, id)]);
        return 'stop';
      }
      const chosen = ending === 'cancel' && ctx.rng.chance(0.5) ? proposer : counterparty;
      // never as a service role in services mode: the other party cancels, or nobody (the settlement expires)
      const canceller = ctx.signsFor(chosen) ? chosen : chosen === proposer ? counterparty : proposer;
      if (!ctx.signsFor(canceller)) return 'stop';
      await ctx.submit(canceller, [msg.cancel(canceller.address, id)]);
      return 'stop';
    },
  ]);
}

// ------------------------------------------------------------------ desk RFQ

const KIND_FRACTION_PERCENT = [60n, 30n, 10n];

/** Base units of the stable denom per whole unit of `kindId` (-1 = whole share), at the pool price or 1.00 without a pool. */
export function deskPrice(ctx: Ctx, asset: LaunchedAsset, kindId: number, side: 'sell' | 'buy'): bigint {
  const pool = ctx.view.pool(asset.assetId, ctx.config.stableDenom);
  const whole = pool && pool.pricePerWhole > 0n ? pool.pricePerWhole : WHOLE;
  const mid = kindId < 0 ? whole : (whole * (KIND_FRACTION_PERCENT[kindId] ?? 10n)) / 100n;
  const price = side === 'sell' ? (mid * 98n) / 100n : (mid * 102n) / 100n;
  return price > 0n ? price : 1n;
}

/** 5000 units of the stable denom per trade at most (docs/app-services.md). */
const MAX_TRADE = 5_000_000_000n;

function rfqLegs(ctx: Ctx, asset: LaunchedAsset, side: 'sell' | 'buy', kindId: number, units: bigint): LegSpec[] {
  const kinds = kindId < 0 ? Array.from({ length: asset.kindCount }, (_, k) => k) : [kindId];
  const price = deskPrice(ctx, asset, kindId, side);
  let amount = (price * units) / WHOLE;
  if (amount > MAX_TRADE) amount = MAX_TRADE;
  if (amount < 1n) amount = 1n;
  const rights: LegSpec[] = kinds.map((k) => ({ give: side === 'buy', assetId: asset.assetId, kindId: k, units }));
  return [{ give: side === 'sell', denom: ctx.config.stableDenom, amount }, ...rights];
}

function rfqEnding(ctx: Ctx, cycle: number): Ending {
  // the first cycles guarantee each ending in any history long enough
  const fixed: Ending[] = ['accept', 'cancel', 'expire'];
  if (cycle < fixed.length) return fixed[cycle];
  return (['accept', 'cancel', 'expire'] as Ending[])[ctx.rng.weighted([70, 15, 15])];
}

/** A holder offers the desk equal units of every kind (one whole share each) against the stable denom at the desk's bid (docs/app-services.md, "Trade desk"). */
function offerToDesk(ctx: Ctx, asset: LaunchedAsset, cycle: number, ending: 'accept' | 'leave'): Flow | null {
  const desk = ctx.cast.roles.desk;
  const holder = ctx.rng.pick(ctx.cast.holders);
  const units = ctx.rng.bigint(1n, 20n) * WHOLE;
  const kinds = Array.from({ length: asset.kindCount }, (_, k) => k);
  const amount = (deskPrice(ctx, asset, -1, 'sell') * units) / WHOLE;
  const legs: LegSpec[] = [
    ...kinds.map((k) => ({ give: true, assetId: asset.assetId, kindId: k, units })),
    { give: false, denom: ctx.config.stableDenom, amount: amount > 0n ? amount : 1n },
  ];
  if (!reserveGives(ctx, holder.address, legs)) return null;
  return settlementFlow(`rfq:${cycle}:to-desk`, holder, desk, legs, ending);
}

export function rfqLoop(): Flow {
  return new Loop(
    'desk-rfq',
    (ctx, cycle) => {
      const asset = ctx.issuedAsset('equity');
      if (!asset) return null;
      // the desk's quotes and its answers are the desk service's: holders only offer it shares
      if (ctx.servicesMode) return offerToDesk(ctx, asset, cycle, 'leave');
      if (cycle >= 3 && ctx.rng.chance(0.25)) return offerToDesk(ctx, asset, cycle, 'accept');
      const desk = ctx.cast.roles.desk;
      const side = ctx.rng.chance(0.5) ? 'sell' : 'buy';
      const kindId = ctx.rng.chance(0.2) ? -1 : ctx.rng.int(0, asset.kindCount - 1);
      const units = ctx.rng.bigint(1n, 50n) * WHOLE;
      const requester = ctx.rng.pick(ctx.cast.holders);
      const legs = rfqLegs(ctx, asset, side, kindId, units);
      if (!reserveGives(ctx, desk.address, legs)) return null;
      return settlementFlow(`rfq:${cycle}:${side}`, desk, requester, legs, rfqEnding(ctx, cycle));
    },
    [1, 5],
  );
}

/** Days a standing offer stays open: past any history's end (histories span 14 days of block time). */
const STANDING_OFFER_DAYS = 60;

/**
 * A standing offer: once the community asset is issued, the first holder proposes to sell the
 * visitor (an account the scenario never signs for) 10 whole units for 10 stable units, open
 * for 60 days. Nobody in the scenario answers it, so every history ends with a pending
 * settlement, and a person trying the devnet by hand has one to accept.
 */
export function standingOfferFlow(): Flow {
  return script('standing-offer', {}, [
    async (ctx) => {
      const asset = ctx.issuedAsset('community');
      if (!asset?.issued) return 'wait';
      const holder = ctx.cast.holders[0];
      const units = 10n * WHOLE;
      const legs: LegSpec[] = [
        { give: true, assetId: asset.assetId, kindId: 0, units },
        { give: false, denom: ctx.config.stableDenom, amount: 10n * WHOLE },
      ];
      if (!reserveGives(ctx, holder.address, legs)) return 'wait';
      const expiry = ctx.now + STANDING_OFFER_DAYS * 86_400_000;
      await ctx.submit(holder, [msg.propose(holder.address, ctx.cast.roles.visitor.address, legs.map(toLeg), expiry)]);
      return 'stop';
    },
  ]);
}
