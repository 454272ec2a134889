/**
 * `npm run bench:load-indexing -- [--clients 100] [--seconds 60] [--block-ms 500] [--history-blocks 200]
 *   [--segment-seconds 10] [--api VAR=value,...]... [--node-nice N]...` — the /v1 API under the same load
 * while the real node indexes live blocks and while it is paused, in one run:
 *
 * 1. a live devnet in its own process (seeded history, then a block every `--block-ms` with
 *    scenario traffic),
 * 2. the real subql-node-cosmos indexing it into a fresh database (until the history is in),
 * 3. the API in its own process (launcher/rest-adapter-main.ts, as deployed: its default pool of
 *    10 connections, response cache on); `--api VAR=value,...` replaces it by one API per
 *    `--api`, each with those variables (e.g. `--api DB_POOL_MAX=100 --api DB_POOL_MAX=10`), so
 *    settings are compared side by side under the same load,
 * 4. `--clients` keep-alive clients over the endpoints of bench/endpoints.ts, `--seconds` per
 *    phase and API: `indexing` (node and chain running), `idle` (node and chain stopped with
 *    SIGSTOP: no new heights, no node or chain CPU) and, per `--node-nice N`, indexing with
 *    the node at that nice value. Phases run in segments of `--segment-seconds`, in an order
 *    that is then reversed (a b c c b a …), so a drift of the machine's speed favours none.
 *
 * It prints, per API and phase: latency (p50/p99/max), req/s, the response-cache hit rate,
 * blocks indexed and the CPU each process used per second of wall time; then p99(phase) /
 * p99(idle) per API (the target: indexing ≤ 2). Also every status other than 200
 * (none expected), the API processes' RSS before and after, and the indexed height before and
 * after (indexing must go on). tests/integration/load-while-indexing.test.ts runs it at a CI size.
 *
 * PostgreSQL: DATABASE_URL when set, else an embedded server (tests/harness/postgres.ts).
 */
import { monitorEventLoopDelay } from 'perf_hooks';
import { Pool } from 'pg';
import { createDatabase, startPostgres, subqlDbEnv, uniqueName } from '../tests/harness/postgres';
import { startNode, type SubqlNode } from '../tests/harness/subql-node';
import { ensureProjectBuilt } from '../tests/harness/indexed-store';
import { DEFAULT_POOL_MAX } from '../rest-adapter/config';
import { endpoints } from './endpoints';
import { rssMb, startApiServer } from './lib/api-server';
import { startDevnetProcess, type DevnetProcess } from './lib/devnet-process';
import { cpuSeconds, pause, resume, setNice } from './lib/processes';
import { sampleLoad, summarize, type LoadResult, type LoadSamples } from './load';

const SCHEMA = 'svc';
/** after a phase change, before load: lets a flush the node had sent land in the store */
const SETTLE_MS = 300;
/** load not measured at the start of each segment (new connections, the phase's steady state) */
const WARMUP_MS = 500;

/** One API process under test: its environment on top of the bench's (the API's defaults: pool of DB_POOL_MAX 10, cache on). */
export interface ApiVariant {
  label: string;
  env: Record<string, string>;
}

/** What runs beside the API during a phase. */
export interface Phase {
  name: string;
  indexing: boolean;
  /** the node's nice value while indexing */
  nodeNice: number;
}

export interface LoadWhileIndexingOptions {
  serverUrl: string;
  clients: number;
  /** measured load per phase and API */
  durationMs: number;
  blockMs: number;
  historyBlocks: number;
  /** length of one segment (default 10 s, at most half of durationMs) */
  segmentMs?: number;
  /** API processes to compare (default: one, as the bench configures it) */
  apis?: ApiVariant[];
  /** extra indexing phases with the node at these nice values */
  nodeNice?: number[];
  log?: (line: string) => void;
}

/** CPU seconds per wall second, by process (postgres: the backends of the bench's database). */
export type CpuShare = Record<'api' | 'node' | 'postgres' | 'devnet' | 'bench', number>;

export interface CellResult {
  api: string;
  phase: string;
  load: LoadResult;
  /** heights the node committed during the phase's segments */
  blocksIndexed: number;
  cpu: CpuShare;
  /** the largest p99 of the load generator's own event-loop delay over the cell's segments (ms): what of the latency is the measuring side */
  benchLoopDelayP99Ms: number;
}

