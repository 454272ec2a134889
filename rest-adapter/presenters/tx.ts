/** Tx and EVMTx objects (openapi `Tx`, `EVMTx`) from store rows; their events see event.ts. */
import { presentEvents, txOrigin } from './event';
import { formatTimestamp, passJson, toInt } from './values';
import type { ApiSchema } from './contract';

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
  /** JSON text: the tx's raw events in chain order (see event.ts) */
  events: unknown;
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

export type ApiEvmTx = ApiSchema<'EVMTx'>;

/** openapi `Tx`: `msgs` and `fee` are the stored JSON text spliced in (RawJson). */
export type ApiTx = ApiSchema<'Tx'>;

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

export function presentTx(row: TxRow, evm: ApiEvmTx | null): ApiTx {
  return {
    hash: row.hash,
    height: row.height,
    tx_index: row.tx_index,
    code: row.code,
    codespace: row.codespace,
    ...(row.code !== 0 ? { raw_log: row.raw_log ?? '' } : {}), // only on failed txs
    gas_wanted: toInt(row.gas_wanted),
    gas_used: toInt(row.gas_used),
    // stored JSON text spliced in by json.ts (RawJson): written as the JSON it holds
    msgs: passJson(row.msgs) as ApiTx['msgs'],
    fee: passJson(row.fee) as ApiTx['fee'],
    block_time: formatTimestamp(row.block_time),
    evm,
    events: presentEvents(row.events, txOrigin(row.code)),
  };
}
