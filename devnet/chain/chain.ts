/**
 * Block production of the devnet: a mempool fed by CheckTx, and
 * FinalizeBlock-style execution against an Application (devnet/app/types.ts).
 * Every height's `block`, `block_results` and block meta are rendered to JSON
 * once, when the block is made, so the RPC server only concatenates strings.
 *
 * Two clocks: history mode (`produceBlock(timeMs)` with caller-chosen times,
 * as fast as the app runs) and live mode (`startLive(ms)`: a timer with
 * wall-clock times). Same app, txs and times give byte-identical blocks.
 */
import { DEFAULT_CHAIN_CONFIG } from '../../src/lib/config';
import type { AbciEvent, Application, TxContext, TxMessage } from '../app/types';
import {
  BLOCK_PROTOCOL,
  blockTimeFromMs,
  Commit,
  commitHash,
  consensusHash,
  ConsensusParams,
  dataHash,
  DEFAULT_CONSENSUS_PARAMS,
  deriveValidatorKey,
  EMPTY_BLOCK_ID,
  EMPTY_COMMIT,
  emptyEvidenceHash,
  encodeBlock,
  Header,
  headerHash,
  BlockId,
  partSetHeader,
  StoredBlock,
  pseudoCommitSignature,
  resultsHash,
  validatorsHash,
  ValidatorKey,
} from './block';
import {
  blockIdJson,
  blockJson,
  blockMetaJson,
  blockResultsJson,
  commitJson,
  execResultJson,
  ExecResult,
  headerJson,
  Json,
} from './render';
import { txHashHex, upperHex } from './hashing';
import type { BlockArchive } from './archive';
import { anteGasEstimate, checkSigners, DecodedTx, decodeTx, SignerAccount, TxRejection, verifySignatures } from './tx';

export const DEFAULT_COMET_VERSION = '0.38.17';
/** CometBFT mempool default max_tx_bytes. */
export const DEFAULT_MAX_TX_BYTES = 1048576;
/** 2024-01-01T00:00:00Z: a fixed default keeps genesis deterministic. */
export const DEFAULT_GENESIS_TIME_MS = Date.UTC(2024, 0, 1);

export interface DevnetChainOptions {
  app: Application;
  chainId?: string;
  hrp?: string;
  /** seeds the validator key (default: the chain id) */
  validatorSeed?: string;
  genesisTimeMs?: number;
  /** app hash in the header of height 1 (InitChain's); default: the app's `appHash` when it exposes one (SvcApp does), else empty */
  genesisAppHash?: Uint8Array;
  /** genesis `app_state` served by the `genesis` method */
  appState?: Json;
  moniker?: string;
  /** node_info.version; must start "0.38." for cosmjs' Comet38 client and SubQuery */
  cometVersion?: string;
  maxTxBytes?: number;
  consensusParams?: ConsensusParams;
  /**
   * Skip the secp256k1 check at CheckTx (account, pubkey ↔ address and
   * sequence checks still run). Only for trusted in-process history
   * generation, where verification (~2.5 ms/tx) dominates; never for a served devnet.
   */
  skipSignatureVerification?: boolean;
  /**
   * Write every block through to this archive and keep only the last `recentBlocks` in memory
   * (older heights are read back from it). Without one, every block stays in memory.
   */
  archive?: BlockArchive;
  /** blocks (and their txs) kept in memory when an archive is given; default 256 */
  recentBlocks?: number;
  /**
   * Continue from block `resumeAt` of the archive instead of from genesis (a restart from a
   * snapshot): the app must already hold that height's state. Archived blocks above it are
   * dropped. Needs `archive`.
   */
  resumeAt?: number;
}

/** Blocks kept in memory beside an archive: enough for every reader of recent blocks (scenario, node, services). */
export const DEFAULT_RECENT_BLOCKS = 256;

/** A refusal by the mempool itself (not CheckTx): the RPC answers it as a JSON-RPC error -32603. */
export class MempoolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MempoolError';
  }
}

