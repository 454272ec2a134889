/** ActivityEvent and Distribution objects. */
import type { ActivityRow } from '../repositories/activityRepository';
import type { DistributionRow } from '../repositories/assetRepository';
import { amountString, formatTimestamp, passJson } from './values';

export function presentActivity(row: ActivityRow) {
  return {
    height: row.height,
    tx_index: row.tx_index,
    event_index: row.event_index,
    tx_hash: row.tx_hash,
    block_time: formatTimestamp(row.block_time),
    type: row.type,
    ...(row.mode ? { mode: row.mode } : {}), // block-level events only
    decoded: passJson(row.decoded),
  };
}

export function presentDistribution(row: DistributionRow) {
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
