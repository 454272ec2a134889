/**
 * The devnet scenario generator: a seeded, deterministic history of any size
 * driving a DevnetChain + svc app in-process (see devnet/README.md,
 * "Scenario and command line").
 *
 *   const { chain, app, summary } = await generateHistory({ seed: 'demo', blocks: 500, txsPerBlock: 10, startTimeMs, blockIntervalMs });
 */
import type { ChainConfig } from '../../src/lib/config';
import type { SvcApp } from '../app';
import type { DevnetChain } from '../chain';
import { ScenarioEngine, type MemoryOptions } from './engine';
import { Prng } from './prng';
import type { ScenarioSummary } from './summary';
import { autoIntervalMs, Timeline } from './timeline';

export { ScenarioEngine, OLD_CHAIN_VERSION } from './engine';
import { LEAD_IN_BLOCKS } from './live-loop';
export { LEAD_IN_BLOCKS, LiveLoop } from './live-loop';
export type { LiveLoopHooks } from './live-loop';
export type { EngineOptions, LiveModeOptions, MemoryOptions, ScenarioSnapshot } from './engine';
export type { ScenarioSummary } from './summary';
export { Prng } from './prng';
export { canonicalStringify, metadataHash } from './canonical-json';
export { autoIntervalMs, Timeline, DAY_MS } from './timeline';
export { LAUNCH_PLANS, metadataDocument } from './flows/launch';

/** 2026-01-01T00:00:00Z: the default start keeps histories reproducible. */
export const DEFAULT_START_TIME_MS = Date.UTC(2026, 0, 1);

export interface HistoryOptions {
  seed: string | number;
  blocks: number;
  /** target txs per block (flows may exceed it a little); 0 = empty blocks */
  txsPerBlock?: number;
  /** time of block 1 (unix ms); default 2026-01-01T00:00:00Z */
  startTimeMs?: number;
  /** time between blocks; default: about 14 days over the history (5 s .. 6 h) */
  blockIntervalMs?: number;
  /** answer as chain 0.8.3 (no token-registry query, no RIGHT_OUT routes or bridgeable flag) */
  oldChain?: boolean;
  /**
   * false: EVM outcomes only as Cosmos EVM / Ethermint chains report them (the ethereum_tx event
   * and the MsgEthereumTxResponse), without svc.evm.v1.EventEthereumTxExecuted (default true)
   */
  evmOutcomeEvent?: boolean;
  chain?: Partial<ChainConfig>;
  /** trusted benchmark generation only: CheckTx skips the secp256k1 check (txs are still signed) */
  skipSignatureVerification?: boolean;
  holders?: number;
  /** what stays in memory (EngineOptions.memory); default everything */
  memory?: MemoryOptions;
  /** called after every block */
  onBlock?: (height: number, elapsedMs: number, engine: ScenarioEngine) => void;
}

export interface History {
  chain: DevnetChain;
  app: SvcApp;
  engine: ScenarioEngine;
  timeline: Timeline;
  summary: ScenarioSummary;
  /** wall-clock generation time */
  elapsedMs: number;
}

/** Validates the numeric options (RangeError with the option's name). */
export function checkHistoryOptions(o: HistoryOptions): void {
  const int = (name: string, v: number | undefined, min: number) => {
    if (v !== undefined && (!Number.isSafeInteger(v) || v < min))
      throw new RangeError(`${name} must be an integer >= ${min}, got ${v}`);
  };
  int('blocks', o.blocks, 0);
  int('txsPerBlock', o.txsPerBlock, 0);
  int('blockIntervalMs', o.blockIntervalMs, 10);
  int('startTimeMs', o.startTimeMs, 1);
  int('holders', o.holders, 6);
}

/** The block times a history of these options will use (also what live mode needs to start after it). */
export function historyTimeline(o: HistoryOptions): Timeline {
  const interval = o.blockIntervalMs ?? autoIntervalMs(o.blocks);
  return new Timeline(o.startTimeMs ?? DEFAULT_START_TIME_MS, interval, o.blocks, new Prng(`${o.seed}/timeline`));
}

/**
 * Live mode without an explicit start: the time of block 1 such that the history's last block is
 * the live loop's lead-in and two live blocks before now (its span is known from the seed), so the
 * lead-in and then live blocks follow on at once.
 */
export function liveStartTime(
  o: Pick<HistoryOptions, 'seed' | 'blocks' | 'blockIntervalMs'>,
  liveBlockMs: number,
  nowMs = Date.now(),
): number {
  const span = historyTimeline({ ...o, startTimeMs: DEFAULT_START_TIME_MS }).spanMs;
  // room for the live loop's lead-in blocks, one live interval apart, before now
  return Math.floor((nowMs - span - (LEAD_IN_BLOCKS + 2) * liveBlockMs) / 1000) * 1000;
}

/** Builds an engine and produces `blocks` blocks at the timeline's times. */
export async function generateHistory(options: HistoryOptions): Promise<History> {
  checkHistoryOptions(options);
  const started = performance.now();
  const timeline = historyTimeline(options);
  const intervalMs = options.blockIntervalMs ?? autoIntervalMs(options.blocks);
  const firstBlockMs = timeline.times[0] ?? options.startTimeMs ?? DEFAULT_START_TIME_MS;
  const engine = await ScenarioEngine.create({
    seed: options.seed,
    txsPerBlock: options.txsPerBlock,
    blockIntervalMs: intervalMs,
    maxJumpMs: timeline.maxJumpMs,
    genesisTimeMs: firstBlockMs - intervalMs,
    oldChain: options.oldChain,
    evmOutcomeEvent: options.evmOutcomeEvent,
    chain: options.chain,
    skipSignatureVerification: options.skipSignatureVerification,
    holders: options.holders,
    memory: options.memory,
  });
  for (let h = 1; h <= options.blocks; h++) {
    await engine.runBlock(timeline.timeOf(h));
    options.onBlock?.(h, performance.now() - started, engine);
  }
  return {
    chain: engine.chain,
    app: engine.app,
    engine,
    timeline,
    summary: engine.summary(),
    elapsedMs: performance.now() - started,
  };
}
