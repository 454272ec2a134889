/**
 * /api/desk (app-services/openapi.yaml):
 *   GET  /quotes   the desk's bid and ask per whole share and per kind
 *   POST /rfq      {address, symbol, kind, side, units} → the desk's escrowed proposal
 * An RFQ is recorded (rate limit counted across replicas) before it is proposed; the process
 * acting for the desk proposes it in the request, another replica waits for it. With an
 * Idempotency-Key header, a retry of the same request answers the same proposal.
 */
import { createHash, randomBytes } from 'crypto';
import type { Request } from 'express';
import { tryParseAccountAddress } from '../../src/lib/address';
import { badRequest, HttpError } from '../../src/http/http-errors';
import type { AppRoutes } from '../http/routes';
import type { Book, DeskBook, Quote } from './book';
import { unitsKey } from './book';
import { instrumentOf, presentQuote, presentRfq } from './presenter';
import { amountFor } from './pricing';
import type { DeskRepository, NewRfq, RfqLimits, RfqRow } from './repository';
import type { Refusal, Resource } from './reservations';
import type { DeskWorker } from './worker';

export const RFQ_WINDOW_MS = 10 * 60_000;
export const PROPOSAL_LIFETIME_MS = 10 * 60_000;
const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,200}$/;
const UNITS_RE = /^[1-9][0-9]{0,29}$/;

export interface DeskRouteDeps {
  hrp: string;
  denom: string;
  maxTrade: bigint;
  /** per address and per client, escrow caps, position limit (windowMs: RFQ_WINDOW_MS) */
  limits: RfqLimits;
  /** how long a replica that does not act for the desk waits for the proposal */
  waitMs: number;
  /** undefined while the desk has no key or no chain here */
  desk(): { address: string; book: DeskBook; repository: DeskRepository; worker: DeskWorker } | undefined;
}

interface RfqBody {
  requester: string;
  symbol: string;
  kind: number;
  side: 'sell' | 'buy';
  units: bigint;
}

function requireDesk(deps: DeskRouteDeps) {
  const desk = deps.desk();
  if (!desk) throw new HttpError('unavailable', 'the desk is not running here (no DESK_KEY or no chain); see /ready');
  return desk;
}

function parseBody(body: unknown, hrp: string): RfqBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('the RFQ must be a JSON object {address, symbol, kind, side, units}');
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((key) => !['address', 'symbol', 'kind', 'side', 'units'].includes(key));
  if (unknown) throw badRequest(`unknown field "${unknown}"`);
  const address = typeof b.address === 'string' ? tryParseAccountAddress(b.address, hrp) : null;
  if (!address) throw badRequest(`address must be an account address: bech32 with prefix ${hrp}1, or 0x + 40 hex`);
  if (typeof b.symbol !== 'string' || b.symbol === '') throw badRequest('symbol must be a non-empty string');
  if (typeof b.kind !== 'number' || !Number.isInteger(b.kind) || b.kind < -1)
    throw badRequest('kind must be an integer: -1 for a whole share, or a kind id');
  if (b.side !== 'sell' && b.side !== 'buy') throw badRequest('side must be "sell" or "buy"');
  if (typeof b.units !== 'string' || !UNITS_RE.test(b.units))
    throw badRequest('units must be a positive integer as a decimal string (base units)');
  return { requester: address.bech32, symbol: b.symbol, kind: b.kind, side: b.side, units: BigInt(b.units) };
}

function quoteFor(book: Book, symbol: string, kind: number): Quote {
  const assets = new Set(book.quotes.filter((q) => q.symbol === symbol).map((q) => q.asset_id));
  if (assets.size === 0)
    throw badRequest(`the desk quotes no asset with symbol "${symbol}" (GET /api/desk/quotes lists them)`);
  if (assets.size > 1) throw badRequest(`symbol "${symbol}" names ${assets.size} assets; the desk cannot tell which`);
  const quote = book.quotes.find((q) => q.symbol === symbol && q.kind === kind);
  if (!quote) throw badRequest(`the desk quotes no kind ${kind} of ${symbol}`);
  return quote;
}

type Terms = Omit<NewRfq, 'id' | 'requester' | 'expiry'>;

