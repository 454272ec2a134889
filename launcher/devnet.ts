/**
 * The embedded devnet of `npm start`: a seeded scenario history, then live blocks every
 * DEVNET_BLOCK_MS with scenario traffic, served over CometBFT RPC — made durable by the
 * journal (devnet-journal.ts). A first start generates the history so that it ends now; a
 * restart regenerates the same history, replays the journaled live blocks with their txs
 * and times, checks every hash against the journal, and goes live again.
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
import { DEFAULT_CHAIN_CONFIG } from '../src/lib/config';
import {
  startRpcServer,
  txHashHex,
  upperHex,
  type CheckTxResult,
  type DevnetChain,
  type DevnetRpcServer,
  type StoredBlock,
} from '../devnet/chain';
import {
  autoIntervalMs,
  DEFAULT_START_TIME_MS,
  generateHistory,
  historyTimeline,
  LiveLoop,
  type ScenarioEngine,
} from '../devnet/scenario';
import type { DevnetConfig } from './config';
import {
  DevnetJournal,
  JournalConflict,
  journalEntry,
  txBytes,
  type DevnetIdentity,
  type JournalBlock,
} from './devnet-journal';
import type { Logger } from './logger';

export interface EmbeddedDevnet {
  url: string;
  chainId: string;
  chain: DevnetChain;
  /** blocks replayed from the journal at start (0 on a first start) */
  replayedBlocks: number;
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

/** A first start: the history ends just before now, so live blocks follow on (as startDevnet does). */
function liveStartTime(config: DevnetConfig): number {
  const span = historyTimeline({
    seed: config.seed,
    blocks: config.historyBlocks,
    startTimeMs: DEFAULT_START_TIME_MS,
  }).spanMs;
  return Math.floor((Date.now() - span - 2 * autoIntervalMs(config.historyBlocks)) / 1000) * 1000;
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
async function history(o: EmbeddedDevnetOptions): Promise<ScenarioEngine> {
  const meta = o.journal.meta!;
  const report = progressLogger(o.log, 'generating the scenario history', meta.historyBlocks);
  const h = await generateHistory({
    seed: meta.seed,
    blocks: meta.historyBlocks,
    txsPerBlock: meta.txsPerBlock,
    startTimeMs: meta.startTimeMs,
    skipSignatureVerification: true,
    onBlock: (height) => report(height),
  });
  for (let height = 1; height <= meta.historyBlocks; height++) {
    const block = h.chain.block(height)!;
    const saved = o.journal.block(height);
    if (!saved) o.journal.append(journalEntry(block));
    else if (saved.hash !== upperHex(block.blockId.hash))
      throw conflict(
        o.dataDir,
        `history block ${height} differs from the journal (the devnet code changed since it was saved)`,
      );
  }
  return h.engine;
}

const PLANNED_OK = (hash: string): CheckTxResult => ({
  hash,
  code: 0,
  codespace: '',
  log: '',
  gasWanted: 0n,
  gasUsed: 0n,
  events: [],
  data: new Uint8Array(0),
});

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

/** One journaled live block: its txs through the real CheckTx, the scenario plans along, the block must hash the same. */
async function replayLiveBlock(engine: ScenarioEngine, saved: JournalBlock, o: EmbeddedDevnetOptions): Promise<number> {
  const chain = engine.chain;
  for (const tx of txBytes(saved)) {
    const r = await chain.checkTx(tx);
    if (r.code !== 0)
      throw conflict(
        o.dataDir,
        `journaled tx ${r.hash} of block ${saved.height} is refused on replay (${r.codespace}/${r.code} ${r.log})`,
      );
  }
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
  let liveMs: number | undefined;
  let unplanned = 0;
  for (let h = first; h <= journal.height; h++) {
    const saved = journal.block(h)!;
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

export async function startEmbeddedDevnet(o: EmbeddedDevnetOptions): Promise<EmbeddedDevnet> {
  const { config, journal, log } = o;
  if (!journal.meta) journal.create(devnetIdentity(config), liveStartTime(config));
  const started = Date.now();
  const engine = await history(o);
  log.info('history ready', { blocks: journal.meta!.historyBlocks, ms: Date.now() - started });
  const replayedBlocks = await replayLiveBlocks(engine, o);
  setSignatureChecks(engine.chain, true);
  let server: DevnetRpcServer;
  try {
    server = await startRpcServer(engine.chain, { host: o.host ?? '127.0.0.1', port: config.port });
  } catch (e) {
    const busy = (e as NodeJS.ErrnoException).code === 'EADDRINUSE';
    throw busy
      ? new Error(`DEVNET_PORT ${config.port} is in use (another devnet?); set DEVNET_PORT to a free port or 0 for any`)
      : e;
  }
  // the same mode as the replay just used, so the flows go on where the replay left them
  engine.enterLiveMode(config.blockMs, (flow, error) => log.warn('scenario flow dropped', { flow, error }), {
    servicesMode: o.servicesMode,
  });
  // each live block is journaled as soon as it exists, before any RPC request can see it
  const live = new LiveLoop(engine, config.blockMs, {
    onError: (e) => log.error('live block failed', { error: e }),
    afterBlock: () => journalNewBlocks(engine.chain, journal, config.blockMs),
  });
  live.start();
  return {
    url: server.url,
    chainId: engine.chain.chainId,
    chain: engine.chain,
    replayedBlocks,
    async close() {
      await live.stop();
      await server.close();
      journal.close();
    },
  };
}
