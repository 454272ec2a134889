/**
 * `npm run bench:api` — the /v1 read API under load on a store of ≥ 1M txs, then on
 * one tenth of it, side by side with PostGraphile and the HTTP floor.
 *
 *   npm run bench:api -- [--txs 1000000] [--sizes <txs,txs,…>] [--clients 20] [--duration 5] [--warmup 1]
 *                        [--serial 1 (0: no 1-client column)] [--floor-duration 1] [--holders 100000] [--base-blocks 300]
 *                        [--shared-buffers-mb 6144] [--cold] [--cold-answers] [--no-cache]
 *                        [--response-cache-mb 64] [--api-env NAME=VALUE]… [--no-postgraphile]
 *                        [--only <regex of endpoint names>] [--keep (with DATABASE_URL: keep the databases)]
 *                        [--against <another checkout, built>]
 *
 * 1. The base store: a seeded devnet history indexed by the real node (bench/store.ts).
 * 2. Per size (`--sizes`, default `--txs` and one tenth of it; `--holders` is for `--txs` and
 *    scales with the size): a copy of it scaled up with SQL to the target number of txs (the
 *    node's own rows replicated at later heights, counters rewritten; see bench/store.ts for
 *    what is and is not the node's work), VACUUM ANALYZE, EXPLAIN of every statement the API
 *    runs (sequential scans reported), the store's tables and indexes loaded into
 *    shared_buffers with pg_prewarm (a serving database has its working set cached; this
 *    machine's kernel reclaims idle page cache, so cold reads go to a slow disk, ~5 ms each;
 *    `--cold` skips it), then, each in its own process: the API (launcher/rest-adapter-main.ts),
 *    PostGraphile as `npm start` serves it (bench/lib/graphql-server.ts) and the HTTP floor
 *    (bench/http-floor.ts: Express answering fixed bytes, 300 B and 75 KB, no database),
 *    all driven by the same `--clients` keep-alive closed-loop clients.
 * 3. Per endpoint: the API's req/s, p50/p99 and the share of answers from its response cache
 *    (`hit %`); PostGraphile's equivalent query (bench/graphql-equivalents.ts, "—" where there
 *    is none) and the ratio; the HTTP floor for an answer of its size, measured right after it
 *    (`--floor-duration`, the machine's speed drifts within a run too) and the ratio; a 304
 *    line: the same URL with `If-None-Match` of its ETag, its time against the small floor's
 *    ("n/a" when the answer has no ETag); the targets next to the figures
 *    (bench/lib/api-targets.ts).
 *    `1c p50 nc`: a short run with one client against a second API process without the
 *    response cache, the endpoint's service time without queueing.
 * 4. With two sizes or more: each endpoint's floor-relative throughput at the largest store
 *    over the smallest (flat = the cost does not grow with the store).
 * 5. With `--against <dir>`: that checkout's API (its own launcher/rest-adapter-main.ts, same
 *    settings) on the same store, measured right after this one per endpoint, and a table of
 *    this API's req/s and p99 over its (a refactoring's "within noise of before", in one run).
 *
 * The API's caches are flags: `--response-cache-mb` (0 = off, `--no-cache`), `--api-env` for
 * any other setting of its configuration (docs/rest-adapter.md). `--cold-answers`: response
 * cache off; the API processes start fresh for each size, so whatever else they keep in
 * memory (rendered answers) is cold at the start of the run.
 *
 * PostgreSQL: DATABASE_URL when set, else an embedded server (tests/harness/postgres.ts).
 */
import os from 'os';
import path from 'path';
import { Pool } from 'pg';
import { startPostgres } from '../tests/harness/postgres';
import { restEndpoints, sampleStore, type Endpoint } from './endpoints';
import { explainEndpoints } from './explain';
import { graphqlEquivalents } from './graphql-equivalents';
import { FLOOR_PATH, startHttpFloor } from './http-floor';
import { probe, runLoad, type HttpRequest, type LoadResult } from './load';
import { startApiServer } from './lib/api-server';
import { startGraphqlServer } from './lib/graphql-server';
import {
  endpointClass,
  LARGE_ANSWER_BYTES,
  MAX_304_OVER_FLOOR_TIME,
  MIN_FLAT_RATIO,
  MIN_FLOOR_RATIO,
  MIN_REST_OVER_POSTGRAPHILE,
} from './lib/api-targets';
import { buildBaseStore, copyDatabase, prewarmStore, scaleStore, SCHEMA } from './store';

