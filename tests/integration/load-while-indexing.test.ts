/**
 * The /v1 API under load while the real node indexes live blocks (bench/load-while-indexing.ts at a
 * CI size: 20 clients for 8 s; `npm run bench:load-indexing` runs 100 clients for 60 s): every
 * answer 200, indexing goes on, the API process's memory stays bounded.
 */
import { loadWhileIndexing } from '../../bench/load-while-indexing';
import { getTestDatabaseUrl } from '../harness/db';

jest.setTimeout(600_000);

it('20 clients for 8 s against /v1 while the node indexes live blocks: all 200, indexing goes on, RSS bounded', async () => {
  const lines: string[] = [];
  const r = await loadWhileIndexing({
    serverUrl: getTestDatabaseUrl(),
    clients: 20,
    durationMs: 8000,
    blockMs: 300,
    historyBlocks: 60,
    log: (l) => lines.push(l),
  });
  expect([r.load.errors, r.load.firstError]).toEqual([0, undefined]);
  expect(r.load.requests).toBeGreaterThan(500);
  expect(r.indexedAfter).toBeGreaterThan(r.indexedBefore);
  // the response cache is capped at 64 MB; the rest is Node and pg: well under 512 MB after the load
  expect(r.rssAfterMb).toBeLessThan(512);
  expect(r.rssAfterMb - r.rssBeforeMb).toBeLessThan(200);
  expect(lines.join('\n')).toMatch(/API RSS \d+ → \d+ MB/);
});
