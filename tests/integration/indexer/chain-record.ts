/**
 * What the chain itself says a history contains, read from the devnet's own
 * CometBFT output (the `block` and `block_results` it serves, i.e. what the
 * node fetched): blocks, every tx (failed ones included) with its first
 * message type, every tx event and every finalize_block event, and the typed
 * svc events with their positions. The reconciliation (reconcile.ts) derives
 * its expectations for timelines, transfers, distributions... from this
 * record, and reads state from the app's own queries.
 */
import { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import type { DevnetChain } from '../../../devnet/chain';
import { decodeMessage } from '../../../src/lib/contract';

export interface ChainAttr {
  key: string;
  value: string;
}

export interface ChainEvent {
  type: string;
  attributes: ChainAttr[];
}

export interface ChainTx {
  hash: string;
  height: number;
  index: number;
  code: number;
  codespace: string;
  log: string;
  gasWanted: string;
  gasUsed: string;
  /** type URL of every message, in order */
  typeUrls: string[];
  /** raw Any values of the messages */
  msgValues: Uint8Array[];
  memo: string;
  /** fee coins of the auth info */
  fee: { denom: string; amount: string }[];
  events: ChainEvent[];
}

export interface ChainBlock {
  height: number;
  hash: string;
  timeMs: number;
  /** block time as the RFC 3339 string the chain serves (nanosecond precision) */
  time: string;
  proposer: string;
  txs: ChainTx[];
  /** finalize_block_events (BeginBlock ones first), with their `mode` attribute */
  blockEvents: ChainEvent[];
}

/** A typed svc event where the chain put it: applied = of a successful tx, or block-level. */
export interface TypedEvent {
  type: string;
  height: number;
  /** -1 for block-level events */
  txIndex: number;
  eventIndex: number;
  txHash: string | null;
  mode: string | null;
  applied: boolean;
  timeMs: number;
  /** proto-JSON: every non-bookkeeping attribute value JSON-parsed */
  fields: Record<string, unknown>;
}

export interface ChainRecord {
  height: number;
  blocks: ChainBlock[];
  txs: ChainTx[];
  typed: TypedEvent[];
  /** typed events by type, in chain order */
  byType(type: string, opts?: { appliedOnly?: boolean }): TypedEvent[];
  txCount: number;
  eventCount: number;
}

interface ResultsJson {
  txs_results:
    | { code: number; codespace: string; log: string; gas_wanted: string; gas_used: string; events: ChainEvent[] }[]
    | null;
  finalize_block_events: ChainEvent[] | null;
}

interface BlockJson {
  block: { header: { time: string; proposer_address: string } };
}

const BOOKKEEPING = new Set(['msg_index', 'mode']);

export function attr(e: ChainEvent, key: string): string | undefined {
  return e.attributes.find((a) => a.key === key)?.value;
}

/** The typed event's proto-JSON: `{field: JSON.parse(value)}`, bookkeeping attributes left out. */
export function fieldsOf(e: ChainEvent): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of e.attributes) if (!BOOKKEEPING.has(a.key)) out[a.key] = JSON.parse(a.value);
  return out;
}

const plainAttrs = (attributes: { key: string; value: string }[]): ChainAttr[] =>
  attributes.map((a) => ({ key: String(a.key), value: String(a.value) }));

function decodeTx(bytes: Uint8Array): Pick<ChainTx, 'typeUrls' | 'msgValues' | 'memo' | 'fee'> {
  const raw = TxRaw.decode(bytes);
  const body = TxBody.decode(raw.bodyBytes);
  const fee = AuthInfo.decode(raw.authInfoBytes).fee?.amount ?? [];
  return {
    typeUrls: body.messages.map((m) => m.typeUrl),
    msgValues: body.messages.map((m) => m.value),
    memo: body.memo,
    fee: fee.map((c) => ({ denom: c.denom, amount: c.amount })),
  };
}

/** Decoded contract message (proto-JSON, field names) of a tx message. */
export function decodeMsg(tx: ChainTx, i: number): Record<string, unknown> {
  return decodeMessage(tx.typeUrls[i].slice(1), tx.msgValues[i]);
}

export function readChain(chain: DevnetChain): ChainRecord {
  const blocks: ChainBlock[] = [];
  const txs: ChainTx[] = [];
  const typed: TypedEvent[] = [];
  let eventCount = 0;
  for (let h = 1; h <= chain.height; h++) {
    const b = chain.block(h)!;
    const results = JSON.parse(b.resultsJson) as ResultsJson;
    const header = (JSON.parse(b.blockJson) as BlockJson).block.header;
    const timeMs = Date.parse(header.time);
    const blockTxs: ChainTx[] = (results.txs_results ?? []).map((r, i) => ({
      hash: b.txHashes[i],
      height: h,
      index: i,
      code: r.code,
      codespace: r.codespace ?? '',
      log: r.log ?? '',
      gasWanted: String(r.gas_wanted),
      gasUsed: String(r.gas_used),
      ...decodeTx(b.txs[i]),
      events: (r.events ?? []).map((e) => ({ type: e.type, attributes: plainAttrs(e.attributes ?? []) })),
    }));
    const blockEvents = (results.finalize_block_events ?? []).map((e) => ({
      type: e.type,
      attributes: plainAttrs(e.attributes ?? []),
    }));
    for (const tx of blockTxs) {
      eventCount += tx.events.length;
      tx.events.forEach((e, i) => {
        if (!e.type.startsWith('svc.')) return;
        typed.push({
          type: e.type,
          height: h,
          txIndex: tx.index,
          eventIndex: i,
          txHash: tx.hash,
          mode: null,
          applied: tx.code === 0,
          timeMs,
          fields: fieldsOf(e),
        });
      });
    }
    eventCount += blockEvents.length;
    blockEvents.forEach((e, i) => {
      if (!e.type.startsWith('svc.')) return;
      typed.push({
        type: e.type,
        height: h,
        txIndex: -1,
        eventIndex: i,
        txHash: null,
        mode: attr(e, 'mode') ?? null,
        applied: true,
        timeMs,
        fields: fieldsOf(e),
      });
    });
    txs.push(...blockTxs);
    blocks.push({
      height: h,
      hash: Buffer.from(b.blockId.hash).toString('hex').toUpperCase(),
      timeMs,
      time: header.time,
      proposer: header.proposer_address,
      txs: blockTxs,
      blockEvents,
    });
  }
  const byTypeIndex = new Map<string, TypedEvent[]>();
  for (const e of typed) {
    const list = byTypeIndex.get(e.type) ?? [];
    list.push(e);
    byTypeIndex.set(e.type, list);
  }
  return {
    height: chain.height,
    blocks,
    txs,
    typed,
    byType: (type, opts = {}) => (byTypeIndex.get(type) ?? []).filter((e) => !opts.appliedOnly || e.applied),
    txCount: txs.length,
    eventCount,
  };
}
