/**
 * The CometBFT 0.38 RPC methods the devnet serves, each answering the JSON
 * text of its `result` (rpc/core/*.go semantics, rpc/core/types shapes).
 * Block-derived answers are pre-rendered by the chain; the rest is built here.
 */
import { toBase64 } from '@cosmjs/encoding';
import { SimulateRequest, SimulateResponse } from 'cosmjs-types/cosmos/tx/v1beta1/service';
import type { DevnetChain, StoredTx } from './chain';
import { MempoolError } from './chain';
import { merkleProof, sha256, upperHex } from './hashing';
import { timeJson, emptySuccess, execResultJson, Json } from './render';
import {
  boolParam,
  bytesParam,
  hashParam,
  hexBytesParam,
  intParam,
  internalError,
  RawParams,
  RpcError,
  RpcCode,
  stringParam,
} from './rpc-params';
import { blockTimeFromMs } from './block';
import { TxRejection } from './tx';

export interface RpcContext {
  chain: DevnetChain;
  /** the RPC's own address, for status.node_info.other.rpc_address */
  rpcAddress: string;
  /** how long broadcast_tx_commit waits for inclusion (CometBFT timeout_broadcast_tx_commit) */
  broadcastCommitTimeoutMs: number;
}

export interface RpcMethod {
  argNames: readonly string[];
  run(ctx: RpcContext, params: RawParams): string | Promise<string>;
}

const BLOCKCHAIN_LIMIT = 20;
const DEFAULT_PER_PAGE = 30;
const MAX_PER_PAGE = 100;
const EMPTY_BLOCK_ID_JSON = '{"hash":"","parts":{"total":0,"hash":""}}';
const EMPTY_EXEC_RESULT = execResultJson(emptySuccess());

const json = (value: Json): string => JSON.stringify(value);

/** env.getHeight: absent → latest; must be within 1..latest. */
function resolveHeight(chain: DevnetChain, requested: number | undefined): number {
  const latest = chain.height;
  if (requested === undefined) return latest;
  if (requested <= 0) throw internalError(`height must be greater than 0, but got ${requested}`);
  if (requested > latest)
    throw internalError(`height ${requested} must be less than or equal to the current blockchain height ${latest}`);
  return requested;
}

/** validatePage / validatePerPage of rpc/core/env.go. */
function paging(p: RawParams, total: number): { start: number; perPage: number } {
  const requestedPerPage = intParam(p, 'per_page');
  const perPage =
    requestedPerPage === undefined || requestedPerPage <= 0
      ? DEFAULT_PER_PAGE
      : Math.min(requestedPerPage, MAX_PER_PAGE);
  const page = intParam(p, 'page') ?? 1;
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (page < 1 || page > pages) throw internalError(`page should be within [1, ${pages}] range, given ${page}`);
  return { start: (page - 1) * perPage, perPage };
}

function pubKeyJson(chain: DevnetChain): Json {
  return { type: 'tendermint/PubKeyEd25519', value: toBase64(chain.validator.pubKey) };
}

function nodeId(chain: DevnetChain): string {
  return Buffer.from(sha256(chain.validator.pubKey).slice(0, 20)).toString('hex');
}

function nodeInfo(ctx: RpcContext): Json {
  const { chain } = ctx;
  return {
    protocol_version: { p2p: '8', block: '11', app: '0' },
    id: nodeId(chain),
    listen_addr: 'tcp://0.0.0.0:26656',
    network: chain.chainId,
    version: chain.cometVersion,
    channels: '40202122233038606100',
    moniker: chain.moniker,
    other: { tx_index: 'on', rpc_address: ctx.rpcAddress },
  };
}

