/**
 * Which proposals to the desk it accepts (docs/app-services.md, "Trade desk"): one asset's
 * kinds in equal units (every kind: a whole share; or a single kind) against one leg of the
 * stable denom in the other direction, at or better than the desk's quote, within the trade
 * cap, its inventory and (when it buys) its position limit. Legs are the proposer's: GIVE is
 * what the proposer gives.
 */
import type { ProposalSeen } from '../store/indexer-reads';
import { amountFor } from './pricing';
import { unitsKey, type Book, type Quote } from './book';

const GIVE = 'LEG_DIRECTION_GIVE';
const ASK = 'LEG_DIRECTION_ASK';

/** A leg as the chain and the index give it (proto-JSON). */
export type OfferLeg = ProposalSeen['legs'][number];

export type Verdict =
  { accept: true; quote: Quote; deskBuys: boolean; units: bigint; amount: bigint } | { accept: false; reason: string };

const INTEGER = /^[0-9]+$/;
const no = (reason: string): Verdict => ({ accept: false, reason });

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
  /** DESK_MAX_POSITION: what a purchase may bring the desk's holding of the asset to, valued at mid */
  maxPosition: bigint;
}

export function judgeOffer(legs: readonly OfferLeg[], book: Book, o: OfferLimits): Verdict {
  const coins = legs.filter((l) => l.coin);
  const rights = legs.filter((l) => l.right);
  if (coins.length !== 1 || rights.length === 0 || coins.length + rights.length !== legs.length)
    return no('not one stable leg against rights');
  const coin = coins[0];
  if (coin.coin?.denom !== o.denom || !INTEGER.test(String(coin.coin.amount ?? '')))
    return no('the coin leg is not the stable denom');
  const direction = rights[0].direction;
  if (
    rights.some((l) => l.direction !== direction || l.right?.asset_id !== rights[0].right?.asset_id) ||
    coin.direction === direction
  )
    return no('the rights are not one asset in one direction against the coin');
  const units = String(rights[0].right?.units ?? '');
  if (!INTEGER.test(units) || rights.some((l) => l.right?.units !== units) || BigInt(units) === 0n)
    return no('the kinds are not in equal units');
  const quote = instrumentOf(rights, book);
  if (!quote) return no('the desk does not quote these rights');
  const amount = BigInt(coin.coin.amount!);
  if (amount > o.maxTrade) return no('above the trade cap');
  const deskBuys = direction === GIVE && coin.direction === ASK;
  const n = BigInt(units);
  if (deskBuys) {
    if (quote.bid === null) return no('the desk is not bidding');
    if (amount > amountFor(quote.bid, n, quote.decimals, true)) return no('asks more than the desk bids');
    if (amount > book.cash) return no("beyond the desk's stable inventory");
    const position = (book.positions.get(quote.asset_id) ?? 0n) + amountFor(quote.mid, n, quote.decimals, true);
    if (position > o.maxPosition) return no("beyond the desk's position limit");
  } else {
    if (quote.ask === null) return no('the desk is not offering');
    if (amount < amountFor(quote.ask, n, quote.decimals, false)) return no('gives less than the desk asks');
    if (quote.kinds.some((k) => (book.units.get(unitsKey(quote.asset_id, k)) ?? 0n) < n))
      return no("beyond the desk's unit inventory");
  }
  return { accept: true, quote, deskBuys, units: n, amount };
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
      const kind = Number(l.right.kind_id ?? 0);
      const q = book.quotes.find(
        (x) => x.asset_id === l.right?.asset_id && x.kinds.length === 1 && x.kinds[0] === kind,
      );
      if (q) value += amountFor(q.mid, BigInt(l.right.units!), q.decimals, true);
    }
  }
  return value;
}
