/**
 * IndexWatcher's stop (src/runtime/readiness.ts): npm start's switch to a reindexed schema stops
 * the frozen schema's watcher while its poll may be in flight; that poll must neither report
 * (a progress line of the frozen schema, seen in a loaded CI run) nor schedule another.
 */
import type { Pool } from 'pg';
import { createMetrics } from '../../../src/runtime/metrics';
import { IndexWatcher } from '../../../src/runtime/readiness';
import type { Logger } from '../../../src/lib/logger';

/** A store whose _metadata reads wait until `answer` is called (the frozen schema at 124, its target 168). */
function heldStore() {
  const held: (() => void)[] = [];
  let reads = 0;
  const pool = {
    query: () => {
      reads++;
      return new Promise((resolve) => {
        held.push(() =>
          resolve({
            rows: [
              { key: 'lastProcessedHeight', value: 124 },
              { key: 'targetHeight', value: 168 },
            ],
          }),
        );
      });
    },
  } as unknown as Pool;
  return { pool, reads: () => reads, answer: () => held.splice(0).forEach((f) => f()) };
}

function watcherOn(pool: Pool, lines: string[]): IndexWatcher {
  const log = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) } as unknown as Logger;
  return new IndexWatcher({
    pool,
    schema: 'svc',
    chainTip: async () => 168,
    maxLagBlocks: 10,
    progressIntervalMs: 0,
    metrics: createMetrics(),
    log,
  });
}

test('a watcher reports its poll: 44 blocks behind is a progress line', async () => {
  const store = heldStore();
  const lines: string[] = [];
  const watcher = watcherOn(store.pool, lines);
  const started = watcher.start();
  store.answer();
  await started;
  watcher.stop();
  expect(lines).toEqual(['indexing 124 / 168']);
});

test('a watcher stopped while its poll is in flight neither reports it nor polls again', async () => {
  const store = heldStore();
  const lines: string[] = [];
  const watcher = watcherOn(store.pool, lines);
  const started = watcher.start();
  watcher.stop();
  store.answer();
  await started;
  await new Promise((r) => setTimeout(r, 1_300)); // past the next poll's second
  expect([lines, store.reads()]).toEqual([[], 1]);
});