function status(ctx: RpcContext): string {
  const { chain } = ctx;
  const latest = chain.latestBlock();
  const earliest = chain.block(1);
  const genesisTime = timeJson(blockTimeFromMs(chain.genesisTimeMs));
  return json({
    node_info: nodeInfo(ctx),
    sync_info: {
      latest_block_hash: latest ? upperHex(latest.blockId.hash) : '',
      latest_app_hash: upperHex(latest ? latest.appHash : chain.genesisAppHash),
      latest_block_height: String(chain.height),
      latest_block_time: latest ? timeJson(latest.header.time) : genesisTime,
      earliest_block_hash: earliest ? upperHex(earliest.blockId.hash) : '',
      earliest_app_hash: earliest ? upperHex(earliest.header.appHash) : '',
      earliest_block_height: earliest ? '1' : '0',
      earliest_block_time: earliest ? timeJson(earliest.header.time) : genesisTime,
      catching_up: false,
    },
    validator_info: {
      address: upperHex(chain.validator.address),
      pub_key: pubKeyJson(chain),
      voting_power: chain.validator.votingPower.toString(),
    },
  });
}

function consensusParamsJson(chain: DevnetChain): Json {
  const p = chain.consensusParams;
  return {
    block: { max_bytes: p.blockMaxBytes.toString(), max_gas: p.blockMaxGas.toString() },
    evidence: {
      max_age_num_blocks: p.evidenceMaxAgeNumBlocks.toString(),
      max_age_duration: p.evidenceMaxAgeDurationNs.toString(),
      max_bytes: p.evidenceMaxBytes.toString(),
    },
    validator: { pub_key_types: ['ed25519'] },
    version: { app: '0' },
    abci: { vote_extensions_enable_height: '0' },
  };
}

function genesis(ctx: RpcContext): string {
  const { chain } = ctx;
  const appHash = upperHex(chain.genesisAppHash);
  return json({
    genesis: {
      genesis_time: timeJson(blockTimeFromMs(chain.genesisTimeMs)),
      chain_id: chain.chainId,
      initial_height: '1',
      consensus_params: consensusParamsJson(chain),
      validators: [
        {
          address: upperHex(chain.validator.address),
          pub_key: pubKeyJson(chain),
          power: chain.validator.votingPower.toString(),
          name: chain.moniker,
        },
      ],
      app_hash: appHash,
      app_state: chain.appState,
    },
  });
}

function block(ctx: RpcContext, p: RawParams): string {
  const height = resolveHeight(ctx.chain, intParam(p, 'height'));
  const stored = ctx.chain.block(height);
  return stored ? stored.blockJson : `{"block_id":${EMPTY_BLOCK_ID_JSON},"block":null}`;
}

function blockByHash(ctx: RpcContext, p: RawParams): string {
  const stored = ctx.chain.blockByHash(upperHex(hashParam(p, 'hash')));
  return stored ? stored.blockJson : `{"block_id":${EMPTY_BLOCK_ID_JSON},"block":null}`;
}

function blockResults(ctx: RpcContext, p: RawParams): string {
  const height = resolveHeight(ctx.chain, intParam(p, 'height'));
  const stored = ctx.chain.block(height);
  if (!stored) throw internalError(`could not find results for height #${height}`);
  return stored.resultsJson;
}

function header(ctx: RpcContext, p: RawParams): string {
  const height = resolveHeight(ctx.chain, intParam(p, 'height'));
  const stored = ctx.chain.block(height);
  if (!stored) throw internalError(`block at height ${height} not found`);
  return `{"header":${stored.headerJson}}`;
}

function commit(ctx: RpcContext, p: RawParams): string {
  const height = resolveHeight(ctx.chain, intParam(p, 'height'));
  const stored = ctx.chain.block(height);
  const c = ctx.chain.commitJsonFor(height);
  if (!stored || !c) throw internalError(`block at height ${height} not found`);
  return `{"signed_header":{"header":${stored.headerJson},"commit":${json(c.commit)}},"canonical":${c.canonical}}`;
}

/** filterMinMax of rpc/core/blocks.go; metas newest first, at most 20. */
function blockchain(ctx: RpcContext, p: RawParams): string {
  const tip = ctx.chain.height;
  let min = intParam(p, 'minHeight') ?? 0;
  let max = intParam(p, 'maxHeight') ?? 0;
  if (min < 0 || max < 0) throw internalError('heights must be non-negative');
  if (min === 0) min = 1;
  if (max === 0) max = tip;
  max = Math.min(tip, max);
  min = Math.max(1, min, max - BLOCKCHAIN_LIMIT + 1);
  if (min > max) throw internalError(`min height ${min} can't be greater than max height ${max}`);
  const metas: string[] = [];
  for (let h = max; h >= min; h--) metas.push(ctx.chain.block(h)!.metaJson);
  return `{"last_height":"${tip}","block_metas":[${metas.join(',')}]}`;
}

