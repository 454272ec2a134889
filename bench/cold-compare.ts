/**
 * `npm run bench:cold -- --against <checkout>` — cold /v1 answers of this checkout against
 * another checkout's (e.g. main before the render cache), side by side in one run on one store,
 * and the cost of a 304 against the HTTP floor.
 *
 *   npm run bench:cold -- --against /tmp/main [--txs 100000] [--clients 20] [--duration 5]
 *                         [--rounds 2] [--base-blocks 300] [--only <regex of endpoint names>]
 *
 * 1. The HTTP floor (bench/http-floor.ts, 300 bytes and 75 KB), as bench:api prints it.
 * 2. The bench:api store (bench/store.ts): a devnet history indexed by the real node, scaled
 *    with SQL to `--txs`, loaded into shared_buffers.
 * 3. Both APIs in their own processes with the response cache off (RESPONSE_CACHE_MB=0), each
 *    with its defaults otherwise (so this checkout's render cache is on, cold at the start).
 *    Per round, every endpoint of bench/endpoints.ts that `--only` selects is driven by
 *    `--clients` closed-loop clients against one API, then the other (the order alternates by
 *    round, so drift of the machine does not favour one): req/s of each and their ratio.
 * 4. 304s: this checkout's API with its response cache off answering If-None-Match of a tx by
 *    hash (identity tag, in the render cache) and of the newest txs page (height tag), against
 *    the 300-byte HTTP floor: time per request relative to the floor's.
 *
 * PostgreSQL: an embedded server (tests/harness/postgres.ts).
 */
import os from 'os';
import path from 'path';
import { Pool } from 'pg';
import { startPostgres } from '../tests/harness/postgres';
import { endpoints } from './endpoints';
import { measureHttpFloor } from './http-floor';
import { startApiServer } from './lib/api-server';
import { runLoad, type LoadResult } from './load';
import { buildBaseStore, copyDatabase, scaleStore, SCHEMA } from './store';

interface Options {
  against: string;
  txs: number;
  clients: number;
  durationMs: number;
  warmupMs: number;
  rounds: number;
  baseBlocks: number;
  only: RegExp | undefined;
}

function parseOptions(argv: string[]): Options {
  const o: Options = {
    against: '',
    txs: 100_000,
    clients: 20,
    durationMs: 5000,
    warmupMs: 1000,
    rounds: 2,
    baseBlocks: 300,
    only: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=');
    const text = () => inline ?? argv[++i];
    const num = () => {
      const n = Number(text());
      if (!(Number.isFinite(n) && n >= 0)) throw new Error(`${flag} must be a non-negative number`);
      return n;
    };
    if (flag === '--against') o.against = path.resolve(text());
    else if (flag === '--txs') o.txs = num();
    else if (flag === '--clients') o.clients = num();
    else if (flag === '--duration') o.durationMs = num() * 1000;
    else if (flag === '--warmup') o.warmupMs = num() * 1000;
    else if (flag === '--rounds') o.rounds = num();
    else if (flag === '--base-blocks') o.baseBlocks = num();
    else if (flag === '--only') o.only = new RegExp(text());
    else throw new Error(`unknown option ${argv[i]}`);
  }
  if (!o.against) throw new Error('--against <checkout> is required');
  return o;
}

function log(line: string): void {
  console.log(`[cold] ${line}`);
}

/** Every table and index of the store into shared_buffers (as bench:api does). */
async function prewarm(url: string): Promise<void> {
  const pool = new Pool({ connectionString: url, max: 1 });
  pool.on('error', () => undefined);
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
    await pool.query(
      `SELECT pg_prewarm(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind IN ('r', 'i')`,
      [SCHEMA],
    );
  } finally {
    await pool.end();
  }
}

const rps = (r: LoadResult) => Math.round(r.rps);

/**
 * 304s of `paths` (each asked with the ETag its 200 carried) between two runs of the 300-byte
 * HTTP floor: time per request relative to the floor's mean of the two.
 */