/** CheckTx answer (ResponseCheckTx) plus the tx hash. */
export interface CheckTxResult extends ExecResult {
  hash: string;
}

export interface StoredTx {
  hash: string;
  height: number;
  index: number;
  tx: Uint8Array;
  result: ExecResult;
  /** jsonpb ExecTxResult, pre-rendered */
  resultJson: string;
}

interface MempoolEntry {
  tx: DecodedTx;
  /** account numbers the signatures were verified against at CheckTx */
  accountNumbers: bigint[];
}

const EMPTY = new Uint8Array(0);

/** The app's hash after genesis, for apps that expose one (not part of the Application interface). */
function initialAppHash(app: Application): Uint8Array {
  const hash = (app as { appHash?: unknown }).appHash;
  return hash instanceof Uint8Array ? Uint8Array.from(hash) : EMPTY;
}

function withModeAttribute(events: AbciEvent[], mode: 'BeginBlock' | 'EndBlock'): AbciEvent[] {
  // the SDK appends mode (not indexed) to every block-level event
  return events.map((e) => ({
    type: e.type,
    attributes: [...e.attributes, { key: 'mode', value: mode, index: false }],
  }));
}

function rejectionResult(tx: DecodedTx, err: TxRejection): ExecResult {
  return {
    code: err.code,
    codespace: err.codespace,
    log: err.log,
    gasWanted: tx.gasLimit,
    gasUsed: anteGasEstimate(tx),
    events: [],
    data: EMPTY,
  };
}

/** A thrown app error becomes the SDK's recovered-panic result (ErrPanic 111222) instead of stopping the chain. */
function panicResult(tx: DecodedTx, err: unknown): ExecResult {
  const log = `panic: ${err instanceof Error ? err.message : String(err)}`;
  return {
    code: 111222,
    codespace: 'undefined',
    log,
    gasWanted: tx.gasLimit,
    gasUsed: anteGasEstimate(tx),
    events: [],
    data: EMPTY,
  };
}

function storedTx(block: StoredBlock, index: number, result: ExecResult): StoredTx {
  return {
    hash: block.txHashes[index],
    height: block.height,
    index,
    tx: block.txs[index],
    result,
    resultJson: JSON.stringify(execResultJson(result)),
  };
}

export class DevnetChain {
  readonly app: Application;
  readonly chainId: string;
  readonly hrp: string;
  readonly validator: ValidatorKey;
  readonly genesisTimeMs: number;
  readonly genesisAppHash: Uint8Array;
  readonly appState: Json;
  readonly moniker: string;
  readonly cometVersion: string;
  readonly maxTxBytes: number;
  readonly consensusParams: ConsensusParams;
  readonly skipSignatureVerification: boolean;

  /** the last `recentBlocks` blocks (every block without an archive); `recent[0]` is height `firstRecentHeight` */
  private recent: StoredBlock[] = [];
  private firstRecentHeight = 1;
  /** block 1 stays in memory: `status` reads it on every call */
  private firstBlock: StoredBlock | undefined;
  private readonly archive: BlockArchive | undefined;
  private readonly recentBlocks: number;
  /** txs and block hashes of the blocks in memory */
  private readonly txIndex = new Map<string, StoredTx>();
  private readonly heightsByHash = new Map<string, number>();
  private mempool: MempoolEntry[] = [];
  private readonly mempoolHashes = new Set<string>();
  /** next sequence per signer once the mempool's txs are applied (CheckTx state) */
  private pendingSequences = new Map<string, bigint>();
  private pendingPubKeys = new Map<string, Uint8Array>();
  private checkQueue: Promise<unknown> = Promise.resolve();
  /**
   * Test hooks of the RPC layer: `missingTxs` (upper-case hashes) are answered "not found"
   * by the `tx` method although they are in a block, as a node whose tx index lags or was
   * pruned answers. Blocks, `block_results` and `tx_search` are not affected.
   */
  readonly rpcFaults = { missingTxs: new Set<string>() };
  private readonly txWaiters = new Map<string, ((tx: StoredTx) => void)[]>();
  private liveTimer: NodeJS.Timeout | undefined;
  private readonly validatorsHashValue: Uint8Array;
  private readonly consensusHashValue: Uint8Array;

