/**
 * Settings of the reconciler: one table (src/lib/settings.ts) of its variables, their defaults,
 * bounds and what they do as docs/running.md says it; its defaults and variable list come from it.
 */
import { defaultsOf, integer, readSettings, variablesOf, type Env } from '../src/lib/settings';

export interface ReconcilerSettings {
  /** a pass after this many newly indexed blocks; 0 turns the reconciler off */
  everyBlocks: number;
  /** and never sooner than this after the previous pass ended (bounds the cost during a catch-up) */
  minIntervalMs: number;
  /** how often the node's height is looked at */
  pollMs: number;
  /** per abci_query */
  queryTimeoutMs: number;
  /** abci queries in flight at once */
  concurrency: number;
  /** first wait after a failed pass; doubled per failure up to maxRetryMs */
  retryMs: number;
  maxRetryMs: number;
}

export const RECONCILER_SETTINGS = {
  everyBlocks: integer(
    'RECONCILE_EVERY_BLOCKS',
    100,
    0,
    10_000_000,
    'a reconciliation pass after this many newly indexed blocks (and one at start); `0` turns the reconciler off ([docs/indexer.md](indexer.md#reconciler-reconciler))',
  ),
  minIntervalMs: integer(
    'RECONCILE_MIN_INTERVAL_MS',
    30_000,
    0,
    86_400_000,
    'never a pass sooner than this after the previous one ended (bounds its cost during a catch-up)',
  ),
  queryTimeoutMs: integer(
    'RECONCILE_QUERY_TIMEOUT_MS',
    10_000,
    100,
    600_000,
    'per chain query; a query without an answer fails the pass, which records nothing',
  ),
  concurrency: integer('RECONCILE_CONCURRENCY', 4, 1, 64, 'chain queries in flight at once during a pass'),
  retryMs: integer(
    'RECONCILE_RETRY_MS',
    5000,
    100,
    3_600_000,
    'wait after a failed pass, doubled per consecutive failure up to 5 minutes',
  ),
} as const;

export const RECONCILER_DEFAULTS: ReconcilerSettings = Object.freeze({
  ...(defaultsOf(RECONCILER_SETTINGS) as Omit<ReconcilerSettings, 'pollMs' | 'maxRetryMs'>),
  pollMs: 1000,
  maxRetryMs: 300_000,
});

/** Every variable the reconciler reads, with its documented default. */
export const RECONCILER_VARIABLES: Record<string, string> = variablesOf(RECONCILER_SETTINGS);

/** The RECONCILE_* settings; a bad value is a ConfigError naming the variable. */
export function reconcilerFromEnv(env: Env): ReconcilerSettings {
  const read = readSettings(env, RECONCILER_SETTINGS);
  return { ...RECONCILER_DEFAULTS, ...read, maxRetryMs: Math.max(read.retryMs, RECONCILER_DEFAULTS.maxRetryMs) };
}