export interface PhaseRatio {
  api: string;
  phase: string;
  /** p99 of the phase / p99 of idle, same API */
  p99Ratio: number;
}

export interface LoadWhileIndexingResult {
  /** the first API while indexing */
  load: LoadResult;
  /** the first API while idle */
  idle: LoadResult;
  cells: CellResult[];
  ratios: PhaseRatio[];
  rssBeforeMb: number;
  rssAfterMb: number;
  indexedBefore: number;
  indexedAfter: number;
  chainAfter: number;
}

const INDEXING: Phase = { name: 'indexing', indexing: true, nodeNice: 0 };
const IDLE: Phase = { name: 'idle', indexing: false, nodeNice: 0 };

export const DEFAULT_API: ApiVariant = { label: 'defaults', env: {} };

async function indexedHeight(pool: Pool): Promise<number> {
  const r = await pool.query(`SELECT value FROM "${SCHEMA}"._metadata WHERE key = 'lastProcessedHeight'`);
  return Number(r.rows[0]?.value ?? 0);
}

/** The phases and APIs in the order they run: each cell once, then in reverse, as often as needed. */
export function segmentOrder<T>(cells: readonly T[], segmentsPerCell: number): T[] {
  const order: T[] = [];
  for (let i = 0; i < segmentsPerCell; i++) order.push(...(i % 2 === 0 ? cells : [...cells].reverse()));
  return order;
}

function segmentsPerCell(durationMs: number, segmentMs: number): number {
  const n = Math.max(2, Math.round(durationMs / segmentMs));
  return n % 2 === 0 ? n : n + 1;
}

/** The processes whose CPU is counted, and where the indexed height is read. */
interface Meter {
  apiPids: number[];
  node: SubqlNode;
  devnet: DevnetProcess;
  pool: Pool;
}

/** The counters at one moment. */
interface Reading {
  at: number;
  height: number;
  cpu: Omit<CpuShare, 'postgres'>;
  postgres: Map<number, number>;
}

async function read(m: Meter): Promise<Reading> {
  const backends = await m.pool.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    height: await indexedHeight(m.pool),
    cpu: {
      api: m.apiPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
      node: cpuSeconds(m.node.pid),
      devnet: cpuSeconds(m.devnet.pid),
      bench: (usage.user + usage.system) / 1e6,
    },
    postgres: new Map(backends.rows.map((r) => [r.pid, cpuSeconds(r.pid)])),
  };
}

/** CPU seconds used between two readings (a backend that started meanwhile counts from 0). */
function cpuBetween(a: Reading, b: Reading): CpuShare {
  let postgres = 0;
  for (const [pid, seconds] of b.postgres) postgres += seconds - (a.postgres.get(pid) ?? 0);
  return {
    api: b.cpu.api - a.cpu.api,
    node: b.cpu.node - a.cpu.node,
    devnet: b.cpu.devnet - a.cpu.devnet,
    bench: b.cpu.bench - a.cpu.bench,
    postgres,
  };
}

/** Runs the node and the chain, or stops both (the node first, so it never waits on a stopped chain). */
function enterPhase(phase: Phase, node: SubqlNode, devnet: DevnetProcess, running: { now: boolean }): void {
  if (phase.indexing && !running.now) {
    resume(devnet.pid);
    resume(node.pid);
  } else if (!phase.indexing && running.now) {
    pause(node.pid);
    pause(devnet.pid);
  }
  running.now = phase.indexing;
  if (phase.indexing) setNice(node.pid, phase.nodeNice);
}

interface Accumulated {
  samples: LoadSamples;
  blocks: number;
  wallS: number;
  cpu: CpuShare;
  loopDelayP99Ms: number;
}

function emptyAccumulated(): Accumulated {
  return {
    samples: { latencies: [], errors: 0, hits: 0, ms: 0 },
    blocks: 0,
    wallS: 0,
    cpu: { api: 0, node: 0, postgres: 0, devnet: 0, bench: 0 },
    loopDelayP99Ms: 0,
  };
}

function add(acc: Accumulated, s: LoadSamples, before: Reading, after: Reading, loopDelayP99Ms: number): void {
  acc.loopDelayP99Ms = Math.max(acc.loopDelayP99Ms, loopDelayP99Ms);
  for (const ms of s.latencies) acc.samples.latencies.push(ms);
  acc.samples.errors += s.errors;
  acc.samples.hits += s.hits;
  acc.samples.ms += s.ms;
  acc.samples.firstError ??= s.firstError;
  acc.blocks += after.height - before.height;
  acc.wallS += (after.at - before.at) / 1000;
  const used = cpuBetween(before, after);
  for (const k of Object.keys(used) as (keyof CpuShare)[]) acc.cpu[k] += used[k];
}

