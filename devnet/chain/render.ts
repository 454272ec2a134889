/**
 * CometBFT 0.38 JSON shapes of blocks and results, as its RPC serialises
 * them: cmtjson for core types (int64 as decimal strings, int32/uint32 as
 * numbers, HexBytes as upper-case hex, []byte as base64, nil slices as null,
 * `omitempty` honoured) and gogo jsonpb with EmitDefaults for ExecTxResult,
 * ResponseCheckTx, ResponseQuery and EventAttribute (all fields present,
 * empty bytes as null).
 */
import { toBase64 } from '@cosmjs/encoding';
import { timestampToRfc3339 } from '../../src/lib/contract';
import type { AbciEvent } from '../app/types';
import type { BlockId, BlockTime, Commit, Header } from './block';
import { upperHex } from './hashing';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function timeJson(t: BlockTime): string {
  return timestampToRfc3339(Number(t.seconds), t.nanos);
}

export function blockIdJson(id: BlockId): Json {
  return { hash: upperHex(id.hash), parts: { total: id.parts.total, hash: upperHex(id.parts.hash) } };
}

export function headerJson(h: Header): Json {
  // cmtversion.Consensus fields are omitempty: app version 0 is left out
  const version: { [k: string]: Json } = { block: h.version.block.toString() };
  if (h.version.app !== 0n) version.app = h.version.app.toString();
  return {
    version,
    chain_id: h.chainId,
    height: h.height.toString(),
    time: timeJson(h.time),
    last_block_id: blockIdJson(h.lastBlockId),
    last_commit_hash: upperHex(h.lastCommitHash),
    data_hash: upperHex(h.dataHash),
    validators_hash: upperHex(h.validatorsHash),
    next_validators_hash: upperHex(h.nextValidatorsHash),
    consensus_hash: upperHex(h.consensusHash),
    app_hash: upperHex(h.appHash),
    last_results_hash: upperHex(h.lastResultsHash),
    evidence_hash: upperHex(h.evidenceHash),
    proposer_address: upperHex(h.proposerAddress),
  };
}

export function commitJson(c: Commit): Json {
  return {
    height: c.height.toString(),
    round: c.round,
    block_id: blockIdJson(c.blockId),
    signatures: c.signatures.map((s) => ({
      block_id_flag: 2,
      validator_address: upperHex(s.validatorAddress),
      timestamp: timeJson(s.time),
      signature: toBase64(s.signature),
    })),
  };
}

export function blockJson(header: Header, txs: readonly Uint8Array[], lastCommit: Commit): Json {
  return {
    header: headerJson(header),
    data: { txs: txs.map((tx) => toBase64(tx)) },
    evidence: { evidence: [] },
    last_commit: commitJson(lastCommit),
  };
}

/** jsonpb: nil/empty bytes are null. */
export function bytesJsonpb(b: Uint8Array | undefined): Json {
  return b && b.length ? toBase64(b) : null;
}

function attributesJson(e: AbciEvent): Json[] {
  return e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index ?? true }));
}

/** An event inside a jsonpb-rendered result (ExecTxResult): attributes always present. */
export function eventJsonpb(e: AbciEvent): Json {
  return { type: e.type, attributes: attributesJson(e) };
}

/** An event rendered by cmtjson (finalize_block_events): `attributes` omitted when empty. */
export function eventCmtjson(e: AbciEvent): Json {
  return e.attributes.length ? { type: e.type, attributes: attributesJson(e) } : { type: e.type };
}

/** Outcome of a delivered (or checked) tx, what ExecTxResult/ResponseCheckTx carry. */
export interface ExecResult {
  code: number;
  codespace: string;
  log: string;
  info?: string;
  gasWanted: bigint;
  gasUsed: bigint;
  events: AbciEvent[];
  data: Uint8Array;
}

/** A tx outcome that did nothing and succeeded: no gas, no events, no data. */
export function emptySuccess(): ExecResult {
  return { code: 0, codespace: '', log: '', gasWanted: 0n, gasUsed: 0n, events: [], data: new Uint8Array(0) };
}

/** abci.ExecTxResult / ResponseCheckTx via jsonpb (EmitDefaults, OrigName-like snake_case tags). */
export function execResultJson(r: ExecResult): Json {
  return {
    code: r.code,
    data: bytesJsonpb(r.data),
    log: r.log,
    info: r.info ?? '',
    gas_wanted: r.gasWanted.toString(),
    gas_used: r.gasUsed.toString(),
    events: r.events.map(eventJsonpb),
    codespace: r.codespace,
  };
}

/** A nil-able slice under cmtjson: null when empty (as loaded back from the block store). */
export function listOrNull(items: Json[]): Json {
  return items.length ? items : null;
}

export function blockResultsJson(
  height: bigint,
  results: readonly ExecResult[],
  finalizeEvents: readonly AbciEvent[],
  appHash: Uint8Array,
): Json {
  return {
    height: height.toString(),
    txs_results: listOrNull(results.map(execResultJson)),
    finalize_block_events: listOrNull(finalizeEvents.map(eventCmtjson)),
    validator_updates: null,
    consensus_param_updates: null,
    app_hash: toBase64(appHash),
  };
}

export function blockMetaJson(blockId: BlockId, blockSize: number, header: Header, numTxs: number): Json {
  return {
    block_id: blockIdJson(blockId),
    block_size: String(blockSize),
    header: headerJson(header),
    num_txs: String(numTxs),
  };
}
