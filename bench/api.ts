/**
 * `npm run bench:api` — the /v1 read API under load on a store of ≥ 1M txs, then on
 * one tenth of it.
 *
 *   npm run bench:api -- [--txs 1000000] [--clients 20] [--duration 5] [--warmup 1] [--serial 1]
 *                        [--holders 100000] [--base-blocks 300] [--shared-buffers-mb 6144] [--cold]
 *                        [--no-cache] [--only <regex of endpoint names>]
 *                        [--keep (with DATABASE_URL: keep the databases)]
 *
 * 1. The HTTP floor (bench/http-floor.ts): fixed answers of 300 bytes and 75 KB from an
 *    Express process with no database, under the same clients: what the machine, the load
 *    generator and Node's HTTP cost before the API does any work.
 * 2. The base store: a seeded devnet history indexed by the real node (bench/store.ts).
 * 3. Per size: a copy of it scaled up with SQL to the target number of txs (the node's own
 *    rows replicated at later heights, counters rewritten; see bench/store.ts for what is
 *    and is not the node's work), VACUUM ANALYZE, EXPLAIN of every statement the API runs
 *    (sequential scans reported), the store's tables and indexes loaded into shared_buffers
 *    with pg_prewarm (a serving database has its working set cached; this machine's kernel
 *    reclaims idle page cache, so cold reads go to a slow disk, ~5 ms each; `--cold` skips
 *    it), then the API in its own process (launcher/rest-adapter-main.ts)
 *    driven endpoint by endpoint by `--clients` keep-alive clients; p50/p99/max latency
 *    and req/s per endpoint. Target: p99 < 20 ms. The API runs with its response cache
 *    as deployed (answers kept per indexed height); `hit %` is the share of the 20-client
 *    answers served from it, and `--no-cache` turns it off. A short run with one client
 *    against a second API process without the cache first gives each endpoint's service
 *    time, the cost of computing the answer, without queueing (`1c p50 nc`).
 *
 * PostgreSQL: DATABASE_URL when set, else an embedded server (tests/harness/postgres.ts).
 */
import os from 'os';
import { Pool } from 'pg';
import { startPostgres } from '../tests/harness/postgres';
import { endpoints } from './endpoints';
import { explainEndpoints } from './explain';
import { measureHttpFloor } from './http-floor';
import { runLoad } from './load';
import { startApiServer } from './lib/api-server';
import { buildBaseStore, copyDatabase, scaleStore, SCHEMA } from './store';

const TARGET_P99_MS = 20;

interface Options {
  txs: number;
  clients: number;
  durationMs: number;
  warmupMs: number;
  serialMs: number;
  holders: number;
  baseBlocks: number;
  sharedBuffersMb: number;
  cold: boolean;
  cache: boolean;
  only: RegExp | undefined;
  keep: boolean;
}

function parseOptions(argv: string[]): Options {
  const o: Options = {
    txs: 1_000_000,
    clients: 20,
    durationMs: 5000,
    warmupMs: 1000,
    serialMs: 1000,
    holders: 100_000,
    baseBlocks: 300,
    sharedBuffersMb: 6144,
    cold: false,
    cache: true,
    only: undefined,
    keep: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=');
    const value = () => Number(inline ?? argv[++i]);
    switch (flag) {
      case '--txs':
        o.txs = value();
        break;
      case '--clients':
        o.clients = value();
        break;
      case '--duration':
        o.durationMs = value() * 1000;
        break;
      case '--warmup':
        o.warmupMs = value() * 1000;
        break;
      case '--serial':
        o.serialMs = value() * 1000;
        break;
      case '--holders':
        o.holders = value();
        break;
      case '--base-blocks':
        o.baseBlocks = value();
        break;
      case '--shared-buffers-mb':
        o.sharedBuffersMb = value();
        break;
      case '--cold':
        o.cold = true;
        break;
      case '--no-cache':
        o.cache = false;
        break;
      case '--only':
        o.only = new RegExp(inline ?? argv[++i]);
        break;
      case '--keep':
        o.keep = true;
        break;
      default:
        throw new Error(`unknown option ${argv[i]}`);
    }
  }
  for (const [k, v] of Object.entries(o))
    if (typeof v === 'number' && !(Number.isFinite(v) && v >= 0))
      throw new Error(`--${k} must be a non-negative number`);
  return o;
}

function log(line: string): void {
  console.log(`[bench] ${line}`);
}

function formatRow(cells: (string | number)[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
}

/** Loads every table and index of the store into shared_buffers; returns the megabytes read. */
async function prewarm(databaseUrl: string): Promise<number> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  pool.on('error', () => undefined);
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
    const { rows } = await pool.query<{ mb: string }>(
      `SELECT coalesce(sum(pg_prewarm(rel)), 0) * current_setting('block_size')::int / 1048576 AS mb FROM (
         SELECT c.oid AS rel FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND c.relkind IN ('r', 'i')
         UNION ALL
         SELECT c.reltoastrelid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND c.relkind = 'r' AND c.reltoastrelid <> 0
       ) relations`,
      [SCHEMA],
    );
    return Math.round(Number(rows[0].mb));
  } finally {
    await pool.end();
  }
}

