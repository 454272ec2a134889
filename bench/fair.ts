/**
 * `npm run bench:fair -- [--phase-seconds 10] [--abusers 64] [--honest-rps 50]`
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
 * - **abusive**, from 127.0.0.2, anonymous, in its own process (bench/lib/fair-abuser.ts), one at a
 *   time: `--abusers` connections walking cold 100-tx pages of /v1/txs by cursor; the same
 *   number POSTing 100-tx GraphQL pages at random offsets; the same number of /v1/stream
 *   connections replaying the whole history, dropped and reopened.
 *
 * Phases: idle, /v1 abuse, idle, GraphQL abuse, idle, stream abuse, idle, each `--phase-seconds`
 * after a 1 s warm-up. Each abuse phase is compared with the mean of the idle phases around it
 * (the machine's speed drifts within a run). Printed: the polite client's req/s, p50 and p99 and
 * their ratios (targets: req/s ≥ 0.5 of idle, p99 ≤ 3× idle), the honest client's answers by
 * status, the abuser's answers by status (target: 429s), the 5xx other than deliberate 503s
 * (target: none), and the CPU of the server process and of PostgreSQL per second of the phase.
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
}

function parseArgs(argv: string[]): Args {
  const a: Args = { phaseSeconds: 10, abusers: 64, honestRps: 50 };
  const names: Record<string, keyof Args> = {
    '--phase-seconds': 'phaseSeconds',
    '--abusers': 'abusers',
    '--honest-rps': 'honestRps',
  };
  for (let i = 0; i < argv.length; i += 2) {
    const key = names[argv[i]];
    const n = Number(argv[i + 1]);
    if (!key || !Number.isSafeInteger(n) || n < 1)
      throw new Error(`${argv[i]}: unknown option or not a positive integer`);
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
  return { statuses, p99: latencies[Math.min(latencies.length - 1, Math.ceil(0.99 * latencies.length) - 1)] ?? NaN };
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

interface PhaseResult {
  name: string;
  abuse?: AbuseKind;
  polite: LoadResult;
  politeStatuses: string | undefined;
  honest: { statuses: Record<string, number>; p99: number };
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
        'LOAD_SHED_DELAY_MS',
        'DB_WAIT_MS',
        'TRUST_PROXY',
        'APP_TRUST_PROXY',
      ],
    },
    { API_KEYS_FILE: keysFile },
  );
  const launcher = spawnLauncher(env, { detached: true });
  const pool = new Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => undefined);
  try {
    await waitLauncherReady(base, launcher);
    log(`npm start ready on ${base} (default budgets: RATE_LIMIT_PER_S 300, RATE_LIMIT_BURST 600)`);
    const hashes = (
      await pool.query<{ hash: string }>('SELECT hash FROM svc.txes ORDER BY random() LIMIT 2000')
    ).rows.map((r) => r.hash);
    const mixed = await endpoints(pool);
    let m = 0;
    const nextMixed = () => mixed[m++ % mixed.length].next();
    let h = 0;
    const nextPolite = () => ({
      path: `/v1/txs/${hashes[h++ % hashes.length]}`,
      headers: { Authorization: `Bearer ${key}` },
    });
    const streamFrom = encodeEventId(blockPosition(1));
    const plan: { name: string; abuse?: AbuseKind }[] = [
      { name: 'idle' },
      { name: '/v1 abuse', abuse: 'v1' },
      { name: 'idle' },
      { name: 'GraphQL abuse', abuse: 'graphql' },
      { name: 'idle' },
      { name: 'stream abuse', abuse: 'stream' },
      { name: 'idle' },
    ];
    const results: PhaseResult[] = [];
    const phaseMs = a.phaseSeconds * 1000;
    // a phase not counted: JIT, the render cache and PostgreSQL's buffers warm up under the polite and honest load
    await Promise.all([
      sampleLoad(base, nextPolite, { clients: POLITE_CLIENTS, durationMs: phaseMs, warmupMs: WARMUP_MS }),
      honest(base, nextMixed, a.honestRps, phaseMs, '127.0.0.3'),
    ]);
    for (const phase of plan) {
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
      const [politeSamples, honestResult] = await Promise.all([
        sampleLoad(base, nextPolite, { clients: POLITE_CLIENTS, durationMs: phaseMs, warmupMs: WARMUP_MS }),
        new Promise((r) => setTimeout(r, WARMUP_MS)).then(() =>
          honest(base, nextMixed, a.honestRps, phaseMs, '127.0.0.3'),
        ),
      ]);
      const seconds = (performance.now() - cpu0.t) / 1000;
      const cpu1 = { server: cpuMs(launcher.child.pid!), pg: pgServerCpuMs(pg.port) ?? 0 };
      const result: PhaseResult = {
        name: phase.name,
        abuse: phase.abuse,
        polite: summarize(politeSamples),
        politeStatuses: politeSamples.firstError,
        honest: honestResult,
        abuser: abuser ? await abuser : undefined,
        serverCpuMsPerS: (cpu1.server - cpu0.server) / seconds,
        pgCpuMsPerS: (cpu1.pg - cpu0.pg) / seconds,
      };
      results.push(result);
      const p = result.polite;
      log(
        `${phase.name.padEnd(14)} polite ${fmt(p.rps, 0)} req/s p50 ${fmt(p.p50, 2)} ms p99 ${fmt(p.p99, 2)} ms (${p.errors} not 200${p.firstError ? `, first: ${p.firstError}` : ''}); honest ${statusText(result.honest.statuses)} p99 ${fmt(result.honest.p99)} ms; ${result.abuser ? `abuser ${statusText(result.abuser.statuses)}; ` : ''}server CPU ${fmt(result.serverCpuMsPerS, 0)} ms/s, PostgreSQL ${fmt(result.pgCpuMsPerS, 0)} ms/s`,
      );
      if (!phase.abuse) await new Promise((r) => setTimeout(r, 2000)); // budgets refill between phases
    }
    report(results, a);
    console.log(JSON.stringify({ bench: 'fair', ...a, results }));
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

function report(results: PhaseResult[], a: Args): void {
  log('');
  log(`ratios: each abuse phase against the mean of the idle phases around it (${a.phaseSeconds} s each)`);
  log(
    'abuse            polite req/s   polite p99   honest 429   abuser 200/429/503/other   5xx (not 503)   server CPU',
  );
  let pass = true;
  results.forEach((r, i) => {
    if (!r.abuse) return;
    const idle = [results[i - 1], results[i + 1]].filter(Boolean);
    const mean = (f: (x: PhaseResult) => number) => idle.reduce((s, x) => s + f(x), 0) / idle.length;
    const rps = r.polite.rps / mean((x) => x.polite.rps);
    const p99 = r.polite.p99 / mean((x) => x.polite.p99);
    const cpu = r.serverCpuMsPerS / mean((x) => x.serverCpuMsPerS);
    const s = r.abuser!.statuses;
    const other = Object.entries(s)
      .filter(([k]) => !['200', '429', '503'].includes(k))
      .reduce((n, [, c]) => n + c, 0);
    const honest429 = r.honest.statuses['429'] ?? 0;
    const bad5xx =
      unplanned5xx(s) +
      unplanned5xx(r.honest.statuses) +
      (r.polite.firstError?.startsWith('5') && !r.polite.firstError.startsWith('503') ? r.polite.errors : 0);
    const ok = rps >= 0.5 && p99 <= 3 && honest429 === 0 && (s['429'] ?? 0) > 0 && bad5xx === 0;
    pass &&= ok;
    log(
      `${r.name.padEnd(16)} ${fmt(rps, 2).padStart(12)}   ${fmt(p99, 2).padStart(10)}   ${String(honest429).padStart(10)}   ${`${s['200'] ?? 0}/${s['429'] ?? 0}/${s['503'] ?? 0}/${other}`.padStart(24)}   ${String(bad5xx).padStart(13)}   ${fmt(cpu, 2)}× idle  ${ok ? 'ok' : 'MISSED'}`,
    );
  });
  log(
    'targets: polite req/s ≥ 0.5 and p99 ≤ 3 of idle; the honest client never 429; the abuser sees 429s; no 5xx but deliberate 503s',
  );
  log(pass ? 'all targets met' : 'a target was missed (see MISSED above)');
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
