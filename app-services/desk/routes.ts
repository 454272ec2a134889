/**
 * /api/desk (app-services/openapi.yaml):
 *   GET  /quotes              the desk's bid and ask per whole share and per kind, and the assets it does not quote, with why
 *   POST /rfq                 {address, asset_id | symbol, kind, side, units} → the desk's escrowed proposal
 *   GET  /offers?address=     what the desk did with an address's proposals, and why
 * An RFQ is recorded (rate limit counted across replicas; a purchase within the desk's caps,
 * under the risk lock) before it is proposed; the process acting for the desk proposes it in
 * the request, another replica waits for it. With an Idempotency-Key header, a retry of the
 * same request answers the same proposal.
 */
import { createHash, randomBytes } from 'crypto';
import type { Request } from 'express';
import type { PoolClient } from 'pg';
import { tryParseAccountAddress } from '../../src/lib/address';
import { badRequest, HttpError } from '../../src/http/http-errors';
import { addressParam } from '../http/params';
import type { AppRoutes } from '../http/routes';
import { deskAssetRoom, purchaseRefusal, type DeskLimitSettings, type SharedRiskSettings } from '../risk/exposure';
import { refusal, type Refusal as Why } from '../risk/reasons';
import type { RiskRepository } from '../risk/repository';
import { movableOf, type Book, type DeskBook, type Quote } from './book';
import { instrumentOf, presentOffer, presentQuote, presentRfq } from './presenter';
import { amountFor, valueAtMid } from './pricing';
import type { DeskRepository, NewRfq, OfferRepository, RfqLimits, RfqRow } from './repository';
import type { Refusal, Resource } from './reservations';
import { UNDELIVERABLE, type DeskWorker } from './worker';

export const RFQ_WINDOW_MS = 10 * 60_000;
export const PROPOSAL_LIFETIME_MS = 10 * 60_000;
const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,200}$/;
const UNITS_RE = /^[1-9][0-9]{0,29}$/;

export interface DeskRouteDeps {
  hrp: string;
  denom: string;
  maxTrade: bigint;
  /** per address and per client, escrow caps (windowMs: RFQ_WINDOW_MS) */
  limits: RfqLimits;
  /** the desk's caps on what it buys, and those it shares with the lender */
  risk: { limits: DeskLimitSettings; shared: SharedRiskSettings; maxReservationBps: number };
  /** how long a replica that does not act for the desk waits for the proposal */
  waitMs: number;
  /** undefined while the desk has no key or no chain here */
  desk(): DeskParts | undefined;
}

/** What the desk's routes reach of a running desk. */
export interface DeskParts {
  address: string;
  book: DeskBook;
  repository: DeskRepository;
  offers: OfferRepository;
  risk: RiskRepository;
  worker: DeskWorker;
}

interface RfqBody {
  requester: string;
  assetId?: string;
  symbol?: string;
  kind: number;
  side: 'sell' | 'buy';
  units: bigint;
}

const ASSET_ID_RE = /^[0-9a-f]{64}$/;
const refusedWith = (why: Why, headers: Record<string, string> = {}) =>
  new HttpError('bad_request', why.detail, headers, why.reason);

function requireDesk(deps: DeskRouteDeps) {
  const desk = deps.desk();
  if (!desk) throw new HttpError('unavailable', 'the desk is not running here (no DESK_KEY or no chain); see /ready');
  return desk;
}

/** The RFQ's fields, each required but the asset's two names (one of them is). */
const RFQ_FIELDS = ['address', 'asset_id', 'symbol', 'kind', 'side', 'units'];
const RFQ_RULES: Record<string, (hrp: string) => string> = {
  address: (hrp) => `an account address: bech32 with prefix ${hrp}1, or 0x + 40 hex`,
  kind: () => 'an integer: -1 for a whole share, or a kind id',
  side: () => '"sell" or "buy"',
  units: () => 'a positive integer as a decimal string (base units)',
};