const TARGET_P99_MS = 20;
const DEFAULT_RESPONSE_CACHE_MB = 64;

interface Options {
  txs: number;
  sizes: number[] | undefined;
  clients: number;
  durationMs: number;
  warmupMs: number;
  serialMs: number;
  floorMs: number;
  holders: number;
  baseBlocks: number;
  sharedBuffersMb: number;
  cold: boolean;
  responseCacheMb: number;
  apiEnv: Record<string, string>;
  postgraphile: boolean;
  only: RegExp | undefined;
  keep: boolean;
  against: string | undefined;
}

function parseOptions(argv: string[]): Options {
  const o: Options = {
    txs: 1_000_000,
    sizes: undefined,
    clients: 20,
    durationMs: 5000,
    warmupMs: 1000,
    serialMs: 1000,
    floorMs: 1000,
    holders: 100_000,
    baseBlocks: 300,
    sharedBuffersMb: 6144,
    cold: false,
    responseCacheMb: DEFAULT_RESPONSE_CACHE_MB,
    apiEnv: {},
    postgraphile: true,
    only: undefined,
    keep: false,
    against: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const eq = argv[i].indexOf('=');
    const flag = eq < 0 ? argv[i] : argv[i].slice(0, eq);
    const inline = eq < 0 ? undefined : argv[i].slice(eq + 1);
    const text = () => inline ?? argv[++i];
    const value = () => Number(text());
    switch (flag) {
      case '--txs':
        o.txs = value();
        break;
      case '--sizes':
        o.sizes = text().split(',').map(Number);
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
      case '--floor-duration':
        o.floorMs = value() * 1000;
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
      case '--cold-answers':
        o.responseCacheMb = 0;
        break;
      case '--response-cache-mb':
        o.responseCacheMb = value();
        break;
      case '--api-env': {
        const setting = text();
        const at = setting.indexOf('=');
        if (at <= 0) throw new Error(`--api-env wants NAME=VALUE, got "${setting}"`);
        o.apiEnv[setting.slice(0, at)] = setting.slice(at + 1);
        break;
      }
      case '--no-postgraphile':
        o.postgraphile = false;
        break;
      case '--only':
        o.only = new RegExp(text());
        break;
      case '--keep':
        o.keep = true;
        break;
      case '--against':
        o.against = path.resolve(text());
        break;
      default:
        throw new Error(`unknown option ${argv[i]}`);
    }
  }
  for (const [k, v] of Object.entries(o))
    if (typeof v === 'number' && !(Number.isFinite(v) && v >= 0))
      throw new Error(`--${k} must be a non-negative number`);
  if (o.sizes?.some((n) => !(Number.isInteger(n) && n > 0)))
    throw new Error('--sizes must be positive integers, comma-separated');
  return o;
}

function log(line: string): void {
  console.log(`[bench] ${line}`);
}

