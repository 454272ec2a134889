/**
 * `npm run bench:fair -- [--phase-seconds 10] [--abusers 64] [--honest-rps 50] [--paced-rps 200]
 *                       [--only v1] [--against <another checkout, built>]`
 *
 * One client cannot starve the others: `npm start` as a user runs it (defaults: per-client
 * budgets on, the embedded devnet live, the real node indexing), measured in one run:
 *
 * - **polite**: 2 keep-alive connections from 127.0.0.1, closed loop, a tx by hash each; it holds
 *   an API key with a large budget of its own (API_KEYS_FILE), so its rate is what the server
 *   gives it, not what a budget allows;
 * - **honest**: an anonymous client from 127.0.0.3 at a steady `--honest-rps` requests a second of
 *   mixed reads (every /v1 endpoint with inputs sampled from the store, bench/endpoints.ts), on
 *   the default budget: it must never see a 429;
 * - **paced**: an anonymous client from 127.0.0.5 at a steady `--paced-rps` (open loop), a tx by
 *   hash each, on the default budget: its answered rate and p99 under abuse against idle
 *   (targets: ≥ 0.9 and ≤ 2×);
 * - **sequential**, alone in its own phase first: one anonymous connection from 127.0.0.4, closed
 *   loop (unpaced), a tx by hash each, on the default budget: what a client alone gets from an
 *   idle server (target: no 429);
 * - **abusive**, from 127.0.0.2, anonymous, in its own process (bench/lib/fair-abuser.ts), one at a
 *   time: `--abusers` connections walking cold 100-tx pages of /v1/txs by cursor; the same
 *   number POSTing 100-tx GraphQL pages at random offsets; the same number of /v1/stream
 *   connections replaying the whole history, dropped and reopened.
 *
 * Phases: sequential, idle, /v1 abuse, idle, GraphQL abuse, idle, stream abuse, idle (`--only v1`:
 * sequential, idle, /v1 abuse, idle), each `--phase-seconds`
 * after a 1 s warm-up. Each abuse phase is compared with the mean of the idle phases around it
 * (the machine's speed drifts within a run). Printed: the polite client's req/s, p50 and p99 and
 * their ratios (targets: req/s ≥ 0.5 of idle, p99 ≤ 3× idle), the honest client's answers by
 * status, the abuser's answers by status (target: 429s), the 5xx other than deliberate 503s
 * (target: none), and the CPU of the server process and of PostgreSQL per second of the phase.
 *
 * `--against <dir>`: the same phases first on that checkout's `npm start` (built, its own
 * node_modules), then on this one, each on a fresh database; printed side by side.
 *
 * PostgreSQL: an embedded server (tests/harness/postgres.ts), a fresh database given to npm start
 * as DATABASE_URL.
 */
import { spawn } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import http from 'http';
import os from 'os';
import path from 'path';
import { Pool } from 'pg';
import { performance } from 'perf_hooks';
import { freePort } from '../src/runtime/ports';
import { blockPosition, encodeEventId } from '../rest-adapter/stream/position';
import { createDatabase, startPostgres, uniqueName } from '../tests/harness/postgres';
import { endpoints } from './endpoints';
import { cpuMs, pgServerCpuMs } from './lib/node-run';
import type { AbuseKind, AbuseOptions, AbuseResult } from './lib/fair-abuser';
import { sampleLoad, summarize, type LoadResult } from './load';
import { benchLauncherEnv, spawnLauncher, stopLauncher, waitLauncherReady } from '../tests/harness/launcher-process';

const WARMUP_MS = 1000;
const POLITE_CLIENTS = 2;

interface Args {
  phaseSeconds: number;
  abusers: number;
  honestRps: number;
  pacedRps: number;
  only: 'v1' | undefined;
  against: string | undefined;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { phaseSeconds: 10, abusers: 64, honestRps: 50, pacedRps: 200, only: undefined, against: undefined };
  const names: Record<string, 'phaseSeconds' | 'abusers' | 'honestRps' | 'pacedRps'> = {
    '--phase-seconds': 'phaseSeconds',
    '--abusers': 'abusers',
    '--honest-rps': 'honestRps',
    '--paced-rps': 'pacedRps',
  };
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === '--only' && argv[i + 1] === 'v1') {
      a.only = 'v1';
      continue;
    }
    if (argv[i] === '--against' && argv[i + 1]) {
      a.against = path.resolve(argv[i + 1]);
      continue;
    }
    const key = names[argv[i]];
    const n = Number(argv[i + 1]);
    if (!key || !Number.isSafeInteger(n) || n < 1)
      throw new Error(`${argv[i]}: unknown option or not a positive integer (--only takes v1, --against a directory)`);
    a[key] = n;
  }
  return a;
}

