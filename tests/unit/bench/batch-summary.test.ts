/** bench:index's best batch size and the indexing targets' verdicts (bench/lib/batch-summary.ts). */
import {
  bestBatch,
  compareWithFloor,
  fixedBatchSize,
  formatVerdict,
  TARGETS,
  verdict,
  type BatchPoint,
} from '../../../bench/lib/batch-summary';

const point = (batchSize: number, blocksPerSec: number, extra: Partial<BatchPoint> = {}): BatchPoint => ({
  batchSize,
  blocksPerSec,
  nodeCpuMsPerBlock: 4,
  hwmRssMb: 700,
  segmentRatio: 1,
  ...extra,
});

describe('bestBatch', () => {
  it('is the fastest size when the others are clearly slower (a paced node)', () => {
    const r = bestBatch([point(5, 15), point(20, 60), point(100, 260)]);
    expect(r.best.batchSize).toBe(100);
    expect(r.fastest.batchSize).toBe(100);
  });

  it('is the smallest size within 5 % of the fastest (CPU-bound: more batch only costs memory)', () => {
    const r = bestBatch([point(200, 36.9), point(20, 34.4), point(50, 36.5), point(100, 35.5)]);
    expect(r.fastest.batchSize).toBe(200);
    expect(r.best.batchSize).toBe(50);
  });

  it('takes the tolerance as a parameter, and a single size is its own best', () => {
    const pts = [point(50, 36.5), point(200, 36.9)];
    expect(bestBatch(pts, 0).best.batchSize).toBe(200);
    expect(bestBatch([point(20, 60)]).best.batchSize).toBe(20);
    expect(() => bestBatch([])).toThrow();
  });

  it('breaks an exact tie towards the smaller size', () => {
    expect(bestBatch([point(100, 50), point(50, 50)], 0).fastest.batchSize).toBe(50);
  });
});

describe('compareWithFloor (indexing targets)', () => {
  const floor = point(100, 260, { nodeCpuMsPerBlock: 4.1, hwmRssMb: 760 });

  it("today's full project: every target but flatness missed", () => {
    const c = compareWithFloor(point(50, 36.5, { nodeCpuMsPerBlock: 29.4, hwmRssMb: 1250, segmentRatio: 0.95 }), floor);
    expect(c.blocksPerSecRatio).toBeCloseTo(0.14, 2);
    expect(c.nodeCpuRatio).toBeCloseTo(7.17, 2);
    expect(c.peakRssRatio).toBeCloseTo(1.64, 2);
    expect(c.verdicts.map((v) => [v.name, v.met])).toEqual([
      ['blocks/s vs floor', false],
      ['node CPU/block vs floor', false],
      ['peak RSS vs floor', false],
      ['last/first segment', true],
    ]);
  });

  it('a project at the targets meets them (limits inclusive)', () => {
    const p = point(50, 260 * TARGETS.blocksPerSecRatioMin, {
      nodeCpuMsPerBlock: 4.1 * TARGETS.nodeCpuRatioMax,
      hwmRssMb: 760 * TARGETS.peakRssRatioMax,
      segmentRatio: TARGETS.segmentRatioMin,
    });
    expect(compareWithFloor(p, floor).verdicts.every((v) => v.met)).toBe(true);
  });

  it('flatness is not measured with too few segments', () => {
    const c = compareWithFloor(point(50, 100, { segmentRatio: null }), floor);
    expect(c.verdicts[3].met).toBeNull();
    expect(formatVerdict(c.verdicts[3])).toBe('n/a (target >= 0.9: not measured, too few segments)');
  });
});

describe('verdict and formatVerdict', () => {
  it('reads <= and >= targets and prints them', () => {
    expect(verdict('x', 3.01, '<=', 3).met).toBe(false);
    expect(verdict('x', 0.33, '>=', 0.33).met).toBe(true);
    expect(formatVerdict(verdict('x', 0.1404, '>=', 0.33))).toBe('0.14 (target >= 0.33: NOT met)');
    expect(formatVerdict(verdict('x', 1.2, '<=', 1.5))).toBe('1.2 (target <= 1.5: met)');
    expect(verdict('x', Infinity, '<=', 3).met).toBeNull();
  });
});

describe('fixedBatchSize', () => {
  it('finds --batch-size=N or --batch-size N among SubQuery flags', () => {
    expect(fixedBatchSize(undefined)).toBeUndefined();
    expect(fixedBatchSize(['--store-cache-threshold=5000'])).toBeUndefined();
    expect(fixedBatchSize(['--profiler', '--batch-size=20'])).toBe(20);
    expect(fixedBatchSize(['--batch-size', '30'])).toBe(30);
    expect(fixedBatchSize(['--batch-sizes=30'])).toBeUndefined();
  });
});