function formatRow(cells: (string | number)[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
}

const FLOOR_BYTES = { small: 300, large: 75_000 } as const;

type FloorSize = keyof typeof FLOOR_BYTES;

/** The floor an answer of `bytes` is compared with. */
function floorSizeFor(bytes: number): FloorSize {
  return bytes >= LARGE_ANSWER_BYTES ? 'large' : 'small';
}

/** What one endpoint measured at one size. */
interface EndpointFigures {
  name: string;
  bytes: number;
  serial: LoadResult | undefined;
  rest: LoadResult;
  /** the HTTP floor for an answer of its size, measured right after it */
  floor: LoadResult;
  /** the small answer's floor, measured right after the 304s (when there are) */
  floorSmall: LoadResult | undefined;
  postgraphile: LoadResult | undefined;
  /** undefined: the answer has no ETag */
  notModified: LoadResult | undefined;
  /** the --against checkout's API, measured right after this one */
  against: LoadResult | undefined;
}

/** One size's figures, by endpoint. */
interface SizeRun {
  txs: number;
  figures: EndpointFigures[];
}

interface Servers {
  api: string;
  against: string | undefined;
  uncached: string | undefined;
  graphql: string | undefined;
  floor: Record<FloorSize, string>;
}

/** One GraphQL request checked before its load run: PostGraphile answers 200 even to an invalid query. */
async function checkGraphql(url: string, request: HttpRequest): Promise<string | undefined> {
  const answer = await probe(url, request);
  const body = JSON.parse(answer.body || '{}') as { errors?: unknown };
  if (answer.status !== 200 || body.errors !== undefined) return `${answer.status} ${answer.body.slice(0, 300)}`;
  return undefined;
}

async function measureEndpoint(
  e: Endpoint,
  graphql: (() => HttpRequest) | undefined,
  servers: Servers,
  o: Options,
): Promise<EndpointFigures> {
  const load = { clients: o.clients, durationMs: o.durationMs, warmupMs: o.warmupMs };
  const fixedPath = e.next();
  const first = await probe(servers.api, { path: fixedPath });
  const serial = servers.uncached
    ? await runLoad(servers.uncached, e.next, { clients: 1, durationMs: o.serialMs, warmupMs: 100 })
    : undefined;
  const rest = await runLoad(servers.api, e.next, load);
  const against = servers.against ? await runLoad(servers.against, e.next, load) : undefined;
  let postgraphile: LoadResult | undefined;
  if (graphql && servers.graphql) {
    const problem = await checkGraphql(servers.graphql, graphql());
    if (problem) log(`${e.name}: PostGraphile's equivalent query failed, not measured: ${problem}`);
    else postgraphile = await runLoad(servers.graphql, graphql, load);
  }
  const bytes = Buffer.byteLength(first.body);
  const floorLoad = { clients: o.clients, durationMs: o.floorMs, warmupMs: Math.min(o.warmupMs, o.floorMs / 4) };
  const floor = await runLoad(servers.floor[floorSizeFor(bytes)], () => FLOOR_PATH, floorLoad);
  if (first.etag === undefined)
    return {
      name: e.name,
      bytes,
      serial,
      rest,
      floor,
      floorSmall: undefined,
      postgraphile,
      notModified: undefined,
      against,
    };
  const notModified = await runLoad(
    servers.api,
    () => ({ path: fixedPath, headers: { 'if-none-match': first.etag! } }),
    { ...load, expectStatus: 304 },
  );
  const floorSmall = await runLoad(servers.floor.small, () => FLOOR_PATH, floorLoad);
  return { name: e.name, bytes, serial, rest, floor, floorSmall, postgraphile, notModified, against };
}

const ratio = (x: number) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));

/** `value` with a mark when it misses `target` (`at least` or `at most`). */
function againstTarget(value: number, target: number | undefined, at: 'least' | 'most'): string {
  if (target === undefined) return ratio(value);
  const met = at === 'least' ? value >= target : value <= target;
  return `${ratio(value)}${met ? ' ' : '!'}`;
}

