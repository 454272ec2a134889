/**
 * `npm run bench:load-indexing -- [--clients 100] [--seconds 60] [--block-ms 500]` — the /v1 API
 * under load while the real node indexes live blocks:
 *
 * 1. a live devnet (seeded history, then a block every `--block-ms` with scenario traffic),
 * 2. the real subql-node-cosmos indexing it into a fresh database (until the history is in),
 * 3. the API in its own process (launcher/rest-adapter-main.ts, as deployed, response cache on),
 * 4. `--clients` keep-alive clients for `--seconds` over the endpoints of bench/endpoints.ts,
 *    while the node goes on indexing.
 *
 * It prints every status other than 200 (none expected), the API process's RSS before and after,
 * latency and throughput, and the indexed height before and after (indexing must go on).
 * tests/integration/load-while-indexing.test.ts runs it at a CI size.
 *
 * PostgreSQL: DATABASE_URL when set, else an embedded server (tests/harness/postgres.ts).
 */
import { Pool } from 'pg';
import type { Devnet } from '../devnet/cli';
import { createDatabase, startPostgres, subqlDbEnv, uniqueName } from '../tests/harness/postgres';
import { startNode } from '../tests/harness/subql-node';
import { ensureProjectBuilt } from '../tests/harness/indexed-store';
import { endpoints } from './endpoints';
import { rssMb, startApiServer } from './lib/api-server';
import { runLoad, type LoadResult } from './load';

const SCHEMA = 'svc';

export interface LoadWhileIndexingOptions {
  serverUrl: string;
  clients: number;
  durationMs: number;
  blockMs: number;
  historyBlocks: number;
  log?: (line: string) => void;
}

export interface LoadWhileIndexingResult {
  load: LoadResult;
  rssBeforeMb: number;
  rssAfterMb: number;
  indexedBefore: number;
  indexedAfter: number;
  chainAfter: number;
}

async function indexedHeight(pool: Pool): Promise<number> {
  const r = await pool.query(`SELECT value FROM "${SCHEMA}"._metadata WHERE key = 'lastProcessedHeight'`);
  return Number(r.rows[0]?.value ?? 0);
}

export async function loadWhileIndexing(o: LoadWhileIndexingOptions): Promise<LoadWhileIndexingResult> {
  const log = o.log ?? (() => undefined);
  ensureProjectBuilt();
  const { startDevnet } = await import('../devnet/cli');
  const devnet: Devnet = await startDevnet({
    seed: 'load-indexing',
    blocks: o.historyBlocks,
    txsPerBlock: 10,
    live: true,
    blockMs: o.blockMs,
  });
  const db = await createDatabase(o.serverUrl, uniqueName('load_indexing'));
  const pool = new Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => undefined);
  try {
    const node = await startNode({ dbEnv: subqlDbEnv(db), endpoint: devnet.url, schema: SCHEMA });
    try {
      await node.waitForHeight(o.historyBlocks, 600_000);
      const api = await startApiServer(db.url, SCHEMA, o.clients, true);
      try {
        const list = await endpoints(pool);
        let i = 0;
        const next = () => list[i++ % list.length].next();
        const rssBeforeMb = rssMb(api.child.pid!);
        const indexedBefore = await indexedHeight(pool);
        log(
          `load: ${o.clients} clients for ${o.durationMs / 1000} s over ${list.length} endpoints; indexed ${indexedBefore}, chain ${devnet.chain.height}, API RSS ${rssBeforeMb} MB`,
        );
        const load = await runLoad(api.url, next, { clients: o.clients, durationMs: o.durationMs, warmupMs: 0 });
        const rssAfterMb = rssMb(api.child.pid!);
        const indexedAfter = await indexedHeight(pool);
        const result = { load, rssBeforeMb, rssAfterMb, indexedBefore, indexedAfter, chainAfter: devnet.chain.height };
        log(
          `${load.requests} requests, ${Math.round(load.rps)} req/s, p50 ${load.p50.toFixed(1)} ms, p99 ${load.p99.toFixed(1)} ms, max ${load.max.toFixed(0)} ms, ` +
            `${load.errors} not 200${load.firstError ? ` (first: ${load.firstError})` : ''}; API RSS ${rssBeforeMb} → ${rssAfterMb} MB; ` +
            `indexed ${indexedBefore} → ${indexedAfter} (chain ${result.chainAfter})`,
        );
        return result;
      } finally {
        api.child.kill('SIGTERM');
      }
    } finally {
      await node.stop();
    }
  } finally {
    await pool.end();
    await devnet.close();
    await db.drop().catch(() => undefined);
  }
}

function parseArgs(argv: string[]): { clients: number; seconds: number; blockMs: number; historyBlocks: number } {
  const a = { clients: 100, seconds: 60, blockMs: 500, historyBlocks: 200 };
  for (let i = 0; i < argv.length; i += 2) {
    const n = Number(argv[i + 1]);
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${argv[i]} needs a positive integer`);
    if (argv[i] === '--clients') a.clients = n;
    else if (argv[i] === '--seconds') a.seconds = n;
    else if (argv[i] === '--block-ms') a.blockMs = n;
    else if (argv[i] === '--history-blocks') a.historyBlocks = n;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return a;
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  const pg = await startPostgres({ settings: { max_connections: Math.max(200, a.clients + 50) } });
  try {
    const r = await loadWhileIndexing({
      serverUrl: pg.url,
      clients: a.clients,
      durationMs: a.seconds * 1000,
      blockMs: a.blockMs,
      historyBlocks: a.historyBlocks,
      log: (l) => console.log(`[bench:load-indexing] ${l}`),
    });
    console.log(JSON.stringify({ bench: 'load-while-indexing', ...a, ...r }));
    if (r.load.errors > 0 || r.indexedAfter <= r.indexedBefore) process.exitCode = 1;
  } finally {
    await pg.stop();
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
