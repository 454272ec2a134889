/**
 * The attacks bench/soak-services.ts repeats against `npm start`'s default world, one per
 * round in turn, each the class of a probe issue 43 measured (docs/app-services.md, threat
 * model): free RFQs squatting the desk's room, junk pledges and proposals that cost the
 * services txs, a pump held for a few blocks before borrowing, a community asset borrowed
 * against and dumped, and a look-alike launch document. Each returns what it got, in figures.
 */
import http from 'http';
import type { Pool } from 'pg';
import type { ChainClient, CommittedTx } from '../../app-services/chain/chain-client';
import type { ChainQueries, PoolPriceAt } from '../../app-services/chain/queries';
import {
  askCoin,
  bankSend,
  coin,
  createAsset,
  createEncumbrance,
  createPool,
  giveRight,
  issue,
  propose,
  swap,
  transferBundle,
  type AssetSpec,
  type Msg,
} from '../../devnet/scenario/messages';
import { isqrt, poolPayout } from '../../app-services/market/units';
import { runExample } from '../../examples/services';
import type { ChainConfig } from '../../src/lib/config';
import { deriveAssetId } from '../../src/lib/ids';
import { attributeOf, SoakActor } from './soak-actor';

const WHOLE = 1_000_000n;
const BPS = 10_000n;

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are read field by field

export interface ListedAsset {
  symbol: string;
  assetId: string;
  kinds: number[];
  poolId: number;
}

export interface SoakContext {
  url: string;
  rpc: string;
  seed: string;
  config: ChainConfig;
  chain: ChainClient;
  queries: ChainQueries;
  funder: SoakActor;
  lender: string;
  desk: string;
  /** npm start's own PostgreSQL: the services' intent log (app.intents) */
  db: Pool;
  lnw: ListedAsset;
  round: number;
  /** blocks a pool must have before the services value it, plus its price window */
  poolSettleBlocks: number;
  /** PRICE_WINDOW_BLOCKS as npm start reads it: the heights its twap is the mean of */
  priceWindowBlocks: number;
  log: (line: string) => void;
}

export interface AttackOutcome {
  attack: string;
  /** one line of figures */
  result: string;
  /** the bound the attack is held to, and whether it held */
  held: boolean;
  /**
   * the bound also needs the round's next honest LNW borrow served (the caller runs it and
   * folds it into `held`): a stranger's liquidation must not freeze a listed asset
   */
  needsHonestBorrow?: boolean;
}

export async function getJson(url: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  return { status: res.status, body: (await res.json()) as Json };
}

export async function postJson(
  url: string,
  payload: unknown,
  localAddress?: string,
): Promise<{ status: number; body: Json }> {
  const u = new URL(url);
  const data = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
        timeout: 15_000,
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Json });
          } catch {
            resolve({ status: res.statusCode ?? 0, body: { error: text } });
          }
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

export async function waitBlocks(chain: ChainClient, n: number): Promise<void> {
  const target = (await chain.height()) + n;
  while ((await chain.height()) < target) await new Promise((r) => setTimeout(r, 100));
}

async function quoteOf(ctx: SoakContext, assetId: string): Promise<Json | undefined> {
  const { body } = await getJson(`${ctx.url}/api/desk/quotes`);
  return (body.quotes as Json[]).find((q) => q.asset_id === assetId && q.kind === -1);
}

async function notQuotedReason(ctx: SoakContext, assetId: string): Promise<string | undefined> {
  const { body } = await getJson(`${ctx.url}/api/desk/quotes`);
  return (body.not_quoted as Json[] | undefined)?.find((q) => q.asset_id === assetId)?.reason;
}

async function fresh(ctx: SoakContext, name: string, stable: bigint, lnwShares = 0n): Promise<SoakActor> {
  const actor = await SoakActor.open(`${name}-${ctx.round}`, ctx.seed, ctx.chain, ctx.config);
  await ctx.funder.fund(
    actor,
    stable,
    lnwShares ? [{ assetId: ctx.lnw.assetId, kinds: ctx.lnw.kinds, units: lnwShares * WHOLE }] : [],
  );
  return actor;
}