  private constructor(options: DevnetChainOptions, validator: ValidatorKey) {
    this.app = options.app;
    this.chainId = options.chainId ?? DEFAULT_CHAIN_CONFIG.chainId;
    this.hrp = options.hrp ?? DEFAULT_CHAIN_CONFIG.hrp;
    this.validator = validator;
    this.genesisTimeMs = options.genesisTimeMs ?? DEFAULT_GENESIS_TIME_MS;
    this.genesisAppHash = options.genesisAppHash ?? initialAppHash(options.app);
    this.appState = options.appState ?? {};
    this.moniker = options.moniker ?? 'svc-devnet';
    this.cometVersion = options.cometVersion ?? DEFAULT_COMET_VERSION;
    this.maxTxBytes = options.maxTxBytes ?? DEFAULT_MAX_TX_BYTES;
    this.consensusParams = options.consensusParams ?? DEFAULT_CONSENSUS_PARAMS;
    this.skipSignatureVerification = options.skipSignatureVerification ?? false;
    this.validatorsHashValue = validatorsHash([validator]);
    this.consensusHashValue = consensusHash(this.consensusParams);
    this.archive = options.archive;
    this.recentBlocks = options.archive ? (options.recentBlocks ?? DEFAULT_RECENT_BLOCKS) : Number.POSITIVE_INFINITY;
    if (options.resumeAt !== undefined) this.resumeFromArchive(options.resumeAt);
    else this.archive?.truncate(0);
  }

  /** Height `height` of the archive becomes the tip; the blocks of the memory window are read back. */
  private resumeFromArchive(height: number): void {
    if (!this.archive) throw new Error('resumeAt needs an archive');
    if (height > this.archive.height)
      throw new Error(`cannot resume at block ${height}: the archive holds ${this.archive.height} blocks`);
    this.archive.truncate(height);
    this.firstRecentHeight = Math.max(1, height - this.recentBlocks + 1);
    for (let h = this.firstRecentHeight; h <= height; h++) {
      const { block, txResults } = this.archive.read(h)!;
      this.remember(block, txResults);
    }
    this.firstBlock = this.block(1);
  }

  /** Async only because the validator's ed25519 key is derived with cosmjs. */
  static async create(options: DevnetChainOptions): Promise<DevnetChain> {
    const chainId = options.chainId ?? DEFAULT_CHAIN_CONFIG.chainId;
    return new DevnetChain(options, await deriveValidatorKey(options.validatorSeed ?? chainId));
  }

  // ------------------------------------------------------------ reads

  /** Latest committed height (0 before the first block). */
  get height(): number {
    return this.firstRecentHeight + this.recent.length - 1;
  }

  /** Any height from 1: from memory when recent, else read back from the archive. */
  block(height: number): StoredBlock | undefined {
    if (!Number.isInteger(height) || height < 1 || height > this.height) return undefined;
    if (height === 1 && this.firstBlock) return this.firstBlock;
    if (height >= this.firstRecentHeight) return this.recent[height - this.firstRecentHeight];
    return this.archive!.read(height)!.block;
  }

  latestBlock(): StoredBlock | undefined {
    return this.recent[this.recent.length - 1];
  }

  blockByHash(hashHex: string): StoredBlock | undefined {
    const height = this.heightsByHash.get(hashHex.toUpperCase()) ?? this.archive?.heightOfHash(hashHex);
    return height === undefined ? undefined : this.block(height);
  }

