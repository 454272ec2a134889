/**
 * The embedded devnet of `npm start`: a seeded scenario history, then live blocks every
 * DEVNET_BLOCK_MS with scenario traffic, served over CometBFT RPC — made durable by the
 * journal (devnet-journal.ts). A first start generates the history so that it ends now.
 *
 * Bounded for days of running: the app keeps DEVNET_STATE_WINDOW heights of state versions,
 * the chain keeps its recent blocks in memory and the rest in an archive on disk
 * (`<journal dir>/archive`), and a snapshot is written every DEVNET_SNAPSHOT_BLOCKS blocks and
 * at close (devnet-snapshot.ts). A restart loads the latest snapshot and replays only the
 * journal lines after it (their txs and times, each hash checked), then the scenario's loops
 * start afresh from the chain state. Without a usable snapshot (none yet, or
 * DEVNET_SNAPSHOT_BLOCKS=0) it regenerates the history and replays every journaled live block
 * with the scenario planning along, as before.
 *
 * Built from the same parts as devnet/scenario/start.ts (startDevnet: history, RPC server,
 * LiveLoop), with one addition: every block is journaled as it is produced (LiveLoop's
 * afterBlock hook).
 *
 * `servicesMode: true` (EmbeddedDevnetOptions) is for running the app services (lender,
 * trade desk) against this devnet: they sign for the lender and desk keys over RPC, and the
 * scenario's live blocks never sign as those two (devnet/README.md, "Services mode"); the
 * history is the same either way. Their txs are journaled like any broadcast tx and replayed
 * as txs the scenario did not plan.
 */
import { DEFAULT_CHAIN_CONFIG } from '../lib/config';
import path from 'path';
import {
  BlockArchive,
  DEFAULT_RECENT_BLOCKS,
  emptySuccess,
  startRpcServer,
  txHashHex,
  upperHex,
  type CheckTxResult,
  type DevnetChain,
  type DevnetRpcServer,
  type StoredBlock,
} from '../../devnet/chain';
import { generateHistory, liveStartTime, LiveLoop, ScenarioEngine, type MemoryOptions } from '../../devnet/scenario';
import type { DevnetConfig } from './config';
import { DEFAULT_SNAPSHOT_BLOCKS, DEFAULT_STATE_WINDOW } from './settings';
import {
  DevnetJournal,
  JournalConflict,
  journalEntry,
  txBytes,
  type DevnetIdentity,
  type JournalBlock,
} from './devnet-journal';
import { readSnapshot, SNAPSHOT_VERSION, writeSnapshot, type DevnetSnapshot } from './devnet-snapshot';
import type { Logger } from './logger';

export interface EmbeddedDevnet {
  url: string;
  chainId: string;
  chain: DevnetChain;
  /** blocks replayed from the journal at start (0 on a first start) */
  replayedBlocks: number;
  /** height of the snapshot this start resumed from; undefined when it rebuilt the chain from genesis */
  resumedFrom: number | undefined;
  engine: ScenarioEngine;
  close(): Promise<void>;
}

export interface EmbeddedDevnetOptions {
  config: DevnetConfig;
  journal: DevnetJournal;
  /** named in conflict messages */
  dataDir: string;
  log: Logger;
  host?: string;
  /** live blocks leave the lender and desk keys to the app services (LiveModeOptions.servicesMode); default false */
  servicesMode?: boolean;
}

export function devnetIdentity(config: DevnetConfig): DevnetIdentity {
  return {
    seed: config.seed,
    historyBlocks: config.historyBlocks,
    txsPerBlock: config.txsPerBlock,
    chainId: DEFAULT_CHAIN_CONFIG.chainId,
  };
}

function conflict(dataDir: string, what: string): JournalConflict {
  return new JournalConflict(
    `${what}. The devnet saved in ${dataDir} cannot be rebuilt: remove ${dataDir} (rm -rf ${dataDir}) or pass a new DATA_DIR.`,
  );
}

/** Logs "x / n" at most every 5 s during a long loop. */
function progressLogger(log: Logger, msg: string, total: number): (done: number) => void {
  let last = Date.now();
  return (done) => {
    if (Date.now() - last < 5000) return;
    last = Date.now();
    log.info(msg, { done, total });
  };
}

/**
 * CheckTx's secp256k1 check is half the cost of a block (~7 ms a tx). The history is made
 * in-process by the scenario and a replay re-reads what this launcher journaled, so both run
 * without it (the devnet's option for trusted generation); the served chain checks every
 * broadcast tx again. The option is read at each CheckTx, so it can be switched.
 */