function cellResult(api: string, phase: string, acc: Accumulated): CellResult {
  const perSecond = (s: number) => s / Math.max(acc.wallS, 1e-3);
  const cpu = Object.fromEntries(Object.entries(acc.cpu).map(([k, s]) => [k, perSecond(s)])) as CpuShare;
  return {
    api,
    phase,
    load: summarize(acc.samples),
    blocksIndexed: acc.blocks,
    cpu,
    benchLoopDelayP99Ms: acc.loopDelayP99Ms,
  };
}

function ratiosOf(cells: readonly CellResult[]): PhaseRatio[] {
  const ratios: PhaseRatio[] = [];
  for (const c of cells) {
    const idle = cells.find((i) => i.api === c.api && i.phase === IDLE.name);
    if (c.phase !== IDLE.name && idle)
      ratios.push({ api: c.api, phase: c.phase, p99Ratio: c.load.p99 / idle.load.p99 });
  }
  return ratios;
}

function cellLine(c: CellResult): string {
  const l = c.load;
  const cpu = Object.entries(c.cpu)
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(', ');
  return (
    `[${c.api}] ${c.phase}: ${l.requests} requests, ${Math.round(l.rps)} req/s, p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, ` +
    `max ${l.max.toFixed(0)} ms, hit ${Math.round(l.hitRate * 100)} %, ${l.errors} not 200${l.firstError ? ` (first: ${l.firstError})` : ''}; ` +
    `${c.blocksIndexed} blocks indexed; CPU s/s: ${cpu}; load generator's event-loop delay p99 ≤ ${c.benchLoopDelayP99Ms.toFixed(0)} ms`
  );
}

export async function loadWhileIndexing(o: LoadWhileIndexingOptions): Promise<LoadWhileIndexingResult> {
  const log = o.log ?? (() => undefined);
  ensureProjectBuilt();
  const devnet = await startDevnetProcess({
    seed: 'load-indexing',
    historyBlocks: o.historyBlocks,
    txsPerBlock: 10,
    blockMs: o.blockMs,
  });
  const db = await createDatabase(o.serverUrl, uniqueName('load_indexing'));
  const pool = new Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => undefined);
  try {
    const node = await startNode({ dbEnv: subqlDbEnv(db), endpoint: devnet.url, schema: SCHEMA });
    const running = { now: true };
    try {
      await node.waitForHeight(o.historyBlocks, 600_000);
      const variants = o.apis?.length ? o.apis : [DEFAULT_API];
      const apis = await Promise.all(
        variants.map(async (v) => ({
          ...v,
          ...(await startApiServer(db.url, SCHEMA, DEFAULT_POOL_MAX, true, { env: v.env })),
        })),
      );
      try {
        const list = await endpoints(pool);
        let i = 0;
        const next = () => list[i++ % list.length].next();
        const meter: Meter = { apiPids: apis.map((a) => a.child.pid!), node, devnet, pool };
        const phases = [
          INDEXING,
          IDLE,
          ...(o.nodeNice ?? []).map((n) => ({ ...INDEXING, name: `indexing, node nice ${n}`, nodeNice: n })),
        ];
        const cells = apis.flatMap((api) => phases.map((phase) => ({ api, phase, acc: emptyAccumulated() })));
        const perCell = segmentsPerCell(o.durationMs, Math.min(o.segmentMs ?? 10_000, o.durationMs / 2));
        const segmentMs = o.durationMs / perCell;
        const rssBeforeMb = rssMb(apis[0].child.pid!);
        const indexedBefore = await indexedHeight(pool);
        log(
          `load: ${o.clients} clients for ${o.durationMs / 1000} s per phase and API (${perCell} segments of ${segmentMs / 1000} s) over ${list.length} endpoints; ` +
            `phases ${phases.map((p) => p.name).join(' / ')}; APIs ${apis.map((a) => a.label).join(' / ')}; indexed ${indexedBefore}, API RSS ${rssBeforeMb} MB`,
        );
        const loopDelay = monitorEventLoopDelay({ resolution: 10 });
        loopDelay.enable();
        for (const cell of segmentOrder(cells, perCell)) {
          enterPhase(cell.phase, node, devnet, running);
          await new Promise((r) => setTimeout(r, SETTLE_MS));
          const before = await read(meter);
          loopDelay.reset();
          const s = await sampleLoad(cell.api.url, next, {
            clients: o.clients,
            durationMs: segmentMs,
            warmupMs: WARMUP_MS,
          });
          add(cell.acc, s, before, await read(meter), loopDelay.percentile(99) / 1e6);
        }
        loopDelay.disable();
        enterPhase(INDEXING, node, devnet, running);
        const rssAfterMb = rssMb(apis[0].child.pid!);
        const indexedAfter = await indexedHeight(pool);
        const chainAfter = await devnet.height();
        const results = cells.map((c) => cellResult(c.api.label, c.phase.name, c.acc));
        for (const c of results) log(cellLine(c));
        const ratios = ratiosOf(results);
        for (const r of ratios) log(`[${r.api}] p99 ${r.phase} / p99 idle = ${r.p99Ratio.toFixed(2)}`);
        log(
          `API RSS ${rssBeforeMb} → ${rssAfterMb} MB; indexed ${indexedBefore} → ${indexedAfter} (chain ${chainAfter})`,
        );
        const first = (phase: string) => results.find((c) => c.api === apis[0].label && c.phase === phase)!.load;
        return {
          load: first(INDEXING.name),
          idle: first(IDLE.name),
          cells: results,
          ratios,
          rssBeforeMb,
          rssAfterMb,
          indexedBefore,
          indexedAfter,
          chainAfter,
        };
      } finally {
        for (const api of apis) api.child.kill('SIGTERM');
      }
    } finally {
      if (!running.now) enterPhase(INDEXING, node, devnet, running);
      await node.stop();
    }
  } finally {
    await pool.end();
    await devnet.stop();
    await db.drop().catch(() => undefined);
  }
}