const log = (line: string) => console.log(`[bench:fair] ${line}`);

/** The honest client: one request every 1/rps s from `from` (open loop), whatever the answers take. */
async function honest(base: string, next: () => string, rps: number, ms: number, from: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const url = new URL(base);
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  const sent: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; performance.now() - started < ms; i++) {
    const due = started + (i * 1000) / rps;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    sent.push(
      new Promise<void>((resolve) => {
        const req = http.get({ agent, host: url.hostname, port: url.port, path: next(), localAddress: from }, (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - t0);
            statuses[String(res.statusCode)] = (statuses[String(res.statusCode)] ?? 0) + 1;
            resolve();
          });
        });
        req.on('error', () => {
          statuses.error = (statuses.error ?? 0) + 1;
          resolve();
        });
      }),
    );
  }
  await Promise.all(sent);
  agent.destroy();
  latencies.sort((x, y) => x - y);
  return {
    statuses,
    p99: latencies[Math.min(latencies.length - 1, Math.ceil(0.99 * latencies.length) - 1)] ?? NaN,
    okPerS: ((statuses['200'] ?? 0) * 1000) / ms,
  };
}

/** The sequential client: one keep-alive connection from `from`, the next request as soon as an answer comes. */
async function sequential(base: string, next: () => string, ms: number, from: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(base);
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  const started = performance.now();
  while (performance.now() - started < ms) {
    const t0 = performance.now();
    const status = await new Promise<string>((resolve) => {
      const req = http.get({ agent, host: url.hostname, port: url.port, path: next(), localAddress: from }, (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
      });
      req.on('error', () => resolve('error'));
    });
    latencies.push(performance.now() - t0);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((x, y) => x - y);
  return {
    statuses,
    okPerS: (statuses['200'] ?? 0) / seconds,
    p50: latencies[Math.ceil(0.5 * latencies.length) - 1] ?? NaN,
    p99: latencies[Math.min(latencies.length - 1, Math.ceil(0.99 * latencies.length) - 1)] ?? NaN,
  };
}

function runAbuser(o: AbuseOptions): Promise<AbuseResult> {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', path.join(__dirname, 'lib', 'fair-abuser.ts'), JSON.stringify(o)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as AbuseResult) : reject(new Error(`abuser exited ${code}`)),
    ),
  );
}

type Paced = { statuses: Record<string, number>; p99: number; okPerS: number };

interface PhaseResult {
  name: string;
  abuse?: AbuseKind;
  /** the sequential phase: only that client ran */
  sequential?: Awaited<ReturnType<typeof sequential>>;
  polite: LoadResult;
  politeStatuses: string | undefined;
  honest: Paced;
  paced: Paced;
  abuser?: AbuseResult;
  serverCpuMsPerS: number;
  pgCpuMsPerS: number;
}

const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const statusText = (s: Record<string, number>) =>
  Object.entries(s)
    .sort()
    .map(([k, v]) => `${k}×${v}`)
    .join(' ');

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  const passes: { root: string | undefined; name: string }[] = [
    ...(a.against ? [{ root: a.against, name: `against ${a.against}` }] : []),
    { root: undefined, name: 'this checkout' },
  ];
  const all: { name: string; results: PhaseResult[] }[] = [];
  for (const pass of passes) {
    log(`pass: ${pass.name}`);
    const results = await runPass(a, pass.root);
    report(results, a);
    all.push({ name: pass.name, results });
  }
  if (all.length > 1) sideBySide(all);
  console.log(JSON.stringify({ bench: 'fair', ...a, passes: all }));
}

