/** Tx and EVMTx objects (openapi `Tx`, `EVMTx`) from store rows; their events see events.ts. */
import { presentEvents, txOrigin } from './events';
import type { EvmRow, TxRow, TxWithEvmRow } from '../repositories/txs';
import { RawJson, toJson } from '../json';
import type { RenderCache } from './render-cache';
import { formatTimestamp, passJson, toInt } from './values';
import type { ApiSchema } from './contract';

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

function evmOf(r: TxWithEvmRow): EvmRow {
  return {
    tx_hash: r.hash,
    eth_hash: r.evm_eth_hash ?? '',
    from: r.evm_from,
    to: r.evm_to,
    value: r.evm_value,
    gas_used: r.evm_gas_used,
    status: r.evm_status,
    revert_reason: r.evm_revert_reason,
  };
}

function presentTxRow(r: TxWithEvmRow, gasDenom: string): ApiTx {
  return presentTx(r, r.evm_eth_hash === null ? null : presentEvm(evmOf(r), gasDenom));
}

/** Each row as a full Tx: its events (stored with the row) by event_index, the EVM view joined in. */
export function presentTxRows(rows: readonly TxWithEvmRow[], gasDenom: string): ApiTx[] {
  return rows.map((r) => presentTxRow(r, gasDenom));
}

/** What a kept rendering must have been made from: the row's place and time (render-cache.ts). */
export function stampOf(r: Pick<TxWithEvmRow, 'height' | 'tx_index' | 'block_time'>): string {
  return `${r.height}:${r.tx_index}:${r.block_time}`;
}

/**
 * presentTxRows, with each Tx rendered to JSON text once per tx and kept in `cache` (aliased by
 * its EVM hash, so `keptTx` finds it by either): the answer splices the kept text in (RawJson),
 * which writes the same bytes as the object would (JSON.stringify adds no whitespace, and a Tx
 * holds no bigint).
 */
export function renderTxRows(rows: readonly TxWithEvmRow[], gasDenom: string, cache: RenderCache): ApiTx[] {
  return rows.map((r) => {
    const render = () => toJson(presentTxRow(r, gasDenom));
    return new RawJson(cache.bytes(r.hash, stampOf(r), render, r.evm_eth_hash ?? undefined)) as unknown as ApiTx;
  });
}

/**
 * The Tx kept for a consensus hash or an EVM hash (as renderTxRows keyed them), without a store
 * read; undefined when the cache does not hold it. A kept Tx was committed when it was rendered
 * and the cache empties on a rewind, so it is the answer of `/v1/txs/{hash}`. With `stamp`, only
 * a rendering of a row of that place and time (a page read by keys first, reads/txs.ts).
 */
export function keptTx(hash: string, cache: RenderCache, stamp?: string): ApiTx | undefined {
  const kept = cache.peek(hash, stamp);
  return kept === undefined ? undefined : (new RawJson(kept) as unknown as ApiTx);
}
