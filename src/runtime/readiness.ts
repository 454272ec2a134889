/**
 * Watches the store (_metadata, written by the node in the same transaction as the
 * entities) and the chain tip, every second: /ready, /metrics and the progress lines
 * ("height / target, blocks/s") all read this one snapshot.
 */
import type { AppServicesReadiness } from '../../app-services';
import type { Pool } from 'pg';
import { isUndefinedTable, METADATA_KEY, quoteIdent, readMetadata } from '../store';
import type { Logger } from './logger';
import type { LauncherMetrics } from './metrics';

export interface IndexState {
  storeReachable: boolean;
  /** the node has created its tables and committed a first batch */
  schemaReady: boolean;
  indexedHeight?: number;
  chainHeight?: number;
  /** the chain tip the node last saw (_metadata.targetHeight) */
  targetHeight?: number;
  error?: string;
}

export interface Readiness {
  ready: boolean;
  reasons: string[];
  indexed_height: number | null;
  chain_height: number | null;
  lag_blocks: number | null;
  max_lag_blocks: number;
  /** while a changed project indexes beside the serving schema: which serves, and how far the new one is */
  reindex?: ReindexProgress;
  /** the app services' part (src/runtime/app-services.ts), once they are mounted */
  app_services?: AppServicesReadiness;
}

/** How far the index a reindex builds is (/ready's `reindex`, /v1/status's `reindex`, /metrics). */
export interface ReindexProgress {
  serving: string;
  into: string;
  indexed_height: number | null;
  chain_height: number | null;
  /** chain_height - indexed_height of the new index */
  lag_blocks: number | null;
  /** the new index's rate over the last ten seconds */
  blocks_per_s: number | null;
  /** expected seconds until it has caught up (lag / rate), null while the rate is unknown */
  eta_s: number | null;
}

/** The progress of an index `building` at `rate` blocks per second. */
export function reindexProgress(
  serving: string,
  into: string,
  building: Readiness,
  rate: number | null,
): ReindexProgress {
  const lag = building.lag_blocks;
  return {
    serving,
    into,
    indexed_height: building.indexed_height,
    chain_height: building.chain_height,
    lag_blocks: lag,
    blocks_per_s: rate === null ? null : Number(rate.toFixed(1)),
    eta_s: lag !== null && rate !== null && rate > 0 ? Math.round(lag / rate) : null,
  };
}

/** Not ready while a reindex runs: the serving schema no longer moves. */
export function withReindex(index: Readiness, progress: ReindexProgress): Readiness {
  const { serving, into, indexed_height, chain_height, eta_s } = progress;
  const where = `height ${indexed_height ?? 0} of ${chain_height ?? '?'}${eta_s === null ? '' : `, about ${eta_s} s to go`}`;
  return {
    ...index,
    ready: false,
    reasons: [
      ...index.reasons,
      `reindexing the changed project into ${into} (${where}); ${serving} serves until then, frozen at height ${index.indexed_height ?? 0}`,
    ],
    reindex: progress,
  };
}

/** The index's readiness with the app services' folded in: ready only when both are. */
export function withAppServices(index: Readiness, app: AppServicesReadiness): Readiness {
  return { ...index, ready: index.ready && app.ready, reasons: [...index.reasons, ...app.reasons], app_services: app };
}

export interface IndexWatcherOptions {
  pool: Pool;
  schema: string;
  /** the chain's latest height (RPC status or the in-process devnet) */
  chainTip: () => Promise<number>;
  maxLagBlocks: number;
  progressIntervalMs: number;
  metrics: LauncherMetrics;
  log: Logger;
  /** called once, the first time the API is ready */
  onFirstReady?: (r: Readiness) => void;
  /** called once, when the node has created its tables and committed a first batch */
  onSchemaReady?: () => void;
  /** what the progress line says before `H / T` (default "indexing") */
  progressLabel?: string;
  /** while true, no progress or ready/not-ready lines (a serving schema a reindex has frozen: the reindex reports) */
  quiet?: () => boolean;
}

const POLL_MS = 1000;
const RATE_WINDOW_MS = 10_000;

export function evaluateReadiness(s: IndexState, maxLagBlocks: number): Readiness {
  const chain = Math.max(s.chainHeight ?? 0, s.targetHeight ?? 0) || undefined;
  const lag = s.indexedHeight !== undefined && chain !== undefined ? Math.max(0, chain - s.indexedHeight) : undefined;
  const reasons: string[] = [];
  if (!s.storeReachable) reasons.push(`store unreachable${s.error ? `: ${s.error}` : ''}`);
  else if (!s.schemaReady) reasons.push('the indexer has not committed its first blocks yet');
  if (chain === undefined) reasons.push('chain height unknown (chain RPC unreachable?)');
  if (lag !== undefined && lag > maxLagBlocks)
    reasons.push(`indexing lags ${lag} blocks behind the chain (more than ${maxLagBlocks})`);
  return {
    ready: reasons.length === 0,
    reasons,
    indexed_height: s.indexedHeight ?? null,
    chain_height: chain ?? null,
    lag_blocks: lag ?? null,
    max_lag_blocks: maxLagBlocks,
  };
}

