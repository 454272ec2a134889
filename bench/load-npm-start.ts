/**
 * `npm run bench:load-start -- [--clients 100] [--seconds 30] [--segment-seconds 5]` — `npm start`'s /v1
 * (served from the launcher's process and event loop, beside the embedded devnet's block
 * production, the app services, the reconciler and the index watcher) against the API in its
 * own process (launcher/rest-adapter-main.ts) on the same store, under the same load, while the
 * node indexes live blocks (a block every 500 ms): segments alternate between the two in an
 * order that is then reversed, so a drift of the machine's speed favours neither.
 *
 * It prints p50/p99/max and req/s of each, p99(npm start) / p99(own process), and the
 * launcher's event-loop delay (prom-client's nodejs_eventloop_lag_p99_seconds from /metrics,
 * read after each of its segments).
 *
 * PostgreSQL: an embedded server (tests/harness/postgres.ts), a fresh database given to npm
 * start as DATABASE_URL.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Pool } from 'pg';
import { DEFAULT_POOL_MAX } from '../rest-adapter/config';
import { createDatabase, startPostgres, uniqueName } from '../tests/harness/postgres';
import { benchLauncherEnv, spawnLauncher, stopLauncher, waitLauncherReady } from '../tests/harness/launcher-process';
import { freePort } from '../src/runtime/ports';
import { endpoints } from './endpoints';
import { startApiServer } from './lib/api-server';
import { sampleLoad, summarize, type LoadSamples } from './load';
import { segmentOrder } from './load-while-indexing';

const SCHEMA = 'svc';
const READY_TIMEOUT_MS = 300_000;
const WARMUP_MS = 500;

interface Target {
  label: string;
  url: string;
  samples: LoadSamples;
  /** the launcher's event-loop delay p99 after each segment (s); empty for the API process */
  loopLagP99: number[];
}

async function loopLagP99(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^nodejs_eventloop_lag_p99_seconds (\S+)$/m.exec(text)?.[1] ?? NaN);
}

function parseArgs(argv: string[]): { clients: number; seconds: number; segmentSeconds: number } {
  const a = { clients: 100, seconds: 30, segmentSeconds: 5 };
  for (let i = 0; i < argv.length; i += 2) {
    const n = Number(argv[i + 1]);
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${argv[i]} needs a positive integer`);
    if (argv[i] === '--clients') a.clients = n;
    else if (argv[i] === '--seconds') a.seconds = n;
    else if (argv[i] === '--segment-seconds') a.segmentSeconds = n;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return a;
}

async function measure(targets: Target[], pool: Pool, a: ReturnType<typeof parseArgs>): Promise<void> {
  const list = await endpoints(pool);
  let i = 0;
  const next = () => list[i++ % list.length].next();
  const perTarget = Math.max(2, 2 * Math.round(a.seconds / a.segmentSeconds / 2));
  const segmentMs = (a.seconds * 1000) / perTarget;
  for (const t of segmentOrder(targets, perTarget)) {
    if (t === targets[0]) await loopLagP99(t.url); // a read resets the histogram: the next one covers this segment
    const s = await sampleLoad(t.url, next, { clients: a.clients, durationMs: segmentMs, warmupMs: WARMUP_MS });
    t.samples.latencies.push(...s.latencies);
    t.samples.errors += s.errors;
    t.samples.hits += s.hits;
    t.samples.ms += s.ms;
    t.samples.firstError ??= s.firstError;
    if (t === targets[0]) t.loopLagP99.push(await loopLagP99(t.url));
  }
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  const log = (l: string) => console.log(`[bench:load-start] ${l}`);
  const pg = await startPostgres({ settings: { max_connections: 200 } });
  const db = await createDatabase(pg.url, uniqueName('load_start'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'load-start-'));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = benchLauncherEnv(
    { port, dataDir, databaseUrl: db.url },
    {
      DEVNET_HISTORY_BLOCKS: '200',
      DEVNET_BLOCK_MS: '500',
      // the load of many clients from one address: a capacity measure, not one client's budget
      RATE_LIMIT_PER_S: '0',
      LOAD_SHED_DELAY_MS: '0',
    },
  );
  const launcher = spawnLauncher(env, { detached: true });
  const pool = new Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => undefined);
  try {
    await waitLauncherReady(base, launcher, READY_TIMEOUT_MS);
    log(`npm start ready on ${base}`);
    const api = await startApiServer(db.url, SCHEMA, DEFAULT_POOL_MAX, true);
    try {
      const empty = (): LoadSamples => ({ latencies: [], errors: 0, hits: 0, ms: 0 });
      const targets: Target[] = [
        { label: 'npm start /v1', url: base, samples: empty(), loopLagP99: [] },
        { label: 'API process', url: api.url, samples: empty(), loopLagP99: [] },
      ];
      const before = Number(
        (await pool.query(`SELECT value FROM "${SCHEMA}"._metadata WHERE key = 'lastProcessedHeight'`)).rows[0]?.value,
      );
      await measure(targets, pool, a);
      const after = Number(
        (await pool.query(`SELECT value FROM "${SCHEMA}"._metadata WHERE key = 'lastProcessedHeight'`)).rows[0]?.value,
      );
      const results = targets.map((t) => ({ label: t.label, load: summarize(t.samples), loopLagP99: t.loopLagP99 }));
      for (const r of results) {
        const l = r.load;
        const lag = r.loopLagP99.length
          ? `; launcher event-loop delay p99 per segment ${r.loopLagP99.map((s) => (s * 1000).toFixed(0)).join('/')} ms`
          : '';
        log(
          `${r.label}: ${l.requests} requests, ${Math.round(l.rps)} req/s, p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(0)} ms, hit ${Math.round(l.hitRate * 100)} %, ${l.errors} not 200${l.firstError ? ` (first: ${l.firstError})` : ''}${lag}`,
        );
      }
      log(
        `p99 npm start / p99 API process = ${(results[0].load.p99 / results[1].load.p99).toFixed(2)}; indexed ${before} → ${after}`,
      );
      console.log(
        JSON.stringify({ bench: 'load-npm-start', ...a, results, indexedBefore: before, indexedAfter: after }),
      );
    } finally {
      api.child.kill('SIGTERM');
    }
  } finally {
    await pool.end();
    await stopLauncher(launcher);
    await db.drop().catch(() => undefined);
    await pg.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