/** Case 2: sell RFQs for the desk's whole room from requesters who hold none of it, from two client addresses. */
async function squat(ctx: SoakContext): Promise<AttackOutcome> {
  const quote = await quoteOf(ctx, ctx.lnw.assetId);
  if (!quote?.bid) return { attack: 'squat', result: `no LNW bid to squat (${quote?.bid_withheld})`, held: true };
  // just inside DESK_MAX_TRADE (5,000) at the bid read here: a book rebuilt a block later may bid a little higher,
  // and an RFQ over the trade cap is refused for that before the desk asks whether it can be delivered
  const units = (4900n * WHOLE * WHOLE) / BigInt(quote.bid);
  const answers: string[] = [];
  let proposals = 0;
  for (let i = 0; i < 4; i++) {
    const requester = await SoakActor.open(`squatter-${ctx.round}-${i}`, ctx.seed, ctx.chain, ctx.config);
    const r = await postJson(
      `${ctx.url}/api/desk/rfq`,
      { address: requester.address, asset_id: ctx.lnw.assetId, kind: -1, side: 'sell', units: units.toString() },
      i < 3 ? '127.0.0.2' : '127.0.0.3',
    );
    if (r.status === 200) proposals++;
    answers.push(r.status === 200 ? 'proposed' : `${r.status} ${r.body.reason ?? r.body.code}`);
  }
  return {
    attack: 'squat',
    result: `4 sell RFQs of ${units / WHOLE} shares by holders of none: ${answers.join(', ')}`,
    held: proposals === 0,
  };
}

/** A pledge of `units` of LNW's first kind to the lender, as a loan's pledges are made (exercisable, income routed). */
const lenderPledge = (holder: SoakActor, ctx: SoakContext, units: bigint): Msg =>
  createEncumbrance({
    creator: holder.address,
    kind: 'ENCUMBRANCE_KIND_PLEDGE',
    asset_id: ctx.lnw.assetId,
    kind_id: ctx.lnw.kinds[0],
    holder: holder.address,
    units,
    beneficiary: ctx.lender,
    income_to_beneficiary: true,
    exercisable: true,
  });

/** Every value of `key` in the tx's events of `type` (one per message that emitted one). */
function attributesOf(tx: CommittedTx, type: string, key: string): string[] {
  return tx.events
    .filter((e) => e.type === type)
    .flatMap((e) => e.attributes.filter((a) => a.key === key).map((a) => String(JSON.parse(a.value))));
}

/**
 * What the services signed on `items` (the spammer's pledge and settlement ids): their
 * releases and cancels from the intent log, each tx that reached a block (committed or failed
 * in it) counted once, with how many of its messages were about those items. The services'
 * other work (the world's scenario, honest users) is not counted.
 */
async function spentOn(
  ctx: SoakContext,
  items: { pledges: string[]; settlements: string[] },
): Promise<{ txs: number; messages: number; releases: number; cancels: number; failed: number }> {
  const { rows } = await ctx.db.query<{ id: string; status: string; type: string; n: string }>(
    `SELECT i.id, i.status, m->>'typeUrl' AS type, count(*)::text AS n
       FROM app.intents i, jsonb_array_elements(i.messages) m
      WHERE i.actor = ANY($1) AND i.height IS NOT NULL AND i.status IN ('committed', 'failed')
        AND ((m->>'typeUrl' = '/svc.encumbrance.v1.MsgRelease'
              AND coalesce(m->'value'->>'encumbrance_id', m->'value'->>'encumbranceId') = ANY($2))
          OR (m->>'typeUrl' = '/svc.settlement.v1.MsgCancel'
              AND coalesce(m->'value'->>'settlement_id', m->'value'->>'settlementId') = ANY($3)))
      GROUP BY 1, 2, 3`,
    [[ctx.lender, ctx.desk], items.pledges, items.settlements],
  );
  const count = (type: string) => rows.filter((r) => r.type === type).reduce((a, r) => a + Number(r.n), 0);
  return {
    txs: new Set(rows.map((r) => r.id)).size,
    messages: rows.reduce((a, r) => a + Number(r.n), 0),
    releases: count('/svc.encumbrance.v1.MsgRelease'),
    cancels: count('/svc.settlement.v1.MsgCancel'),
    failed: new Set(rows.filter((r) => r.status === 'failed').map((r) => r.id)).size,
  };
}

/**
 * Case 4: 250 one-unit pledges to the lender in one tx and 120 below-quote offers to the desk
 * in another, while an honest holder's mistaken pledge (one kind only: no loan) waits for its
 * release. Returns the honest pledge's id, checked by the caller a round later.
 */