/** The terms of an RFQ from the book now, and the quote they come from; a 400 for what the desk will not do. */
function termsOf(rfq: RfqBody, book: Book, deps: DeskRouteDeps): { terms: Terms; quote: Quote } {
  const quote = quoteFor(book, rfq.symbol, rfq.kind);
  const price = rfq.side === 'sell' ? quote.bid : quote.ask;
  if (price === null)
    throw badRequest(
      `the desk is not ${rfq.side === 'sell' ? 'buying' : 'selling'} ${instrumentOf(rfq.symbol, rfq.kind)} now: its inventory is low, it holds as much as it may, or the pool's price is moving`,
    );
  const amount = amountFor(price, rfq.units, quote.decimals, rfq.side === 'sell');
  if (amount === 0n) throw badRequest('too small: the trade is worth less than one base unit of the stable denom');
  if (amount > deps.maxTrade)
    throw badRequest(`above the desk's trade cap: ${amount} > ${deps.maxTrade} base units of ${deps.denom} per trade`);
  if (rfq.side === 'sell' && amount > book.cash)
    throw badRequest(`beyond the desk's inventory: it holds ${book.cash} ${deps.denom}, the trade needs ${amount}`);
  if (rfq.side === 'buy') {
    const held = quote.kinds
      .map((k) => book.units.get(unitsKey(quote.asset_id, k)) ?? 0n)
      .reduce((a, b) => (a < b ? a : b));
    if (rfq.units > held)
      throw badRequest(
        `beyond the desk's inventory: it holds ${held} units of ${instrumentOf(rfq.symbol, rfq.kind)}, the trade needs ${rfq.units}`,
      );
  }
  const terms = {
    asset_id: quote.asset_id,
    symbol: rfq.symbol,
    kind_id: rfq.kind,
    side: rfq.side,
    units: rfq.units.toString(),
    price: price.toString(),
    amount: amount.toString(),
  };
  return { terms, quote };
}

/** What the RFQ escrows, checked against the desk's inventory and caps as it is recorded. */
function reservationOf(
  rfq: RfqBody,
  t: { terms: Terms; quote: Quote },
  book: Book,
  deps: DeskRouteDeps,
  free: (r: Resource) => Promise<bigint>,
) {
  const sells = rfq.side === 'sell';
  return {
    limits: deps.limits,
    resources: sells
      ? [{ side: 'sell' as const }]
      : t.quote.kinds.map((kindId) => ({ side: 'buy' as const, assetId: t.quote.asset_id, kindId })),
    need: sells ? BigInt(t.terms.amount) : rfq.units,
    what: sells ? deps.denom : `units of ${instrumentOf(rfq.symbol, rfq.kind)}`,
    free,
    position: book.positions.get(t.quote.asset_id) ?? 0n,
  };
}

const refused = (r: Refusal) =>
  new HttpError(r.code, r.message, r.retryAfterSeconds ? { 'Retry-After': String(r.retryAfterSeconds) } : {});

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
  if (r?.status === 'failed')
    throw badRequest("the chain refused the desk's proposal (its inventory moved); ask for a new quote");
  throw new HttpError(
    'unavailable',
    `RFQ ${row.id} is recorded and will be proposed; ask again with the same Idempotency-Key for its answer`,
    { 'Retry-After': '2' },
  );
}

function sameRequest(r: RfqRow, rfq: RfqBody): boolean {
  return (
    r.requester === rfq.requester &&
    r.symbol === rfq.symbol &&
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
  const check = reservationOf(body, quoted, book, deps, (r) => desk.book.free(r));
  const refusal = await desk.repository.recordWithinLimits(row, req.ip ?? 'unknown', check);
  if (refusal) throw refused(refusal);
  return answer((await desk.repository.get(id))!, deps);
}

export function registerDeskRoutes(routes: AppRoutes, deps: DeskRouteDeps): void {
  routes.get('/api/desk/quotes', async () => {
    const book = await requireDesk(deps).book.current();
    return { quotes: book.quotes.map(presentQuote) };
  });
  routes.post('/api/desk/rfq', (req, checkBody) => requestQuote(req, checkBody, deps));
}
