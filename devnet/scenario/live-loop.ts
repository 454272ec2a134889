/**
 * Live mode's block timer, shared by `npm run devnet` (devnet/scenario/start.ts) and the
 * embedded devnet of `npm start` (src/runtime/devnet.ts, which journals every block).
 */
import type { StoredBlock } from '../chain';
import type { ScenarioEngine } from './engine';

export interface LiveLoopHooks {
  /** A block was committed. */
  onBlock?(block: StoredBlock, timeMs: number): void;
  /** runBlock failed; the loop goes on with the next block. */
  onError(error: unknown): void;
  /** After every attempt, committed or not, synchronously: nothing else (no RPC request) runs in between. */
  afterBlock?(): void;
}

/**
 * How many recent blocks a chain's clients read its pace from: CometBFT's `blockchain` answers
 * at most 20 block metas, and a SubQuery node sets its head poll once, when it starts, to 0.9 ×
 * their mean interval (at most 5 s; @subql/node-cosmos blockchain.service.js getChainInterval).
 */
export const LEAD_IN_BLOCKS = 20;

/**
 * Produces scenario blocks on a timer, one every `blockMs` from the start of the one before
 * (at once when a block took longer): the chain's pace is the interval, not the interval plus
 * the time a block takes to make. Each block is planned, signed and committed before the next
 * starts.
 */
export class LiveLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly engine: ScenarioEngine,
    private readonly blockMs: number,
    private readonly hooks: LiveLoopHooks,
  ) {}

  /**
   * Starts the timer, after a lead-in when the chain's latest blocks are not at the live pace: a
   * history just generated (its blocks hours apart) or a restart after a few live blocks. The
   * lead-in makes up to LEAD_IN_BLOCKS blocks at once, timed one interval apart in the recent
   * past, so the chain's recent blocks show its live pace as a running chain's do; a node started
   * on a history alone would poll the head every 5 s for as long as it runs.
   */
  async start(): Promise<void> {
    this.running = this.leadIn();
    await this.running;
    this.schedule(0);
  }

  private async leadIn(): Promise<void> {
    const now = Date.now();
    // each lead-in block after the latest one and before now
    const room = Math.floor((now - this.engine.chain.lastBlockTimeMs) / this.blockMs) - 1;
    const count = this.atLivePace() ? 0 : Math.min(LEAD_IN_BLOCKS, room);
    for (let i = count; i >= 1 && !this.stopped; i--) await this.produce(now - i * this.blockMs);
  }

  /** The latest LEAD_IN_BLOCKS blocks are at most two intervals apart on average. */
  private atLivePace(): boolean {
    const chain = this.engine.chain;
    const first = chain.height - LEAD_IN_BLOCKS + 1;
    if (first < 1) return false;
    const header = chain.block(first)?.header;
    if (!header) return false;
    const firstMs = Number(header.time.seconds) * 1000 + Math.floor(header.time.nanos / 1e6);
    return chain.lastBlockTimeMs - firstMs <= 2 * (LEAD_IN_BLOCKS - 1) * this.blockMs;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const started = Date.now();
      this.running = this.tick().finally(() => this.schedule(Math.max(0, started + this.blockMs - Date.now())));
    }, delayMs);
  }

  private async tick(): Promise<void> {
    const chain = this.engine.chain;
    const now = Date.now();
    // a history that ends in the future keeps its own pace instead of 1 ms steps
    await this.produce(now > chain.lastBlockTimeMs ? now : chain.lastBlockTimeMs + this.blockMs);
  }

  private async produce(time: number): Promise<void> {
    try {
      const block = await this.engine.runBlock(time); // not inside `onBlock?.(…)`: an absent hook would skip the block
      this.hooks.onBlock?.(block, time);
    } catch (e) {
      this.hooks.onError(e);
    } finally {
      this.hooks.afterBlock?.();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
