/**
 * Pledge → loan → repay or liquidate (docs/app-services.md, "Lender"):
 *  - the borrower pledges the same units of every kind of a share to the
 *    lender, one pledge per tx (all in one block): exercisable, income routed
 *    to the lender, no holder release, no expiry;
 *  - the lender sends the principal with a bank MsgSend;
 *  - repay: the borrower proposes a settlement to the lender with one coin leg
 *    GIVE and nothing asked; the lender's tx is MsgAccept + MsgRelease of each
 *    pledge. Liquidate: the lender's MsgExercise of each pledge.
 *
 * Services mode (servicedLoanFlow): the lender is the lender service's, so
 * the scenario plays the borrower only. It pledges as above, then watches the
 * committed blocks for a stable-denom bank transfer from the lender to the
 * borrower (the principal; a transfer is what a MsgSend leaves, whoever signs
 * it) and, a few blocks after it, proposes the repayment (principal + 1 % + 1,
 * one coin leg given, nothing asked). Accepting it and releasing the pledges,
 * or exercising them, is the service's. No principal within
 * PRINCIPAL_WAIT_MS of block time: the cycle ends and its pledges stay with the lender.
 * A cycle started before services mode stops at its next lender step.
 */
import type { Actor } from '../accounts';
import type { Ctx, Handle, LaunchedAsset } from '../context';
import { Loop, script, type Flow } from '../flow';
import * as msg from '../messages';
import { submitClaim } from './payout';
import { CommittedEvents, transferredAmount } from './services';
import { expectOk, responseId, shuffled, WHOLE } from './util';

/** 5000 units of the stable denom: the lender's cap (docs/app-services.md). */
const MAX_PRINCIPAL = 5_000_000_000n;

interface LoanState {
  asset: LaunchedAsset;
  borrower?: Actor;
  units: bigint;
  pledges: Handle[];
  ids: number[];
  principal: bigint;
  repayBy: number;
  repay: boolean;
  proposal?: Handle;
}

/**
 * How long a services-mode borrower waits for the lender service's principal after its pledges
 * commit, in block time: 60 blocks at npm start's 1 s pace, and as long on faster blocks, since
 * the service's latency is wall time (at 60 ms blocks, 60 blocks were 4 s: borrowers gave up on
 * principals still on their way and never repaid, and their loans filled the lender's caps).
 */
export const PRINCIPAL_WAIT_MS = 60_000;

interface ServicedLoanState extends LoanState {
  /** blocks committed after the pledges (where the principal may appear) */
  watch?: CommittedEvents;
  /** block time (ms) after which the borrower stops waiting for the principal */
  waitUntilMs: number;
}

function kindIds(asset: LaunchedAsset): number[] {
  return Array.from({ length: asset.kindCount }, (_, k) => k);
}

/** 50 % of the pledged bundles' value at the pool price, capped; 1 stable unit per whole unit without a pool. */
function principalFor(ctx: Ctx, asset: LaunchedAsset, units: bigint): bigint {
  const pool = ctx.view.pool(asset.assetId, ctx.config.stableDenom);
  const value = pool && pool.pricePerWhole > 0n ? (pool.pricePerWhole * units) / WHOLE : units;
  const half = value / 2n;
  return half < 1n ? 1n : half > MAX_PRINCIPAL ? MAX_PRINCIPAL : half;
}

/**
 * Whole shares a scenario borrower pledges at most: its loans stay a fraction of what the
 * lender may lend against the asset (a few hundred stable units against a 10,000 cap), so an
 * outside borrower is served beside them.
 */
const MAX_PLEDGED_SHARES = 400n;

function chooseBorrower(ctx: Ctx, s: LoanState): boolean {
  const kinds = kindIds(s.asset);
  for (const holder of shuffled(ctx, ctx.cast.holders)) {
    const available = ctx.availableBundles(holder.address, s.asset.assetId, kinds);
    if (available < 20n * WHOLE) continue;
    s.borrower = holder;
    const most = available / WHOLE / 2n;
    s.units = ctx.rng.bigint(10n, most < MAX_PLEDGED_SHARES ? most : MAX_PLEDGED_SHARES) * WHOLE;
    return true;
  }
  return false;
}

