/** bench:index's blocks/s per segment of heights (bench/lib/segments.ts). */
import {
  formatSegments,
  lastFirstRatio,
  segmentRates,
  timeAtHeight,
  type ProgressTrace,
} from '../../../bench/lib/segments';

/** a trace sampled every `everyMs` of a run at `rate(h)` blocks/s, ending exactly at `end` */
function steadyTrace(end: number, blocksPerSec: number, everyMs = 200): ProgressTrace {
  const trace: ProgressTrace = [];
  const endMs = (end / blocksPerSec) * 1000;
  for (let t = 0; t < endMs; t += everyMs) trace.push([t, Math.floor((t / 1000) * blocksPerSec)]);
  trace.push([endMs, end]);
  return trace;
}

describe('timeAtHeight', () => {
  it('interpolates between the samples around a height', () => {
    const trace: ProgressTrace = [
      [0, 0],
      [1000, 100],
      [2000, 100],
      [3000, 300],
    ];
    expect(timeAtHeight(trace, 0)).toBe(0);
    expect(timeAtHeight(trace, 50)).toBe(500);
    expect(timeAtHeight(trace, 100)).toBe(1000);
    expect(timeAtHeight(trace, 200)).toBe(2500);
    expect(timeAtHeight(trace, 301)).toBeUndefined();
  });
});

describe('segmentRates', () => {
  it('gives the steady rate for every segment of a steady run, whatever the poll interval', () => {
    const segs = segmentRates(steadyTrace(3000, 60, 200), 1000);
    expect(segs.map((s) => [s.from, s.to, s.complete])).toEqual([
      [0, 1000, true],
      [1000, 2000, true],
      [2000, 3000, true],
    ]);
    for (const s of segs) expect(s.blocksPerSec).toBeCloseTo(60, 0);
    expect(lastFirstRatio(segs)).toBeCloseTo(1, 1);
  });

  it('shows a slowdown with height: last/first = late rate / early rate', () => {
    // 1000 blocks at 100 blocks/s (10 s), then 1000 at 50 blocks/s (20 s)
    const trace: ProgressTrace = [];
    for (let t = 0; t <= 10_000; t += 250) trace.push([t, Math.round(t / 10)]);
    for (let t = 10_250; t <= 30_000; t += 250) trace.push([t, 1000 + Math.round((t - 10_000) / 20)]);
    const segs = segmentRates(trace, 1000);
    expect(segs).toHaveLength(2);
    expect(segs[0].blocksPerSec).toBeCloseTo(100, 5);
    expect(segs[1].blocksPerSec).toBeCloseTo(50, 5);
    expect(lastFirstRatio(segs)).toBeCloseTo(0.5, 5);
  });

  it('starts at the first sample and ends with a partial segment that does not count for last/first', () => {
    const trace: ProgressTrace = [
      [0, 3],
      [10_000, 1000],
      [20_000, 2000],
      [23_000, 2300],
    ];
    const segs = segmentRates(trace, 1000);
    expect(segs.map((s) => [s.from, s.to, s.complete])).toEqual([
      [3, 1000, true],
      [1000, 2000, true],
      [2000, 2300, false],
    ]);
    expect(segs[0].blocksPerSec).toBeCloseTo(99.7, 1);
    expect(lastFirstRatio(segs)).toBeCloseTo(100 / 99.7, 3);
  });

  it('ignores a sample that went back in height or time', () => {
    const trace: ProgressTrace = [
      [0, 0],
      [5000, 500],
      [5200, 400],
      [10_000, 1000],
      [20_000, 2000],
    ];
    expect(segmentRates(trace, 1000).map((s) => s.blocksPerSec)).toEqual([100, 100]);
  });

  it('has too few segments for last/first when the run is shorter than two segments', () => {
    const segs = segmentRates(steadyTrace(1500, 100), 1000);
    expect(segs.filter((s) => s.complete)).toHaveLength(1);
    expect(lastFirstRatio(segs)).toBeNull();
    expect(formatSegments(segs, 1000)).toMatch(/too few segments for last\/first \(1 complete, 2 needed\)$/);
    expect(segmentRates([[0, 0]], 1000)).toEqual([]);
    expect(lastFirstRatio([])).toBeNull();
  });

  it('rejects a segment size that is not a positive integer', () => {
    expect(() => segmentRates(steadyTrace(100, 10), 0)).toThrow(/positive integer/);
  });
});

describe('formatSegments', () => {
  it('prints the complete segments, the partial one with its heights, and last/first', () => {
    const trace: ProgressTrace = [
      [0, 0],
      [10_000, 1000],
      [30_000, 2000],
      [35_000, 2500],
    ];
    expect(formatSegments(segmentRates(trace, 1000), 1000)).toBe(
      'blocks/s per 1000 blocks: 100 50 (500 blocks 2001-2500: 100); last/first 0.5',
    );
  });
});
