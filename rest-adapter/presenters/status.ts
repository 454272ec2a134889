/** Status and the Stats daily series (openapi `Status`, `TxDay`). */
import type { ApiSchema } from './contract';
import { DAILY_SERIES_DAYS, type DayCountRow, type StatusRead } from '../repositories/status';
import { presentProof } from './proofs';
import { formatTimestamp, timestampMs } from './values';

/** Shown as latest_block_time before the first block is indexed (indexed_height 0 says so). */
export const NO_BLOCK_TIME = '1970-01-01T00:00:00Z';
const DAY_MS = 86_400_000;

/** What the serving process knows beside the store (RestAppOptions.live). */
export interface LiveStatus {
  /** the chain's tip as last read */
  chainHeight?: number;
  /** while a reindex runs beside the serving index */
  reindex?: ApiSchema<'StatusReindex'>;
}

export function presentStatus(
  { progress, totals, reconciliationDisagreements, proof }: StatusRead,
  nowMs: number,
  live: LiveStatus = {},
): ApiSchema<'Status'> {
  const chainHeight = Math.max(progress.targetHeight, progress.indexedHeight, live.chainHeight ?? 0);
  return {
    indexed_height: progress.indexedHeight,
    chain_height: chainHeight,
    lag_blocks: chainHeight - progress.indexedHeight,
    latest_block_time: totals ? formatTimestamp(totals.latest_block_time) : NO_BLOCK_TIME,
    // signed: a block time ahead of the server clock shows as negative, not hidden
    wall_clock_lag_seconds: totals ? Math.floor((nowMs - timestampMs(totals.latest_block_time)) / 1000) : 0,
    drift_total: (totals?.drift_total ?? 0) + reconciliationDisagreements,
    proof: presentProof(proof),
    ...(live.reindex ? { reindex: live.reindex } : {}),
  };
}

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The 14 UTC days ending on `lastDay`, oldest first. */
export function dailyWindow(lastDay: string): string[] {
  const end = Date.parse(`${lastDay}T00:00:00Z`);
  return Array.from({ length: DAILY_SERIES_DAYS }, (_, i) => utcDay(end - (DAILY_SERIES_DAYS - 1 - i) * DAY_MS));
}

/** Zero-filled counts of `days` (openapi.yaml getStats `tx_daily`). */
export function dailySeries(days: readonly string[], rows: readonly DayCountRow[]): { day: string; count: number }[] {
  const counts = new Map(rows.map((r) => [r.day, r.count]));
  return days.map((day) => ({ day, count: counts.get(day) ?? 0 }) satisfies ApiSchema<'TxDay'>);
}
