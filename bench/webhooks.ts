/**
 * `npm run bench:webhooks -- [--subscriptions 1000] [--failing 100] [--phase-seconds 40]
 *   [--block-ms 1000] [--history-blocks 100] [--per-target N] [--against <checkout>]`
 *
 * What webhook deliveries cost and how fast they arrive, against the same run with none:
 *
 * 1. a live devnet (seeded history, then a block every `--block-ms` with scenario traffic, as
 *    `npm start`), the real subql-node-cosmos indexing it into a fresh database;
 * 2. the app services' deliverer in its own process (bench/lib/webhook-deliverer-child.ts, every
 *    WEBHOOK_* setting at its default but WEBHOOK_ALLOW_PRIVATE), one HTTP receiver on loopback in
 *    this process answering 204 (every 50th delivery verified with `standardwebhooks`); with
 *    `--against <checkout>`, the deliverer of that checkout (its own bench/lib/webhook-deliverer-child.ts
 *    and app-services, run with its node_modules) instead of this one's, for a side-by-side with an
 *    older version under the same harness; `--per-target N` sets this checkout's deliverer's
 *    WEBHOOK_PER_TARGET (connections to the one receiver) instead of its default;
 * 3. a commit watcher: `_metadata.lastProcessedHeight` read every 10 ms on its own connection;
 *    the first read that shows a height is when that height was committed ("commit seen");
 * 4. phase `none`: `--phase-seconds` with the deliverer running and no subscription;
 * 5. phase `N`: `--subscriptions` subscriptions of the chain's blocks (each gets every block
 *    event), all on the receiver, for the same length, measured only once every subscription has
 *    caught up (had a delivery of the height committed when the last had its first), so the
 *    catch-up from where they were made is not counted;
 * 6. phase `N, F failing`: the same, `--failing` of them now answered 500 (retried with the
 *    default backoff), the others still 204.
 *
 * Per phase: the indexer's rate (heights committed per second) and indexing lag (block header
 * time → commit seen), the deliverer's CPU (ms per second) and RSS; with subscriptions, the
 * delivery delay (commit seen → the receiver has the block event, the first delivery of each
 * subscription and height) p50/p99/max. Then the ratios and the issue's targets: delivery p99 ≤
 * 1 s at 1 s blocks, indexer rate with N ≥ 0.95 × without, the healthy subscriptions' p99 with F
 * failing ≤ 1.5 × without. With this checkout's deliverer, each phase also prints its profile
 * (where the deliverer's time went: feed reads and how many were shared, POSTs, the wait for a
 * slot, group commits and the wait for them, the polls). The receiver and the watcher share the 2 cores with the node,
 * PostgreSQL and the deliverer: their cost is in the figures.
 *
 * PostgreSQL: DATABASE_URL when set, else an embedded server (tests/harness/postgres.ts).
 */
import { spawn, type ChildProcess } from 'child_process';
import http from 'http';
import path from 'path';
import type { AddressInfo } from 'net';
import { Client, Pool } from 'pg';
import { Webhook } from 'standardwebhooks';
import type { Devnet } from '../devnet/cli';
import { WebhookRepository } from '../app-services/webhooks/repository';
import { newSecret, SecretBox } from '../app-services/webhooks/secrets';
import { decodeEventId } from '../rest-adapter/stream/position';
import { createDatabase, startPostgres, subqlDbEnv, uniqueName } from '../tests/harness/postgres';
import { startNode, type SubqlNode } from '../tests/harness/subql-node';
import { ensureProjectBuilt } from '../tests/harness/indexed-store';
import { rssMb } from './lib/api-server';
import { machineState, busy } from './lib/machine';
import { cpuMs } from './lib/node-run';
import { dist, indexedHeightWatcher, type HeightWatcher } from './lib/head-watchers';

const SCHEMA = 'svc';
const APP_SCHEMA = 'app';
const COMMIT_POLL_MS = 10;
const ROOT = path.resolve(__dirname, '..');