async function runPass(a: Args, root: string | undefined): Promise<PhaseResult[]> {
  const pg = await startPostgres({ settings: { max_connections: 200 } });
  const db = await createDatabase(pg.url, uniqueName('fair'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fair-'));
  fs.chmodSync(dataDir, 0o755);
  const key = crypto.randomBytes(24).toString('hex');
  const keysFile = path.join(dataDir, 'api-keys.json');
  fs.writeFileSync(
    keysFile,
    JSON.stringify([
      {
        name: 'polite',
        sha256: crypto.createHash('sha256').update(key).digest('hex'),
        per_second: 1_000_000,
        burst: 10_000_000,
      },
    ]),
  );
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = benchLauncherEnv(
    {
      port,
      dataDir,
      databaseUrl: db.url,
      unset: [
        'RATE_LIMIT_PER_S',
        'RATE_LIMIT_BURST',
        'RATE_LIMIT_CONTENTION_MS',
        'LOAD_SHED_DELAY_MS',
        'DB_WAIT_MS',
        'TRUST_PROXY',
        'APP_TRUST_PROXY',
      ],
    },
    { API_KEYS_FILE: keysFile },
  );
  const launcher = spawnLauncher(env, { detached: true, root });
  const pool = new Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => undefined);
  try {
    await waitLauncherReady(base, launcher);
    log(`npm start ready on ${base} (default budgets: RATE_LIMIT_PER_S 300, RATE_LIMIT_BURST 600)`);
    const nextTx = () => `/v1/txs/${hashes[t++ % hashes.length]}`;
    const hashes = (
      await pool.query<{ hash: string }>('SELECT hash FROM svc.txes ORDER BY random() LIMIT 2000')
    ).rows.map((r) => r.hash);
    const mixed = await endpoints(pool);
    let m = 0;
    const nextMixed = () => mixed[m++ % mixed.length].next();
    let h = 0;
    let t = 0;
    const nextPolite = () => ({
      path: `/v1/txs/${hashes[h++ % hashes.length]}`,
      headers: { Authorization: `Bearer ${key}` },
    });
    const streamFrom = encodeEventId(blockPosition(1));
    const plan: { name: string; abuse?: AbuseKind; alone?: true }[] = [
      { name: 'sequential', alone: true },
      { name: 'idle' },
      { name: '/v1 abuse', abuse: 'v1' },
      { name: 'idle' },
      ...(a.only === 'v1'
        ? []
        : [
            { name: 'GraphQL abuse', abuse: 'graphql' as const },
            { name: 'idle' },
            { name: 'stream abuse', abuse: 'stream' as const },
            { name: 'idle' },
          ]),
    ];
    const results: PhaseResult[] = [];
    const phaseMs = a.phaseSeconds * 1000;
    // a phase not counted: JIT, the render cache and PostgreSQL's buffers warm up under the polite and honest load
    await Promise.all([
      sampleLoad(base, nextPolite, { clients: POLITE_CLIENTS, durationMs: phaseMs, warmupMs: WARMUP_MS }),
      honest(base, nextMixed, a.honestRps, phaseMs, '127.0.0.3'),
      honest(base, nextTx, a.pacedRps, phaseMs, '127.0.0.5'),
    ]);
    await new Promise((r) => setTimeout(r, 2000)); // budgets refill, and nobody has asked for 2 s
    for (const phase of plan) {
      if (phase.alone) {
        const cpu0 = { server: cpuMs(launcher.child.pid!), pg: pgServerCpuMs(pg.port) ?? 0, t: performance.now() };
        await sequential(base, nextTx, WARMUP_MS, '127.0.0.4'); // its warm-up, not counted
        const alone = await sequential(base, nextTx, phaseMs, '127.0.0.4');
        const seconds = (performance.now() - cpu0.t) / 1000;
        const none: Paced = { statuses: {}, p99: NaN, okPerS: NaN };
        results.push({
          name: phase.name,
          sequential: alone,
          polite: summarize({ latencies: [], errors: 0, hits: 0, ms: 1 }),
          politeStatuses: undefined,
          honest: none,
          paced: none,
          serverCpuMsPerS: (cpuMs(launcher.child.pid!) - cpu0.server) / seconds,
          pgCpuMsPerS: ((pgServerCpuMs(pg.port) ?? 0) - cpu0.pg) / seconds,
        });
        log(
          `${phase.name.padEnd(14)} alone: ${fmt(alone.okPerS, 0)} answers/s (${statusText(alone.statuses)}) p50 ${fmt(alone.p50, 2)} ms p99 ${fmt(alone.p99, 2)} ms`,
        );
        await new Promise((r) => setTimeout(r, 2000));
        continue;
      }
      const abuser = phase.abuse
        ? runAbuser({
            kind: phase.abuse,
            base,
            seconds: (WARMUP_MS + phaseMs) / 1000 + 1.5, // its process starts in about a second
            connections: a.abusers,
            from: '127.0.0.2',
            streamFrom,
          })
        : undefined;
      if (abuser) await new Promise((r) => setTimeout(r, 1500));
      const cpu0 = { server: cpuMs(launcher.child.pid!), pg: pgServerCpuMs(pg.port) ?? 0, t: performance.now() };
      const [politeSamples, honestResult, pacedResult] = await Promise.all([
        sampleLoad(base, nextPolite, { clients: POLITE_CLIENTS, durationMs: phaseMs, warmupMs: WARMUP_MS }),
        new Promise((r) => setTimeout(r, WARMUP_MS)).then(() =>
          honest(base, nextMixed, a.honestRps, phaseMs, '127.0.0.3'),
        ),
        new Promise((r) => setTimeout(r, WARMUP_MS)).then(() => honest(base, nextTx, a.pacedRps, phaseMs, '127.0.0.5')),
      ]);
      const seconds = (performance.now() - cpu0.t) / 1000;
      const cpu1 = { server: cpuMs(launcher.child.pid!), pg: pgServerCpuMs(pg.port) ?? 0 };
      const result: PhaseResult = {
        name: phase.name,
        abuse: phase.abuse,
        polite: summarize(politeSamples),
        politeStatuses: politeSamples.firstError,
        honest: honestResult,
        paced: pacedResult,
        abuser: abuser ? await abuser : undefined,
        serverCpuMsPerS: (cpu1.server - cpu0.server) / seconds,
        pgCpuMsPerS: (cpu1.pg - cpu0.pg) / seconds,
      };
      results.push(result);
      const p = result.polite;
      log(
        `${phase.name.padEnd(14)} polite ${fmt(p.rps, 0)} req/s p50 ${fmt(p.p50, 2)} ms p99 ${fmt(p.p99, 2)} ms (${p.errors} not 200${p.firstError ? `, first: ${p.firstError}` : ''}); honest ${statusText(result.honest.statuses)} p99 ${fmt(result.honest.p99)} ms; paced ${fmt(result.paced.okPerS, 0)}/s p99 ${fmt(result.paced.p99, 2)} ms; ${result.abuser ? `abuser ${statusText(result.abuser.statuses)}; ` : ''}server CPU ${fmt(result.serverCpuMsPerS, 0)} ms/s, PostgreSQL ${fmt(result.pgCpuMsPerS, 0)} ms/s`,
      );
      if (!phase.abuse) await new Promise((r) => setTimeout(r, 2000)); // budgets refill between phases
    }
    return results;
  } finally {
    await pool.end();
    await stopLauncher(launcher);
    await db.drop().catch(() => undefined);
    await pg.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** 5xx answers other than the deliberate 503s (load shedding, deadlines). */
function unplanned5xx(statuses: Record<string, number>): number {
  return Object.entries(statuses)
    .filter(([s]) => /^5\d\d$/.test(s) && s !== '503')
    .reduce((n, [, c]) => n + c, 0);
}

interface Ratios {
  name: string;
  rps: number;
  p99: number;
  pacedRate: number;
  pacedP99: number;
  honest429: number;
  abuser: string;
  bad5xx: number;
  cpu: number;
  ok: boolean;
}

/** Each abuse phase against the mean of the idle phases around it. */
function ratios(results: PhaseResult[]): Ratios[] {
  const out: Ratios[] = [];
  results.forEach((r, i) => {
    if (!r.abuse) return;
    const idle = [results[i - 1], results[i + 1]].filter((x) => x && !x.abuse && !x.sequential);
    const mean = (f: (x: PhaseResult) => number) => idle.reduce((s, x) => s + f(x), 0) / idle.length;
    const s = r.abuser!.statuses;
    const other = Object.entries(s)
      .filter(([k]) => !['200', '429', '503'].includes(k))
      .reduce((n, [, c]) => n + c, 0);
    const x: Omit<Ratios, 'ok'> = {
      name: r.name,
      rps: r.polite.rps / mean((x) => x.polite.rps),
      p99: r.polite.p99 / mean((x) => x.polite.p99),
      pacedRate: r.paced.okPerS / mean((x) => x.paced.okPerS),
      pacedP99: r.paced.p99 / mean((x) => x.paced.p99),
      honest429: (r.honest.statuses['429'] ?? 0) + (r.paced.statuses['429'] ?? 0),
      abuser: `${s['200'] ?? 0}/${s['429'] ?? 0}/${s['503'] ?? 0}/${other}`,
      bad5xx:
        unplanned5xx(s) +
        unplanned5xx(r.honest.statuses) +
        unplanned5xx(r.paced.statuses) +
        (r.polite.firstError?.startsWith('5') && !r.polite.firstError.startsWith('503') ? r.polite.errors : 0),
      cpu: r.serverCpuMsPerS / mean((x) => x.serverCpuMsPerS),
    };
    const pacedOk = r.abuse !== 'v1' || (x.pacedRate >= 0.9 && x.pacedP99 <= 2);
    const ok = x.rps >= 0.5 && x.p99 <= 3 && x.honest429 === 0 && (s['429'] ?? 0) > 0 && x.bad5xx === 0 && pacedOk;
    out.push({ ...x, ok });
  });
  return out;
}

function report(results: PhaseResult[], a: Args): void {
  log('');
  const alone = results.find((r) => r.sequential)?.sequential;
  if (alone)
    log(
      `sequential client alone (one connection, unpaced, a tx by hash, default budget): ${fmt(alone.okPerS, 0)} answers/s, ${alone.statuses['429'] ?? 0} × 429 ${(alone.statuses['429'] ?? 0) === 0 ? 'ok' : 'MISSED'}`,
    );
  log(`ratios: each abuse phase against the mean of the idle phases around it (${a.phaseSeconds} s each)`);
  log(
    'abuse            polite req/s   polite p99   paced rate   paced p99   honest+paced 429   abuser 200/429/503/other   5xx (not 503)   server CPU',
  );
  let pass = (alone?.statuses['429'] ?? 0) === 0;
  for (const x of ratios(results)) {
    pass &&= x.ok;
    log(
      `${x.name.padEnd(16)} ${fmt(x.rps, 2).padStart(12)}   ${fmt(x.p99, 2).padStart(10)}   ${fmt(x.pacedRate, 2).padStart(10)}   ${fmt(x.pacedP99, 2).padStart(9)}   ${String(x.honest429).padStart(16)}   ${x.abuser.padStart(24)}   ${String(x.bad5xx).padStart(13)}   ${fmt(x.cpu, 2)}× idle  ${x.ok ? 'ok' : 'MISSED'}`,
    );
  }
  log(
    'targets: the sequential client alone never 429; polite req/s ≥ 0.5 and p99 ≤ 3 of idle; under /v1 abuse the paced client ≥ 0.9 of its idle rate and p99 ≤ 2×; the honest and paced clients never 429; the abuser sees 429s; no 5xx but deliberate 503s',
  );
  log(pass ? 'all targets met' : 'a target was missed (see MISSED above)');
}

/** The passes' figures in one table, one column per pass. */
function sideBySide(all: { name: string; results: PhaseResult[] }[]): void {
  log('');
  log('side by side: ' + all.map((p, i) => `[${i + 1}] ${p.name}`).join(', '));
  const row = (label: string, f: (results: PhaseResult[]) => string) =>
    log(`${label.padEnd(44)} ${all.map((p) => f(p.results).padStart(16)).join(' ')}`);
  row('sequential alone: answers/s', (r) => fmt(r.find((x) => x.sequential)?.sequential?.okPerS ?? NaN, 0));
  row('sequential alone: 429s', (r) => String(r.find((x) => x.sequential)?.sequential?.statuses['429'] ?? 0));
  row('sequential alone: p50 / p99 ms', (r) => {
    const q = r.find((x) => x.sequential)?.sequential;
    return q ? `${fmt(q.p50, 2)} / ${fmt(q.p99, 2)}` : 'n/a';
  });
  const names = ratios(all[0].results).map((x) => x.name);
  for (const name of names) {
    const get = (r: PhaseResult[]) => ratios(r).find((x) => x.name === name);
    row(`${name}: paced rate / p99 (× idle)`, (r) => {
      const x = get(r);
      return x ? `${fmt(x.pacedRate, 2)} / ${fmt(x.pacedP99, 2)}` : 'n/a';
    });
    row(`${name}: polite rate / p99 (× idle)`, (r) => {
      const x = get(r);
      return x ? `${fmt(x.rps, 2)} / ${fmt(x.p99, 2)}` : 'n/a';
    });
    row(`${name}: abuser 200/429/503/other`, (r) => get(r)?.abuser ?? 'n/a');
    row(`${name}: honest+paced 429 / bad 5xx`, (r) => {
      const x = get(r);
      return x ? `${x.honest429} / ${x.bad5xx}` : 'n/a';
    });
  }
  row('idle phases: paced p99 ms', (r) =>
    r
      .filter((x) => !x.abuse && !x.sequential)
      .map((x) => fmt(x.paced.p99, 1))
      .join(', '),
  );
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
