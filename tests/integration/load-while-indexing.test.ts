/**
 * The /v1 API under load while the real node indexes live blocks, and under the same load with
 * the node and the chain paused (bench/load-while-indexing.ts at a CI size: 20 clients for 8 s
 * per phase; `npm run bench:load-indexing` runs 100 clients for 60 s): every answer 200,
 * indexing goes on in the indexing phase and stops in the idle one, the API process's memory
 * stays bounded.
 */
import { loadWhileIndexing } from '../../bench/load-while-indexing';
import { getTestDatabaseUrl } from '../harness/db';

jest.setTimeout(600_000);

it('20 clients for 8 s per phase against /v1, indexing and paused: all 200, indexing goes on only while indexing, RSS bounded', async () => {
  const lines: string[] = [];
  const r = await loadWhileIndexing({
    serverUrl: getTestDatabaseUrl(),
    clients: 20,
    durationMs: 8000,
    blockMs: 300,
    historyBlocks: 60,
    log: (l) => lines.push(l),
  });
  const errors = r.cells.map((c) => [c.phase, c.load.errors, c.load.firstError]);
  expect(errors).toEqual([
    ['indexing', 0, undefined],
    ['idle', 0, undefined],
  ]);
  expect(r.load.requests).toBeGreaterThan(500);
  expect(r.idle.requests).toBeGreaterThan(500);
  expect(r.indexedAfter).toBeGreaterThan(r.indexedBefore);
  // both phases ran as named: the node committed heights while indexing and none while paused
  expect(r.cells.map((c) => [c.phase, c.blocksIndexed > 0])).toEqual([
    ['indexing', true],
    ['idle', false],
  ]);
  expect(r.ratios.map((x) => x.phase)).toEqual(['indexing']);
  expect(r.ratios[0].p99Ratio).toBeGreaterThan(0);
  // the response cache is capped at 64 MB; the rest is Node and pg: well under 512 MB after the load
  expect(r.rssAfterMb).toBeLessThan(512);
  expect(r.rssAfterMb - r.rssBeforeMb).toBeLessThan(200);
  expect(lines.join('\n')).toMatch(/API RSS \d+ → \d+ MB/);
  expect(lines.join('\n')).toMatch(/p99 indexing \/ p99 idle = \d+\.\d\d/);
});
