/** The /api/desk answers (app-services/openapi.yaml `Quote`, `RfqAnswer`). */
import type { AppSchema } from '../contract';
import type { Quote } from './book';
import { WHOLE_SHARE } from './pricing';
import { rfqExpiry, type OfferRow, type RfqRow } from './repository';

/** The instrument a quote names: the symbol for a whole share, `<symbol>.<kind>` for a kind. */
export const instrumentOf = (symbol: string, kind: number) => (kind === WHOLE_SHARE ? symbol : `${symbol}.${kind}`);

export function presentQuote(q: Quote): AppSchema<'Quote'> {
  return {
    name: q.name,
    symbol: q.symbol,
    asset_id: q.asset_id,
    kind: q.kind,
    instrument: instrumentOf(q.symbol, q.kind),
    bid: q.bid?.toString() ?? null,
    ask: q.ask?.toString() ?? null,
    mid: q.mid.toString(),
    bid_withheld: q.bidWithheld,
    ask_withheld: q.askWithheld,
  };
}

export function presentOffer(o: OfferRow): AppSchema<'Offer'> {
  return {
    settlement_id: Number(o.settlement_id),
    verdict: o.verdict,
    reason: o.reason,
    detail: o.detail,
    asset_id: o.asset_id,
    amount: o.amount,
    tx: o.tx_hash,
  };
}

export function presentRfq(r: RfqRow): AppSchema<'RfqAnswer'> {
  return {
    rfq_id: r.id,
    settlement_id: Number(r.settlement_id),
    instrument: instrumentOf(r.symbol, r.kind_id),
    asset_id: r.asset_id,
    kind: r.kind_id,
    side: r.side,
    units: r.units,
    price: r.price,
    amount: r.amount,
    expiry: rfqExpiry(r),
  };
}
