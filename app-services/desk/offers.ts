/**
 * Which proposals to the desk it accepts (docs/app-services.md, "Trade desk"): one asset's
 * kinds in equal units (every kind: a whole share; or a single kind) against one leg of the
 * stable denom in the other direction, at or better than the desk's quote, within the trade
 * cap and its inventory. Legs are the proposer's: GIVE is what the proposer gives.
 *
 * This judges the offer against a book. A purchase is then judged against the desk's caps
 * under the risk lock (desk/worker.ts), with everything accepted before it counted.
 */
import type { ProposalSeen } from '../store/indexer-reads';
import { refusal, type Refusal } from '../risk/reasons';
import { movableOf, type AssetState, type Book, type Quote } from './book';
import { amountFor, valueAtMid } from './pricing';

const GIVE = 'LEG_DIRECTION_GIVE';
const ASK = 'LEG_DIRECTION_ASK';

/** A leg as the chain and the index give it (proto-JSON). */
export type OfferLeg = ProposalSeen['legs'][number];

export type Verdict =
  | {
      accept: true;
      quote: Quote;
      asset: AssetState;
      deskBuys: boolean;
      units: bigint;
      amount: bigint;
      /** a purchase: what it adds to the desk's exposure (the units at mid); 0 for a sale */
      buysValue: bigint;
    }
  | ({ accept: false } & Refusal);

const INTEGER = /^[0-9]+$/;
const no = (reason: Refusal['reason'], detail: string): Verdict => ({ accept: false, ...refusal(reason, detail) });

/** The instrument the right legs make: every kind of the asset, or one kind. */
function instrumentOf(rights: OfferLeg[], book: Book): Quote | undefined {
  const assetId = rights[0].right?.asset_id;
  const kinds = rights.map((l) => Number(l.right?.kind_id ?? 0)).sort((a, b) => a - b);
  return book.quotes.find(
    (q) => q.asset_id === assetId && q.kinds.length === kinds.length && q.kinds.every((k, i) => k === kinds[i]),
  );
}

export interface OfferLimits {
  denom: string;
  maxTrade: bigint;
}

/** The asset a proposal's right legs name, when they name one. */
export function offerAssetOf(legs: readonly OfferLeg[]): string | null {
  const ids = new Set(legs.filter((l) => l.right).map((l) => String(l.right?.asset_id ?? '')));
  return ids.size === 1 ? [...ids][0] : null;
}

/** The proposal's stable-denom amount, when it has exactly one coin leg of it. */
export function offerAmountOf(legs: readonly OfferLeg[], denom: string): bigint | null {
  const coins = legs.filter((l) => l.coin);
  const c = coins[0]?.coin;
  return coins.length === 1 && c?.denom === denom && INTEGER.test(String(c.amount ?? '')) ? BigInt(c.amount!) : null;
}