export class IndexWatcher {
  state: IndexState = { storeReachable: false, schemaReady: false };
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private samples: { t: number; h: number }[] = [];
  private lastProgressLog = 0;
  private wasReady = false;
  private everReady = false;
  private schemaSeen = false;

  constructor(private readonly o: IndexWatcherOptions) {}

  /** Polls now and then every second; resolves once the first poll has read the store and the chain. */
  start(): Promise<void> {
    const loop = async () => {
      await this.poll();
      if (!this.stopped) this.timer = setTimeout(() => void loop(), POLL_MS);
    };
    return loop();
  }

  /** No poll after this one, and a poll in flight neither reports nor schedules the next. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  readiness(): Readiness {
    return evaluateReadiness(this.state, this.o.maxLagBlocks);
  }

  /** Blocks per second over the last ten seconds (null until two samples exist). */
  rate(): number | null {
    const s = this.samples;
    if (s.length < 2 || s[s.length - 1].t === s[0].t) return null;
    return (s[s.length - 1].h - s[0].h) / ((s[s.length - 1].t - s[0].t) / 1000);
  }

  private async readStore(): Promise<
    Pick<IndexState, 'storeReachable' | 'schemaReady' | 'indexedHeight' | 'targetHeight' | 'error'>
  > {
    try {
      const { indexedHeight, targetHeight } = METADATA_KEY;
      const stored = await readMetadata(this.o.pool, `${quoteIdent(this.o.schema)}._metadata`, [
        indexedHeight,
        targetHeight,
      ]);
      const numberAt = (key: string) => (stored.has(key) ? Number(stored.get(key)) : undefined);
      const indexed = numberAt(indexedHeight);
      return {
        storeReachable: true,
        schemaReady: indexed !== undefined,
        indexedHeight: indexed,
        targetHeight: numberAt(targetHeight),
      };
    } catch (e) {
      if (isUndefinedTable(e)) return { storeReachable: true, schemaReady: false }; // no _metadata yet
      return { storeReachable: false, schemaReady: false, error: (e as Error).message };
    }
  }

  private async readChain(): Promise<number | undefined> {
    try {
      return await this.o.chainTip();
    } catch {
      return undefined;
    }
  }

  private async poll(): Promise<void> {
    const [store, chainHeight] = await Promise.all([this.readStore(), this.readChain()]);
    // stopped meanwhile (npm start's switch to a reindexed schema): what this schema read is no
    // longer what is served, and its lines would say "indexing" of a frozen schema
    if (this.stopped) return;
    this.state = { ...store, chainHeight: chainHeight ?? this.state.chainHeight };
    if (store.schemaReady && !this.schemaSeen) {
      this.schemaSeen = true;
      this.o.onSchemaReady?.();
    }
    const now = Date.now();
    if (store.indexedHeight !== undefined) {
      this.samples.push({ t: now, h: store.indexedHeight });
      while (this.samples.length > 2 && now - this.samples[0].t > RATE_WINDOW_MS) this.samples.shift();
    }
    const r = this.readiness();
    this.o.metrics.setHeights({ indexed: store.indexedHeight, chain: r.chain_height ?? undefined, ready: r.ready });
    this.report(r, now);
  }

  private report(r: Readiness, now: number): void {
    const { log } = this.o;
    const quiet = this.o.quiet?.() ?? false;
    if (r.ready !== this.wasReady) {
      if (r.ready && !this.everReady) this.o.onFirstReady?.(r);
      else if (quiet) {
        // frozen: the reindex's own lines say what is happening
      } else if (r.ready) log.info('ready again', { indexed_height: r.indexed_height, chain_height: r.chain_height });
      else log.warn('not ready', { reasons: r.reasons.join('; ') });
      this.everReady ||= r.ready;
      this.wasReady = r.ready;
    }
    if (quiet) return;
    const catchingUp = r.lag_blocks !== null && r.lag_blocks > this.o.maxLagBlocks;
    if (catchingUp && now - this.lastProgressLog >= this.o.progressIntervalMs) {
      this.lastProgressLog = now;
      const rate = this.rate();
      const eta = rate && rate > 0 ? Math.round(r.lag_blocks! / rate) : undefined;
      log.info(`${this.o.progressLabel ?? 'indexing'} ${r.indexed_height} / ${r.chain_height}`, {
        lag_blocks: r.lag_blocks,
        blocks_per_s: rate === null ? undefined : Number(rate.toFixed(1)),
        eta_s: eta,
      });
    }
  }
}
