/**
 * Live mode's block timer, shared by `npm run devnet` (devnet/scenario/start.ts) and the
 * embedded devnet of `npm start` (launcher/devnet.ts, which journals every block).
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

/** Produces scenario blocks on a timer; each block is planned, signed and committed before the next is scheduled. */
export class LiveLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly engine: ScenarioEngine,
    private readonly blockMs: number,
    private readonly hooks: LiveLoopHooks,
  ) {}

  start(): void {
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => this.schedule(this.blockMs));
    }, delayMs);
  }

  private async tick(): Promise<void> {
    const chain = this.engine.chain;
    const now = Date.now();
    // a history that ends in the future keeps its own pace instead of 1 ms steps
    const time = now > chain.lastBlockTimeMs ? now : chain.lastBlockTimeMs + this.blockMs;
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