export function judgeOffer(legs: readonly OfferLeg[], book: Book, o: OfferLimits): Verdict {
  const coins = legs.filter((l) => l.coin);
  const rights = legs.filter((l) => l.right);
  if (coins.length !== 1 || rights.length === 0 || coins.length + rights.length !== legs.length)
    return no('not_an_offer', 'not one stable leg against rights');
  const coin = coins[0];
  if (coin.coin?.denom !== o.denom || !INTEGER.test(String(coin.coin.amount ?? '')))
    return no('not_an_offer', 'the coin leg is not the stable denom');
  const direction = rights[0].direction;
  if (
    rights.some((l) => l.direction !== direction || l.right?.asset_id !== rights[0].right?.asset_id) ||
    coin.direction === direction
  )
    return no('not_an_offer', 'the rights are not one asset in one direction against the coin');
  const units = String(rights[0].right?.units ?? '');
  if (!INTEGER.test(units) || rights.some((l) => l.right?.units !== units) || BigInt(units) === 0n)
    return no('not_an_offer', 'the kinds are not in equal units');
  const quote = instrumentOf(rights, book);
  const asset = quote && book.assets.get(quote.asset_id);
  if (!quote || !asset) {
    const assetId = String(rights[0].right?.asset_id ?? '');
    const kinds = rights.map((l) => Number(l.right?.kind_id ?? 0)).sort((a, b) => a - b);
    const unquoted = book.notQuoted.find((n) => n.asset_id === assetId);
    if (unquoted) return no(unquoted.reason, `the desk does not quote asset ${assetId} now: ${unquoted.detail}`);
    const what = book.assets.has(assetId)
      ? `kinds ${kinds.join(', ')} of asset ${assetId} together (it quotes a whole share, every kind, or one kind)`
      : `asset ${assetId}`;
    return no('not_quoted', `the desk does not quote ${what} (GET /api/desk/quotes lists what it quotes)`);
  }
  const name = quote.kind === -1 ? quote.symbol : `${quote.symbol}.${quote.kind}`;
  const amount = BigInt(coin.coin.amount!);
  if (amount > o.maxTrade)
    return no('trade_cap', `${amount} ${o.denom} is above the trade cap of ${o.maxTrade} (DESK_MAX_TRADE)`);
  const deskBuys = direction === GIVE && coin.direction === ASK;
  const n = BigInt(units);
  if (deskBuys) {
    if (quote.bid === null)
      return no(
        quote.bidWithheld ?? 'not_quoted',
        `the offer asks ${amount} for ${n} base units of ${name}; the desk is not bidding for ${name} now (mid ${quote.mid} per whole unit): ${quote.bidWithheldDetail ?? 'no bid'}`,
      );
    const most = amountFor(quote.bid, n, quote.decimals, true);
    if (amount > most)
      return no(
        'worse_than_quote',
        `the offer asks ${amount} for ${n} base units of ${name}; the desk bids ${quote.bid} per whole unit (mid ${quote.mid}), so it pays at most ${most}`,
      );
    if (amount > book.cash)
      return no('inventory', `the offer asks ${amount}; the desk holds ${book.cash} base units of ${o.denom}`);
    return {
      accept: true,
      quote,
      asset,
      deskBuys,
      units: n,
      amount,
      buysValue: valueAtMid(asset.units, quote.kinds, n, asset.price.twap),
    };
  }
  if (quote.ask === null)
    return no(
      quote.askWithheld ?? 'not_quoted',
      `the offer gives ${amount} for ${n} base units of ${name}; the desk is not selling ${name} now (mid ${quote.mid} per whole unit): ${quote.askWithheldDetail ?? 'no ask'}`,
    );
  const least = amountFor(quote.ask, n, quote.decimals, false);
  if (amount < least)
    return no(
      'worse_than_quote',
      `the offer gives ${amount} for ${n} base units of ${name}; the desk asks ${quote.ask} per whole unit (mid ${quote.mid}), so it takes at least ${least}`,
    );
  const short = quote.kinds.find((k) => movableOf(book, quote.asset_id, k) < n);
  if (short !== undefined)
    return no(
      'inventory',
      `the offer asks ${n} base units of ${name}; the desk may move ${movableOf(book, quote.asset_id, short)} of kind ${short}`,
    );
  return { accept: true, quote, asset, deskBuys, units: n, amount, buysValue: 0n };
}

/**
 * What the proposer escrows, in base units of the stable denom: its stable legs, and its
 * right legs at the desk's mid of each kind (0 for what the desk does not quote). Below the
 * dust value a proposal is left to expire: it costs the desk no tx.
 */
export function escrowedValue(legs: readonly OfferLeg[], book: Book, denom: string): bigint {
  let value = 0n;
  for (const l of legs) {
    if (l.direction !== GIVE) continue;
    if (l.coin) {
      if (l.coin.denom === denom && INTEGER.test(String(l.coin.amount ?? ''))) value += BigInt(l.coin.amount!);
    } else if (l.right && INTEGER.test(String(l.right.units ?? ''))) {
      const a = book.assets.get(String(l.right.asset_id ?? ''));
      if (a) value += a.units.kindValue(Number(l.right.kind_id ?? 0), BigInt(l.right.units!), a.price.twap);
    }
  }
  return value;
}