function setSignatureChecks(chain: DevnetChain, on: boolean): void {
  (chain as unknown as { skipSignatureVerification: boolean }).skipSignatureVerification = !on;
}

/** The seeded history, regenerated from the journal's start time and checked against it (or journaled, first time). */
async function history(o: EmbeddedDevnetOptions, memory: MemoryOptions): Promise<ScenarioEngine> {
  const meta = o.journal.meta!;
  const report = progressLogger(o.log, 'generating the scenario history', meta.historyBlocks);
  const h = await generateHistory({
    seed: meta.seed,
    blocks: meta.historyBlocks,
    txsPerBlock: meta.txsPerBlock,
    startTimeMs: meta.startTimeMs,
    skipSignatureVerification: true,
    memory,
    onBlock: (height) => report(height),
  });
  for (let height = 1; height <= meta.historyBlocks; height++) {
    const block = h.chain.block(height)!;
    const savedHash = o.journal.hashAt(height);
    if (!savedHash) o.journal.append(journalEntry(block));
    else if (savedHash !== upperHex(block.blockId.hash))
      throw conflict(
        o.dataDir,
        `history block ${height} differs from the journal (the devnet code changed since it was saved)`,
      );
  }
  return h.engine;
}

const PLANNED_OK = (hash: string): CheckTxResult => ({ hash, ...emptySuccess() });

/**
 * The chain as the scenario sees it during a replay: its CheckTx only notes what the
 * scenario planned (the journal's txs are already in the mempool), everything else is the
 * real chain. So the scenario's state (flows, launched assets) follows the replayed blocks.
 */