  tx(hashHex: string): StoredTx | undefined {
    const hash = hashHex.toUpperCase();
    const recent = this.txIndex.get(hash);
    if (recent || !this.archive) return recent;
    const found = this.archive.findTx(hash);
    if (!found || found.archived.block.height >= this.firstRecentHeight) return undefined;
    return storedTx(found.archived.block, found.index, found.archived.txResults[found.index]);
  }

  /** Every tx in chain order (for tx_search); archived blocks are read back one at a time. */
  *allTxs(): Iterable<StoredTx> {
    for (let height = 1; height < this.firstRecentHeight; height++) {
      const { block, txResults } = this.archive!.read(height)!;
      for (let i = 0; i < block.txHashes.length; i++) yield storedTx(block, i, txResults[i]);
    }
    for (const b of this.recent) for (const h of b.txHashes) yield this.txIndex.get(h)!;
  }

  /** Blocks and txs held in memory (bounded by `recentBlocks` when an archive is given). */
  memoryStats(): { blocks: number; txs: number } {
    return { blocks: this.recent.length, txs: this.txIndex.size };
  }

  unconfirmedTxs(): Uint8Array[] {
    return this.mempool.map((e) => e.tx.bytes);
  }

  // ------------------------------------------------------------ mempool

  private checkStateAccount = (address: string): SignerAccount | undefined => {
    const acc = this.app.account(address);
    if (!acc) return undefined;
    return {
      accountNumber: acc.accountNumber,
      sequence: this.pendingSequences.get(address) ?? acc.sequence,
      pubKey: acc.pubKey ?? this.pendingPubKeys.get(address),
    };
  };

  /**
   * The sequence the next tx of `address` must carry to pass CheckTx: its committed sequence
   * plus the txs of it already in the mempool (anyone's signatures, the scenario's or a user's).
   */
  nextSequence(address: string): bigint | undefined {
    return this.checkStateAccount(address)?.sequence;
  }

  private deliverStateAccount = (address: string): SignerAccount | undefined => {
    const acc = this.app.account(address);
    return acc && { accountNumber: acc.accountNumber, sequence: acc.sequence, pubKey: acc.pubKey };
  };

  /** Mempool admission (size, duplicates) without CheckTx; throws MempoolError. */
  checkAdmission(bytes: Uint8Array): void {
    this.assertAdmissible(bytes, txHashHex(bytes));
  }

  private assertAdmissible(bytes: Uint8Array, hash: string): void {
    if (bytes.length > this.maxTxBytes)
      throw new MempoolError(`tx too large. Max size is ${this.maxTxBytes}, but got ${bytes.length}`);
    if (this.mempoolHashes.has(hash) || this.txIndex.has(hash)) throw new MempoolError('tx already exists in cache');
  }

  private async runCheckTx(bytes: Uint8Array, hash: string): Promise<CheckTxResult> {
    this.assertAdmissible(bytes, hash);
    let tx: DecodedTx | undefined;
    try {
      tx = decodeTx(bytes, this.hrp);
      const signers = checkSigners(tx, this.checkStateAccount);
      if (!this.skipSignatureVerification) await verifySignatures(tx, signers, this.chainId);
      this.assertAdmissible(bytes, hash);
      this.enqueue(
        tx,
        signers.map((s) => s.account.accountNumber),
      );
      signers.forEach((s) => {
        this.pendingSequences.set(s.address, s.account.sequence + 1n);
        this.pendingPubKeys.set(s.address, s.pubKey);
      });
      return { hash, code: 0, codespace: '', log: '', gasWanted: tx.gasLimit, gasUsed: 0n, events: [], data: EMPTY };
    } catch (e) {
      if (!(e instanceof TxRejection)) throw e;
      return {
        hash,
        code: e.code,
        codespace: e.codespace,
        log: e.log,
        gasWanted: tx?.gasLimit ?? 0n,
        gasUsed: 0n,
        events: [],
        data: EMPTY,
      };
    }
  }

