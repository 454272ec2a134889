/**
 * `npm run bench:stream -- [--subscribers 1000] [--phase-seconds 40] [--block-ms 1000]
 *   [--filtered-share 0.1] [--history-blocks 200]`
 *
 * What `GET /v1/stream` costs and how fast it pushes, against the same run with no subscriber:
 *
 * 1. a live devnet (seeded history, then a block every `--block-ms` with scenario traffic, as
 *    `npm start`), the real subql-node-cosmos indexing it into a fresh database, the API in its
 *    own process (launcher/rest-adapter-main.ts, as deployed; STREAM_MAX_PER_CLIENT and
 *    STREAM_MAX_CONNECTIONS raised for the loopback clients);
 * 2. a commit watcher: `_metadata.lastProcessedHeight` read every 10 ms on its own connection;
 *    the first read that shows a height is when that height was committed ("commit seen");
 * 3. phase `none`: `--phase-seconds` with no subscriber;
 * 4. phase `N`: `--subscribers` SSE clients on loopback (all connected before the phase starts):
 *    most on the chain stream (`/v1/stream`), `--filtered-share` of them on the most active
 *    accounts and assets (`?account=`, `?asset=`), for the same length.
 *
 * Per phase it prints: indexing lag (the devnet block's header time → commit seen) p50/p99,
 * the indexer's rate (heights committed per second) and its CPU per height, the adapter's CPU
 * (ms per second, from /proc) and RSS; in phase N the push delay (commit seen → a `block` event
 * read by a client, every client and height) p50/p99 and max, and the events each client kind
 * got. Then the ratios and the targets: indexer rate with N ≥ 0.9 × without, push delay
 * p99 ≤ one block interval + the indexing lag p99. The clients run in this process and share
 * the 2 cores with the node, PostgreSQL and the adapter: their parsing cost is in the figures.
 *
 * PostgreSQL: DATABASE_URL when set, else an embedded server (tests/harness/postgres.ts).
 */
import http from 'http';
import { createParser } from 'eventsource-parser';
import { Client, Pool } from 'pg';
import type { Devnet } from '../devnet/cli';
import { createDatabase, startPostgres, subqlDbEnv, uniqueName } from '../tests/harness/postgres';
import { startNode, type SubqlNode } from '../tests/harness/subql-node';
import { ensureProjectBuilt } from '../tests/harness/indexed-store';
import { rssMb, startApiServer } from './lib/api-server';
import { machineState, busy } from './lib/machine';
import { cpuMs } from './lib/node-run';
import { dist, indexedHeightWatcher, type HeightWatcher } from './lib/head-watchers';

const SCHEMA = 'svc';
const COMMIT_POLL_MS = 10;

interface Args {
  subscribers: number;
  phaseSeconds: number;
  blockMs: number;
  filteredShare: number;
  historyBlocks: number;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { subscribers: 1000, phaseSeconds: 40, blockMs: 1000, filteredShare: 0.1, historyBlocks: 200 };
  const names: Record<string, keyof Args> = {
    '--subscribers': 'subscribers',
    '--phase-seconds': 'phaseSeconds',
    '--block-ms': 'blockMs',
    '--filtered-share': 'filteredShare',
    '--history-blocks': 'historyBlocks',
  };
  for (let i = 0; i < argv.length; i += 2) {
    const key = names[argv[i]];
    const n = Number(argv[i + 1]);
    if (!key) throw new Error(`unknown option ${argv[i]}`);
    if (!(n >= 0) || (key !== 'filteredShare' && !Number.isSafeInteger(n)) || (key === 'filteredShare' && n > 1))
      throw new Error(`${argv[i]} needs ${key === 'filteredShare' ? 'a share from 0 to 1' : 'a whole number'}`);
    a[key] = n;
  }
  if (a.subscribers > 1000) throw new Error('--subscribers is at most 1000 on this machine (loopback clients)');
  return a;
}

const summary = dist;

const r1 = (x: number) => Math.round(x * 10) / 10;

type ClientKind = 'chain' | 'account' | 'asset';

interface Subscriber {
  kind: ClientKind;
  request: http.ClientRequest;
  events: Record<string, number>;
  closed?: string;
}

