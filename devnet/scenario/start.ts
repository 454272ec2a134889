/**
 * startDevnet: a generated history served over CometBFT RPC, optionally kept
 * alive in live mode (a block every `blockMs` with scenario traffic, plus any
 * tx broadcast to the RPC). Used by the CLI, tests, `npm start` and benchmarks.
 */
import type { SvcApp } from '../app';
import { startRpcServer, type DevnetChain } from '../chain';
import type { ScenarioEngine } from './engine';
import { generateHistory, liveStartTime, type HistoryOptions } from './index';
import type { ScenarioSummary } from './summary';
import { LiveLoop } from './live-loop';

export interface DevnetOptions extends HistoryOptions {
  /** RPC port; 0 = a free port (default) */
  port?: number;
  host?: string;
  /** after the history, produce a block every blockMs with wall-clock times */
  live?: boolean;
  blockMs?: number;
  /** live mode only: the lender and desk are signed for by app services, never by the scenario (LiveModeOptions) */
  servicesMode?: boolean;
  /** structured progress and errors (the CLI prints them as JSON lines) */
  log?: (line: Record<string, unknown>) => void;
}

export interface Devnet {
  url: string;
  chain: DevnetChain;
  app: SvcApp;
  engine: ScenarioEngine;
  /** summary of the generated history (live blocks come after it) */
  summary: ScenarioSummary;
  generation: { blocks: number; txs: number; elapsedMs: number };
  close(): Promise<void>;
}

export const DEFAULT_LIVE_BLOCK_MS = 1000;

export async function startDevnet(options: DevnetOptions): Promise<Devnet> {
  const log = options.log ?? (() => undefined);
  const startTimeMs =
    options.startTimeMs ??
    (options.live ? liveStartTime(options, options.blockMs ?? DEFAULT_LIVE_BLOCK_MS) : undefined);
  const history = await generateHistory({ ...options, startTimeMs });
  const server = await startRpcServer(history.chain, { port: options.port ?? 0, host: options.host });
  let live: LiveLoop | undefined;
  if (options.live) {
    const blockMs = options.blockMs ?? DEFAULT_LIVE_BLOCK_MS;
    const onFlowError = (flow: string, error: unknown) =>
      log({ event: 'error', where: `flow ${flow}`, message: error instanceof Error ? error.message : String(error) });
    history.engine.enterLiveMode(blockMs, onFlowError, { servicesMode: options.servicesMode });
    live = new LiveLoop(history.engine, blockMs, {
      onBlock: (block, time) => {
        if (block.height % 100 === 0)
          log({ event: 'live', height: block.height, txs: block.txs.length, time: new Date(time).toISOString() });
      },
      onError: (e) => log({ event: 'error', where: 'live block', message: e instanceof Error ? e.message : String(e) }),
    });
    await live.start();
  }
  return {
    url: server.url,
    chain: history.chain,
    app: history.app,
    engine: history.engine,
    summary: history.summary,
    generation: { blocks: options.blocks, txs: history.summary.txs.total, elapsedMs: history.elapsedMs },
    close: async () => {
      await live?.stop();
      await server.close();
    },
  };
}
