/** Settlement objects (openapi `Settlement`) and their timeline items. */
import type { ApiSchema } from './contract';
import type { SettlementRow, SettlementTimelineRow } from '../repositories/settlements';
import { amountString, formatTimestamp, jsonValue, str, toInt } from './values';

interface StoredLeg {
  direction?: unknown;
  right?: { asset_id?: unknown; kind_id?: unknown; units?: unknown } | null;
  coin?: { denom?: unknown; amount?: unknown } | null;
}

/** A Leg with exactly one of `right` or `coin` (proto-JSON may carry the unset one as null). */
function presentLeg(leg: StoredLeg): ApiSchema<'Leg'> {
  if (leg.right) {
    const r = leg.right;
    return {
      direction: str(leg.direction),
      right: { asset_id: str(r.asset_id), kind_id: Number(r.kind_id ?? 0), units: amountString(str(r.units) || '0') },
    };
  }
  const c = leg.coin ?? {};
  return { direction: str(leg.direction), coin: { denom: str(c.denom), amount: amountString(str(c.amount) || '0') } };
}

export function presentSettlement(row: SettlementRow): ApiSchema<'Settlement'> {
  return {
    id: toInt(row.id),
    proposer: row.proposer,
    counterparty: row.counterparty,
    legs: (jsonValue<StoredLeg[] | null>(row.legs) ?? []).map(presentLeg),
    expiry: formatTimestamp(row.expiry),
    status: row.status,
    cancel_reason: row.cancel_reason,
    memo_hash: row.memo_hash,
    created_height: row.created_height,
    created_tx_hash: row.created_tx_hash,
    created_at: formatTimestamp(row.created_at),
    updated_height: row.updated_height,
  };
}

/** Timeline item; the actor of the expiry sweep and of a liquidation cancel (the waterfall module) is null. */
export function presentSettlementTimeline(row: SettlementTimelineRow): ApiSchema<'SettlementTimelineItem'> {
  const reason = str(row.reason);
  const byProtocol = row.event === 'expired' || (row.event === 'cancelled' && reason === 'LIQUIDATION');
  return {
    event: row.event,
    height: row.height,
    block_time: formatTimestamp(row.block_time),
    tx_hash: row.tx_hash,
    actor: byProtocol ? null : row.actor || null,
    reason: row.event === 'cancelled' ? reason : '',
  };
}