const lenderOf = (ctx: Ctx) => ctx.cast.roles.lender;

/** The first step of every loan: a borrower pledges the same units of every kind to the lender, one pledge per tx. */
async function pledgeToLender(ctx: Ctx, s: LoanState): Promise<'stop' | void> {
  if (!chooseBorrower(ctx, s)) return 'stop';
  const lender = lenderOf(ctx).address;
  for (const k of kindIds(s.asset)) {
    ctx.reserveUnits(s.borrower!.address, s.asset.assetId, k, s.units);
    const pledge = msg.createEncumbrance({
      creator: s.borrower!.address,
      kind: 'ENCUMBRANCE_KIND_PLEDGE',
      asset_id: s.asset.assetId,
      kind_id: k,
      holder: s.borrower!.address,
      units: s.units,
      beneficiary: lender,
      income_to_beneficiary: true,
      exercisable: true,
    });
    s.pledges.push(await ctx.submit(s.borrower!, [pledge]));
  }
}

const pledgeIds = (ctx: Ctx, s: LoanState) =>
  s.pledges.map((h) => responseId(expectOk(ctx, h, 'loan pledge'), 'encumbrance_id'));

/** The repayment the borrower proposes: principal plus 1 % plus one base unit. */
const repaymentOf = (principal: bigint) => principal + principal / 100n + 1n;

export function loanFlow(asset: LaunchedAsset, cycle: number): Flow {
  const state: LoanState = { asset, units: 0n, pledges: [], ids: [], principal: 0n, repayBy: 0, repay: true };
  return script(`loan:${cycle}`, state, [
    pledgeToLender,
    async (ctx, s) => {
      // services mode began after the pledges: they are the lender service's now
      if (!ctx.signsFor(lenderOf(ctx))) return 'stop';
      s.ids = pledgeIds(ctx, s);
      s.principal = principalFor(ctx, s.asset, s.units);
      ctx.reserveCoins(lenderOf(ctx).address, ctx.config.stableDenom, s.principal);
      await ctx.submit(lenderOf(ctx), [
        msg.bankSend(lenderOf(ctx).address, s.borrower!.address, [msg.coin(ctx.config.stableDenom, s.principal)]),
      ]);
      s.repayBy = ctx.height + ctx.rng.int(2, 6);
      // the first loan is repaid and the second liquidated, so every history has both
      s.repay = cycle === 0 ? true : cycle === 1 ? false : ctx.rng.chance(0.65);
    },
    async (ctx, s) => {
      if (ctx.height < s.repayBy) return 'wait';
      if (!ctx.signsFor(lenderOf(ctx))) return 'stop';
      await claimRoutedIncome(ctx, s.asset);
      const repayment = repaymentOf(s.principal);
      // a borrower who cannot pay any more is liquidated
      if (!s.repay || ctx.availableCoins(s.borrower!.address, ctx.config.stableDenom) < repayment)
        return liquidateLoan(ctx, s);
      s.proposal = await proposeRepayment(ctx, s.borrower!, repayment);
    },
    async (ctx, s) => {
      if (!ctx.signsFor(lenderOf(ctx))) return 'stop';
      const id = responseId(expectOk(ctx, s.proposal!, 'repayment proposal'), 'settlement_id');
      const settlement = ctx.view.settlement(id);
      if (settlement?.status !== 'STATUS_PENDING' || Date.parse(String(settlement.expiry)) <= ctx.now)
        return liquidateLoan(ctx, s);
      const lender = lenderOf(ctx).address;
      await ctx.submit(lenderOf(ctx), [msg.accept(lender, id), ...s.ids.map((pledge) => msg.release(lender, pledge))]);
      return 'stop';
    },
  ]);
}

/**
 * The borrower's side of a loan whose lender is the lender service (services
 * mode, see the file comment): pledge, wait for the principal, propose the
 * repayment, and leave the rest to the service.
 */
