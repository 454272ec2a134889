/** bench:api's HTTP floor: a fixed answer from its own process, driven by the bench's load generator. */
import { measureHttpFloor } from '../../../bench/http-floor';

describe('HTTP floor', () => {
  it('answers every request with 200 and reports ordered latencies and a throughput', async () => {
    const r = await measureHttpFloor(2_000, { clients: 4, durationMs: 400, warmupMs: 100 });
    expect(r.errors).toBe(0);
    expect(r.firstError).toBeUndefined();
    expect(r.requests).toBeGreaterThan(10);
    expect(r.p50).toBeGreaterThan(0);
    expect(r.p99).toBeGreaterThanOrEqual(r.p50);
    expect(r.max).toBeGreaterThanOrEqual(r.p99);
    expect(r.rps).toBeGreaterThan(0);
    expect(r.hitRate).toBe(0); // no Cache-Status header: nothing counts as a cache hit
  }, 30_000);
});
