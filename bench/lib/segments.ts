/**
 * Blocks/s per segment of heights (default 1,000 blocks), from the progress trace a run records
 * (bench/lib/node-run.ts: every ~200 ms, ms since the first block and the height done).
 *
 * The time a height is reached is interpolated linearly between the two samples around it, so
 * the poll interval does not quantise a segment's duration. Segment k covers the heights
 * (k·size, (k+1)·size]; the first starts at the height done at the first sample (0 or a few
 * blocks) and the last ends at the run's last height. A segment is complete when it spans at
 * least 90 % of `size` blocks; last/first compares the last complete segment with the first, and
 * needs two of them (fewer: null, "too few segments").
 */

/** (ms since the first block, height done) */
export type ProgressTrace = [number, number][];

export interface Segment {
  /** heights (from, to] */
  from: number;
  to: number;
  seconds: number;
  blocksPerSec: number;
  /** spans >= COMPLETE_FRACTION of the segment size */
  complete: boolean;
}

export const COMPLETE_FRACTION = 0.9;

/** Time (ms) the trace reaches `height`, interpolated; undefined when it never does. */
export function timeAtHeight(trace: ProgressTrace, height: number): number | undefined {
  for (let i = 0; i < trace.length; i++) {
    const [t, h] = trace[i];
    if (h < height) continue;
    if (i === 0) return t;
    const [t0, h0] = trace[i - 1];
    return h === h0 ? t : t0 + ((height - h0) / (h - h0)) * (t - t0);
  }
  return undefined;
}

/** The trace made non-decreasing in time and height (a poll that saw an older height changes nothing). */
function monotone(trace: ProgressTrace): ProgressTrace {
  const out: ProgressTrace = [];
  for (const [t, h] of trace) {
    const last = out[out.length - 1];
    if (last && (t < last[0] || h < last[1])) continue;
    out.push([t, h]);
  }
  return out;
}

export function segmentRates(trace: ProgressTrace, size: number): Segment[] {
  if (!Number.isSafeInteger(size) || size < 1) throw new Error('segment size must be a positive integer');
  const tr = monotone(trace);
  if (tr.length < 2) return [];
  const start = tr[0][1];
  const end = tr[tr.length - 1][1];
  const bounds = [start];
  for (let b = (Math.floor(start / size) + 1) * size; b < end; b += size) bounds.push(b);
  if (end > start) bounds.push(end);
  const out: Segment[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const [from, to] = [bounds[i], bounds[i + 1]];
    const ms = timeAtHeight(tr, to)! - timeAtHeight(tr, from)!;
    out.push({
      from,
      to,
      seconds: ms / 1000,
      blocksPerSec: ms > 0 ? (to - from) / (ms / 1000) : Infinity,
      complete: to - from >= COMPLETE_FRACTION * size,
    });
  }
  return out;
}

/** blocks/s of the last complete segment ÷ the first's; null with fewer than two complete segments. */
export function lastFirstRatio(segments: Segment[]): number | null {
  const complete = segments.filter((s) => s.complete);
  if (complete.length < 2) return null;
  return complete[complete.length - 1].blocksPerSec / complete[0].blocksPerSec;
}

const r1 = (x: number) => Math.round(x * 10) / 10;

/**
 * In height order, a partial segment in parentheses with its heights:
 * "blocks/s per 1000 blocks: 60.1 59.8 (500 blocks 2001-2500: 61.2); last/first 1"
 * "blocks/s per 1000 blocks: 60.1 (500 blocks 1001-1500: 61.2); too few segments for last/first (1 complete, 2 needed)"
 */
export function formatSegments(segments: Segment[], size: number): string {
  const complete = segments.filter((s) => s.complete);
  const ratio = lastFirstRatio(segments);
  return (
    `blocks/s per ${size} blocks: ` +
    (segments
      .map((s) =>
        s.complete ? `${r1(s.blocksPerSec)}` : `(${s.to - s.from} blocks ${s.from + 1}-${s.to}: ${r1(s.blocksPerSec)})`,
      )
      .join(' ') || '-') +
    (ratio === null
      ? `; too few segments for last/first (${complete.length} complete, 2 needed)`
      : `; last/first ${Math.round(ratio * 100) / 100}`)
  );
}