function parseBody(body: unknown, hrp: string): RfqBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('the RFQ must be a JSON object {address, symbol, kind, side, units}');
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((key) => !RFQ_FIELDS.includes(key));
  if (unknown) throw badRequest(`unknown field "${unknown}"`);
  for (const field of ['address', 'kind', 'side', 'units'])
    if (b[field] === undefined) throw badRequest(`${field} is required: ${RFQ_RULES[field](hrp)}`);
  const address = typeof b.address === 'string' ? tryParseAccountAddress(b.address, hrp) : null;
  if (!address) throw badRequest(`address must be ${RFQ_RULES.address(hrp)}`);
  if (b.asset_id === undefined && b.symbol === undefined)
    throw badRequest('asset_id or symbol is required: asset_id (64 lower-case hex, as the quotes list it) or symbol');
  if (b.asset_id !== undefined && (typeof b.asset_id !== 'string' || !ASSET_ID_RE.test(b.asset_id)))
    throw badRequest('asset_id must be 64 lower-case hex characters');
  if (b.symbol !== undefined && (typeof b.symbol !== 'string' || b.symbol === ''))
    throw badRequest('symbol must be a non-empty string');
  if (typeof b.kind !== 'number' || !Number.isInteger(b.kind) || b.kind < -1)
    throw badRequest(`kind must be ${RFQ_RULES.kind(hrp)}`);
  if (b.side !== 'sell' && b.side !== 'buy') throw badRequest(`side must be ${RFQ_RULES.side(hrp)}`);
  if (typeof b.units !== 'string' || !UNITS_RE.test(b.units)) throw badRequest(`units must be ${RFQ_RULES.units(hrp)}`);
  return {
    requester: address.bech32,
    assetId: b.asset_id as string | undefined,
    symbol: b.symbol as string | undefined,
    kind: b.kind,
    side: b.side,
    units: BigInt(b.units),
  };
}

/**
 * The quote the RFQ names. A symbol names the one quoted asset carrying it (a look-alike is
 * never quoted, so a symbol names at most one); an asset the desk lists but does not quote
 * answers why (its price window filling after a restart, its pool too young…), not "unknown".
 */
function quoteFor(book: Book, rfq: RfqBody): Quote {
  const named = (q: { asset_id: string; symbol: string }) =>
    (rfq.assetId === undefined || q.asset_id === rfq.assetId) && (rfq.symbol === undefined || q.symbol === rfq.symbol);
  const what = rfq.assetId ?? `symbol "${rfq.symbol}"`;
  const quotes = book.quotes.filter(named);
  if (!quotes.length && rfq.assetId !== undefined && rfq.symbol !== undefined) {
    // both names given and they disagree: say so, not that the asset is unknown
    const listed = [...book.quotes, ...book.notQuoted].find((q) => q.asset_id === rfq.assetId);
    if (listed)
      throw badRequest(
        `asset ${rfq.assetId} is ${listed.symbol}, not ${rfq.symbol}: name it by asset_id or by symbol, or by both as GET /api/desk/quotes lists them`,
      );
  }
  if (!quotes.length) {
    const unquoted = book.notQuoted.find(named);
    if (unquoted)
      throw refusedWith({ reason: unquoted.reason, detail: `the desk does not quote ${what} now: ${unquoted.detail}` });
    throw refusedWith(refusal('not_quoted', `the desk quotes no asset ${what} (GET /api/desk/quotes lists them)`));
  }
  const quote = quotes.find((q) => q.kind === rfq.kind);
  if (!quote)
    throw refusedWith(
      refusal(
        'not_quoted',
        `the desk quotes no kind ${rfq.kind} of ${what}: it quotes kinds ${quotes.map((q) => q.kind).join(', ')} (-1: a whole share)`,
      ),
    );
  return quote;
}

type Terms = Omit<NewRfq, 'id' | 'requester' | 'expiry'>;

/** The terms of an RFQ from the book now, and the quote they come from; a 400 for what the desk will not do. */
const WITHHELD: Partial<Record<Why['reason'], string>> = {
  price_diverged: "the pool's spot price is moving away from its average",
  inventory: 'its inventory is too low',
  position_limit: 'it holds as much of this asset as it may (DESK_MAX_POSITION)',
  pool_share_cap: "it holds as much as the asset's pool could buy back (DESK_MAX_POOL_SHARE_BPS)",
  issuer_cap: "the lender and the desk hold as much of this issuer's assets as they may (RISK_MAX_PER_ISSUER)",
  total_cap: 'it holds as much as it may of all assets together (DESK_MAX_TOTAL)',
  loss_cooloff: 'the asset or its issuer cost a loss recently (RISK_LOSS_COOLOFF_S)',
};

