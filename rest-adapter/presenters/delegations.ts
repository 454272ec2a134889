/** Delegation objects (openapi `Delegation`). */
import type { ApiSchema } from './contract';
import type { DelegationRow } from '../repositories/delegations';
import { amountString, formatTimestamp, jsonValue, toInt } from './values';

export function presentDelegation(row: DelegationRow): ApiSchema<'Delegation'> {
  return {
    id: toInt(row.id),
    holder: row.holder,
    asset_id: row.asset_id,
    delegate: row.delegate,
    kind_id: row.kind_id,
    units: amountString(row.units),
    until: formatTimestamp(row.until),
    purposes: (jsonValue<unknown[] | null>(row.purposes) ?? []).map(String),
    revocable: row.revocable,
    ended: row.ended,
    created_height: row.created_height,
    created_tx_hash: row.created_tx_hash,
    ended_height: row.ended_height,
  };
}