function validators(ctx: RpcContext, p: RawParams): string {
  const height = resolveHeight(ctx.chain, intParam(p, 'height'));
  const { start, perPage } = paging(p, 1);
  const v = ctx.chain.validator;
  const all = [
    {
      address: upperHex(v.address),
      pub_key: pubKeyJson(ctx.chain),
      voting_power: v.votingPower.toString(),
      proposer_priority: '0',
    },
  ];
  const page = all.slice(start, start + perPage);
  return json({
    block_height: String(height),
    validators: page,
    count: String(page.length),
    total: String(all.length),
  });
}

function consensusParams(ctx: RpcContext, p: RawParams): string {
  const height = resolveHeight(ctx.chain, intParam(p, 'height'));
  return json({ block_height: String(height), consensus_params: consensusParamsJson(ctx.chain) });
}

/** ResponseInfo via cmtjson: omitempty drops a zero height and an empty app hash. */
function abciInfo(ctx: RpcContext): string {
  const { chain } = ctx;
  const response: { [k: string]: Json } = { data: 'svc', version: chain.app.version };
  const latest = chain.latestBlock();
  if (chain.height > 0) response.last_block_height = String(chain.height);
  const appHash = latest ? latest.appHash : chain.genesisAppHash;
  if (appHash.length) response.last_block_app_hash = toBase64(appHash);
  return json({ response });
}

const SIMULATE_PATH = '/cosmos.tx.v1beta1.Service/Simulate';

type QueryAnswer = { code: number; codespace: string; log: string; value: Uint8Array; height: number };