async function benchSize(
  serverUrl: string,
  template: string,
  size: number,
  o: Options,
  holders: number,
): Promise<void> {
  const db = await copyDatabase(serverUrl, template);
  try {
    log(`--- store of ${size} txs (copy ${db.name}) ---`);
    const pool = new Pool({ connectionString: db.url, max: 2 });
    pool.on('error', () => undefined);
    const baseTxs = Number((await pool.query(`SELECT tx_count FROM "${SCHEMA}".chain_totals`)).rows[0].tx_count);
    const copies = Math.ceil(size / baseTxs);
    const t = Date.now();
    const { txs } = await scaleStore(db.url, copies, holders, log);
    log(`scaled x${copies} to ${txs} txs in ${Math.round((Date.now() - t) / 1000)} s`);
    const list = (await endpoints(pool).finally(() => pool.end())).filter((e) => !o.only || o.only.test(e.name));
    const report = await explainEndpoints(db.url, list);
    log(
      `EXPLAIN: ${report.statements} statements, ${report.indexes.size} indexes used, ${report.seqScans.length} sequential scans of tables over 10,000 rows`,
    );
    for (const s of report.seqScans) log(`  seq scan: ${s}`);
    log(
      `statements per request (BEGIN and COMMIT not counted): ${[...report.perEndpoint].map(([name, n]) => `${name} ${n}`).join(', ')}`,
    );
    if (!o.cold) log(`pg_prewarm: ${await prewarm(db.url)} MB of tables and indexes loaded into shared_buffers`);
    const server = await startApiServer(db.url, SCHEMA, o.clients, o.cache);
    const uncached = await startApiServer(db.url, SCHEMA, 1, false);
    try {
      const widths = [26, 10, 9, 9, 9, 8, 6, 7];
      console.log(
        `\n${txs} txs, ${o.clients} clients, ${o.durationMs / 1000} s per endpoint, response cache ${o.cache ? 'on' : 'off'} (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs)`,
      );
      console.log(
        formatRow(['endpoint', '1c p50 nc', 'p50 ms', 'p99 ms', 'max ms', 'req/s', 'hit %', 'errors'], widths),
      );
      let over = 0;
      for (const e of list) {
        const serial = await runLoad(uncached.url, e.next, { clients: 1, durationMs: o.serialMs, warmupMs: 100 });
        const r = await runLoad(server.url, e.next, {
          clients: o.clients,
          durationMs: o.durationMs,
          warmupMs: o.warmupMs,
        });
        if (r.p99 >= TARGET_P99_MS) over++;
        const cells = [
          e.name,
          serial.p50.toFixed(1),
          r.p50.toFixed(1),
          r.p99.toFixed(1),
          r.max.toFixed(1),
          Math.round(r.rps),
          Math.round(r.hitRate * 100),
          r.errors + serial.errors,
        ];
        console.log(formatRow(cells, widths) + (r.p99 >= TARGET_P99_MS ? '  > target' : ''));
        const firstError = serial.firstError ?? r.firstError;
        if (firstError) console.log(`    first error: ${firstError}`);
      }
      console.log(`${list.length - over}/${list.length} endpoints with p99 < ${TARGET_P99_MS} ms\n`);
    } finally {
      server.child.kill('SIGTERM');
      uncached.child.kill('SIGTERM');
    }
  } finally {
    if (!o.keep) await db.drop();
    else log(`kept database ${db.name}`);
  }
}

/** The HTTP floor (bench/http-floor.ts) for a small and a txs-page-sized answer. */
async function logHttpFloor(o: Options): Promise<void> {
  for (const bytes of [300, 75_000]) {
    const r = await measureHttpFloor(bytes, { clients: o.clients, durationMs: o.durationMs, warmupMs: o.warmupMs });
    log(
      `HTTP floor, fixed ${bytes}-byte answer, no database: p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${Math.round(r.rps)} req/s`,
    );
  }
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const pg = await startPostgres({
    settings: { shared_buffers: `${o.sharedBuffersMb}MB`, work_mem: '16MB', max_connections: 200 },
  });
  try {
    await logHttpFloor(o);
    const base = await buildBaseStore(pg.url, { seed: 'bench-api', blocks: o.baseBlocks, txsPerBlock: 10 }, log);
    try {
      await benchSize(pg.url, base.db.name, o.txs, o, o.holders);
      await benchSize(pg.url, base.db.name, Math.ceil(o.txs / 10), o, Math.ceil(o.holders / 10));
    } finally {
      if (!o.keep) await base.db.drop();
    }
  } finally {
    if (!o.keep) await pg.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