/** The push delays of one phase: commit seen → a `block` event read, per client and height. */
interface Deliveries {
  delays: number[];
  /** block events whose height the commit watcher had not seen yet (counted apart) */
  beforeCommitSeen: number;
}

function openSubscriber(
  apiUrl: string,
  kind: ClientKind,
  query: string,
  onBlock: (height: number) => void,
): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const sub: Subscriber = { kind, request: undefined as unknown as http.ClientRequest, events: {} };
    const parser = createParser({
      onEvent(e) {
        const name = e.event ?? 'message';
        sub.events[name] = (sub.events[name] ?? 0) + 1;
        if (name === 'block') onBlock((JSON.parse(e.data) as { height: number }).height);
        if (name === 'close') sub.closed = e.data;
      },
    });
    sub.request = http.get(`${apiUrl}/v1/stream${query}`, { agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`GET /v1/stream${query}: HTTP ${res.statusCode}`));
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => parser.feed(chunk));
      res.on('error', () => undefined);
      resolve(sub);
    });
    sub.request.on('error', reject);
  });
}

/** The most active accounts and assets (activity feed rows), for the filtered subscribers. */
async function activeSubjects(pool: Pool): Promise<{ accounts: string[]; assets: string[] }> {
  const r = await pool.query<{ feed: string }>(
    `SELECT feed FROM "${SCHEMA}".activity_entries GROUP BY feed ORDER BY count(*) DESC LIMIT 40`,
  );
  const of = (prefix: string) =>
    r.rows.filter((x) => x.feed.startsWith(prefix)).map((x) => x.feed.slice(prefix.length));
  return { accounts: of('account:').slice(0, 10), assets: of('asset:').slice(0, 10) };
}

interface PhaseFigures {
  label: string;
  seconds: number;
  heights: number;
  heightsPerSec: number;
  indexingLagMs: { p50: number; p99: number };
  nodeCpuMsPerHeight: number;
  adapterCpuMsPerSec: number;
  adapterRssMb: number;
  pushDelayMs?: { n: number; p50: number; p99: number; max: number };
  blockEventsBeforeCommitSeen?: number;
  eventsPerClient?: Record<string, Record<string, number>>;
  closedBySever?: number;
  /** the `code` of each server-sent `close` event (openapi StreamClose), counted */
  closeCodes?: Record<string, number>;
}

function closeCode(data: string): string {
  try {
    return String((JSON.parse(data) as { code?: unknown }).code);
  } catch {
    return 'unparsed';
  }
}

async function phase(
  label: string,
  seconds: number,
  ctx: { devnet: Devnet; node: SubqlNode; apiPid: number; commits: HeightWatcher },
  deliveries?: Deliveries,
): Promise<PhaseFigures> {
  const from = ctx.commits.height;
  const nodeCpu0 = cpuMs(ctx.node.pid);
  const apiCpu0 = cpuMs(ctx.apiPid);
  const t0 = Date.now();
  if (deliveries) deliveries.delays.length = 0;
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const elapsed = (Date.now() - t0) / 1000;
  const to = ctx.commits.height;
  const lags: number[] = [];
  for (let h = from + 1; h <= to; h++) {
    const header = ctx.devnet.chain.block(h)?.header;
    const seen = ctx.commits.seenAt.get(h);
    if (!header || seen === undefined) continue;
    lags.push(seen - (Number(header.time.seconds) * 1000 + Math.floor(header.time.nanos / 1e6)));
  }
  const heights = to - from;
  const lag = summary(lags);
  return {
    label,
    seconds: r1(elapsed),
    heights,
    heightsPerSec: Math.round((heights / elapsed) * 1000) / 1000,
    indexingLagMs: { p50: lag.p50, p99: lag.p99 },
    nodeCpuMsPerHeight: heights ? r1((cpuMs(ctx.node.pid) - nodeCpu0) / heights) : NaN,
    adapterCpuMsPerSec: r1((cpuMs(ctx.apiPid) - apiCpu0) / elapsed),
    adapterRssMb: rssMb(ctx.apiPid),
    ...(deliveries ? { pushDelayMs: summary(deliveries.delays) } : {}),
  };
}