async function junk(ctx: SoakContext, honest: SoakActor): Promise<AttackOutcome & { mistaken?: string }> {
  const spammer = await fresh(ctx, 'spammer', 1000n * WHOLE, 10n);
  const pledges: Msg[] = [];
  for (let i = 0; i < 250; i++) pledges.push(lenderPledge(spammer, ctx, 1n));
  const expiryMs = Date.now() + 600_000;
  const offers: Msg[] = [];
  for (let i = 0; i < 120; i++)
    offers.push(
      propose(
        spammer.address,
        ctx.desk,
        [
          ...ctx.lnw.kinds.map((k) => giveRight(ctx.lnw.assetId, k, 1n)),
          askCoin(coin(ctx.config.stableDenom, 10n ** 12n)),
        ],
        expiryMs,
      ),
    );
  const [p, o] = [await spammer.submit(pledges), await spammer.submit(offers)];
  const mistaken = await honest.must('a mistaken pledge', [lenderPledge(honest, ctx, 10n * WHOLE)]);
  await waitBlocks(ctx.chain, 40);
  // the services' txs on the spammer's own items only: the sequences of the services' keys would
  // count every tx they sign for the world in those blocks too
  const spent = await spentOn(ctx, {
    pledges: attributesOf(p, 'svc.encumbrance.v1.EventEncumbranceCreated', 'encumbrance_id'),
    settlements: attributesOf(o, 'svc.settlement.v1.EventSettlementProposed', 'settlement_id'),
  });
  // a tx the chain refused at CheckTx never reached a block: it cost the spammer nothing
  const spammerTxs = [p, o].filter((t) => t.height > 0).length;
  const spammerMessages = (p.height > 0 ? pledges.length : 0) + (o.height > 0 ? offers.length : 0);
  return {
    attack: 'junk',
    result: `spammer's txs: pledges ${p.code === 0 ? 'ok' : `failed ${p.codespace}/${p.code}`}, offers ${o.code === 0 ? 'ok' : `failed ${o.codespace}/${o.code}`} (${spammerTxs} txs, ${spammerMessages} messages); in the next 40 blocks the services signed ${spent.txs} txs on its items (${spent.releases} releases, ${spent.cancels} cancels${spent.failed ? `, ${spent.failed} txs failed` : ''})`,
    held: spent.txs <= spammerTxs && spent.messages <= spammerMessages,
    mistaken: attributeOf(mistaken, 'svc.encumbrance.v1.EventEncumbranceCreated', 'encumbrance_id'),
  };
}

/**
 * What a loan may be, in bps of the pledged shares' pre-pump value, after a pump of `pumped` /
 * `before` stood `k` blocks of a `window`-block price window (docs/app-services.md, the bounds
 * table): the terms when k is at most half the window (the lendable price's median ignores it),
 * else the terms lifted by the twap's k·(x−1)/W.
 */
export function pumpBoundBps(termsBps: bigint, k: number, window: number, pumped: bigint, before: bigint): bigint {
  if (2 * k <= window || pumped <= before || before <= 0n) return termsBps;
  const lift = (BigInt(Math.min(k, window)) * (pumped - before) * BPS) / (BigInt(window) * before);
  return (termsBps * (BPS + lift)) / BPS;
}

/**
 * Case 1's pump: buy LNW with a quarter of its pool's stable reserve, hold it 7 blocks, borrow
 * the most the bought shares allow, sell back what is not pledged, repay.
 */
async function pumpBorrow(ctx: SoakContext): Promise<AttackOutcome> {
  const before = await ctx.queries.poolPriceAt(ctx.lnw.assetId, ctx.config.stableDenom);
  if (!before) return { attack: 'pump', result: 'LNW has no pool', held: true };
  const stake = before.quoteReserve / 4n;
  const pumper = await fresh(ctx, 'pumper', stake + 10_000n * WHOLE);
  const bought = await pumper.must('the pump', [swap(pumper.address, ctx.lnw.poolId, false, stake, 0n)]);
  const out = BigInt(attributeOf(bought, 'svc.dex.v1.EventSwapped', 'amount_out') ?? '0');
  await waitBlocks(ctx.chain, 7);
  const pumped = (await ctx.queries.poolPrice(ctx.lnw.assetId, ctx.config.stableDenom))?.pricePerWhole ?? 0n;
  const lift = `pumped ×${(Number(pumped) / Number(before.pricePerWhole)).toFixed(2)} for 7 blocks`;
  const terms = (await getJson(`${ctx.url}/api/lender/terms`)).body;
  // the most the bought shares can back at the pumped price (the example pledges 10 % over what it needs)
  const most = (((out * pumped) / WHOLE) * BigInt(terms.ltv_bps)) / BPS / 2n / WHOLE;
  let result: string;
  let held = true;
  try {
    const loan = await runExample('borrow', {
      url: ctx.url,
      rpc: ctx.rpc,
      asset: ctx.lnw.symbol,
      account: pumper.name,
      seed: ctx.seed,
      amount: most < 5000n ? most : 5000n,
      log: () => undefined,
    });
    const units = BigInt(loan.units);
    const preValue = (units * before.pricePerWhole) / WHOLE;
    const ltv = preValue > 0n ? (BigInt(loan.principal) * BPS) / preValue : 0n;
    // the pump stood from its swap's block until the loan was priced: on fast blocks the lender's wall-clock
    // latency is many blocks, and past half the window the documented bound is the long pump's, k·(x−1)/W more
    const opened = (await ctx.chain.findTx(loan.open_tx))?.height ?? bought.height;
    const k = opened - bought.height;
    const allowed = pumpBoundBps(BigInt(terms.ltv_bps), k, ctx.priceWindowBlocks, pumped, before.pricePerWhole);
    held = ltv <= allowed;
    result = `${lift}, borrowed ${BigInt(loan.principal) / WHOLE} against ${units / WHOLE} shares: ${Number(ltv) / 100} % of their pre-pump value (terms ${Number(terms.ltv_bps) / 100} %; the pump stood ${k} blocks of a ${ctx.priceWindowBlocks}-block window until the loan, bound ${Number(allowed) / 100} %)`;
  } catch (e) {
    result = `${lift}, borrow refused: ${(e as Error).message}`;
  }
  const unpledged = await ctx.queries.transferable(ctx.lnw.assetId, ctx.lnw.kinds[0], pumper.address);
  if (unpledged > 0n) await pumper.submit([swap(pumper.address, ctx.lnw.poolId, true, unpledged, 0n)]);
  try {
    await runExample('repay', {
      url: ctx.url,
      rpc: ctx.rpc,
      asset: ctx.lnw.symbol,
      account: pumper.name,
      seed: ctx.seed,
      log: () => undefined,
    });
  } catch {
    // no loan to repay
  }
  return { attack: 'pump', result, held };
}

