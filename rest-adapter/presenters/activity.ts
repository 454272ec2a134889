/** ActivityEvent and Distribution objects. */
import type { ApiSchema } from './contract';
import type { ActivityRow } from '../repositories/activity';
import type { DistributionRow } from '../repositories/assets';
import { BLOCK_LEVEL, deriveEvent, txOrigin } from './events';
import { amountString, formatTimestamp } from './values';

/** An ActivityEvent: position from the row, type, mode and decoded from its raw event (events.ts). */
export function presentActivity(row: ActivityRow): ApiSchema<'ActivityEvent'> {
  const blockLevel = row.tx_hash === null;
  if (!row.event) {
    throw new Error(`activity entry ${row.height}:${row.tx_index}:${row.event_index}: event not found in the store`);
  }
  const event = deriveEvent(row.event, row.event_index, blockLevel ? BLOCK_LEVEL : txOrigin(row.code ?? 0));
  if (event.decoded === null) {
    // feeds list typed events only (openapi ActivityEvent: `decoded` is an object)
    throw new Error(`activity entry ${row.height}:${row.tx_index}:${row.event_index}: not a typed event`);
  }
  return {
    height: row.height,
    tx_index: row.tx_index,
    event_index: row.event_index,
    tx_hash: row.tx_hash,
    block_time: formatTimestamp(row.block_time),
    type: event.type,
    ...(event.mode ? { mode: event.mode } : {}), // block-level events only
    decoded: event.decoded,
  };
}

export function presentDistribution(row: DistributionRow): ApiSchema<'Distribution'> {
  return {
    height: row.height,
    tx_index: row.tx_index,
    event_index: row.event_index,
    kind_id: row.kind_id,
    denom: row.denom,
    payer: row.payer,
    amount: amountString(row.amount),
    supply: amountString(row.supply),
    new_index: amountString(row.new_index),
    carry_scaled: amountString(row.carry_scaled),
    tx_hash: row.tx_hash,
    block_time: formatTimestamp(row.block_time),
  };
}