export function servicedLoanFlow(asset: LaunchedAsset, cycle: number): Flow {
  const state: ServicedLoanState = {
    asset,
    units: 0n,
    pledges: [],
    ids: [],
    principal: 0n,
    repayBy: 0,
    repay: true,
    waitUntilMs: 0,
  };
  return script(`loan:${cycle}:serviced`, state, [
    pledgeToLender,
    (ctx, s) => {
      s.ids = pledgeIds(ctx, s);
      s.watch = new CommittedEvents(s.pledges[0].height);
      s.waitUntilMs = ctx.now + PRINCIPAL_WAIT_MS;
    },
    (ctx, s) => {
      const lender = lenderOf(ctx).address;
      s.principal = transferredAmount(s.watch!.read(ctx), lender, s.borrower!.address, ctx.config.stableDenom);
      if (s.principal === 0n) return ctx.now >= s.waitUntilMs ? 'stop' : 'wait';
      s.repayBy = ctx.height + ctx.rng.int(2, 6);
    },
    async (ctx, s) => {
      if (ctx.height < s.repayBy) return 'wait';
      // the principal plus a little when the borrower has it, else the principal alone (what the lender asks):
      // a borrower whose own stable went into swaps would otherwise never repay, and its loan would hold the
      // lender's room until a liquidation (on the default world, 13 such loans held 9,507 of LNW's 10,000)
      const available = ctx.availableCoins(s.borrower!.address, ctx.config.stableDenom);
      const full = repaymentOf(s.principal);
      const repayment = available >= full ? full : s.principal;
      // the service already took or released the pledges, or the borrower cannot pay: nothing to repay (the service may exercise)
      const pledged = s.ids.some((id) => ctx.view.encumbrance(id)?.status === 'ENCUMBRANCE_STATUS_ACTIVE');
      if (!pledged || available < repayment) return 'stop';
      s.proposal = await proposeRepayment(ctx, s.borrower!, repayment);
    },
    // accepting (and releasing the pledges) is the service's; an expired proposal is an outcome too
    (ctx, s) => void expectOk(ctx, s.proposal!, 'repayment proposal'),
  ]);
}

/** The borrower proposes one stable-denom coin leg given to the lender, nothing asked (the repayment settlement). */
async function proposeRepayment(ctx: Ctx, borrower: Actor, amount: bigint): Promise<Handle> {
  ctx.reserveCoins(borrower.address, ctx.config.stableDenom, amount);
  const legs = [msg.giveCoin(msg.coin(ctx.config.stableDenom, amount))];
  return ctx.submit(borrower, [msg.propose(borrower.address, lenderOf(ctx).address, legs, ctx.longExpiry())]);
}

/** The lender takes the pledged units (one tx, one MsgExercise per pledge). */
async function liquidateLoan(ctx: Ctx, s: LoanState): Promise<'stop'> {
  const lender = lenderOf(ctx).address;
  const active = s.ids.filter((id) => ctx.view.encumbrance(id)?.status === 'ENCUMBRANCE_STATUS_ACTIVE');
  if (active.length)
    await ctx.submit(
      lenderOf(ctx),
      active.map((id) => msg.exercise(lender, id)),
    );
  return 'stop';
}

/** The lender claims the income its pledges routed to it, when there is some. */
async function claimRoutedIncome(ctx: Ctx, asset: LaunchedAsset): Promise<void> {
  const lender = lenderOf(ctx);
  for (const k of kindIds(asset)) {
    if (ctx.view.claimable(lender.address, asset.assetId, k, ctx.config.stableDenom) > 0n)
      await submitClaim(ctx, lender, asset.assetId, k, ctx.config.stableDenom);
  }
}

export function loanLoop(): Flow {
  return new Loop(
    'loan',
    (ctx, cycle) => {
      const asset = ctx.issuedAsset('equity');
      if (!asset) return null;
      return ctx.servicesMode ? servicedLoanFlow(asset, cycle) : loanFlow(asset, cycle);
    },
    [2, 8],
  );
}