// ---------------------------------------------------------------- case 1: a pump held for most of the window

/**
 * The pump-hold attacker buys the pool's stable side up by √3 (its price ×3): at the lender's
 * 50 % LTV and 80 % liquidation LTV a loan liquidates at a twap of 62.5 % of the price it was
 * lent at, and a loss needs the pool to pay less than the principal in the block the lender
 * looks; ×3 held for most of the window lends at ~2.6× the pre-pump price, so the twap falls
 * to the liquidation price (~1.6×) while the kept shares can still push the pool below ~1.3×.
 */
const PUMP_HOLD_STAKE_BPS = 7_321n;
/** the share of the price window the pump is held (the issue's probe: ~76 of 100 blocks) */
const PUMP_HOLD_WINDOW_BPS = 8_000n;
/** the sell-back brings spot to this share of the liquidation price, so the twap falls through it */
const SELL_BACK_TO_BPS = 9_000n;
/** the dump is held until the lender has looked (it polls every LENDER_POLL_MS), at most this many blocks */
const DUMP_MAX_BLOCKS = 40;

/** The twap at which the lender liquidates a loan: the highest price with principal ≥ liquidation LTV of the units' value. */
export function liquidationPrice(principal: bigint, units: bigint, liquidationLtvBps: bigint): bigint {
  return (principal * BPS * WHOLE) / (units * liquidationLtvBps);
}

/** The pool's price per whole share after `sold` base units are sold into it (x·y = k, no fee). */
export function spotAfterSale(base: bigint, quote: bigint, sold: bigint): bigint {
  const quoteAfter = quote - poolPayout(sold, base, quote);
  return (quoteAfter * WHOLE) / (base + sold);
}

/** The fewest base units to sell into the pool to bring its price per whole share to `target` or below. */
export function sharesToSellFor(base: bigint, quote: bigint, target: bigint): bigint {
  if (target <= 0n) throw new RangeError('a price target must be positive');
  // (base + s)² ≈ base·quote·WHOLE / target; of floored figures, so searched exactly below twice that
  let [low, high] = [0n, 2n * isqrt((base * quote * WHOLE) / target) + 1n];
  while (low < high) {
    const mid = (low + high) / 2n;
    if (spotAfterSale(base, quote, mid) <= target) high = mid;
    else low = mid + 1n;
  }
  return low;
}

/** Whether a sale that brings spot to `dumpSpot` in the next block takes the twap to the liquidation price. */
export function dumpReaches(
  twap: bigint,
  oldest: bigint,
  dumpSpot: bigint,
  window: number,
  liquidation: bigint,
): boolean {
  return twap + (dumpSpot - oldest) / BigInt(window) <= liquidation;
}

/**
 * The twap as the lender reads it: the mean of the chain's PoolPrice at each of the last
 * `window` committed heights, with the oldest of them (the sample the next block drops).
 * `samples` keeps the heights already read.
 */
