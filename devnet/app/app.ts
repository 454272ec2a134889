/**
 * SvcApp: the devnet's deterministic state machine behind the Application
 * interface (types.ts). One block: beginBlock → (ante, deliverTx)* →
 * endBlock → commit. Block writes live in a branch until commit; each tx's
 * messages run in a branch of their own that is written only on success.
 */
import { TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import { decodeMessage, encodeMessage } from '../../src/lib/contract';
import { bytesToHex } from '../../src/lib/bytes';
import type {
  AbciEvent,
  AccountInfo,
  AnteOutcome,
  Application,
  QueryResult,
  TxContext,
  TxMessage,
  TxResult,
} from './types';
import { CacheKv, KvReader, VersionedStore, type Retention, type SnapshotEntry } from './store';
import {
  AppConfig,
  Env,
  emitPlain,
  moduleAccount,
  nonNegativeAmount,
  requireAddress,
  requireSigner,
  wire,
} from './env';
import { AppError, sdkErrors } from './errors';
import { routeOf, normalizeMessage, Route } from './router';
import { runQuery } from './queries';
import { getAccount, useSequence, ensureAccount } from './modules/auth';
import { formatCoins, mintSilently, parseCoin, send } from './modules/bank';
import * as settlement from './modules/settlement';
import * as encumbrance from './modules/encumbrance';
import * as delegation from './modules/delegation';
import * as bridge from './modules/bridge';

/** Deterministic gas schedule of non-EVM txs. */
export const GAS_SCHEDULE = {
  /** ante work: fee, signatures, sequence */
  txBase: 20000n,
  perMessage: 10000n,
  /** per character of event attribute keys and values */
  perEventByte: 1n,
};

export interface GenesisBalance {
  address: string;
  coins: { denom: string; amount: string }[];
}

export interface Genesis {
  balances?: GenesisBalance[];
  /** accounts to create without coins */
  accounts?: string[];
  /** creates/pauses bridge routes and relays inbound transfers; default: a fixed devnet address */
  bridgeAuthority?: string;
  /** extra relayers of MsgBridgeIn */
  bridgeRelayers?: string[];
}

const EMPTY = new Uint8Array(0);
const EVM_TYPE_URLS = new Set(['/cosmos.evm.vm.v1.MsgEthereumTx', '/ethermint.evm.v1.MsgEthereumTx']);

function eventBytes(events: AbciEvent[]): bigint {
  let n = 0;
  for (const e of events) for (const a of e.attributes) n += a.key.length + a.value.length;
  return BigInt(n);
}

function withMsgIndex(events: AbciEvent[], index: number): AbciEvent[] {
  return events.map((e) => ({
    type: e.type,
    attributes: [...e.attributes, { key: 'msg_index', value: String(index) }],
  }));
}

function failure(e: unknown, gasWanted: bigint, gasUsed: bigint, msgIndex: number | null): TxResult {
  const err = e instanceof AppError ? e : sdkErrors.internal(`internal error: ${(e as Error)?.stack ?? String(e)}`);
  const prefix = msgIndex === null ? '' : `failed to execute message; message index: ${msgIndex}: `;
  return {
    code: err.code,
    codespace: err.codespace,
    log: prefix + err.message,
    gasWanted,
    gasUsed,
    events: [],
    data: EMPTY,
  };
}

/**
 * Fault switches of the query side, for tests of what reads the chain (the reconciler): a
 * state that answers differently from what the blocks said, and pruned history. Nothing in
 * the scenario or `npm start` sets them.
 */
export interface QueryFaults {
  /** heights below this answer as a pruned node does (0: every height is kept); the retention window answers the same way */
  prunedBelow: number;
  /** `${asset_id}/${kind_id}` → amount added to the supply Query/KindSupply answers */
  supplySkew: Map<string, bigint>;
}

/** The committed state at one height, as a snapshot file carries it (SvcApp.exportState / restoreState). */
export interface AppStateSnapshot {
  height: number;
  /** app hash after that height, upper-case hex */
  appHash: string;
  entries: SnapshotEntry[];
}

export class SvcApp implements Application {
  readonly queryFaults: QueryFaults = { prunedBelow: 0, supplySkew: new Map() };
  private readonly store: VersionedStore;
  private block: CacheKv;
  private height = 0;
  private timeMs = 0;

  /** `retention`: how many recent heights stay queryable (default: every height, nothing pruned). */
  constructor(
    readonly config: AppConfig,
    genesis: Genesis,
    retention?: Retention,
  ) {
    this.store = new VersionedStore(retention);
    this.block = new CacheKv(this.store.latest());
    this.initGenesis(genesis);
  }

  get version(): string {
    return this.config.version;
  }

  /** Height of the last commit (0 = genesis). */
  get latestHeight(): number {
    return this.store.latestHeight;
  }

  /** App hash after the last commit. */
  get appHash(): Uint8Array {
    return this.store.appHash;
  }

  /** Reader of the latest committed state plus the current block's writes. */
  pendingState(): KvReader {
    return this.block;
  }

  /** Reader of the committed state at a height (throws below the earliest kept height). */
  stateAt(height: number): KvReader {
    return this.store.readerAt(height);
  }

  /** Lowest height `query` answers from; below it the pruned-height error (0: every height). */
  get earliestStateHeight(): number {
    return this.store.earliestHeight;
  }

  /** Keys and versions held in memory (pruning keeps this bounded). */
  stateStats(): { keys: number; versions: number } {
    return this.store.stats();
  }

  /** The latest committed state, for a snapshot file. */
  exportState(): AppStateSnapshot {
    return {
      height: this.store.latestHeight,
      appHash: Buffer.from(this.store.appHash).toString('hex').toUpperCase(),
      entries: this.store.exportLatest(),
    };
  }

  /** Replaces the state with a snapshot (between blocks only); heights below it answer as pruned. */
  restoreState(snapshot: AppStateSnapshot): void {
    this.store.restore(snapshot.height, Uint8Array.from(Buffer.from(snapshot.appHash, 'hex')), snapshot.entries);
    this.block = new CacheKv(this.store.latest());
  }

  // ---------------------------------------------------------------- genesis

  private initGenesis(genesis: Genesis): void {
    const kv = this.block;
    for (const address of genesis.accounts ?? []) ensureAccount(kv, requireAddress(this, address, 'genesis account'));
    for (const { address, coins } of genesis.balances ?? []) {
      const owner = requireAddress(this, address, 'genesis balance address');
      for (const coin of coins) mintSilently(kv, owner, parseCoin(coin));
    }
    this.commitBlock(0);
  }

  // ---------------------------------------------------------------- accounts and ante

  account(address: string): AccountInfo | undefined {
    const account = getAccount(this.block, address);
    if (!account) return undefined;
    return {
      address: account.address,
      accountNumber: account.account_number,
      sequence: account.sequence,
      pubKey: account.pub_key ? Uint8Array.from(Buffer.from(account.pub_key, 'hex')) : undefined,
    };
  }

  ante(ctx: TxContext, signerPubKeys: Uint8Array[]): AnteOutcome {
    const cache = new CacheKv(this.block);
    const env = this.env(cache, ctx);
    try {
      this.deductFee(env, ctx);
      ctx.signers.forEach((signer, i) => {
        const sequence = useSequence(cache, signer, signerPubKeys[i] ? bytesToHex(signerPubKeys[i]) : '');
        emitPlain(env, 'tx', { acc_seq: `${signer}/${sequence}` });
      });
    } catch (e) {
      const err = e instanceof AppError ? e : sdkErrors.internal(String(e));
      return { ok: false, code: err.code, codespace: err.codespace, log: err.message };
    }
    cache.writeTo(this.block);
    return { ok: true, events: env.events };
  }

  private deductFee(env: Env, ctx: TxContext): void {
    const fee = ctx.fee
      .map((c) => ({ denom: c.denom, amount: nonNegativeAmount(c.amount, sdkErrors.insufficientFee) }))
      .filter((c) => c.amount > 0n);
    // an EVM tx has no cosmos signer: its gas is charged to the eth sender by the evm module
    const payer = ctx.signers[0];
    if (fee.length === 0 || !payer) return;
    send(env, payer, moduleAccount(this.config, 'fee_collector'), fee);
    emitPlain(env, 'tx', { fee: formatCoins(fee), fee_payer: payer });
  }

  // ---------------------------------------------------------------- blocks

  beginBlock(height: number, timeMs: number): AbciEvent[] {
    this.height = height;
    this.timeMs = timeMs;
    return this.runBlockHook((env) => bridge.sweepEscrowIncome(env));
  }

  endBlock(height: number, timeMs: number): AbciEvent[] {
    this.height = height;
    this.timeMs = timeMs;
    return this.runBlockHook((env) => {
      settlement.sweepExpired(env);
      encumbrance.sweepExpired(env);
      delegation.sweepExpired(env);
    });
  }

  commit(height: number): Uint8Array {
    return this.commitBlock(height);
  }

  private commitBlock(height: number): Uint8Array {
    const hash = this.store.commit(height, this.block.writeSet());
    this.block = new CacheKv(this.store.latest());
    return hash;
  }

  private runBlockHook(hook: (env: Env) => void): AbciEvent[] {
    const cache = new CacheKv(this.block);
    const env: Env = {
      kv: cache,
      height: this.height,
      timeMs: this.timeMs,
      txHash: null,
      txIndex: -1,
      events: [],
      config: this.config,
    };
    hook(env);
    cache.writeTo(this.block);
    return env.events;
  }

  // ---------------------------------------------------------------- txs

  deliverTx(ctx: TxContext, messages: TxMessage[]): TxResult {
    const { result, cache } = this.execute(ctx, messages);
    if (result.code === 0) cache.writeTo(this.block);
    return result;
  }

  /** Runs the messages on a throwaway branch (gas estimation); nothing is kept. */
  simulate(ctx: TxContext, messages: TxMessage[]): TxResult {
    return this.execute({ ...ctx, gasLimit: BigInt(Number.MAX_SAFE_INTEGER) }, messages).result;
  }

  private execute(ctx: TxContext, messages: TxMessage[]): { result: TxResult; cache: CacheKv } {
    const cache = new CacheKv(this.block);
    const evmOnly = messages.length > 0 && messages.every((m) => EVM_TYPE_URLS.has(m.typeUrl));
    let gas = evmOnly ? 0n : GAS_SCHEDULE.txBase;
    if (messages.length === 0)
      return { result: failure(sdkErrors.invalidRequest('tx has no messages'), ctx.gasLimit, gas, null), cache };
    const events: AbciEvent[] = [];
    const responses: { typeUrl: string; value: Uint8Array }[] = [];
    for (let i = 0; i < messages.length; i++) {
      if (!evmOnly) gas += GAS_SCHEDULE.perMessage;
      try {
        const outcome = this.runMessage(cache, ctx, messages[i], i);
        events.push(...outcome.events);
        responses.push(outcome.response);
        gas += outcome.evmGas;
      } catch (e) {
        return { result: failure(e, ctx.gasLimit, gas, i), cache };
      }
    }
    if (!evmOnly) {
      gas += GAS_SCHEDULE.perEventByte * eventBytes(events);
      if (gas > ctx.gasLimit) {
        const oog = sdkErrors.outOfGas(
          `out of gas in location: txExecution; gasWanted: ${ctx.gasLimit}, gasUsed: ${gas}`,
        );
        return { result: failure(oog, ctx.gasLimit, gas, null), cache };
      }
    }
    const data = TxMsgData.encode({ data: [], msgResponses: responses }).finish();
    return { result: { code: 0, codespace: '', log: '', gasWanted: ctx.gasLimit, gasUsed: gas, events, data }, cache };
  }

  private runMessage(
    cache: CacheKv,
    ctx: TxContext,
    message: TxMessage,
    index: number,
  ): { events: AbciEvent[]; response: { typeUrl: string; value: Uint8Array }; evmGas: bigint } {
    const route = routeOf(message.typeUrl);
    const value = normalizeMessage(route, message.value);
    const signer = this.checkSigner(route, value, ctx);
    const env = this.env(cache, ctx);
    const result = route.handle(env, value);
    const sender = signer ?? result.sender ?? '';
    const messageEvent: AbciEvent = {
      type: 'message',
      attributes: [
        { key: 'action', value: route.typeUrl },
        { key: 'sender', value: sender },
        { key: 'module', value: route.module },
      ],
    };
    return {
      events: withMsgIndex([messageEvent, ...env.events], index),
      response: this.encodeResponse(route, result.response),
      evmGas: result.evmGasUsed ?? 0n,
    };
  }

  private checkSigner(route: Route, value: Record<string, unknown>, ctx: TxContext): string | null {
    if (!route.signerField) return null;
    const signer = requireAddress(this, value[route.signerField], route.signerField);
    requireSigner(ctx.signers, signer, route.signerField);
    return signer;
  }

  private encodeResponse(route: Route, response: Record<string, unknown>): { typeUrl: string; value: Uint8Array } {
    if (!route.responseType) return { typeUrl: `${route.typeUrl}Response`, value: EMPTY };
    return {
      typeUrl: `/${route.responseType}`,
      value: encodeMessage(route.responseType, wire(response) as Record<string, unknown>),
    };
  }

  private env(kv: CacheKv, ctx: TxContext): Env {
    return {
      kv,
      height: ctx.height,
      timeMs: ctx.timeMs,
      txHash: ctx.txHash,
      txIndex: ctx.txIndex,
      events: [],
      config: this.config,
    };
  }

  // ---------------------------------------------------------------- queries

  query(path: string, data: Uint8Array, height: number): QueryResult {
    const latest = this.store.latestHeight;
    const at = height === 0 ? latest : height;
    if (at > latest || at < 0) {
      const err = sdkErrors.invalidHeight(`height ${height} is not committed (latest ${latest})`);
      return { code: err.code, codespace: err.codespace, log: err.message, value: EMPTY, height: at };
    }
    if (at < Math.max(this.queryFaults.prunedBelow, this.store.earliestHeight)) {
      // what a Cosmos SDK node answers for a height its pruning removed
      const err = sdkErrors.invalidRequest(
        `failed to load state at height ${at}; version does not exist (latest height: ${latest})`,
      );
      return { code: err.code, codespace: err.codespace, log: err.message, value: EMPTY, height: at };
    }
    try {
      const value = this.skewed(
        path,
        runQuery({ kv: this.store.readerAt(at), height: at, config: this.config }, path, data),
        data,
      );
      return { code: 0, codespace: '', log: '', value, height: at };
    } catch (e) {
      const err = e instanceof AppError ? e : sdkErrors.internal(String(e));
      return { code: err.code, codespace: err.codespace, log: err.message, value: EMPTY, height: at };
    }
  }
  /** Query/KindSupply with the supplySkew fault applied. */
  private skewed(path: string, value: Uint8Array, request: Uint8Array): Uint8Array {
    if (path !== '/svc.asset.v1.Query/KindSupply' || this.queryFaults.supplySkew.size === 0) return value;
    const req = decodeMessage('svc.asset.v1.QueryKindSupplyRequest', request);
    const skew = this.queryFaults.supplySkew.get(`${req.asset_id}/${req.kind_id}`);
    if (skew === undefined) return value;
    const answer = decodeMessage('svc.asset.v1.QueryKindSupplyResponse', value);
    return encodeMessage('svc.asset.v1.QueryKindSupplyResponse', {
      ...answer,
      supply: (BigInt(String(answer.supply || '0')) + skew).toString(),
    });
  }
}
