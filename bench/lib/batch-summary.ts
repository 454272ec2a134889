/**
 * The pure part of bench:index's summary: each project's best batch size, and the ratios between
 * projects at their best sizes checked against the indexing targets (TARGETS below).
 *
 * Best batch size: the SMALLEST size whose blocks/s is within `within` (default 5 %) of the
 * fastest size's. Past the knee a larger batch only buys noise and memory (the node holds up to
 * 3 × batch-size blocks in its queues), and the launcher's default follows this choice.
 */

export interface BatchPoint {
  batchSize: number;
  blocksPerSec: number;
  /** node process CPU (all threads) per block, ms */
  nodeCpuMsPerBlock: number;
  /** peak RSS of the node process (VmHWM), MB */
  hwmRssMb: number;
  /** last/first segment blocks/s; null: too few segments */
  segmentRatio: number | null;
}

export const BEST_WITHIN = 0.05;

/** The --batch-size a list of SubQuery flags sets (--batch-size=N or --batch-size N), if any. */
export function fixedBatchSize(flags: string[] | undefined): number | undefined {
  if (!flags) return undefined;
  for (let i = 0; i < flags.length; i++) {
    const m = /^--batch-size(?:=(\d+))?$/.exec(flags[i]);
    if (m) return Number(m[1] ?? flags[i + 1]);
  }
  return undefined;
}

export function bestBatch<T extends Pick<BatchPoint, 'batchSize' | 'blocksPerSec'>>(
  points: T[],
  within = BEST_WITHIN,
): { best: T; fastest: T } {
  if (points.length === 0) throw new Error('bestBatch: no points');
  const fastest = points.reduce((a, b) =>
    b.blocksPerSec > a.blocksPerSec || (b.blocksPerSec === a.blocksPerSec && b.batchSize < a.batchSize) ? b : a,
  );
  const best = points
    .filter((p) => p.blocksPerSec >= (1 - within) * fastest.blocksPerSec)
    .reduce((a, b) => (b.batchSize < a.batchSize ? b : a));
  return { best, fastest };
}

/** The indexing targets (docs/indexer.md; `npm run bench:index`, each project at its best batch size). */
export const TARGETS = {
  /** node CPU per block, project ÷ floor */
  nodeCpuRatioMax: 3,
  /** blocks/s, project ÷ floor */
  blocksPerSecRatioMin: 0.33,
  /** peak RSS, project ÷ floor */
  peakRssRatioMax: 1.5,
  /** blocks/s of the last segment ÷ the first's */
  segmentRatioMin: 0.9,
} as const;

export interface Verdict {
  name: string;
  /** null: not measured */
  value: number | null;
  op: '<=' | '>=';
  limit: number;
  /** null: not measured */
  met: boolean | null;
}

export function verdict(name: string, value: number | null, op: '<=' | '>=', limit: number): Verdict {
  const met = value === null || !Number.isFinite(value) ? null : op === '<=' ? value <= limit : value >= limit;
  return { name, value, op, limit, met };
}

export interface FloorComparison {
  /** project blocks/s ÷ floor blocks/s */
  blocksPerSecRatio: number;
  /** project node CPU per block ÷ floor's */
  nodeCpuRatio: number;
  /** project peak RSS ÷ floor's */
  peakRssRatio: number;
  verdicts: Verdict[];
}

/** A project against the floor, each at its best batch size. */
export function compareWithFloor(project: BatchPoint, floor: BatchPoint): FloorComparison {
  const blocksPerSecRatio = project.blocksPerSec / floor.blocksPerSec;
  const nodeCpuRatio = project.nodeCpuMsPerBlock / floor.nodeCpuMsPerBlock;
  const peakRssRatio = project.hwmRssMb / floor.hwmRssMb;
  return {
    blocksPerSecRatio,
    nodeCpuRatio,
    peakRssRatio,
    verdicts: [
      verdict('blocks/s vs floor', blocksPerSecRatio, '>=', TARGETS.blocksPerSecRatioMin),
      verdict('node CPU/block vs floor', nodeCpuRatio, '<=', TARGETS.nodeCpuRatioMax),
      verdict('peak RSS vs floor', peakRssRatio, '<=', TARGETS.peakRssRatioMax),
      verdict('last/first segment', project.segmentRatio, '>=', TARGETS.segmentRatioMin),
    ],
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** "0.14 (target >= 0.33: NOT met)", "n/a (target >= 0.9: too few segments)" */
export function formatVerdict(v: Verdict): string {
  if (v.met === null) return `n/a (target ${v.op} ${v.limit}: not measured, too few segments)`;
  return `${round2(v.value!)} (target ${v.op} ${v.limit}: ${v.met ? 'met' : 'NOT met'})`;
}