function printPhase(f: PhaseFigures): void {
  const push = f.pushDelayMs
    ? `; push delay p50 ${f.pushDelayMs.p50} ms, p99 ${f.pushDelayMs.p99} ms, max ${f.pushDelayMs.max} ms over ${f.pushDelayMs.n} block events`
    : '';
  console.log(
    `[bench:stream] ${f.label}: ${f.heights} heights in ${f.seconds} s (${f.heightsPerSec}/s), indexing lag p50 ${f.indexingLagMs.p50} ms p99 ${f.indexingLagMs.p99} ms, ` +
      `node CPU ${f.nodeCpuMsPerHeight} ms/height; adapter CPU ${f.adapterCpuMsPerSec} ms/s, RSS ${f.adapterRssMb} MB${push}`,
  );
}

/**
 * Until the node indexes at the chain's pace: after its history it catches up on the live
 * blocks made meanwhile; a phase measured during that would count catch-up heights.
 */
async function untilLivePace(commits: HeightWatcher, blockMs: number): Promise<void> {
  const windowMs = 3000;
  const livePace = (windowMs / blockMs) * 1.5;
  for (let tries = 0; tries < 60; tries++) {
    const before = commits.height;
    await new Promise((r) => setTimeout(r, windowMs));
    if (before >= 0 && commits.height - before <= livePace) return;
  }
  throw new Error('the node did not settle at the chain pace within 3 minutes');
}