interface Args {
  subscriptions: number;
  failing: number;
  phaseSeconds: number;
  blockMs: number;
  historyBlocks: number;
  /** WEBHOOK_PER_TARGET of this checkout's deliverer (0: its default) */
  perTarget: number;
  /** a checkout whose deliverer runs instead of this one's */
  against?: string;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    subscriptions: 1000,
    failing: 100,
    phaseSeconds: 40,
    blockMs: 1000,
    historyBlocks: 100,
    perTarget: 0,
  };
  const names: Record<string, Exclude<keyof Args, 'against'>> = {
    '--subscriptions': 'subscriptions',
    '--failing': 'failing',
    '--phase-seconds': 'phaseSeconds',
    '--block-ms': 'blockMs',
    '--history-blocks': 'historyBlocks',
    '--per-target': 'perTarget',
  };
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === '--against') {
      if (!argv[i + 1]) throw new Error('--against needs a checkout directory');
      a.against = path.resolve(argv[i + 1]);
      continue;
    }
    const key = names[argv[i]];
    const n = Number(argv[i + 1]);
    if (!key) throw new Error(`unknown option ${argv[i]}`);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${argv[i]} needs a whole number`);
    a[key] = n;
  }
  if (a.perTarget && a.against) throw new Error("--per-target sets this checkout's deliverer only, not --against");
  if (a.failing >= a.subscriptions) throw new Error('--failing must be fewer than --subscriptions');
  return a;
}

const summary = dist;

const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;

/** The receiver: `/hook/<n>` is subscription n; the failing ones are answered 500. */
class Receiver {
  readonly failing = new Set<number>();
  /** first-delivery delays of the healthy subscriptions in the phase being measured */
  delays: number[] = [];
  /** every subscription's first delivery of a height, `n:height` */
  private readonly seen = new Set<string>();
  firstDelivery = new Set<number>();
  /** each subscription's highest height delivered */
  readonly highest = new Map<number, number>();
  attempts = { ok: 0, failed: 0, beforeCommitSeen: 0, verified: 0, unverified: 0 };
  private server: http.Server | undefined;
  url = '';

  constructor(
    private readonly commits: HeightWatcher,
    private readonly secrets: Map<number, string>,
  ) {}

  async start(): Promise<void> {
    let count = 0;
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = Date.now();
        const n = Number(/^\/hook\/(\d+)$/.exec(req.url ?? '')?.[1]);
        const body = Buffer.concat(chunks).toString('utf8');
        if (this.failing.has(n)) {
          this.attempts.failed++;
          return void res.writeHead(500).end();
        }
        this.attempts.ok++;
        if (++count % 50 === 0) {
          try {
            new Webhook(this.secrets.get(n)!).verify(body, req.headers as Record<string, string>);
            this.attempts.verified++;
          } catch {
            this.attempts.unverified++;
          }
        }
        const id = (JSON.parse(body) as { id: string }).id;
        const height = decodeEventId(id)!.height;
        this.firstDelivery.add(n);
        if (height > (this.highest.get(n) ?? -1)) this.highest.set(n, height);
        const key = `${n}:${height}`;
        if (!this.seen.has(key)) {
          this.seen.add(key);
          const committed = this.commits.seenAt.get(height);
          if (committed === undefined) this.attempts.beforeCommitSeen++;
          else this.delays.push(at - committed);
        }
        res.writeHead(204).end();
      });
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): void {
    this.server?.closeAllConnections();
    this.server?.close();
  }
}

interface PhaseFigures {
  label: string;
  seconds: number;
  heights: number;
  heightsPerSec: number;
  indexingLagMs: { p50: number; p99: number };
  delivererCpuMsPerSec: number;
  delivererRssMb: number;
  deliveryDelayMs?: { n: number; p50: number; p99: number; max: number };
  attempts?: Receiver['attempts'];
  /** the deliverer's profile over the phase (this checkout's deliverer only) */
  profile?: Record<string, number>;
}

/** A profile's change over a phase, the milliseconds rounded, with the mean batch of a group commit. */
function profileDelta(
  before: Record<string, number> | undefined,
  after: Record<string, number> | undefined,
): Record<string, number> | undefined {
  if (!before || !after) return undefined;
  const d: Record<string, number> = {};
  for (const k of Object.keys(after)) d[k] = Math.round(after[k] - (before[k] ?? 0));
  if (d.commits) d.meanCommitBatch = r1(d.commitItems / d.commits);
  return d;
}

async function phase(
  label: string,
  seconds: number,
  ctx: { devnet: Devnet; commits: HeightWatcher; deliverer: Deliverer; receiver: Receiver },
  measureDeliveries: boolean,
): Promise<PhaseFigures> {
  const profile0 = await ctx.deliverer.profile();
  const from = ctx.commits.height;
  const cpu0 = cpuMs(ctx.deliverer.child.pid!);
  ctx.receiver.delays = [];
  ctx.receiver.attempts = { ok: 0, failed: 0, beforeCommitSeen: 0, verified: 0, unverified: 0 };
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const elapsed = (Date.now() - t0) / 1000;
  const to = ctx.commits.height;
  const profile = profileDelta(profile0, await ctx.deliverer.profile());
  const lags: number[] = [];
  for (let h = from + 1; h <= to; h++) {
    const header = ctx.devnet.chain.block(h)?.header;
    const seen = ctx.commits.seenAt.get(h);
    if (!header || seen === undefined) continue;
    lags.push(seen - (Number(header.time.seconds) * 1000 + Math.floor(header.time.nanos / 1e6)));
  }
  const lag = summary(lags);
  return {
    label,
    seconds: r1(elapsed),
    heights: to - from,
    heightsPerSec: Math.round(((to - from) / elapsed) * 1000) / 1000,
    indexingLagMs: { p50: lag.p50, p99: lag.p99 },
    delivererCpuMsPerSec: r1((cpuMs(ctx.deliverer.child.pid!) - cpu0) / elapsed),
    delivererRssMb: rssMb(ctx.deliverer.child.pid!),
    ...(profile && { profile }),
    ...(measureDeliveries
      ? { deliveryDelayMs: summary(ctx.receiver.delays), attempts: { ...ctx.receiver.attempts } }
      : {}),
  };
}

function printPhase(f: PhaseFigures): void {
  const d = f.deliveryDelayMs
    ? `; delivery delay p50 ${f.deliveryDelayMs.p50} ms, p99 ${f.deliveryDelayMs.p99} ms, max ${f.deliveryDelayMs.max} ms over ${f.deliveryDelayMs.n} deliveries; attempts ${JSON.stringify(f.attempts)}`
    : '';
  console.log(
    `[bench:webhooks] ${f.label}: ${f.heights} heights in ${f.seconds} s (${f.heightsPerSec}/s), indexing lag p50 ${f.indexingLagMs.p50} ms p99 ${f.indexingLagMs.p99} ms; ` +
      `deliverer CPU ${f.delivererCpuMsPerSec} ms/s, RSS ${f.delivererRssMb} MB${d}`,
  );
  if (f.profile) console.log(`[bench:webhooks] ${f.label}: deliverer profile ${JSON.stringify(f.profile)}`);
}

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

interface Deliverer {
  child: ChildProcess;
  delivering: Promise<void>;
  /** its profile now (SIGUSR2, answered on stdout); undefined for another checkout's deliverer, which has none */
  profile(): Promise<Record<string, number> | undefined>;
}

function startDeliverer(url: string, root: string, perTarget: number): Deliverer {
  const child = spawn(
    path.join(root, 'node_modules', '.bin', 'ts-node'),
    ['--transpile-only', path.join(root, 'bench/lib/webhook-deliverer-child.ts')],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url, ...(perTarget && { BENCH_WEBHOOK_PER_TARGET: String(perTarget) }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  const profiles: ((p: Record<string, number>) => void)[] = [];
  const delivering = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('delivering')) resolve();
      let nl: number;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (line.startsWith('profile ')) profiles.shift()?.(JSON.parse(line.slice(8)) as Record<string, number>);
      }
    });
    child.once('exit', (code) => reject(new Error(`the deliverer exited (${code})`)));
  });
  const own = root === ROOT; // another checkout's child may not answer SIGUSR2 (its default ends the process)
  return {
    child,
    delivering,
    profile: () =>
      own
        ? new Promise((resolve) => {
            const timer = setTimeout(() => resolve(undefined), 5000);
            profiles.push((p) => {
              clearTimeout(timer);
              resolve(p);
            });
            child.kill('SIGUSR2');
          })
        : Promise.resolve(undefined),
  };
}

async function run(a: Args, serverUrl: string): Promise<void> {
  ensureProjectBuilt();
  const { startDevnet } = await import('../devnet/cli');
  const devnet: Devnet = await startDevnet({
    seed: 'bench-webhooks',
    blocks: a.historyBlocks,
    txsPerBlock: 10,
    live: true,
    blockMs: a.blockMs,
  });
  const db = await createDatabase(serverUrl, uniqueName('bench_webhooks'));
  const pool = new Pool({ connectionString: db.url, max: 4 });
  pool.on('error', () => undefined);
  const watcherDb = new Client({ connectionString: db.url });
  watcherDb.on('error', () => undefined);
  await watcherDb.connect();
  const commits = indexedHeightWatcher(watcherDb, SCHEMA, COMMIT_POLL_MS);
  const secrets = new Map<number, string>();
  const receiver = new Receiver(commits, secrets);
  await receiver.start();
  let deliverer: ChildProcess | undefined;
  try {
    const node: SubqlNode = await startNode({ dbEnv: subqlDbEnv(db), endpoint: devnet.url, schema: SCHEMA });
    try {
      await node.waitForHeight(a.historyBlocks, 600_000);
      const d = startDeliverer(db.url, a.against ?? ROOT, a.perTarget);
      deliverer = d.child;
      await d.delivering;
      commits.start();
      await untilLivePace(commits, a.blockMs);
      const ctx = { devnet, commits, deliverer: d, receiver };
      console.log(
        `[bench:webhooks] deliverer of ${a.against ?? 'this checkout'}${a.perTarget ? ` (WEBHOOK_PER_TARGET ${a.perTarget})` : ''}; live: block every ${a.blockMs} ms, indexed ${await node.lastProcessedHeight()}, chain ${devnet.chain.height}; ` +
          `phases of ${a.phaseSeconds} s: none, ${a.subscriptions} subscriptions, then ${a.failing} of them failing`,
      );
      const none = await phase('no subscriptions', a.phaseSeconds, ctx, false);
      printPhase(none);

      // the subscriptions: every block from the indexed height on, each on its own path of the receiver
      const repository = new WebhookRepository(pool, APP_SCHEMA);
      const box = new SecretBox(await repository.storedKey());
      const from = commits.height;
      const made = Date.now();
      for (let n = 0; n < a.subscriptions; n++) {
        const secret = newSecret();
        secrets.set(n, secret);
        await repository.create({
          owner: 'bench',
          url: `${receiver.url}/hook/${n}`,
          filter: {},
          blocks: true,
          secret: box.seal(secret),
          cursor: { height: from, eventId: null },
        });
      }
      const warm = Date.now() + 120_000;
      while (receiver.firstDelivery.size < a.subscriptions && Date.now() < warm)
        await new Promise((r) => setTimeout(r, 200));
      const firstAllMs = Date.now() - made;
      // then caught up: each has the height committed when the last had its first delivery, so the
      // measured phase holds live deliveries only, not the catch-up from where they were made
      const caughtTo = commits.height;
      const behind = () => [...Array(a.subscriptions).keys()].filter((n) => (receiver.highest.get(n) ?? -1) < caughtTo);
      while (behind().length && Date.now() < warm) await new Promise((r) => setTimeout(r, 200));
      console.log(
        `[bench:webhooks] ${a.subscriptions} subscriptions made; ${receiver.firstDelivery.size} had their first delivery ${firstAllMs} ms after the first was made, ` +
          `${a.subscriptions - behind().length} had height ${caughtTo} ${Date.now() - made} ms after` +
          (behind().length
            ? ` (${behind().length} still behind after the 120 s warm-up: their catch-up is in the figures)`
            : ''),
      );
      const healthy = await phase(`${a.subscriptions} subscriptions`, a.phaseSeconds, ctx, true);
      printPhase(healthy);

      for (let n = 0; n < a.failing; n++) receiver.failing.add(n);
      const withFailing = await phase(
        `${a.subscriptions} subscriptions, ${a.failing} failing`,
        a.phaseSeconds,
        ctx,
        true,
      );
      printPhase(withFailing);

      const states = await pool.query<{ state: string; n: string; failing: string }>(
        `SELECT state, count(*) AS n, count(*) FILTER (WHERE failures > 0) AS failing FROM "${APP_SCHEMA}".webhooks GROUP BY state`,
      );
      const ratios = {
        indexerRate: Math.round((healthy.heightsPerSec / none.heightsPerSec) * 1000) / 1000,
        indexerRateWithFailing: Math.round((withFailing.heightsPerSec / none.heightsPerSec) * 1000) / 1000,
        indexingLagP99: r2(healthy.indexingLagMs.p99 / none.indexingLagMs.p99),
        healthyP99WithFailing: r2(withFailing.deliveryDelayMs!.p99 / healthy.deliveryDelayMs!.p99),
      };
      const targets = {
        p99WithinOneSecond: healthy.deliveryDelayMs!.p99 <= 1000,
        indexerRateAtLeast095: ratios.indexerRate >= 0.95,
        healthyP99WithFailingWithin15: ratios.healthyP99WithFailing <= 1.5,
      };
      console.log(
        `[bench:webhooks] ${a.subscriptions} subscriptions / none: indexer rate x${ratios.indexerRate} (target >= 0.95: ${targets.indexerRateAtLeast095 ? 'met' : 'MISSED'}), ` +
          `indexing lag p99 x${ratios.indexingLagP99}; delivery p99 ${healthy.deliveryDelayMs!.p99} ms (target <= 1000 ms: ${targets.p99WithinOneSecond ? 'met' : 'MISSED'}); ` +
          `with ${a.failing} failing: healthy p99 ${withFailing.deliveryDelayMs!.p99} ms, x${ratios.healthyP99WithFailing} (target <= 1.5: ${targets.healthyP99WithFailingWithin15 ? 'met' : 'MISSED'}), indexer rate x${ratios.indexerRateWithFailing}; ` +
          `subscriptions by state ${JSON.stringify(states.rows)}`,
      );
      const machine = machineState();
      if (busy(machine))
        console.log(`[bench:webhooks] the machine was busy (load ${machine.load.join(' ')}): repeat before quoting`);
      console.log(
        JSON.stringify({ bench: 'webhooks', args: a, phases: [none, healthy, withFailing], ratios, targets, machine }),
      );
    } finally {
      await commits.stop();
      if (deliverer && deliverer.exitCode === null) {
        const exited = new Promise((r) => deliverer!.once('exit', r));
        deliverer.kill('SIGTERM');
        const force = setTimeout(() => deliverer!.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(force);
      }
      await node.stop();
    }
  } finally {
    receiver.close();
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