async function windowTwap(
  ctx: SoakContext,
  samples: Map<number, bigint>,
): Promise<{ height: number; twap: bigint; oldest: bigint; spot: PoolPriceAt }> {
  const spot = await ctx.queries.poolPriceAt(ctx.lnw.assetId, ctx.config.stableDenom);
  if (!spot) throw new Error('LNW has no pool');
  samples.set(spot.height, spot.pricePerWhole);
  const from = spot.height - ctx.priceWindowBlocks + 1;
  for (let h = from; h < spot.height; h++)
    if (!samples.has(h)) {
      const at = await ctx.queries.poolPriceAt(ctx.lnw.assetId, ctx.config.stableDenom, h).catch(() => null);
      if (at) samples.set(h, at.pricePerWhole);
    }
  for (const h of samples.keys()) if (h < from) samples.delete(h);
  const prices = [...samples.values()];
  const twap = prices.reduce((a, p) => a + p, 0n) / BigInt(prices.length);
  return { height: spot.height, twap, oldest: samples.get(from) ?? twap, spot };
}

const stableOf = (n: bigint) => (n / WHOLE).toLocaleString('en-US');
const priceOf = (n: bigint) => (Number(n) / Number(WHOLE)).toFixed(2);
const times = (a: bigint, b: bigint) => `×${(Number(a) / Number(b)).toFixed(2)}`;

async function lnwHeld(ctx: SoakContext, holder: SoakActor): Promise<bigint> {
  return ctx.queries.transferable(ctx.lnw.assetId, ctx.lnw.kinds[0], holder.address);
}

async function loanOf(ctx: SoakContext, borrower: SoakActor, id: string): Promise<Json | undefined> {
  const { body } = await getJson(`${ctx.url}/api/lender/loans?address=${borrower.address}`);
  return (body.loans as Json[]).find((l) => String(l.id) === id);
}

/** Everything the attacker has left goes back to the soak's funder, so repeated rounds do not drain it. */
async function giveBack(ctx: SoakContext, actor: SoakActor): Promise<void> {
  const shares = await lnwHeld(ctx, actor);
  const stable = await ctx.chain.balance(actor.address, ctx.config.stableDenom);
  const messages: Msg[] = [];
  if (stable > 0n) messages.push(bankSend(actor.address, ctx.funder.address, [coin(ctx.config.stableDenom, stable)]));
  if (shares > 0n) messages.push(transferBundle(actor.address, ctx.funder.address, ctx.lnw.assetId, shares));
  if (messages.length) await actor.submit(messages);
}