async function run(a: Args, serverUrl: string): Promise<void> {
  ensureProjectBuilt();
  const { startDevnet } = await import('../devnet/cli');
  const devnet: Devnet = await startDevnet({
    seed: 'bench-stream',
    blocks: a.historyBlocks,
    txsPerBlock: 10,
    live: true,
    blockMs: a.blockMs,
  });
  const db = await createDatabase(serverUrl, uniqueName('bench_stream'));
  const pool = new Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => undefined);
  const watcherDb = new Client({ connectionString: db.url });
  watcherDb.on('error', () => undefined);
  await watcherDb.connect();
  const commits = indexedHeightWatcher(watcherDb, SCHEMA, COMMIT_POLL_MS);
  const subscribers: Subscriber[] = [];
  try {
    const node = await startNode({ dbEnv: subqlDbEnv(db), endpoint: devnet.url, schema: SCHEMA });
    try {
      await node.waitForHeight(a.historyBlocks, 600_000);
      // the loopback clients all come from one address
      process.env.STREAM_MAX_PER_CLIENT = String(a.subscribers + 10);
      process.env.STREAM_MAX_CONNECTIONS = String(a.subscribers + 10);
      const api = await startApiServer(db.url, SCHEMA, 10, true);
      try {
        commits.start();
        await untilLivePace(commits, a.blockMs);
        const ctx = { devnet, node, apiPid: api.child.pid!, commits };
        console.log(
          `[bench:stream] live: block every ${a.blockMs} ms, indexed ${await node.lastProcessedHeight()}, chain ${devnet.chain.height}; ` +
            `phases of ${a.phaseSeconds} s: none, then ${a.subscribers} subscribers`,
        );
        const none = await phase('no subscribers', a.phaseSeconds, ctx);
        printPhase(none);

        const deliveries: Deliveries = { delays: [], beforeCommitSeen: 0 };
        const onBlock = (height: number) => {
          const seen = commits.seenAt.get(height);
          if (seen === undefined) deliveries.beforeCommitSeen++;
          else deliveries.delays.push(Date.now() - seen);
        };
        const { accounts, assets } = await activeSubjects(pool);
        const filtered = Math.round(a.subscribers * a.filteredShare);
        const connectStarted = Date.now();
        for (let i = 0; i < a.subscribers; i++) {
          const useFilter = i < filtered && accounts.length + assets.length > 0;
          const subjects: [ClientKind, string][] = [
            ...accounts.map((x): [ClientKind, string] => ['account', x]),
            ...assets.map((x): [ClientKind, string] => ['asset', x]),
          ];
          const [kind, subject] = useFilter ? subjects[i % subjects.length] : (['chain', ''] as [ClientKind, string]);
          const query = kind === 'chain' ? '' : `?${kind}=${encodeURIComponent(subject)}`;
          subscribers.push(await openSubscriber(api.url, kind, query, onBlock));
        }
        console.log(
          `[bench:stream] ${subscribers.length} subscribers connected in ${Date.now() - connectStarted} ms ` +
            `(${filtered} filtered over ${accounts.length} accounts and ${assets.length} assets)`,
        );
        const withN = await phase(`${a.subscribers} subscribers`, a.phaseSeconds, ctx, deliveries);
        withN.blockEventsBeforeCommitSeen = deliveries.beforeCommitSeen;
        withN.closedBySever = subscribers.filter((s) => s.closed).length;
        const closeCodes: Record<string, number> = {};
        for (const s of subscribers.filter((x) => x.closed)) {
          const code = closeCode(s.closed!);
          closeCodes[code] = (closeCodes[code] ?? 0) + 1;
        }
        withN.closeCodes = closeCodes;
        const perKind: Record<string, Record<string, number>> = {};
        for (const s of subscribers) {
          const k = (perKind[s.kind] ??= { clients: 0 });
          k.clients++;
          for (const [name, n] of Object.entries(s.events)) k[name] = (k[name] ?? 0) + n;
        }
        withN.eventsPerClient = perKind;
        printPhase(withN);
        console.log(
          `[bench:stream] events by client kind (totals): ${JSON.stringify(perKind)}; closed by the server: ${withN.closedBySever} ${JSON.stringify(closeCodes)}; ` +
            `block events read before the commit watcher saw their height: ${deliveries.beforeCommitSeen}`,
        );

        const rateRatio = withN.heightsPerSec / none.heightsPerSec;
        const p99Bound = a.blockMs + withN.indexingLagMs.p99;
        const ratios = {
          indexerRate: Math.round(rateRatio * 1000) / 1000,
          nodeCpuPerHeight: Math.round((withN.nodeCpuMsPerHeight / none.nodeCpuMsPerHeight) * 100) / 100,
          indexingLagP99: Math.round((withN.indexingLagMs.p99 / none.indexingLagMs.p99) * 100) / 100,
          adapterCpu: Math.round((withN.adapterCpuMsPerSec / Math.max(1, none.adapterCpuMsPerSec)) * 10) / 10,
          adapterRss: Math.round((withN.adapterRssMb / none.adapterRssMb) * 100) / 100,
        };
        console.log(
          `[bench:stream] ${a.subscribers} subscribers / none: indexer rate x${ratios.indexerRate} (target >= 0.9: ${rateRatio >= 0.9 ? 'met' : 'MISSED'}), ` +
            `node CPU/height x${ratios.nodeCpuPerHeight}, indexing lag p99 x${ratios.indexingLagP99}, adapter CPU x${ratios.adapterCpu}, RSS x${ratios.adapterRss}; ` +
            `push delay p99 ${withN.pushDelayMs?.p99} ms vs one block interval + indexing lag p99 = ${p99Bound} ms (${(withN.pushDelayMs?.p99 ?? Infinity) <= p99Bound ? 'within' : 'MISSED'})`,
        );
        const machine = machineState();
        if (busy(machine))
          console.log(`[bench:stream] the machine was busy (load ${machine.load.join(' ')}): repeat before quoting`);
        console.log(
          JSON.stringify({ bench: 'stream', args: a, phases: [none, withN], ratios, p99BoundMs: p99Bound, machine }),
        );
      } finally {
        for (const s of subscribers) s.request.destroy();
        await commits.stop();
        // wait for the adapter to exit: dropping the database under it makes it print a terminated connection
        const exited = new Promise((r) => (api.child.exitCode !== null ? r(null) : api.child.once('exit', r)));
        api.child.kill('SIGTERM');
        const force = setTimeout(() => api.child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(force);
      }
    } finally {
      await node.stop();
    }
  } finally {
    await watcherDb.end().catch(() => undefined);
    await pool.end();
    await devnet.close();
    await db.drop().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  if (process.env.DATABASE_URL) return run(a, process.env.DATABASE_URL);
  const pg = await startPostgres({ settings: { max_connections: 100 } });
  try {
    await run(a, pg.url);
  } finally {
    await pg.stop();
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
