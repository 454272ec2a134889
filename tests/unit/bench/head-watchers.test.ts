import { dist, HeightWatcher, percentile } from '../../../bench/lib/head-watchers';

describe('percentile and dist (bench:head figures)', () => {
  it('takes the value at floor(p% of n) of the sorted values, NaN of none', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(51);
    expect(percentile(sorted, 99)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('sorts, drops values that are not finite and reports n, p50, p90, p99, max', () => {
    expect(dist([3, NaN, 1, 2, Infinity])).toEqual({ n: 3, p50: 2, p90: 3, p99: 3, max: 3 });
    expect(dist([])).toEqual({ n: 0, p50: NaN, p90: NaN, p99: NaN, max: NaN });
  });
});

describe('HeightWatcher', () => {
  it('notes when each height first showed, a skipped height at the read that showed it, and wakes next()', async () => {
    const heights = [5, 5, 7, 7, 8];
    let reads = 0;
    const watcher = new HeightWatcher(async () => {
      const h = heights[Math.min(reads, heights.length - 1)];
      reads++;
      if (reads === 2) throw new Error('a failed read is skipped');
      return h;
    }, 1);
    watcher.start();
    await watcher.next(); // 5, the first height: its own time is unknown
    expect(watcher.height).toBe(5);
    expect(watcher.seenAt.has(5)).toBe(false);
    await watcher.next(); // 7, with 6 skipped
    expect(watcher.height).toBe(7);
    expect(watcher.seenAt.get(6)).toBe(watcher.seenAt.get(7));
    await watcher.next();
    expect(watcher.height).toBe(8);
    expect(watcher.seenAt.get(8)).toBeGreaterThanOrEqual(watcher.seenAt.get(7)!);
    await watcher.stop();
  });
});