function printSizeTable(run: SizeRun, o: Options): void {
  const widths = [24, 5, 9, 7, 7, 5, 8, 8, 6, 10, 9, 11, 6];
  console.log(
    `\n${run.txs} txs, ${o.clients} clients, ${o.durationMs / 1000} s per endpoint, response cache ${o.responseCacheMb ? `${o.responseCacheMb} MB` : 'off'}` +
      `${Object.keys(o.apiEnv).length ? `, API env ${JSON.stringify(o.apiEnv)}` : ''} (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs)`,
  );
  console.log(
    `floor: the HTTP floor's req/s measured right after each endpoint (${o.floorMs / 1000} s), answering ${FLOOR_BYTES.small} B, or ${FLOOR_BYTES.large} B for answers of ${LARGE_ANSWER_BYTES} B or more. "!" = misses its target.`,
  );
  console.log(
    `targets: REST/PG >= ${MIN_REST_OVER_POSTGRAPHILE}; REST/floor >= ${MIN_FLOOR_RATIO.heavy} (heavy), >= ${MIN_FLOOR_RATIO.point} (point); 304 time / floor time <= ${MAX_304_OVER_FLOOR_TIME}`,
  );
  console.log(
    formatRow(
      [
        'endpoint',
        'class',
        '1c p50 nc',
        'req/s',
        'p99 ms',
        'hit %',
        'PG req/s',
        'REST/PG',
        'floor',
        'REST/floor',
        '304 req/s',
        '304/floor t',
        'errors',
      ],
      widths,
    ),
  );
  for (const f of run.figures) {
    const cls = endpointClass(f.name);
    const floorRatio = f.rest.rps / f.floor.rps;
    const notModifiedTime = f.notModified && f.floorSmall ? f.floorSmall.rps / f.notModified.rps : undefined;
    const errors = [f.rest, f.serial, f.postgraphile, f.notModified, f.floor, f.floorSmall].reduce(
      (n, r) => n + (r?.errors ?? 0),
      0,
    );
    console.log(
      formatRow(
        [
          f.name,
          cls,
          f.serial ? f.serial.p50.toFixed(1) : '-',
          Math.round(f.rest.rps),
          f.rest.p99.toFixed(1),
          Math.round(f.rest.hitRate * 100),
          f.postgraphile ? Math.round(f.postgraphile.rps) : '—',
          f.postgraphile ? againstTarget(f.rest.rps / f.postgraphile.rps, MIN_REST_OVER_POSTGRAPHILE, 'least') : '—',
          Math.round(f.floor.rps),
          againstTarget(floorRatio, MIN_FLOOR_RATIO[cls], 'least'),
          f.notModified ? Math.round(f.notModified.rps) : 'n/a',
          notModifiedTime === undefined ? 'n/a' : againstTarget(notModifiedTime, MAX_304_OVER_FLOOR_TIME, 'most'),
          errors,
        ],
        widths,
      ),
    );
    const firstError =
      f.serial?.firstError ?? f.rest.firstError ?? f.postgraphile?.firstError ?? f.notModified?.firstError;
    if (firstError) console.log(`    first error: ${firstError}`);
  }
  const withPg = run.figures.filter((f) => f.postgraphile);
  const pgMet = withPg.filter((f) => f.rest.rps / f.postgraphile!.rps >= MIN_REST_OVER_POSTGRAPHILE).length;
  const floorTargeted = run.figures.filter((f) => MIN_FLOOR_RATIO[endpointClass(f.name)] !== undefined);
  const floorMet = floorTargeted.filter(
    (f) => f.rest.rps / f.floor.rps >= MIN_FLOOR_RATIO[endpointClass(f.name)]!,
  ).length;
  const p99Met = run.figures.filter((f) => f.rest.p99 < TARGET_P99_MS).length;
  console.log(
    `REST >= ${MIN_REST_OVER_POSTGRAPHILE}x PostGraphile: ${pgMet}/${withPg.length} endpoints with an equivalent; ` +
      `floor ratio targets met: ${floorMet}/${floorTargeted.length}; p99 < ${TARGET_P99_MS} ms: ${p99Met}/${run.figures.length}\n`,
  );
}

/** This API against the --against checkout's, per endpoint, and the median of the ratios. */
function printAgainst(run: SizeRun, against: string): void {
  const measured = run.figures.filter((f) => f.against);
  if (!measured.length) return;
  const widths = [24, 8, 10, 8, 8, 10, 8];
  console.log(`this checkout against ${against} (${run.txs} txs), each measured right after this one`);
  console.log(formatRow(['endpoint', 'req/s', 'its req/s', 'ratio', 'p99 ms', 'its p99 ms', 'ratio'], widths));
  const ratios: number[] = [];
  for (const f of measured) {
    const it = f.against!;
    ratios.push(f.rest.rps / it.rps);
    console.log(
      formatRow(
        [
          f.name,
          Math.round(f.rest.rps),
          Math.round(it.rps),
          ratio(f.rest.rps / it.rps),
          f.rest.p99.toFixed(1),
          it.p99.toFixed(1),
          ratio(f.rest.p99 / Math.max(it.p99, 0.001)),
        ],
        widths,
      ),
    );
  }
  const sorted = ratios.sort((a, b) => a - b);
  console.log(`median req/s ratio ${ratio(sorted[Math.floor(sorted.length / 2)])} over ${sorted.length} endpoints\n`);
}

/** Floor-relative throughput at the largest size over the smallest, per endpoint (target: flat). */
function printScaleUp(runs: SizeRun[]): void {
  const sorted = [...runs].sort((a, b) => a.txs - b.txs);
  const small = sorted[0];
  const large = sorted[sorted.length - 1];
  const widths = [24, 12, 12, 10];
  console.log(`scale-up: REST/floor at ${large.txs} txs ÷ at ${small.txs} txs (target >= ${MIN_FLAT_RATIO})`);
  console.log(formatRow(['endpoint', `${small.txs}`, `${large.txs}`, 'ratio'], widths));
  for (const f of large.figures) {
    const s = small.figures.find((x) => x.name === f.name);
    if (!s) continue;
    const atSmall = s.rest.rps / s.floor.rps;
    const atLarge = f.rest.rps / f.floor.rps;
    console.log(
      formatRow(
        [f.name, ratio(atSmall), ratio(atLarge), againstTarget(atLarge / atSmall, MIN_FLAT_RATIO, 'least')],
        widths,
      ),
    );
  }
}