async function notModifiedCost(
  url: string,
  paths: string[],
  load: { clients: number; durationMs: number; warmupMs: number },
): Promise<void> {
  const before = await measureHttpFloor(300, load);
  const results: [string, LoadResult][] = [];
  for (const path of paths) {
    const etag = (await fetch(url + path)).headers.get('etag') ?? '';
    results.push([
      path,
      await runLoad(url, () => path, { ...load, headers: { 'If-None-Match': etag }, expectStatus: 304 }),
    ]);
  }
  const after = await measureHttpFloor(300, load);
  const floorRps = (before.rps + after.rps) / 2;
  log(`HTTP floor around the 304s: 300 B ${rps(before)} and ${rps(after)} req/s`);
  for (const [path, r] of results)
    console.log(
      `304 of ${path}: ${rps(r)} req/s, p99 ${r.p99.toFixed(1)} ms, time per request ${(floorRps / r.rps).toFixed(2)}x the floor's${r.errors ? `, ${r.errors} not 304: ${r.firstError}` : ''}`,
    );
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const load = { clients: o.clients, durationMs: o.durationMs, warmupMs: o.warmupMs };
  const pg = await startPostgres({ settings: { shared_buffers: '1024MB', work_mem: '16MB', max_connections: 200 } });
  try {
    const floor = await measureHttpFloor(300, load);
    const floorPage = await measureHttpFloor(75_000, load);
    log(`HTTP floor: 300 B ${rps(floor)} req/s (p99 ${floor.p99.toFixed(1)} ms), 75 KB ${rps(floorPage)} req/s`);
    const base = await buildBaseStore(pg.url, { seed: 'bench-api', blocks: o.baseBlocks, txsPerBlock: 10 }, log);
    const db = await copyDatabase(pg.url, base.db.name);
    try {
      const pool = new Pool({ connectionString: db.url, max: 2 });
      pool.on('error', () => undefined);
      const { txs } = await scaleStore(db.url, Math.ceil(o.txs / base.txs), Math.ceil(o.txs / 10), log);
      const list = (await endpoints(pool)).filter((e) => !o.only || o.only.test(e.name));
      const newest = (await pool.query(`SELECT hash FROM "${SCHEMA}".txes ORDER BY seq DESC LIMIT 1`)).rows[0].hash;
      await pool.end();
      await prewarm(db.url);
      const mine = await startApiServer(db.url, SCHEMA, o.clients, false);
      const theirs = await startApiServer(db.url, SCHEMA, o.clients, false, { root: o.against });
      try {
        console.log(
          `\n${txs} txs, ${o.clients} clients, ${o.durationMs / 1000} s per endpoint and API, response cache off (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs)`,
        );
        console.log(`this = ${path.resolve(__dirname, '..')}, other = ${o.against}; req/s per round`);
        for (let round = 1; round <= o.rounds; round++) {
          for (const e of list) {
            const order = round % 2 === 1 ? [theirs, mine] : [mine, theirs];
            const results = new Map<unknown, LoadResult>();
            for (const api of order) results.set(api, await runLoad(api.url, e.next, load));
            const [m, t] = [results.get(mine)!, results.get(theirs)!];
            const errors =
              m.errors + t.errors ? `  errors ${m.errors}/${t.errors} ${m.firstError ?? t.firstError}` : '';
            console.log(
              `round ${round}  ${e.name.padEnd(24)} this ${String(rps(m)).padStart(5)}  other ${String(rps(t)).padStart(5)}  this/other ${(m.rps / t.rps).toFixed(2)}  this/floor ${(m.rps / floor.rps).toFixed(2)}${errors}`,
            );
          }
        }
        await notModifiedCost(mine.url, [`/v1/txs/${newest}`, '/v1/txs'], load);
      } finally {
        mine.child.kill('SIGTERM');
        theirs.child.kill('SIGTERM');
      }
    } finally {
      await db.drop();
      await base.db.drop();
    }
  } finally {
    await pg.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