interface Args {
  clients: number;
  seconds: number;
  blockMs: number;
  historyBlocks: number;
  segmentSeconds: number;
  apis: ApiVariant[];
  nodeNice: number[];
}

/** `VAR=value,VAR=value`: the API's environment variables (docs/rest-adapter.md, Configuration). */
function apiVariant(spec: string): ApiVariant {
  const env: Record<string, string> = {};
  for (const pair of spec.split(',')) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(pair);
    if (!m) throw new Error(`--api needs VAR=value[,VAR=value...], got "${spec}"`);
    env[m[1]] = m[2];
  }
  return { label: spec, env };
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    clients: 100,
    seconds: 60,
    blockMs: 500,
    historyBlocks: 200,
    segmentSeconds: 10,
    apis: [],
    nodeNice: [],
  };
  for (let i = 0; i < argv.length; i += 2) {
    const value = argv[i + 1] ?? '';
    if (argv[i] === '--api') {
      a.apis.push(apiVariant(value));
      continue;
    }
    const n = Number(value);
    if (argv[i] === '--node-nice') {
      if (!Number.isInteger(n) || n < -20 || n > 19) throw new Error('--node-nice needs an integer from -20 to 19');
      a.nodeNice.push(n);
      continue;
    }
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${argv[i]} needs a positive integer`);
    if (argv[i] === '--clients') a.clients = n;
    else if (argv[i] === '--seconds') a.seconds = n;
    else if (argv[i] === '--block-ms') a.blockMs = n;
    else if (argv[i] === '--history-blocks') a.historyBlocks = n;
    else if (argv[i] === '--segment-seconds') a.segmentSeconds = n;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return a;
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  const pg = await startPostgres({
    settings: { max_connections: Math.max(200, a.clients * Math.max(1, a.apis.length) + 50) },
  });
  try {
    const r = await loadWhileIndexing({
      serverUrl: pg.url,
      clients: a.clients,
      durationMs: a.seconds * 1000,
      blockMs: a.blockMs,
      historyBlocks: a.historyBlocks,
      segmentMs: a.segmentSeconds * 1000,
      apis: a.apis,
      nodeNice: a.nodeNice,
      log: (l) => console.log(`[bench:load-indexing] ${l}`),
    });
    console.log(JSON.stringify({ bench: 'load-while-indexing', ...a, ...r }));
    const errors = r.cells.reduce((n, c) => n + c.load.errors, 0);
    if (errors > 0 || r.indexedAfter <= r.indexedBefore) process.exitCode = 1;
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
