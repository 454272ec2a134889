/** Settings of the reconciler (docs/running.md has the table; RECONCILER_VARIABLES is its source). */

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

export const RECONCILER_DEFAULTS: ReconcilerSettings = Object.freeze({
  everyBlocks: 100,
  minIntervalMs: 30_000,
  pollMs: 1000,
  queryTimeoutMs: 10_000,
  concurrency: 4,
  retryMs: 5000,
  maxRetryMs: 300_000,
});

/** Every variable the reconciler reads, with its documented default. */
export const RECONCILER_VARIABLES: Record<string, string> = {
  RECONCILE_EVERY_BLOCKS: String(RECONCILER_DEFAULTS.everyBlocks),
  RECONCILE_MIN_INTERVAL_MS: String(RECONCILER_DEFAULTS.minIntervalMs),
  RECONCILE_QUERY_TIMEOUT_MS: String(RECONCILER_DEFAULTS.queryTimeoutMs),
  RECONCILE_CONCURRENCY: String(RECONCILER_DEFAULTS.concurrency),
  RECONCILE_RETRY_MS: String(RECONCILER_DEFAULTS.retryMs),
};