/** The API (and its uncached twin, and PostGraphile) in their own processes, for one store. */
async function startServers(databaseUrl: string, o: Options) {
  // --api-env comes last: a setting named there wins over the flags'
  const env = { RESPONSE_CACHE_MB: String(o.responseCacheMb), ...o.apiEnv };
  const api = await startApiServer(databaseUrl, SCHEMA, o.clients, o.responseCacheMb > 0, { env });
  const against = o.against
    ? await startApiServer(databaseUrl, SCHEMA, o.clients, o.responseCacheMb > 0, { env, root: o.against })
    : undefined;
  const uncached =
    o.serialMs > 0
      ? await startApiServer(databaseUrl, SCHEMA, 1, false, { env: { ...o.apiEnv, RESPONSE_CACHE_MB: '0' } })
      : undefined;
  const graphql = o.postgraphile ? await startGraphqlServer(databaseUrl, SCHEMA) : undefined;
  const small = await startHttpFloor(FLOOR_BYTES.small);
  const large = await startHttpFloor(FLOOR_BYTES.large);
  const children = [api.child, against?.child, uncached?.child, graphql?.child];
  return {
    urls: {
      api: api.url,
      against: against?.url,
      uncached: uncached?.url,
      graphql: graphql?.url,
      floor: { small: small.url, large: large.url },
    },
    stop: () => {
      children.forEach((c) => c?.kill('SIGTERM'));
      small.stop();
      large.stop();
    },
  };
}

async function benchSize(
  serverUrl: string,
  template: string,
  size: number,
  o: Options,
  holders: number,
): Promise<SizeRun> {
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
    const sample = await sampleStore(pool).finally(() => pool.end());
    const list = restEndpoints(sample).filter((e) => !o.only || o.only.test(e.name));
    const equivalents = graphqlEquivalents(sample);
    const report = await explainEndpoints(db.url, list);
    log(
      `EXPLAIN: ${report.statements} statements, ${report.indexes.size} indexes used, ${report.seqScans.length} sequential scans of tables over 10,000 rows`,
    );
    for (const s of report.seqScans) log(`  seq scan: ${s}`);
    log(
      `planned once: ${report.generic} statements, ${report.genericDiffers.length} with another plan than for their values`,
    );
    for (const d of report.genericDiffers) log(`  ${d}`);
    log(
      `statements per request (BEGIN and COMMIT not counted): ${[...report.perEndpoint].map(([name, n]) => `${name} ${n}`).join(', ')}`,
    );
    if (!o.cold) log(`pg_prewarm: ${await prewarmStore(db.url)} MB of tables and indexes loaded into shared_buffers`);
    const servers = await startServers(db.url, o);
    try {
      const figures: EndpointFigures[] = [];
      for (const e of list) {
        const f = await measureEndpoint(e, equivalents.get(e.name), servers.urls, o);
        log(
          `${e.name}: ${Math.round(f.rest.rps)} req/s, floor ${Math.round(f.floor.rps)}${f.postgraphile ? `, PostGraphile ${Math.round(f.postgraphile.rps)}` : ''}${f.notModified ? `, 304 ${Math.round(f.notModified.rps)}` : ''}`,
        );
        figures.push(f);
      }
      const run: SizeRun = { txs, figures };
      printSizeTable(run, o);
      if (o.against) printAgainst(run, o.against);
      return run;
    } finally {
      servers.stop();
    }
  } finally {
    if (!o.keep) await db.drop();
    else log(`kept database ${db.name}`);
  }
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const sizes = o.sizes ?? [o.txs, Math.ceil(o.txs / 10)];
  const pg = await startPostgres({
    settings: { shared_buffers: `${o.sharedBuffersMb}MB`, work_mem: '16MB', max_connections: 200 },
  });
  try {
    const base = await buildBaseStore(pg.url, { seed: 'bench-api', blocks: o.baseBlocks, txsPerBlock: 10 }, log);
    try {
      const runs: SizeRun[] = [];
      for (const size of sizes)
        runs.push(await benchSize(pg.url, base.db.name, size, o, Math.ceil((o.holders * size) / o.txs)));
      if (runs.length > 1) printScaleUp(runs);
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