/** Simulate as an SDK node answers it through abci_query: SimulateResponse, or the tx's error code. */
function simulateQuery(chain: RpcContext['chain'], data: Uint8Array): QueryAnswer {
  const height = chain.height;
  const fail = (code: number, codespace: string, log: string) => ({
    code,
    codespace,
    log,
    value: new Uint8Array(0),
    height,
  });
  let r;
  try {
    const request = SimulateRequest.decode(data);
    r = chain.simulate(request.txBytes);
  } catch (e) {
    if (e instanceof TxRejection) return fail(e.code, e.codespace, e.log);
    return fail(2, 'sdk', `tx parse error: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!r) return fail(6, 'sdk', `unknown query path: ${SIMULATE_PATH}: unknown request`);
  if (r.code !== 0) return fail(r.code, r.codespace, r.log);
  const value = SimulateResponse.encode(
    SimulateResponse.fromPartial({ gasInfo: { gasWanted: r.gasWanted, gasUsed: r.gasUsed } }),
  ).finish();
  return { code: 0, codespace: '', log: '', value, height };
}

function abciQuery(ctx: RpcContext, p: RawParams): string {
  const path = stringParam(p, 'path') ?? '';
  const data = hexBytesParam(p, 'data') ?? new Uint8Array(0);
  const height = intParam(p, 'height') ?? 0;
  let r;
  try {
    r = path === SIMULATE_PATH ? simulateQuery(ctx.chain, data) : ctx.chain.app.query(path, data, height);
  } catch (e) {
    throw internalError(e instanceof Error ? e.message : String(e));
  }
  return json({
    response: {
      code: r.code,
      log: r.log,
      info: '',
      index: '0',
      key: null,
      value: r.value.length ? toBase64(r.value) : null,
      proofOps: null,
      height: String(r.height),
      codespace: r.codespace,
    },
  });
}

function requiredTx(p: RawParams): Uint8Array {
  const tx = bytesParam(p, 'tx');
  if (!tx || tx.length === 0)
    throw new RpcError(RpcCode.InvalidParams, 'error converting json params to arguments: tx: required');
  return tx;
}

async function checkTxOrFail(ctx: RpcContext, tx: Uint8Array) {
  try {
    return await ctx.chain.checkTx(tx);
  } catch (e) {
    if (e instanceof MempoolError) throw internalError(e.message);
    throw e;
  }
}

async function broadcastTxSync(ctx: RpcContext, p: RawParams): Promise<string> {
  const r = await checkTxOrFail(ctx, requiredTx(p));
  return json({ code: r.code, data: '', log: r.log, codespace: r.codespace, hash: r.hash });
}

/** Returns before CheckTx has run, as CometBFT does; only mempool admission errors are reported. */
function broadcastTxAsync(ctx: RpcContext, p: RawParams): string {
  const tx = requiredTx(p);
  try {
    ctx.chain.checkAdmission(tx);
  } catch (e) {
    if (e instanceof MempoolError) throw internalError(e.message);
    throw e;
  }
  ctx.chain.checkTx(tx).catch(() => undefined);
  return json({ code: 0, data: '', log: '', codespace: '', hash: upperHex(sha256(tx)) });
}

async function broadcastTxCommit(ctx: RpcContext, p: RawParams): Promise<string> {
  const r = await checkTxOrFail(ctx, requiredTx(p));
  const checkTx = json(execResultJson(r));
  if (r.code !== 0)
    return `{"check_tx":${checkTx},"tx_result":${json(EMPTY_EXEC_RESULT)},"hash":"${r.hash}","height":"0"}`;
  const included = await ctx.chain.waitForTx(r.hash, ctx.broadcastCommitTimeoutMs);
  if (!included) throw internalError('timed out waiting for tx to be included in a block');
  return `{"check_tx":${checkTx},"tx_result":${included.resultJson},"hash":"${r.hash}","height":"${included.height}"}`;
}

function txProofJson(ctx: RpcContext, t: StoredTx): string {
  const txs = ctx.chain.block(t.height)!.txs;
  const { root, proof } = merkleProof(
    txs.map((b) => sha256(b)),
    t.index,
  );
  // FlattenAunts returns a non-nil slice, so `aunts` (omitempty) is present even when empty
  const merkle = {
    total: String(proof.total),
    index: String(proof.index),
    leaf_hash: toBase64(proof.leafHash),
    aunts: proof.aunts.map((a) => toBase64(a)),
  };
  return json({ root_hash: upperHex(root), data: toBase64(t.tx), proof: merkle });
}

function txJson(ctx: RpcContext, t: StoredTx, prove: boolean): string {
  const proof = prove ? `,"proof":${txProofJson(ctx, t)}` : '';
  return `{"hash":"${t.hash}","height":"${t.height}","index":${t.index},"tx_result":${t.resultJson},"tx":"${toBase64(t.tx)}"${proof}}`;
}

function tx(ctx: RpcContext, p: RawParams): string {
  const hash = upperHex(hashParam(p, 'hash'));
  const t = ctx.chain.rpcFaults.missingTxs.has(hash) ? undefined : ctx.chain.tx(hash);
  if (!t) throw internalError(`tx (${hash}) not found`);
  return txJson(ctx, t, boolParam(p, 'prove'));
}

// ---------------------------------------------------------------- tx_search

type Condition = { key: string; op: string; value: string };

const CONDITION_RE = /^\s*([A-Za-z0-9_.\-/]+)\s*(<=|>=|=|<|>)\s*(?:'([^']*)'|(-?[0-9]+))\s*$/;

/** The subset of CometBFT's query language the devnet indexes: conditions joined by AND, with = < <= > >=. */
export function parseTxQuery(query: string): Condition[] {
  const parts = query.split(/\s+AND\s+/);
  return parts.map((part) => {
    const m = CONDITION_RE.exec(part);
    if (!m)
      throw internalError(
        `unsupported query condition ${JSON.stringify(part.trim())} (devnet supports key op 'value' joined by AND)`,
      );
    return { key: m[1], op: m[2], value: m[3] ?? m[4] };
  });
}

function compare(actual: string, op: string, expected: string): boolean {
  if (op === '=') return actual === expected;
  const a = Number(actual);
  const b = Number(expected);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
}

function txMatches(t: StoredTx, c: Condition): boolean {
  if (c.key === 'tx.hash') return c.op === '=' && t.hash === c.value.toUpperCase();
  if (c.key === 'tx.height') return compare(String(t.height), c.op, c.value);
  const dot = c.key.lastIndexOf('.');
  const type = c.key.slice(0, dot);
  const attr = c.key.slice(dot + 1);
  return t.result.events.some(
    (e) => e.type === type && e.attributes.some((a) => a.key === attr && compare(a.value, c.op, c.value)),
  );
}

function txSearch(ctx: RpcContext, p: RawParams): string {
  const conditions = parseTxQuery(stringParam(p, 'query') ?? '');
  const prove = boolParam(p, 'prove');
  const orderBy = stringParam(p, 'order_by') ?? '';
  if (!['', 'asc', 'desc'].includes(orderBy))
    throw internalError('expected order_by to be either `asc` or `desc` or empty');
  const hashCondition = conditions.find((c) => c.key === 'tx.hash' && c.op === '=');
  const candidates = hashCondition
    ? [ctx.chain.tx(hashCondition.value)].filter((t): t is StoredTx => !!t)
    : [...ctx.chain.allTxs()];
  const matched = candidates.filter((t) => conditions.every((c) => txMatches(t, c)));
  if (orderBy === 'desc') matched.reverse();
  const { start, perPage } = paging(p, matched.length);
  const page = matched.slice(start, start + perPage).map((t) => txJson(ctx, t, prove));
  return `{"txs":[${page.join(',')}],"total_count":"${matched.length}"}`;
}

function unconfirmed(ctx: RpcContext, limit: number | undefined, withTxs: boolean): string {
  const txs = ctx.chain.unconfirmedTxs();
  const totalBytes = txs.reduce((n, t) => n + t.length, 0);
  const shown = withTxs ? txs.slice(0, limit && limit > 0 ? Math.min(limit, MAX_PER_PAGE) : DEFAULT_PER_PAGE) : [];
  const list = withTxs ? `[${shown.map((t) => `"${toBase64(t)}"`).join(',')}]` : 'null';
  return `{"n_txs":"${withTxs ? shown.length : txs.length}","total":"${txs.length}","total_bytes":"${totalBytes}","txs":${list}}`;
}

function netInfo(): string {
  return '{"listening":true,"listeners":["Listener(@)"],"n_peers":"0","peers":[]}';
}

const noArgs: readonly string[] = [];

/** Method table: name → parameter names (positional order) and handler. */
export const RPC_METHODS: Readonly<Record<string, RpcMethod>> = Object.freeze({
  health: { argNames: noArgs, run: () => '{}' },
  status: { argNames: noArgs, run: status },
  net_info: { argNames: noArgs, run: netInfo },
  blockchain: { argNames: ['minHeight', 'maxHeight'], run: blockchain },
  genesis: { argNames: noArgs, run: genesis },
  block: { argNames: ['height'], run: block },
  block_by_hash: { argNames: ['hash'], run: blockByHash },
  block_results: { argNames: ['height'], run: blockResults },
  header: { argNames: ['height'], run: header },
  commit: { argNames: ['height'], run: commit },
  validators: { argNames: ['height', 'page', 'per_page'], run: validators },
  consensus_params: { argNames: ['height'], run: consensusParams },
  tx: { argNames: ['hash', 'prove'], run: tx },
  tx_search: { argNames: ['query', 'prove', 'page', 'per_page', 'order_by'], run: txSearch },
  abci_info: { argNames: noArgs, run: abciInfo },
  abci_query: { argNames: ['path', 'data', 'height', 'prove'], run: abciQuery },
  broadcast_tx_sync: { argNames: ['tx'], run: broadcastTxSync },
  broadcast_tx_async: { argNames: ['tx'], run: broadcastTxAsync },
  broadcast_tx_commit: { argNames: ['tx'], run: broadcastTxCommit },
  num_unconfirmed_txs: { argNames: noArgs, run: (ctx) => unconfirmed(ctx, undefined, false) },
  unconfirmed_txs: { argNames: ['limit'], run: (ctx, p) => unconfirmed(ctx, intParam(p, 'limit'), true) },
});
