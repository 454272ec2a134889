/** bench:load-indexing's segment order and the merging of its segments' samples (bench/load-while-indexing.ts, bench/load.ts). */
import { segmentOrder } from '../../../bench/load-while-indexing';
import { summarize } from '../../../bench/load';
import { cpuSeconds } from '../../../bench/lib/processes';

describe('segmentOrder', () => {
  it('runs every cell once, then in reverse, so a steady drift of the machine favours no cell', () => {
    expect(segmentOrder(['indexing', 'idle'], 2)).toEqual(['indexing', 'idle', 'idle', 'indexing']);
    expect(segmentOrder(['a', 'b', 'c'], 4)).toEqual(['a', 'b', 'c', 'c', 'b', 'a', 'a', 'b', 'c', 'c', 'b', 'a']);
  });

  it('gives each cell the same mean position in the run', () => {
    const order = segmentOrder(['a', 'b', 'c'], 6);
    const meanPosition = (cell: string) =>
      order.reduce((sum, c, i) => (c === cell ? sum + i : sum), 0) / order.filter((c) => c === cell).length;
    expect(new Set(['a', 'b', 'c'].map(meanPosition)).size).toBe(1);
  });
});

describe('summarize', () => {
  it('takes percentiles over the samples of all segments together, and req/s over their measured time', () => {
    const latencies = [...Array.from({ length: 98 }, () => 10), 500, 900];
    const r = summarize({ latencies, errors: 1, hits: 50, ms: 2000, firstError: '/v1/x -> 500' });
    expect(r).toEqual({
      requests: 100,
      errors: 1,
      p50: 10,
      p99: 500,
      max: 900,
      rps: 50,
      hitRate: 0.5,
      firstError: '/v1/x -> 500',
    });
  });
});

describe('cpuSeconds', () => {
  it('reads a live process and is 0 for one that is gone', () => {
    const burn = Date.now() + 50;
    while (Date.now() < burn) Math.sqrt(Math.random());
    expect(cpuSeconds(process.pid)).toBeGreaterThan(0);
    expect(cpuSeconds(2 ** 22 + 1)).toBe(0);
  });
});