  private enqueue(tx: DecodedTx, accountNumbers: bigint[]): void {
    this.mempool.push({ tx, accountNumbers });
    this.mempoolHashes.add(tx.hash);
  }

  /**
   * CheckTx and, when it passes, admission to the mempool (broadcast_tx_sync).
   * Serialised so that a signer's consecutive sequences are checked in arrival
   * order. Throws MempoolError for a duplicate or oversized tx.
   */
  checkTx(bytes: Uint8Array): Promise<CheckTxResult> {
    const hash = txHashHex(bytes);
    const run = this.checkQueue.then(() => this.runCheckTx(bytes, hash));
    this.checkQueue = run.catch(() => undefined);
    return run;
  }

  /**
   * Simulate (`/cosmos.tx.v1beta1.Service/Simulate`): runs the tx's messages on the latest
   * state as the next block would, keeping nothing, and answers the gas the delivery would
   * use. Signatures are not checked (the SDK's simulate mode skips them too; clients send
   * empty ones). Throws TxRejection for an undecodable tx; undefined when the app has no simulate.
   */
  simulate(bytes: Uint8Array): ExecResult | undefined {
    if (!this.app.simulate) return undefined;
    const tx = decodeTx(bytes, this.hrp);
    const ctx = this.txContext(tx, this.height + 1, this.lastBlockTimeMs, 0);
    return this.app.simulate(ctx, tx.messages as TxMessage[]);
  }

