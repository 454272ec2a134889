/** BridgeRoute (with outstanding, current window usage, I8) and BridgeTransfer objects. */
import type { ApiSchema } from './contract';
import type { RouteRow, TransferRow } from '../repositories/bridge';
import { amountString, jsonValue } from './values';
import { outstanding } from '../../src/lib/bridge-route';

/**
 * Window usage now: the stored *_used counters belong to the window of the route's last
 * transfer ([k·w, (k+1)·w) of block time); once the latest block is in a later window
 * nothing is used yet. window_seconds 0 is one window for ever.
 */
export function windowIsCurrent(windowSeconds: bigint, windowStart: bigint, latestBlockSeconds: bigint): boolean {
  if (windowSeconds <= 0n) return true;
  return (latestBlockSeconds / windowSeconds) * windowSeconds === windowStart;
}

function presentIncomeSwept(raw: unknown): ApiSchema<'IncomeSwept'> {
  const swept = (jsonValue<Record<string, unknown> | null>(raw) ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(swept)
      .sort()
      .map((denom) => [denom, amountString(String(swept[denom] ?? '0'))]),
  );
}

function presentI8(row: RouteRow): ApiSchema<'I8Check'> | null {
  if (row.i8_height === null) return null;
  return {
    height: row.i8_height,
    chain_actual: row.i8_chain_actual ?? '',
    indexer_actual: row.i8_indexer_actual ?? '',
    chain_ok: row.i8_chain_ok ?? false,
    evaluated: row.i8_evaluated ?? false,
    agree: row.i8_agree ?? false,
  };
}

export function presentRoute(row: RouteRow, latestBlockSeconds: bigint): ApiSchema<'BridgeRoute'> {
  const outbound = BigInt(row.outbound);
  const inbound = BigInt(row.inbound);
  const current = windowIsCurrent(BigInt(row.window_seconds), BigInt(row.window_start), latestBlockSeconds);
  return {
    route_id: row.id,
    remote_domain: row.remote_domain,
    remote_contract: row.remote_contract,
    direction: row.direction,
    local_denom: row.local_denom,
    status: row.status,
    window_seconds: Number(row.window_seconds),
    outbound_limit: amountString(row.outbound_limit),
    inbound_limit: amountString(row.inbound_limit),
    warp_token_id: row.warp_token_id,
    display: row.display,
    exponent: row.exponent,
    outbound: outbound.toString(),
    inbound: inbound.toString(),
    outstanding: outstanding(row.direction, outbound, inbound).toString(),
    outbound_used: current ? amountString(row.outbound_used) : '0',
    inbound_used: current ? amountString(row.inbound_used) : '0',
    created_height: row.created_height,
    updated_height: row.updated_height,
    transfers: row.transfers,
    asset_id: row.asset_id,
    kind_id: row.kind_id,
    bundle: row.bundle,
    escrow_address: row.escrow_address,
    income_swept: presentIncomeSwept(row.income_swept),
    i8: presentI8(row),
  };
}

export function presentTransfer(row: TransferRow): ApiSchema<'BridgeTransfer'> {
  return {
    height: row.height,
    tx_index: row.tx_index,
    event_index: row.event_index,
    tx_hash: row.tx_hash,
    route_id: row.route_id,
    direction: row.direction,
    status: row.status,
    sender: row.sender,
    recipient: row.recipient,
    amount: amountString(row.amount),
    message_id: row.message_id,
    reason: row.reason,
    block_time_ns: BigInt(row.block_time_ns), // int64 beyond 2^53: written exactly by json.ts
    asset_id: row.asset_id,
    kind_id: row.kind_id,
    bundle: row.bundle,
  };
}
