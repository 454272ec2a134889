/**
 * The reconciler beside the node: a pass at start (once the node has a block) and then every
 * `everyBlocks` newly indexed blocks, no sooner than `minIntervalMs` after the last pass ended.
 *
 * It never stops anything else: a failed pass (the chain unreachable, a timeout, a pruned
 * height, the store unavailable) is logged, records nothing, and is tried again after a backoff
 * (retryMs doubling to maxRetryMs). docs/indexer.md ("Reconciler") describes the checks.
 */
import type { Pool } from 'pg';
import type { PartLogger } from '../src/lib/logger';
import { tablesIn, type Tables } from '../src/store';
import type { ReconcilerSettings } from './config';
import { runPass, type PassResult } from './pass';
import { indexedHeight } from './store-snapshot';

export interface ReconcilerOptions {
  pool: Pool;
  /** the node's schema: the store read and where the check rows go */
  schema: string;
  rpcUrl: string;
  settings: ReconcilerSettings;
  log: PartLogger;
  /** after each attempt: the pass, or the error that made it record nothing */
  onPass?: (outcome: { result?: PassResult; error?: string; seconds: number }) => void;
}

export interface ReconcilerStatus {
  /** height of the last recorded pass (null before the first) */
  lastHeight: number | null;
  lastDisagreements: number | null;
  /** the last attempt's error, cleared by a recorded pass */
  lastError: string | null;
  consecutiveFailures: number;
}

export class Reconciler {
  private readonly tables: Tables;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private lastHeight: number | null = null;
  private lastDisagreements: number | null = null;
  private lastError: string | null = null;
  private failures = 0;
  /** wall-clock time before which no pass starts (min interval or backoff) */
  private notBefore = 0;

  constructor(private readonly o: ReconcilerOptions) {
    this.tables = tablesIn(o.schema);
  }

  start(): void {
    if (this.o.settings.everyBlocks === 0) {
      this.o.log.info('reconciler off (RECONCILE_EVERY_BLOCKS=0)');
      return;
    }
    this.o.log.info('reconciler running', {
      every_blocks: this.o.settings.everyBlocks,
      min_interval_ms: this.o.settings.minIntervalMs,
    });
    this.schedule(0);
  }

  /** Stops the loop and waits for a pass under way (it records all of its rows or none). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  status(): ReconcilerStatus {
    return {
      lastHeight: this.lastHeight,
      lastDisagreements: this.lastDisagreements,
      lastError: this.lastError,
      consecutiveFailures: this.failures,
    };
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => {
        this.running = undefined;
        this.schedule(this.o.settings.pollMs);
      });
    }, ms);
  }

  private async tick(): Promise<void> {
    if (Date.now() < this.notBefore) return;
    let height: number;
    try {
      height = await indexedHeight(this.o.pool, this.tables);
    } catch (e) {
      // the store is not there yet (the node creates it) or unreachable: look again next poll
      this.o.log.debug('reconciler: store not readable', { error: e });
      return;
    }
    if (height === 0) return;
    if (this.lastHeight !== null && height - this.lastHeight < this.o.settings.everyBlocks) return;
    await this.passNow();
  }

  /** Runs one pass now (the loop's, or a caller's); never throws. */
  async passNow(): Promise<PassResult | null> {
    const started = Date.now();
    try {
      const result = await runPass({
        pool: this.o.pool,
        tables: this.tables,
        rpcUrl: this.o.rpcUrl,
        queryTimeoutMs: this.o.settings.queryTimeoutMs,
        concurrency: this.o.settings.concurrency,
      });
      this.failures = 0;
      this.lastError = null;
      this.notBefore = Date.now() + this.o.settings.minIntervalMs;
      if (!result) return null;
      this.lastHeight = result.height;
      this.lastDisagreements = result.disagreements;
      const fields = {
        height: result.height,
        invariants: result.invariants,
        registry: result.registry,
        routes: result.routes,
        disagreements: result.disagreements,
        ms: Date.now() - started,
      };
      if (result.disagreements > 0) this.o.log.warn('reconciliation found disagreements (see /v1/invariants)', fields);
      else this.o.log.info('reconciliation agrees', fields);
      this.o.onPass?.({ result, seconds: (Date.now() - started) / 1000 });
      return result;
    } catch (e) {
      this.failures += 1;
      this.lastError = e instanceof Error ? e.message : String(e);
      const backoff = Math.min(this.o.settings.retryMs * 2 ** (this.failures - 1), this.o.settings.maxRetryMs);
      this.notBefore = Date.now() + backoff;
      this.o.log.warn('reconciliation pass recorded nothing; retrying later', {
        error: this.lastError,
        failures: this.failures,
        retry_ms: backoff,
      });
      this.o.onPass?.({ error: this.lastError, seconds: (Date.now() - started) / 1000 });
      return null;
    }
  }
}
