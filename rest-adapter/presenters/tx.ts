/** Tx, Event and EVMTx objects (openapi `Tx`, `Event`, `EVMTx`) from store rows. */
import { formatTimestamp, passJson, toInt } from './values';

export interface TxRow {
  hash: string;
  height: number;
  tx_index: number;
  code: number;
  codespace: string;
  raw_log: string | null;
  gas_wanted: string;
  gas_used: string;
  msgs: unknown;
  fee: unknown;
  block_time: string;
}

export interface EventRow {
  tx_hash: string | null;
  event_index: number;
  type: string;
  msg_index: number | null;
  mode: string | null;
  attributes: unknown;
  decoded: unknown;
  applied: boolean;
}

export interface EvmRow {
  tx_hash: string;
  eth_hash: string;
  from: string;
  to: string | null;
  value: string;
  gas_used: string;
  status: number;
  revert_reason: string | null;
}

export interface ApiEvent {
  event_index: number;
  type: string;
  msg_index: number | null;
  mode?: string;
  /** [{key, value}] as stored (JSON text passed through, see RawJson) */
  attributes: unknown;
  /** proto-JSON object or null, as stored */
  decoded: unknown;
  applied: boolean;
}

export interface ApiEvmTx {
  eth_hash: string;
  from: string;
  to: string | null;
  value: { denom: string; amount: string };
  gas_used: number;
  status: number;
  revert_reason: string | null;
}

export interface ApiTx {
  hash: string;
  height: number;
  tx_index: number;
  code: number;
  codespace: string;
  raw_log?: string;
  gas_wanted: number;
  gas_used: number;
  /** proto-JSON messages as stored */
  msgs: unknown;
  /** [{denom, amount}] as stored */
  fee: unknown;
  block_time: string;
  evm: ApiEvmTx | null;
  events: ApiEvent[];
}

export function presentEvent(row: EventRow): ApiEvent {
  return {
    event_index: row.event_index,
    type: row.type,
    msg_index: row.msg_index,
    ...(row.mode ? { mode: row.mode } : {}), // block-level events only
    attributes: passJson(row.attributes),
    decoded: row.decoded === null ? null : passJson(row.decoded),
    applied: row.applied,
  };
}

export function presentEvm(row: EvmRow, gasDenom: string): ApiEvmTx {
  return {
    eth_hash: row.eth_hash,
    from: row.from,
    to: row.to,
    value: { denom: gasDenom, amount: BigInt(row.value).toString() },
    gas_used: toInt(row.gas_used),
    status: row.status,
    revert_reason: row.status === 1 ? null : row.revert_reason,
  };
}

export function presentTx(row: TxRow, events: readonly EventRow[], evm: ApiEvmTx | null): ApiTx {
  return {
    hash: row.hash,
    height: row.height,
    tx_index: row.tx_index,
    code: row.code,
    codespace: row.codespace,
    ...(row.code !== 0 ? { raw_log: row.raw_log ?? '' } : {}), // only on failed txs
    gas_wanted: toInt(row.gas_wanted),
    gas_used: toInt(row.gas_used),
    msgs: passJson(row.msgs),
    fee: passJson(row.fee),
    block_time: formatTimestamp(row.block_time),
    evm,
    events: events.map(presentEvent),
  };
}
