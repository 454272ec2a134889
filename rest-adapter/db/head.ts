/** What one poll of the store's head reads (repositories/status.ts `head`, for http/height-watcher.ts). */
export interface HeadReading {
  indexedHeight: number;
  /** median of the latest block intervals (ms); null with fewer than two blocks */
  blockIntervalMs: number | null;
  /**
   * The reconciler's generation (`reconcilerGenerationSql`): changes whenever a row of its check
   * tables is written or deleted. Absent when not read: then no answer is tagged by it.
   */
  reconcilerGeneration?: string;
}