function termsOf(rfq: RfqBody, book: Book, deps: DeskRouteDeps): { terms: Terms; quote: Quote } {
  const quote = quoteFor(book, rfq);
  const instrument = instrumentOf(quote.symbol, rfq.kind);
  const price = rfq.side === 'sell' ? quote.bid : quote.ask;
  const withheld = rfq.side === 'sell' ? quote.bidWithheld : quote.askWithheld;
  const figures = rfq.side === 'sell' ? quote.bidWithheldDetail : quote.askWithheldDetail;
  if (price === null || withheld)
    throw refusedWith(
      refusal(
        withheld ?? 'not_quoted',
        `the desk is not ${rfq.side === 'sell' ? 'buying' : 'selling'} ${instrument} now: ${WITHHELD[withheld ?? 'not_quoted'] ?? 'no quote'}${figures ? ` (${figures})` : ''}`,
      ),
    );
  const amount = amountFor(price, rfq.units, quote.decimals, rfq.side === 'sell');
  if (amount === 0n) throw badRequest('too small: the trade is worth less than one base unit of the stable denom');
  if (amount > deps.maxTrade)
    throw refusedWith(
      refusal(
        'trade_cap',
        `above the desk's trade cap: ${amount} > ${deps.maxTrade} base units of ${deps.denom} per trade`,
      ),
    );
  if (rfq.side === 'sell' && amount > book.cash)
    throw refusedWith(
      refusal(
        'inventory',
        `beyond the desk's inventory: it holds ${book.cash} ${deps.denom}, the trade needs ${amount}`,
      ),
    );
  if (rfq.side === 'buy') {
    const held = quote.kinds.map((k) => movableOf(book, quote.asset_id, k)).reduce((a, b) => (a < b ? a : b));
    if (rfq.units > held)
      throw refusedWith(
        refusal(
          'inventory',
          `beyond the desk's inventory: it holds ${held} units of ${instrument} it may move, the trade needs ${rfq.units}`,
        ),
      );
  }
  const terms = {
    asset_id: quote.asset_id,
    symbol: quote.symbol,
    kind_id: rfq.kind,
    side: rfq.side,
    units: rfq.units.toString(),
    price: price.toString(),
    amount: amount.toString(),
  };
  return { terms, quote };
}

/**
 * What the RFQ escrows, checked against the desk's inventory and escrow caps as it is
 * recorded; a sell RFQ (the desk buys) also against the desk's caps, on the risk account read
 * under the risk lock, exactly as the worker judges an offer.
 */
function reservationOf(
  rfq: RfqBody,
  t: { terms: Terms; quote: Quote },
  book: Book,
  deps: DeskRouteDeps,
  desk: DeskParts,
) {
  const sells = rfq.side === 'sell';
  const asset = book.assets.get(t.quote.asset_id)!;
  const value = valueAtMid(asset.units, t.quote.kinds, rfq.units, asset.price.twap);
  const issuer = asset.asset.issuer;
  const subject = { assetId: asset.asset.asset_id, issuer, poolQuoteReserve: asset.poolQuoteReserve };
  const check = async (c: PoolClient): Promise<Why | null> =>
    purchaseRefusal(await desk.risk.snapshot(c), subject, value, deps.risk.limits, deps.risk.shared, Date.now());
  const room = deskAssetRoom(subject, deps.risk.limits, deps.risk.shared);
  return {
    limits: deps.limits,
    resources: sells
      ? [{ side: 'sell' as const }]
      : t.quote.kinds.map((kindId) => ({ side: 'buy' as const, assetId: t.quote.asset_id, kindId })),
    need: sells ? BigInt(t.terms.amount) : rfq.units,
    what: sells ? deps.denom : `units of ${instrumentOf(t.quote.symbol, rfq.kind)}`,
    free: (r: Resource) => desk.book.free(r),
    purchase: sells
      ? { value, issuer, check, reservationCap: (room * BigInt(deps.risk.maxReservationBps)) / 10_000n }
      : undefined,
  };
}

/**
 * A sell RFQ reserves the desk's room and stable: only for units its requester holds and may
 * move now, of every kind it sells (checked again before the desk proposes: desk/worker.ts).
 */
async function checkDeliverable(rfq: RfqBody, quote: Quote, desk: DeskParts): Promise<void> {
  const short = await desk.book.shortfall(rfq.requester, quote.asset_id, quote.kinds, rfq.units);
  if (short)
    throw refusedWith(
      refusal(
        'undeliverable',
        `${rfq.requester} holds ${short.movable} units of ${quote.symbol} kind ${short.kindId} it may move; the RFQ sells ${rfq.units}: ` +
          "an RFQ reserves the desk's room only for units its requester can deliver",
      ),
    );
}

const refused = (r: Refusal) =>
  new HttpError(r.code, r.message, r.retryAfterSeconds ? { 'Retry-After': String(r.retryAfterSeconds) } : {}, r.reason);