  /** Resolves once the tx is in a block, or with undefined after `timeoutMs`. */
  waitForTx(hashHex: string, timeoutMs: number): Promise<StoredTx | undefined> {
    const hash = hashHex.toUpperCase();
    const known = this.txIndex.get(hash);
    if (known) return Promise.resolve(known);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const list = this.txWaiters.get(hash) ?? [];
        this.txWaiters.set(
          hash,
          list.filter((f) => f !== done),
        );
        resolve(undefined);
      }, timeoutMs);
      const done = (tx: StoredTx) => {
        clearTimeout(timer);
        resolve(tx);
      };
      this.txWaiters.set(hash, [...(this.txWaiters.get(hash) ?? []), done]);
    });
  }

  // ------------------------------------------------------------ execution

  private deliverTx(tx: DecodedTx, accountNumbers: bigint[], ctx: TxContext): ExecResult {
    let pubKeys: Uint8Array[];
    try {
      const signers = checkSigners(tx, this.deliverStateAccount);
      if (signers.some((s, i) => s.account.accountNumber !== accountNumbers[i])) {
        throw new TxRejection(4, 'signature verification failed; account number changed since CheckTx');
      }
      pubKeys = signers.map((s) => s.pubKey);
    } catch (e) {
      if (e instanceof TxRejection) return rejectionResult(tx, e);
      return panicResult(tx, e);
    }
    try {
      const ante = this.app.ante(ctx, pubKeys);
      if (!ante.ok)
        return {
          code: ante.code,
          codespace: ante.codespace,
          log: ante.log,
          gasWanted: tx.gasLimit,
          gasUsed: anteGasEstimate(tx),
          events: [],
          data: EMPTY,
        };
      const res = this.app.deliverTx(ctx, tx.messages as TxMessage[]);
      return {
        code: res.code,
        codespace: res.codespace,
        log: res.log,
        gasWanted: res.gasWanted,
        gasUsed: res.gasUsed,
        events: [...ante.events, ...res.events],
        data: res.data,
      };
    } catch (e) {
      return panicResult(tx, e);
    }
  }

  private txContext(tx: DecodedTx, height: number, timeMs: number, txIndex: number): TxContext {
    return {
      height,
      timeMs,
      txIndex,
      txHash: tx.hash,
      signers: tx.signers,
      fee: tx.fee,
      gasLimit: tx.gasLimit,
      memo: tx.memo,
    };
  }

  private lastCommitFor(height: number, timeMs: number): Commit {
    const prev = this.latestBlock();
    if (!prev) return EMPTY_COMMIT;
    // BFT time with one validator: the block time is its precommit's timestamp
    const time = blockTimeFromMs(timeMs);
    const signature = pseudoCommitSignature(this.validator, BigInt(height - 1), prev.blockId.hash, time);
    return {
      height: BigInt(height - 1),
      round: 0,
      blockId: prev.blockId,
      signatures: [{ validatorAddress: this.validator.address, time, signature }],
    };
  }

  private makeHeader(height: number, timeMs: number, txs: Uint8Array[], lastCommit: Commit): Header {
    const prev = this.latestBlock();
    return {
      version: { block: BLOCK_PROTOCOL, app: 0n },
      chainId: this.chainId,
      height: BigInt(height),
      time: blockTimeFromMs(timeMs),
      lastBlockId: prev?.blockId ?? EMPTY_BLOCK_ID,
      lastCommitHash: commitHash(lastCommit),
      dataHash: dataHash(txs),
      validatorsHash: this.validatorsHashValue,
      nextValidatorsHash: this.validatorsHashValue,
      consensusHash: this.consensusHashValue,
      appHash: prev?.appHash ?? this.genesisAppHash,
      lastResultsHash: resultsHash(prev?.results ?? []),
      evidenceHash: emptyEvidenceHash(),
      proposerAddress: this.validator.address,
    };
  }

  /** Last block time in ms (genesis time before the first block). */
  get lastBlockTimeMs(): number {
    const b = this.latestBlock();
    return b ? Number(b.header.time.seconds) * 1000 + Math.floor(b.header.time.nanos / 1e6) : this.genesisTimeMs;
  }

  /**
   * Executes the mempool as the next block at `timeMs` (unix ms, strictly
   * after the previous block) and commits it. Synchronous: signatures were
   * verified at CheckTx; delivery re-checks accounts and sequences only.
   */
  produceBlock(timeMs: number): StoredBlock {
    if (this.height > 0 && timeMs <= this.lastBlockTimeMs) {
      throw new RangeError(`block time ${new Date(timeMs).toISOString()} must be after the previous block's`);
    }
    const height = this.height + 1;
    const entries = this.takeMempool();
    const begin = withModeAttribute(this.app.beginBlock(height, timeMs), 'BeginBlock');
    const results = entries.map((e, i) =>
      this.deliverTx(e.tx, e.accountNumbers, this.txContext(e.tx, height, timeMs, i)),
    );
    const end = withModeAttribute(this.app.endBlock(height, timeMs), 'EndBlock');
    const appHash = this.app.commit(height);
    const block = this.storeBlock(
      height,
      timeMs,
      entries.map((e) => e.tx),
      results,
      [...begin, ...end],
      appHash,
    );
    this.notifyWaiters(block);
    return block;
  }

  private takeMempool(): MempoolEntry[] {
    const entries = this.mempool;
    this.mempool = [];
    this.mempoolHashes.clear();
    this.pendingSequences = new Map();
    this.pendingPubKeys = new Map();
    return entries;
  }

  private storeBlock(
    height: number,
    timeMs: number,
    txs: DecodedTx[],
    results: ExecResult[],
    finalizeEvents: AbciEvent[],
    appHash: Uint8Array,
  ): StoredBlock {
    const txBytes = txs.map((t) => t.bytes);
    const lastCommit = this.lastCommitFor(height, timeMs);
    const header = this.makeHeader(height, timeMs, txBytes, lastCommit);
    const encoded = encodeBlock(header, txBytes, lastCommit);
    const blockId: BlockId = { hash: headerHash(header), parts: partSetHeader(encoded) };
    const stored: StoredBlock = {
      height,
      header,
      blockId,
      txs: txBytes,
      txHashes: txs.map((t) => t.hash),
      appHash,
      results: results.map((r) => ({ code: r.code, data: r.data, gasWanted: r.gasWanted, gasUsed: r.gasUsed })),
      blockJson: JSON.stringify({ block_id: blockIdJson(blockId), block: blockJson(header, txBytes, lastCommit) }),
      resultsJson: JSON.stringify(blockResultsJson(header.height, results, finalizeEvents, appHash)),
      metaJson: JSON.stringify(blockMetaJson(blockId, encoded.length, header, txBytes.length)),
      headerJson: JSON.stringify(headerJson(header)),
    };
    this.archive?.append({ block: stored, txResults: results });
    this.remember(stored, results);
    this.firstBlock ??= stored;
    this.forgetOldest();
    return stored;
  }

  private remember(block: StoredBlock, results: ExecResult[]): void {
    this.recent.push(block);
    this.heightsByHash.set(upperHex(block.blockId.hash), block.height);
    block.txHashes.forEach((hash, i) => this.txIndex.set(hash, storedTx(block, i, results[i])));
  }

  /** Beyond the memory window, the oldest block lives on in the archive only. */
  private forgetOldest(): void {
    while (this.recent.length > this.recentBlocks) {
      const oldest = this.recent.shift()!;
      this.firstRecentHeight += 1;
      this.heightsByHash.delete(upperHex(oldest.blockId.hash));
      for (const hash of oldest.txHashes) this.txIndex.delete(hash);
    }
  }

  private notifyWaiters(block: StoredBlock): void {
    for (const hash of block.txHashes) {
      const waiters = this.txWaiters.get(hash);
      if (!waiters) continue;
      this.txWaiters.delete(hash);
      const tx = this.txIndex.get(hash)!;
      waiters.forEach((w) => w(tx));
    }
  }

  /**
   * The commit of a height: from the next block's last_commit when there is
   * one (canonical), else the validator's own precommit (the "seen commit").
   */
  commitJsonFor(height: number): { commit: Json; canonical: boolean } | undefined {
    const block = this.block(height);
    if (!block) return undefined;
    const next = this.block(height + 1);
    const timeMs = next ? this.blockTimeMs(next) : this.blockTimeMs(block);
    const time = blockTimeFromMs(timeMs);
    const signature = pseudoCommitSignature(this.validator, BigInt(height), block.blockId.hash, time);
    const commit: Commit = {
      height: BigInt(height),
      round: 0,
      blockId: block.blockId,
      signatures: [{ validatorAddress: this.validator.address, time, signature }],
    };
    return { commit: commitJson(commit), canonical: next !== undefined };
  }

  private blockTimeMs(b: StoredBlock): number {
    return Number(b.header.time.seconds) * 1000 + Math.floor(b.header.time.nanos / 1e6);
  }

  // ------------------------------------------------------------ live mode

  /**
   * Produces a block every `intervalMs` with wall-clock time (kept strictly
   * increasing), and one at once on an empty chain so `status` has a tip.
   * `onError` hears an app failure instead of it crashing the process (default: console.error).
   */
  startLive(
    intervalMs: number,
    onError: (e: unknown) => void = (e) => console.error('devnet: block production failed', e),
  ): void {
    this.stopLive();
    const tick = () => {
      try {
        this.produceLiveBlock();
      } catch (e) {
        onError(e);
      }
    };
    if (this.height === 0) tick();
    this.liveTimer = setInterval(tick, intervalMs);
    this.liveTimer.unref();
  }

  stopLive(): void {
    if (this.liveTimer) clearInterval(this.liveTimer);
    this.liveTimer = undefined;
  }

  get isLive(): boolean {
    return this.liveTimer !== undefined;
  }

  /** One live block now: wall-clock time, nudged past the previous block if the clock lags. */
  produceLiveBlock(): StoredBlock {
    const now = Date.now();
    return this.produceBlock(this.height > 0 && now <= this.lastBlockTimeMs ? this.lastBlockTimeMs + 1 : now);
  }
}