function plannerView(chain: DevnetChain, planned: Set<string>): DevnetChain {
  return new Proxy(chain, {
    get(target, prop) {
      if (prop === 'checkTx') {
        return async (bytes: Uint8Array) => {
          const hash = txHashHex(bytes);
          planned.add(hash);
          return PLANNED_OK(hash);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Puts a journaled block's txs through the real CheckTx again; one it refuses means the journal is not this chain's. */
async function checkJournaledTxs(chain: DevnetChain, saved: JournalBlock, o: EmbeddedDevnetOptions): Promise<void> {
  for (const tx of txBytes(saved)) {
    const r = await chain.checkTx(tx);
    if (r.code !== 0)
      throw conflict(
        o.dataDir,
        `journaled tx ${r.hash} of block ${saved.height} is refused on replay (${r.codespace}/${r.code} ${r.log})`,
      );
  }
}

/** One journaled live block: its txs through the real CheckTx, the scenario plans along, the block must hash the same. */
async function replayLiveBlock(engine: ScenarioEngine, saved: JournalBlock, o: EmbeddedDevnetOptions): Promise<number> {
  const chain = engine.chain;
  await checkJournaledTxs(chain, saved, o);
  const planned = new Set<string>();
  engine.world.chain = plannerView(chain, planned);
  let block: StoredBlock;
  try {
    block = await engine.runBlock(saved.timeMs);
  } finally {
    engine.world.chain = chain;
  }
  if (upperHex(block.blockId.hash) !== saved.hash)
    throw conflict(o.dataDir, `replayed block ${saved.height} hashes differently from the journal`);
  return block.txHashes.filter((h) => !planned.has(h)).length;
}

/**
 * The journal does not record services mode, so the replay plans with the mode given now.
 * Unchanged, the scenario plans each replayed block as it did (the services' txs are the
 * unplanned ones). Changed between runs, it plans some blocks differently from the run that
 * made them: with the mode now on, the lender txs it journaled itself become unplanned; now
 * off, it plans lender and desk txs the journal does not have. That cannot fail the replay:
 * a block is the journal's txs whatever the scenario plans, and a flow whose planned tx is
 * not in its block drops its next step (onFlowError below). Every hash stays exact.
 */
async function replayLiveBlocks(engine: ScenarioEngine, o: EmbeddedDevnetOptions): Promise<number> {
  const { journal, log } = o;
  const first = journal.meta!.historyBlocks + 1;
  const total = journal.height - first + 1;
  if (total <= 0) return 0;
  log.info('replaying the journal of live blocks', { blocks: total, from: first, to: journal.height });
  const report = progressLogger(log, 'replaying the journal', total);
  const entries = journal.entriesFrom({ height: 0, offset: 0 }).slice(first - 1);
  let liveMs: number | undefined;
  let unplanned = 0;
  for (let h = first; h <= journal.height; h++) {
    const saved = entries[h - first];
    if (saved.liveBlockMs !== liveMs) {
      liveMs = saved.liveBlockMs ?? o.config.blockMs;
      engine.enterLiveMode(liveMs, (flow, error) => log.debug('scenario flow dropped during replay', { flow, error }), {
        servicesMode: o.servicesMode,
      });
    }
    unplanned += await replayLiveBlock(engine, saved, o);
    report(h - first + 1);
  }
  // txs the scenario did not plan itself (broadcast by a client, e.g. the app services in services mode): its flows may drop a step, the chain is exact
  if (unplanned > 0) log.info('replayed txs from outside the scenario', { txs: unplanned });
  return total;
}

/** Journals the chain's blocks above the journal's height (call it before any RPC request is served). */
function journalNewBlocks(chain: DevnetChain, journal: DevnetJournal, blockMs: number): void {
  for (let h = journal.height + 1; h <= chain.height; h++) journal.append(journalEntry(chain.block(h)!, blockMs));
}

function memoryOptions(config: DevnetConfig, archive: BlockArchive): MemoryOptions {
  return {
    stateRetention: { keepRecent: config.stateWindow ?? DEFAULT_STATE_WINDOW },
    archive,
    recentBlocks: DEFAULT_RECENT_BLOCKS,
  };
}

function snapshotsOn(config: DevnetConfig): boolean {
  return (config.snapshotBlocks ?? DEFAULT_SNAPSHOT_BLOCKS) > 0;
}

/** The saved snapshot when the journal and the archive still hold its block; else why not (logged). */
function usableSnapshot(o: EmbeddedDevnetOptions, archive: BlockArchive): DevnetSnapshot | undefined {
  if (!snapshotsOn(o.config)) return undefined;
  const { snapshot, problem } = readSnapshot(o.journal.dir);
  const height = snapshot?.scenario.height ?? 0;
  const archived = snapshot && height <= archive.height ? archive.read(height) : undefined;
  const why =
    problem ??
    (!snapshot
      ? undefined
      : o.journal.hashAt(height) !== snapshot.blockHash
        ? `the journal does not hold block ${height} ${snapshot.blockHash.slice(0, 12)}…`
        : !archived || upperHex(archived.block.blockId.hash) !== snapshot.blockHash
          ? `the block archive does not hold block ${height}`
          : undefined);
  if (why) o.log.warn('not using the devnet snapshot: rebuilding from genesis', { reason: why });
  return why ? undefined : snapshot;
}

/** One journaled block made again from its txs and time, without the scenario (a tail replay after a snapshot). */
async function replayJournaledBlock(chain: DevnetChain, saved: JournalBlock, o: EmbeddedDevnetOptions): Promise<void> {
  await checkJournaledTxs(chain, saved, o);
  const block = chain.produceBlock(saved.timeMs);
  if (upperHex(block.blockId.hash) !== saved.hash)
    throw conflict(o.dataDir, `replayed block ${saved.height} hashes differently from the journal`);
}

/** The chain as the snapshot left it, plus the journal lines after it; the scenario's loops start afresh. */
async function resume(
  o: EmbeddedDevnetOptions,
  snapshot: DevnetSnapshot,
  memory: MemoryOptions,
): Promise<{ engine: ScenarioEngine; replayed: number }> {
  const meta = o.journal.meta!;
  const engine = await ScenarioEngine.restore(
    {
      seed: meta.seed,
      txsPerBlock: meta.txsPerBlock,
      blockIntervalMs: snapshot.liveBlockMs,
      genesisTimeMs: snapshot.scenario.genesisTimeMs,
      skipSignatureVerification: true,
      memory,
    },
    snapshot.scenario,
  );
  const tail = o.journal.entriesFrom(snapshot.journal);
  o.log.info('resuming the devnet from its snapshot', {
    snapshot_height: snapshot.scenario.height,
    replaying: tail.length,
  });
  for (const saved of tail) await replayJournaledBlock(engine.chain, saved, o);
  return { engine, replayed: tail.length };
}

/** The history regenerated and every journaled live block replayed with the scenario planning along. */
async function rebuild(
  o: EmbeddedDevnetOptions,
  memory: MemoryOptions,
): Promise<{ engine: ScenarioEngine; replayed: number }> {
  const started = Date.now();
  const engine = await history(o, memory);
  o.log.info('history ready', { blocks: o.journal.meta!.historyBlocks, ms: Date.now() - started });
  return { engine, replayed: await replayLiveBlocks(engine, o) };
}

/** Writes a snapshot every `snapshotBlocks` blocks (and on demand), after flushing what it points into. */
class Snapshots {
  private lastHeight: number;

  constructor(
    private readonly engine: ScenarioEngine,
    private readonly journal: DevnetJournal,
    private readonly archive: BlockArchive,
    private readonly o: EmbeddedDevnetOptions,
    resumedFrom: number | undefined,
  ) {
    this.lastHeight = resumedFrom ?? 0;
  }

  private get every(): number {
    return this.o.config.snapshotBlocks ?? DEFAULT_SNAPSHOT_BLOCKS;
  }

  /** After a block: a snapshot when `every` blocks passed since the last one. */
  whenDue(): void {
    if (this.every > 0 && this.engine.chain.height - this.lastHeight >= this.every) this.takeOrLog();
  }

  /**
   * A failed snapshot (a full disk) must not stop the chain or its close: the previous snapshot
   * stays valid and the journal still has every block, so a restart only replays more.
   */
  takeOrLog(): void {
    try {
      this.take();
    } catch (e) {
      this.o.log.error('devnet snapshot failed; the previous one stays in use', { error: e });
    }
  }

  /** A snapshot of the current height, unless it is the last one's. */
  private take(): void {
    const chain = this.engine.chain;
    if (this.every === 0 || chain.height === this.lastHeight || chain.height === 0) return;
    if (this.journal.height !== chain.height)
      throw new Error(`snapshot: the journal is at ${this.journal.height}, the chain at ${chain.height}`);
    const started = Date.now();
    this.journal.sync();
    this.archive.sync();
    writeSnapshot(this.journal.dir, {
      version: SNAPSHOT_VERSION,
      journal: { height: chain.height, offset: this.journal.offset },
      blockHash: upperHex(chain.latestBlock()!.blockId.hash),
      liveBlockMs: this.o.config.blockMs,
      scenario: this.engine.snapshot(),
      takenAt: new Date().toISOString(),
    });
    this.lastHeight = chain.height;
    this.o.log.debug('devnet snapshot written', { height: chain.height, ms: Date.now() - started });
  }
}

async function serve(chain: DevnetChain, o: EmbeddedDevnetOptions): Promise<DevnetRpcServer> {
  try {
    return await startRpcServer(chain, { host: o.host ?? '127.0.0.1', port: o.config.port });
  } catch (e) {
    const busy = (e as NodeJS.ErrnoException).code === 'EADDRINUSE';
    throw busy
      ? new Error(
          `DEVNET_PORT ${o.config.port} is in use (another devnet?); set DEVNET_PORT to a free port or 0 for any`,
        )
      : e;
  }
}

export async function startEmbeddedDevnet(o: EmbeddedDevnetOptions): Promise<EmbeddedDevnet> {
  const { config, journal, log } = o;
  if (!journal.meta)
    journal.create(
      devnetIdentity(config),
      liveStartTime({ seed: config.seed, blocks: config.historyBlocks }, config.blockMs),
    );
  const archive = BlockArchive.open(path.join(journal.dir, 'archive'));
  const memory = memoryOptions(config, archive);
  const snapshot = usableSnapshot(o, archive);
  const { engine, replayed } = snapshot ? await resume(o, snapshot, memory) : await rebuild(o, memory);
  const resumedFrom = snapshot?.scenario.height;
  setSignatureChecks(engine.chain, true);
  const snapshots = new Snapshots(engine, journal, archive, o, resumedFrom);
  snapshots.whenDue(); // a long rebuild is not done twice
  const server = await serve(engine.chain, o);
  // the same mode as the replay just used, so the flows go on where the replay left them
  engine.enterLiveMode(config.blockMs, (flow, error) => log.warn('scenario flow dropped', { flow, error }), {
    servicesMode: o.servicesMode,
  });
  // each live block is journaled as soon as it exists, before any RPC request can see it
  const live = new LiveLoop(engine, config.blockMs, {
    onError: (e) => log.error('live block failed', { error: e }),
    afterBlock: () => {
      journalNewBlocks(engine.chain, journal, config.blockMs);
      snapshots.whenDue();
    },
  });
  await live.start();
  return {
    url: server.url,
    chainId: engine.chain.chainId,
    chain: engine.chain,
    replayedBlocks: replayed,
    resumedFrom,
    engine,
    async close() {
      await live.stop();
      snapshots.takeOrLog();
      await server.close();
      journal.close();
      archive.close();
    },
  };
}