function rfqIdOf(req: Pick<Request, 'get'>, requester: string): string {
  const key = req.get('Idempotency-Key');
  if (key === undefined) return `R${randomBytes(16).toString('hex')}`;
  if (!IDEMPOTENCY_KEY_RE.test(key)) throw badRequest('Idempotency-Key must be 1 to 200 visible ASCII characters');
  return `R${createHash('sha256').update(`${requester}\n${key}`).digest('hex').slice(0, 32)}`;
}

async function outcome(row: RfqRow, deps: DeskRouteDeps): Promise<RfqRow | undefined> {
  const desk = requireDesk(deps);
  if (desk.worker.acting) return desk.worker.propose(row);
  const deadline = Date.now() + deps.waitMs;
  let r: RfqRow | undefined = row;
  while (r?.status === 'pending' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    r = await desk.repository.get(row.id);
  }
  return r;
}

async function answer(row: RfqRow, deps: DeskRouteDeps) {
  const r = await outcome(row, deps);
  if (r?.status === 'proposed') return presentRfq(r);
  // the chain's log stays in the row and the desk's log, not in the answer
  if (r?.status === 'failed' && r.error?.startsWith(`${UNDELIVERABLE}: `))
    throw refusedWith(refusal('undeliverable', `${r.error.slice(UNDELIVERABLE.length + 2)}; nothing was proposed`));
  if (r?.status === 'failed')
    throw refusedWith(
      refusal('inventory', "the chain refused the desk's proposal (its inventory moved); ask for a new quote"),
    );
  throw new HttpError(
    'unavailable',
    `RFQ ${row.id} is recorded and will be proposed; ask again with the same Idempotency-Key for its answer`,
    { 'Retry-After': '2' },
  );
}

function sameRequest(r: RfqRow, rfq: RfqBody): boolean {
  return (
    r.requester === rfq.requester &&
    (rfq.assetId === undefined || r.asset_id === rfq.assetId) &&
    (rfq.symbol === undefined || r.symbol === rfq.symbol) &&
    r.kind_id === rfq.kind &&
    r.side === rfq.side &&
    r.units === rfq.units.toString()
  );
}

/** The answer to an RFQ: recorded within the limits, then proposed (or the earlier answer of its Idempotency-Key). */
async function requestQuote(
  req: Pick<Request, 'is' | 'body' | 'get' | 'ip'>,
  checkBody: () => void,
  deps: DeskRouteDeps,
) {
  if (!req.is('application/json')) throw badRequest('send the RFQ as a JSON body (Content-Type: application/json)');
  const body = parseBody(req.body, deps.hrp);
  checkBody(); // the document's RfqRequest, on what parseBody accepted
  const desk = requireDesk(deps);
  const id = rfqIdOf(req, body.requester);
  const earlier = await desk.repository.get(id);
  if (earlier) {
    if (!sameRequest(earlier, body)) throw badRequest('this Idempotency-Key was used for another RFQ');
    return answer(earlier, deps);
  }
  const book = await desk.book.current();
  const quoted = termsOf(body, book, deps);
  const row = {
    id,
    requester: body.requester,
    expiry: new Date(Math.floor((Date.now() + PROPOSAL_LIFETIME_MS) / 1000) * 1000),
    ...quoted.terms,
  };
  if (body.side === 'sell') await checkDeliverable(body, quoted.quote, desk);
  const check = reservationOf(body, quoted, book, deps, desk);
  const outcome = await desk.repository.recordWithinLimits(row, req.ip ?? 'unknown', check, desk.risk);
  if (outcome) throw refused(outcome);
  return answer((await desk.repository.get(id))!, deps);
}

export function registerDeskRoutes(routes: AppRoutes, deps: DeskRouteDeps): void {
  routes.get('/api/desk/quotes', async () => {
    const book = await requireDesk(deps).book.current();
    return {
      quotes: book.quotes.map(presentQuote),
      not_quoted: book.notQuoted.map((n) => ({
        asset_id: n.asset_id,
        name: n.name,
        symbol: n.symbol,
        reason: n.reason,
        detail: n.detail,
      })),
    };
  });
  routes.post('/api/desk/rfq', (req, checkBody) => requestQuote(req, checkBody, deps));
  routes.get('/api/desk/offers', async (req) => {
    const address = addressParam(req.query.address, deps.hrp);
    const { offers } = requireDesk(deps);
    return { address, offers: (await offers.of(address)).map(presentOffer) };
  });
}