/** Waits for the loan's liquidation while the dump is held, at most DUMP_MAX_BLOCKS; the blocks it took. */
async function holdDump(ctx: SoakContext, borrower: SoakActor, loanId: string, from: number): Promise<number> {
  for (;;) {
    const height = await ctx.chain.height();
    if ((await loanOf(ctx, borrower, loanId))?.status === 'liquidated' || height - from >= DUMP_MAX_BLOCKS)
      return height - from;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * After the loan: sell back the pump's shares until spot is under the liquidation price, keep
 * the rest, and once a one-block dump of the kept shares takes the twap to the liquidation
 * price, dump them, hold the dump until the lender has looked, and buy back. Watches at most
 * two windows; returns what happened.
 */
async function dumpAtLiquidation(
  ctx: SoakContext,
  attacker: SoakActor,
  loan: { id: string; units: bigint; principal: bigint },
  liquidation: bigint,
  samples: Map<number, bigint>,
): Promise<{ soldBack: bigint; kept: bigint; liquidated: boolean; dumpBlocks?: number; twapAtDump?: bigint }> {
  const now = await windowTwap(ctx, samples);
  const unpledged = await lnwHeld(ctx, attacker);
  const wanted = sharesToSellFor(now.spot.baseReserve, now.spot.quoteReserve, (liquidation * SELL_BACK_TO_BPS) / BPS);
  const soldBack = wanted < unpledged ? wanted : unpledged;
  if (soldBack > 0n) await attacker.must('the sell-back', [swap(attacker.address, ctx.lnw.poolId, true, soldBack, 0n)]);
  const kept = unpledged - soldBack;
  const last = now.height + 2 * ctx.priceWindowBlocks;
  for (let seen = 0; ;) {
    const w = await windowTwap(ctx, samples);
    if (w.height !== seen) {
      seen = w.height;
      if ((await loanOf(ctx, attacker, loan.id))?.status === 'liquidated') return { soldBack, kept, liquidated: true };
      const dumpSpot = spotAfterSale(w.spot.baseReserve, w.spot.quoteReserve, kept);
      if (kept > 0n && dumpReaches(w.twap, w.oldest, dumpSpot, ctx.priceWindowBlocks, liquidation)) {
        const dumped = await attacker.must('the dump', [swap(attacker.address, ctx.lnw.poolId, true, kept, 0n)]);
        const got = BigInt(attributeOf(dumped, 'svc.dex.v1.EventSwapped', 'amount_out') ?? '0');
        const dumpBlocks = await holdDump(ctx, attacker, loan.id, dumped.height);
        await attacker.submit([swap(attacker.address, ctx.lnw.poolId, false, got, 0n)]);
        const liquidated = (await loanOf(ctx, attacker, loan.id))?.status === 'liquidated';
        return { soldBack, kept, liquidated, dumpBlocks, twapAtDump: w.twap };
      }
      if (w.height >= last) return { soldBack, kept, liquidated: false };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * What the lender's recovery of a liquidated loan came to: it sells the seized units back into
 * the pool, then charges what they fetched short of the principal (app.risk_losses). Waits up
 * to `blocks` for the recovery to end; `closed` false when it had not.
 */
async function recoveryOf(
  ctx: SoakContext,
  loanId: string,
  blocks: number,
): Promise<{ closed: boolean; loss: bigint; proceeds: bigint; slices: number }> {
  const until = (await ctx.chain.height()) + blocks;
  for (;;) {
    const { rows } = await ctx.db.query<{ closed: boolean; loss: string; proceeds: string; slices: number }>(
      `SELECT l.recovery_closed_at IS NOT NULL AS closed,
              (SELECT coalesce(sum(amount), 0) FROM app.risk_losses WHERE ref = 'lender/liquidate/' || l.id)::text AS loss,
              (SELECT coalesce(sum(proceeds), 0) FROM app.pool_sales WHERE loan_id = l.id AND status = 'sold')::text AS proceeds,
              (SELECT count(*) FROM app.pool_sales WHERE loan_id = l.id AND status = 'sold')::int AS slices
         FROM app.loans l WHERE l.id = $1`,
      [loanId],
    );
    const r = rows[0];
    const figures = { loss: BigInt(r?.loss ?? '0'), proceeds: BigInt(r?.proceeds ?? '0'), slices: r?.slices ?? 0 };
    if (r?.closed) return { closed: true, ...figures };
    if ((await ctx.chain.height()) >= until) return { closed: false, ...figures };
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Case 1: pump LNW ×3 and hold it for most of the price window, borrow the most against the
 * bought shares, sell back, and dump the kept ones for the block the lender looks just before
 * the twap reaches the loan's liquidation price. Its bound: the loss charged within the
 * documented bound of one liquidation (at most the loan's principal, so at most
 * LENDER_MAX_PRINCIPAL) and, folded in by the caller, the next honest LNW borrower served.
 */
async function pumpHold(ctx: SoakContext): Promise<AttackOutcome> {
  const attack = 'pump-hold';
  const before = await ctx.queries.poolPriceAt(ctx.lnw.assetId, ctx.config.stableDenom);
  if (!before) return { attack, result: 'LNW has no pool', held: true };
  const terms = (await getJson(`${ctx.url}/api/lender/terms`)).body;
  const stake = (before.quoteReserve * PUMP_HOLD_STAKE_BPS) / BPS;
  const funded = stake + 20_000n * WHOLE;
  const attacker = await fresh(ctx, 'pumpholder', funded);
  const samples = new Map<number, bigint>();
  const twapBefore = (await windowTwap(ctx, samples)).twap;
  await attacker.must('the pump', [swap(attacker.address, ctx.lnw.poolId, false, stake, 0n)]);
  const hold = Number((BigInt(ctx.priceWindowBlocks) * PUMP_HOLD_WINDOW_BPS) / BPS);
  await waitBlocks(ctx.chain, hold);
  const pumped = await windowTwap(ctx, samples);
  // the bound's x is the pump at its highest over the hold (as bought: the live traders sell into
  // it), so the bound is above the lift however the pump decayed
  const holdPrices = [...samples].filter(([h]) => h > pumped.height - hold).map(([, p]) => p);
  const top = holdPrices.reduce((a, p) => (p > a ? p : a), pumped.spot.pricePerWhole);
  const x = Number(top) / Number(before.pricePerWhole);
  const end = Number(pumped.spot.pricePerWhole) / Number(before.pricePerWhole);
  const lift =
    `×${x.toFixed(2)} (×${end.toFixed(2)} at the end) held ${hold} of ${ctx.priceWindowBlocks} blocks: twap ${priceOf(twapBefore)} → ${priceOf(pumped.twap)} (${times(pumped.twap, twapBefore)}; ` +
    `the documented bound k·(x−1)/W +${Math.round(((hold * (x - 1)) / ctx.priceWindowBlocks) * 100)} %)`;
  let loan: Json;
  try {
    loan = await runExample('borrow', {
      url: ctx.url,
      rpc: ctx.rpc,
      asset: ctx.lnw.symbol,
      account: attacker.name,
      seed: ctx.seed,
      amount: BigInt(terms.max_principal) / WHOLE,
      log: () => undefined,
    });
  } catch (e) {
    const left = await lnwHeld(ctx, attacker);
    if (left > 0n) await attacker.submit([swap(attacker.address, ctx.lnw.poolId, true, left, 0n)]);
    await giveBack(ctx, attacker);
    return { attack, result: `${lift}; borrow refused: ${(e as Error).message}`, held: true, needsHonestBorrow: true };
  }
  const units = BigInt(loan.units);
  const principal = BigInt(loan.principal);
  const preValue = (units * before.pricePerWhole) / WHOLE;
  const lent = `lent ${stableOf(principal)} against ${stableOf(units)} shares worth ${stableOf(preValue)} before the pump (${((Number(principal) / Number(preValue)) * 100).toFixed(1)} %; terms ${Number(terms.ltv_bps) / 100} %)`;
  const liquidation = liquidationPrice(principal, units, BigInt(terms.liquidation_ltv_bps));
  const d = await dumpAtLiquidation(ctx, attacker, { id: String(loan.id), units, principal }, liquidation, samples);
  const after = await ctx.queries.poolPriceAt(ctx.lnw.assetId, ctx.config.stableDenom);
  const payback = after ? poolPayout(units, after.baseReserve, after.quoteReserve) : 0n;
  const recovery = d.liquidated
    ? await recoveryOf(ctx, String(loan.id), 3 * ctx.priceWindowBlocks)
    : { closed: true, loss: 0n, proceeds: 0n, slices: 0 };
  const loss = recovery.loss;
  if (!d.liquidated)
    await runExample('repay', {
      url: ctx.url,
      rpc: ctx.rpc,
      asset: ctx.lnw.symbol,
      account: attacker.name,
      seed: ctx.seed,
      log: () => undefined,
    }).catch(() => undefined);
  const cap = ((await getJson(`${ctx.url}/api/lender/terms`)).body.capacity as Json[]).find(
    (c) => c.asset_id === ctx.lnw.assetId,
  );
  const leftShares = await lnwHeld(ctx, attacker);
  const cost =
    funded -
    (await ctx.chain.balance(attacker.address, ctx.config.stableDenom)) -
    (leftShares * before.pricePerWhole) / WHOLE;
  await giveBack(ctx, attacker);
  const dumped =
    d.dumpBlocks === undefined
      ? `no dump (kept ${stableOf(d.kept)} shares)`
      : `dumped ${stableOf(d.kept)} kept shares at twap ${priceOf(d.twapAtDump!)} (liquidation at ${priceOf(liquidation)}), held ${d.dumpBlocks} blocks until the lender looked`;
  const bound = BigInt(terms.max_principal) < principal ? BigInt(terms.max_principal) : principal;
  const sold = `the lender sold the seized units for ${stableOf(recovery.proceeds)} in ${recovery.slices} slices`;
  const outcome = d.liquidated
    ? recovery.closed
      ? `liquidated (the seized units fetch ${stableOf(payback)} from the pool once the dump is bought back); ${sold}; charged ${stableOf(loss)} (bound: the principal, ${stableOf(bound)})`
      : `liquidated; ${sold} so far, its recovery still open after ${3 * ctx.priceWindowBlocks} blocks (the principal less that stays used); charged ${stableOf(loss)} (bound: the principal, ${stableOf(bound)})`
    : `not liquidated within ${2 * ctx.priceWindowBlocks} blocks (repaid)`;
  return {
    attack,
    result:
      `${lift}; ${lent}; sold back ${stableOf(d.soldBack)}; ${dumped}; ${outcome}; ` +
      `LNW capacity after ${stableOf(BigInt(cap?.lendable ?? '0'))}${cap?.limited_by ? ` (${cap.limited_by})` : ''}; the attacker's cost ${stableOf(cost)}`,
    held: loss <= bound,
    needsHonestBorrow: true,
  };
}

async function launch(
  ctx: SoakContext,
  issuer: SoakActor,
  doc: { name: string; symbol: string },
  shares: bigint,
  poolShares: bigint,
  poolStable: bigint,
): Promise<{ assetId: string; poolId: number; refused?: string }> {
  const posted = await postJson(`${ctx.url}/api/launchpad/metadata`, {
    ...doc,
    description: 'A community asset launched by the soak bench.',
    template: 'equity',
  });
  if (posted.status !== 200)
    return {
      assetId: '',
      poolId: 0,
      refused: `${posted.status} ${posted.body.reason ?? posted.body.code}: ${posted.body.error}`,
    };
  const assetId = deriveAssetId(issuer.address, 0n);
  const kind = (c: AssetSpec['kinds'][number]['class']) => ({
    class: c,
    decimals: 6,
    bundle: true,
    transferable: true,
  });
  await issuer.must('create the asset', [
    createAsset(issuer.address, {
      meta_hash: posted.body.meta_hash,
      settlement_denom: ctx.config.stableDenom,
      policy: { transfer: 'TRANSFER_MODE_OPEN' },
      roles: {},
      kinds: [kind('KIND_CLASS_ECONOMIC'), kind('KIND_CLASS_INCOME'), kind('KIND_CLASS_VOTE')],
      liens_allowed: false,
      distribution_denoms: [ctx.config.stableDenom],
    }),
  ]);
  await issuer.must(
    'issue',
    [0, 1, 2].map((k) => issue(issuer.address, assetId, k, issuer.address, shares * WHOLE)),
  );
  const pool = await issuer.must('create the pool', [
    createPool(issuer.address, assetId, ctx.config.stableDenom, poolShares * WHOLE, poolStable),
  ]);
  return { assetId, poolId: Number(attributeOf(pool, 'svc.dex.v1.EventPoolCreated', 'pool_id') ?? 0) };
}

/** Case 3: a fresh issuer's community asset on a 20,000-stable pool, borrowed against at the most, then dumped. */
async function sybil(ctx: SoakContext): Promise<AttackOutcome> {
  const issuer = await fresh(ctx, 'sybil', 25_000n * WHOLE);
  const symbol = `SY${ctx.round}`;
  const launched = await launch(
    ctx,
    issuer,
    { name: `Sybil Holdings ${ctx.round}`, symbol },
    20_000n,
    5_000n,
    20_000n * WHOLE,
  );
  if (launched.refused) return { attack: 'sybil', result: `launch refused: ${launched.refused}`, held: true };
  await waitBlocks(ctx.chain, ctx.poolSettleBlocks);
  let result: string;
  try {
    const loan = await runExample('borrow', {
      url: ctx.url,
      rpc: ctx.rpc,
      asset: symbol,
      account: issuer.name,
      seed: ctx.seed,
      amount: 5000n,
      log: () => undefined,
    });
    result = `borrowed ${BigInt(loan.principal) / WHOLE} against ${BigInt(loan.units) / WHOLE} shares of ${symbol}${loan.limited_by ? ` (limited by ${loan.limited_by})` : ''}`;
  } catch (e) {
    result = `borrow refused: ${(e as Error).message}`;
  }
  const left = await ctx.queries.transferable(launched.assetId, 0, issuer.address);
  if (left > 0n) await issuer.submit([swap(issuer.address, launched.poolId, true, left, 0n)]);
  return { attack: 'sybil', result: `${result}; dumped ${left / WHOLE} shares into its pool`, held: true };
}

/** Case 5: a document named exactly as LNW's, symbol LNVV, on a pool deep enough to be quoted. */
async function lookAlike(ctx: SoakContext): Promise<AttackOutcome> {
  const issuer = await fresh(ctx, 'lookalike', 2_000n * WHOLE);
  const launched = await launch(ctx, issuer, { name: 'Lantern Works', symbol: 'LNVV' }, 1_000n, 100n, 1_010n * WHOLE);
  if (launched.refused) return { attack: 'look-alike', result: `launch refused: ${launched.refused}`, held: true };
  await waitBlocks(ctx.chain, ctx.poolSettleBlocks);
  const quoted = await quoteOf(ctx, launched.assetId);
  const reason = await notQuotedReason(ctx, launched.assetId);
  return {
    attack: 'look-alike',
    result: quoted ? `quoted with bid ${quoted.bid}` : `not quoted (${reason ?? 'absent'})`,
    held: !quoted?.bid,
  };
}

export type AttackName = 'squat' | 'junk' | 'pump' | 'pump-hold' | 'sybil' | 'look-alike';
export const ATTACKS: readonly AttackName[] = ['squat', 'junk', 'pump', 'pump-hold', 'sybil', 'look-alike'];

/** `--attacks`' comma-separated names, each one of ATTACKS, in the order given. */
export function parseAttacks(raw: string): AttackName[] {
  const attacks = raw.split(',').filter(Boolean);
  for (const a of attacks)
    if (!(ATTACKS as readonly string[]).includes(a)) throw new RangeError(`unknown attack ${a}: ${ATTACKS.join(', ')}`);
  return attacks as AttackName[];
}

export function runAttack(
  name: AttackName,
  ctx: SoakContext,
  honest: SoakActor,
): Promise<AttackOutcome & { mistaken?: string }> {
  if (name === 'squat') return squat(ctx);
  if (name === 'junk') return junk(ctx, honest);
  if (name === 'pump') return pumpBorrow(ctx);
  if (name === 'pump-hold') return pumpHold(ctx);
  if (name === 'sybil') return sybil(ctx);
  return lookAlike(ctx);
}
