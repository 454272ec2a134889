/**
 * The committed blocks as they come, one after another, so the lender and the desk see a
 * pledge or a proposal addressed to them in the block after it is committed instead of after
 * the indexer has caught up. Every `pollMs` it asks the chain for its height and reads each
 * block it has not read yet (`block` + `block_results`), in order: a poll that fails, or a
 * process that was away, picks up from the last block read, so no block is skipped. It starts
 * from `from()` (the indexed height: what is older, the index already holds).
 *
 * It only makes the services faster: what they act on is still checked on the chain first,
 * and the indexed store stays complete, so a block the watcher never reads (a restart before
 * it got there) is still seen, later, through the index.
 */
import type { PartLogger } from '../../src/lib/logger';
import type { ChainClient, CommittedBlock } from './chain-client';

export type BlockListener = (block: CommittedBlock) => void;

export interface ChainWatcherOptions {
  chain: ChainClient;
  /** APP_WATCH_MS: how often the chain's height is asked */
  pollMs: number;
  /** the height to start after (blocks up to it are not read) */
  from(): Promise<number>;
  log: PartLogger;
}

/** At most this many blocks are read in one round: a long gap is caught up over several. */
const MAX_BLOCKS_PER_ROUND = 50;

export class ChainWatcher {
  private readonly listeners: BlockListener[] = [];
  private last: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private started = false;
  private stopped = false;

  constructor(private readonly o: ChainWatcherOptions) {}

  /** The last block read (undefined before the first round). */
  get height(): number | undefined {
    return this.last;
  }

  subscribe(listener: BlockListener): void {
    this.listeners.push(listener);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.running = this.round()
        .catch((e) =>
          this.o.log.debug('chain watcher: a round failed; trying again', {
            error: e instanceof Error ? e.message : String(e),
          }),
        )
        .finally(() => {
          if (!this.stopped) this.schedule(this.o.pollMs);
        });
    }, ms);
  }

  /** Reads the blocks committed since the last one read, in order, and hands each to every listener. */
  async round(): Promise<void> {
    this.last ??= await this.o.from();
    const head = await this.o.chain.height();
    const until = Math.min(head, this.last + MAX_BLOCKS_PER_ROUND);
    for (let h = this.last + 1; h <= until && !this.stopped; h++) {
      const block = await this.o.chain.committedBlock(h);
      for (const listener of this.listeners) listener(block);
      this.last = h;
    }
  }
}
