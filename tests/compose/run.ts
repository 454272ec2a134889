/**
 * The checks of `npm run test:compose` (scripts/test-compose.sh builds the images, sets the
 * environment and cleans up). Against the devnet and scale profiles of docker-compose.yml,
 * over HTTP on the loopback ports compose publishes:
 *
 *   - every service healthy (time to healthy measured), the node indexes the devnet's fixed
 *     history, /v1/status lag small;
 *   - a sample of /v1 answers about that history equals, byte for byte, the same requests to
 *     `npm start` indexing the same devnet (a second, independent indexer with its own
 *     PostgreSQL), and `npm run verify` of it against the primary agrees at every common height;
 *   - GraphQL from subql-query, a subscription over its websocket receiving new blocks rows,
 *     /api/desk/quotes and a launchpad round trip;
 *   - the explorer page at `/` of the gateway's REST_PORT, the default profile's one origin: its
 *     HTML and the bundle it names, /v1/status and /api/desk/quotes there, and in headless
 *     chromium (tests/harness/browser.ts) the home page's latest blocks and a block that arrives
 *     live and the desk page's quotes, no console error; the same desk page through the balancer;
 *   - the gateway passes on the client's address: a client's forged X-Forwarded-For entries are
 *     not believed (its STREAM_MAX_PER_CLIENT-th stream is refused whatever it writes) and another
 *     client (a container on the project's network) is not counted with it;
 *   - scaled: the balancer answers from both rest-adapters and both app-services, the replica's
 *     answers equal the primary's, verify (the image's) of the replica against the primary
 *     agrees, replica lag;
 *   - failover drill: the acting app-services (the one delivering webhooks) stopped (the standby
 *     takes its actor locks within a measured time), a webhook subscription made before the stop
 *     delivered by the standby after it (no event lost, in order, never two in flight at once,
 *     duplicates only of the one in flight), `restart postgres` (every service recovers, the
 *     index resumes, drift_total unchanged), one adapter killed under a bounded load (failed
 *     requests counted).
 *
 * Every wait is bounded; a failed check throws and the process exits 1. Figures go to
 * COMPOSE_FIGURES as JSON and to stdout.
 */
import { execFileSync, spawn, type ChildProcess } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { lockKey } from '../../app-services/actor-lock';
import { WEBHOOKS_ACTOR } from '../../app-services/webhooks/repository';
import { LAUNCH_PLANS, metadataDocument } from '../../devnet/scenario/flows/launch';
import { blockPosition, decodeEventId, encodeEventId } from '../../rest-adapter/stream/position';
import { isStream, openSse, type SseStream } from '../harness/sse-client';
import { openBrowser } from '../harness/browser';
import { startWebhookReceiver, verifyDelivery, type Delivered } from '../harness/webhook-receiver';

const ROOT = path.resolve(__dirname, '../..');
const env = process.env;
const COMPOSE = (env.COMPOSE_COMMAND ?? 'docker-compose').split(' ');
const PROJECT = required('COMPOSE_PROJECT_NAME');
const HISTORY = Number(env.DEVNET_HISTORY_BLOCKS ?? 200);
const port = (name: string) => Number(required(name));
const url = (name: string, p: string) => `http://127.0.0.1:${port(name)}${p}`;
const figures: Record<string, number | string> = {};

function required(name: string): string {
  const v = env[name];
  if (!v) throw new Error(`${name} is not set (run through scripts/test-compose.sh)`);
  return v;
}

function log(message: string): void {
  process.stdout.write(`[compose] ${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

function check(ok: boolean, message: string): void {
  if (!ok) throw new Error(`check failed: ${message}`);
  log(`ok: ${message}`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function compose(...args: string[]): string {
  return execFileSync(COMPOSE[0], [...COMPOSE.slice(1), ...args], { cwd: ROOT, encoding: 'utf8', env });
}

function docker(...args: string[]): string {
  return execFileSync('docker', args, { cwd: ROOT, encoding: 'utf8' });
}

/** Thrown by a probe to end the wait at once (a process it waits on has exited). */
class Fatal extends Error {}

/** Polls `probe` every `everyMs` until it returns a value, at most `timeoutMs`; other errors are retried. */
async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, everyMs = 1000) {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      if (e instanceof Fatal) throw e;
      lastError = e instanceof Error ? e.message : String(e);
    }
    await sleep(everyMs);
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${lastError})` : ''}`,
  );
}

async function get(u: string, init?: RequestInit): Promise<{ status: number; body: string; servedBy: string | null }> {
  const r = await fetch(u, { ...init, signal: AbortSignal.timeout(10_000) });
  return { status: r.status, body: await r.text(), servedBy: r.headers.get('x-served-by') };
}

async function json<T>(u: string, init?: RequestInit): Promise<T> {
  const r = await get(u, init);
  if (r.status !== 200) throw new Error(`${u}: HTTP ${r.status} ${r.body.slice(0, 200)}`);
  return JSON.parse(r.body) as T;
}

interface Status {
  indexed_height: number;
  chain_height: number;
  lag_blocks: number;
  drift_total: number;
}

// --- containers ------------------------------------------------------------------------------

interface ContainerState {
  id: string;
  service: string;
  state: string; // running | exited | …
  health: string | undefined; // healthy | starting | unhealthy | undefined (no health check)
  exitCode: number;
}

function containers(): ContainerState[] {
  const ids = docker('ps', '-aq', '--filter', `label=com.docker.compose.project=${PROJECT}`)
    .split('\n')
    .filter(Boolean);
  if (ids.length === 0) return [];
  const format =
    '{{.Id}}|{{index .Config.Labels "com.docker.compose.service"}}|{{.State.Status}}|' +
    '{{if .State.Health}}{{.State.Health.Status}}{{end}}|{{.State.ExitCode}}';
  return docker('inspect', '--format', format, ...ids)
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, service, state, health, exitCode] = line.split('|');
      return { id, service, state, health: health || undefined, exitCode: Number(exitCode) };
    });
}

const ONE_SHOTS = new Set(['project', 'graphql-json']);
const LONG_RUNNING = [
  'postgres',
  'subql-node',
  'subql-query',
  'rest-adapter',
  'app-services',
  'gateway',
  'reconciler',
  'devnet',
  'postgres-replica',
  'rest-adapter-1',
  'rest-adapter-2',
  'app-services-2',
  'balancer',
];

/** Every long-running service up (healthy where it has a check), every one-shot exited 0. */
function allHealthy(): string[] {
  const byService = new Map(containers().map((c) => [c.service, c]));
  const waiting: string[] = [];
  for (const s of LONG_RUNNING) {
    const c = byService.get(s);
    if (!c || c.state !== 'running' || (c.health !== undefined && c.health !== 'healthy')) waiting.push(s);
  }
  for (const s of ONE_SHOTS) {
    const c = byService.get(s);
    if (!c || c.state !== 'exited') waiting.push(s);
    else if (c.exitCode !== 0) throw new Error(`one-shot ${s} exited with code ${c.exitCode}`);
  }
  return waiting;
}

async function waitAllHealthy(timeoutMs: number): Promise<number> {
  const started = Date.now();
  let waiting: string[] = [];
  try {
    await waitFor(
      'every service healthy',
      timeoutMs,
      async () => {
        waiting = allHealthy();
        return waiting.length === 0 ? true : undefined;
      },
      2000,
    );
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : String(e)}; still waiting for: ${waiting.join(', ')}`);
  }
  return Date.now() - started;
}

function containerOf(service: string): ContainerState {
  const c = containers().find((x) => x.service === service);
  if (!c) throw new Error(`no container for ${service}`);
  return c;
}

/** The address of each app-services container on the project's network. */
function appServiceAddresses(): Map<string, string> {
  const out = new Map<string, string>();
  for (const service of ['app-services', 'app-services-2']) {
    const ip = docker(
      'inspect',
      '--format',
      '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}',
      containerOf(service).id,
    )
      .trim()
      .split(' ')[0];
    out.set(ip, service);
  }
  return out;
}

function psql(service: string, sql: string): string {
  const dbUser = env.DB_USER ?? 'svc';
  const db = env.DB_DATABASE ?? 'svc';
  return docker(
    'exec',
    containerOf(service).id,
    'psql',
    '-h',
    '/var/run/postgresql',
    '-U',
    dbUser,
    '-d',
    db,
    '-Atc',
    sql,
  ).trim();
}

/** service -> advisory (actor) locks its sessions hold */
function actorLocks(): Map<string, number> {
  const addresses = appServiceAddresses();
  const rows = psql(
    'postgres',
    "SELECT host(a.client_addr), count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted GROUP BY 1",
  );
  const out = new Map<string, number>();
  for (const line of rows.split('\n').filter(Boolean)) {
    const [ip, count] = line.split('|');
    const service = addresses.get(ip);
    if (service) out.set(service, Number(count));
  }
  return out;
}

// --- proof of indexing ---------------------------------------------------------------------

interface VerifyJson {
  outcome: 'agree' | 'differ' | 'cannot';
  from?: number;
  to?: number;
  probes?: number;
  firstDiffering?: number;
  reason?: string;
  diagnosis?: { types: { type: string }[] };
}

/** A verify result (--json); a run that printed none throws with what it said. */
function verifyResult(what: string, code: number, stdout: string, stderr: string): VerifyJson {
  try {
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as VerifyJson;
  } catch {
    throw new Error(`${what}: verify exited ${code} without a result: ${stdout.slice(-400)} ${stderr.slice(-400)}`);
  }
}

function runCaptured(command: string, args: string[], cwd = ROOT): { code: number; stdout: string; stderr: string } {
  try {
    return {
      code: 0,
      stdout: execFileSync(command, args, { cwd, encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] }),
      stderr: '',
    };
  } catch (e) {
    const x = e as { status?: number; stdout?: string; stderr?: string };
    return { code: x.status ?? 1, stdout: x.stdout ?? '', stderr: x.stderr ?? '' };
  }
}

function checkAgree(what: string, r: VerifyJson & { code?: number }, minHeight: number): void {
  const where =
    r.outcome === 'differ'
      ? ` first differing height ${r.firstDiffering}, types ${r.diagnosis?.types.map((t) => t.type).join(', ')}`
      : '';
  check(
    r.code === 0 && r.outcome === 'agree' && (r.to ?? 0) >= minHeight,
    `${what}: verify exit ${r.code}, ${r.outcome} over heights ${r.from}..${r.to} (${r.probes} probe)${where}${r.reason ? `: ${r.reason}` : ''}`,
  );
}

/** verify as the image runs it, inside the compose network: this deployment the primary's store (the service's DB_*). */
function verifyInCompose(args: string[]): VerifyJson & { code: number } {
  const started = Date.now();
  // the password stays inside the container: the other store's URL has none, PGPASSWORD gives it
  const r = runCaptured(COMPOSE[0], [
    ...COMPOSE.slice(1),
    'run',
    '--rm',
    '--no-deps',
    '-T',
    'rest-adapter',
    'sh',
    '-c',
    `PGPASSWORD="$DB_PASS" exec node launcher/verify-main.js ${args.map((a) => `'${a}'`).join(' ')} --json`,
  ]);
  figures.verify_in_compose_ms = Date.now() - started;
  return { ...verifyResult('verify in compose', r.code, r.stdout, r.stderr), code: r.code };
}

// --- the reference: npm start indexing the same devnet ------------------------------------

function startReference(dataDir: string): ChildProcess {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      PATH: env.PATH,
      HOME: env.HOME,
      NODE_EXTRA_CA_CERTS: env.NODE_EXTRA_CA_CERTS,
      CHAIN_RPC_URL: url('DEVNET_PORT', ''),
      DATA_DIR: dataDir,
      PORT: String(port('REFERENCE_PORT')),
      HOST: '127.0.0.1',
      LOG_FORMAT: 'json',
    },
    stdio: ['ignore', fs.openSync(path.join(dataDir, '..', 'reference.log'), 'a'), 'pipe'],
    detached: true,
  });
  child.stderr?.on('data', () => undefined);
  return child;
}

async function stopReference(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  process.kill(-child.pid, 'SIGTERM');
  await Promise.race([exited, sleep(30_000)]);
  if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
}

/** Paths whose answers depend only on the history below HISTORY: blocks and their txs. */
async function historyPaths(base: string): Promise<string[]> {
  const heights = [1, 2, Math.floor(HISTORY / 3), Math.floor(HISTORY / 2), HISTORY - 1, HISTORY];
  const paths = heights.map((h) => `/v1/blocks/${h}`);
  for (const h of heights.slice(2)) {
    const block = await get(`${base}/v1/blocks/${h}`);
    const hashes = [...new Set(block.body.match(/\b[0-9A-F]{64}\b/g) ?? [])].slice(0, 3);
    paths.push(...hashes.map((hash) => `/v1/txs/${hash}`));
  }
  return paths;
}

async function compareAnswers(what: string, paths: string[], a: string, b: string): Promise<number> {
  let compared = 0;
  for (const p of paths) {
    const [x, y] = await Promise.all([get(a + p), get(b + p)]);
    if (x.status !== y.status || x.body !== y.body)
      throw new Error(
        `${what}: ${p} differs: ${x.status} ${x.body.slice(0, 300)} vs ${y.status} ${y.body.slice(0, 300)}`,
      );
    compared++;
  }
  return compared;
}

// --- steps ---------------------------------------------------------------------------------

async function upAndHealthy(): Promise<void> {
  log(`compose up (${COMPOSE.join(' ')} -p ${PROJECT})`);
  const started = Date.now();
  // docker-compose 1.29 gives up on `up` when a dependency is unhealthy for a moment (e.g. a
  // service that restarts until the chain answers); the services restart by themselves, so
  // `up` is repeated (it is idempotent) and the wait below decides
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      compose('up', '-d', '--no-build');
      break;
    } catch (e) {
      log(
        `compose up attempt ${attempt} did not finish: ${String((e as { stderr?: string }).stderr ?? e)
          .trim()
          .split('\n')
          .slice(-2)
          .join(' ')}`,
      );
      await sleep(5000);
    }
  }
  await waitAllHealthy(900_000);
  figures.time_to_healthy_s = Math.round((Date.now() - started) / 100) / 10;
  check(true, `every service healthy ${figures.time_to_healthy_s} s after up`);
}

async function indexesHistory(): Promise<Status> {
  const status = await waitFor(
    'the node to index the history',
    600_000,
    async () => {
      const s = await json<Status>(url('REST_PORT', '/v1/status'));
      return s.indexed_height > HISTORY && s.lag_blocks <= 10 ? s : undefined;
    },
    2000,
  );
  figures.index_lag_blocks = status.lag_blocks;
  check(status.indexed_height > HISTORY, `the node indexed past the history: height ${status.indexed_height}`);
  check(status.lag_blocks <= 10, `/v1/status lag ${status.lag_blocks} blocks (<= 10)`);
  return status;
}

async function equalsNpmStart(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-compose-reference-'));
  // the embedded PostgreSQL runs as its own user, which must reach the data directory
  fs.chmodSync(work, 0o755);
  const dataDir = path.join(work, 'data');
  fs.mkdirSync(dataDir);
  log(`npm start against the compose devnet (log ${work}/reference.log)`);
  const reference = startReference(dataDir);
  let passed = false;
  try {
    const base = url('REFERENCE_PORT', '');
    await waitFor(
      'npm start to index the history',
      900_000,
      async () => {
        if (reference.exitCode !== null)
          throw new Fatal(`npm start exited with ${reference.exitCode}: see its log ${work}/reference.log`);
        const s = await json<Status>(`${base}/v1/status`);
        return s.indexed_height > HISTORY ? s : undefined;
      },
      3000,
    );
    const paths = await historyPaths(url('REST_PORT', ''));
    check(paths.length > 6, `sample of ${paths.length} /v1 paths about blocks 1..${HISTORY}`);
    const n = await compareAnswers('compose vs npm start', paths, url('REST_PORT', ''), base);
    check(n === paths.length, `${n} /v1 answers byte-for-byte equal to npm start's`);
    // the second indexer against the primary, every common height: over HTTP on both sides,
    // rows (were they to differ) from subql-query's GraphQL
    const started = Date.now();
    const r = runCaptured(path.join(ROOT, 'node_modules', '.bin', 'ts-node'), [
      '--transpile-only',
      'launcher/verify-main.ts',
      '--base',
      base,
      '--against',
      url('REST_PORT', ''),
      '--against-graphql',
      url('GRAPHQL_PORT', '/graphql'),
      '--json',
    ]);
    const independent = { ...verifyResult('npm start vs primary', r.code, r.stdout, r.stderr), code: r.code };
    figures.verify_independent_heights = (independent.to ?? 0) - (independent.from ?? 0) + 1;
    figures.verify_independent_ms = Date.now() - started;
    checkAgree('npm start (own PostgreSQL) against the primary', independent, HISTORY);
    passed = true;
  } finally {
    await stopReference(reference);
    // kept when a check failed: its log says why
    if (passed) fs.rmSync(work, { recursive: true, force: true });
  }
}

interface BlockEvent {
  id: string;
  mutation_type: string;
  _entity: { height: number } | null;
}

/**
 * subql-query --subscription with the node's --subscription: a graphql-ws client on its
 * websocket (`/`, graphql-transport-ws) receives the blocks rows the node commits while the
 * devnet makes blocks, as INSERTs carrying the row.
 */
async function graphqlSubscription(): Promise<void> {
  const started = Date.now();
  const events: BlockEvent[] = [];
  const errors: string[] = [];
  const client = createClient({
    url: `ws://127.0.0.1:${port('GRAPHQL_PORT')}/`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  try {
    client.subscribe<{ blocks: BlockEvent }>(
      { query: 'subscription { blocks { id mutation_type _entity { height } } }' },
      {
        next: (r) => (r.errors ? errors.push(JSON.stringify(r.errors)) : events.push(r.data!.blocks)),
        error: (e) => errors.push(e instanceof Error ? e.message : JSON.stringify(e)),
        complete: () => undefined,
      },
    );
    await waitFor(
      'two blocks events over the subql-query websocket',
      60_000,
      async () => {
        if (errors.length) throw new Fatal(`subscription refused: ${errors.join('; ')}`);
        return events.length >= 2 ? true : undefined;
      },
      200,
    );
  } finally {
    await client.dispose();
  }
  figures.graphql_subscription_two_events_ms = Date.now() - started;
  check(
    events.every((e) => e.mutation_type === 'INSERT' && e._entity?.height === Number(e.id)),
    `GraphQL subscription (subql-query websocket): blocks ${events.map((e) => e.id).join(', ')} as INSERTs with their rows`,
  );
}

async function graphqlAndApi(): Promise<void> {
  const gql = await json<{ data?: { _metadata?: { lastProcessedHeight: number }; blocks?: { totalCount: number } } }>(
    url('GRAPHQL_PORT', '/graphql'),
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ _metadata { lastProcessedHeight } blocks { totalCount } }' }),
    },
  );
  const height = gql.data?._metadata?.lastProcessedHeight ?? 0;
  check(height > HISTORY, `GraphQL (subql-query) _metadata.lastProcessedHeight ${height}`);
  check((gql.data?.blocks?.totalCount ?? 0) > 0, `GraphQL blocks.totalCount ${gql.data?.blocks?.totalCount}`);
  await graphqlSubscription();

  // the desk quotes assets that have a launchpad document: register the devnet's, as an
  // operator would through the public API (npm start does it in-process on its own devnet)
  for (const plan of LAUNCH_PLANS) {
    const { doc, hash } = metadataDocument(plan);
    const r = await json<{ meta_hash: string }>(url('APP_PORT', '/api/launchpad/metadata'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(doc),
    });
    if (r.meta_hash !== hash) throw new Error(`launchpad: ${plan.symbol} hashed to ${r.meta_hash}, expected ${hash}`);
  }
  check(true, `the devnet's ${LAUNCH_PLANS.length} launch documents registered, each under the devnet's meta_hash`);
  const quotes = await waitFor('desk quotes', 60_000, async () => {
    const q = await json<{ quotes: { symbol: string; bid: string | null; ask: string | null }[] }>(
      url('APP_PORT', '/api/desk/quotes'),
    );
    return q.quotes.length > 0 ? q.quotes : undefined;
  });
  check(
    quotes.length > 0,
    `/api/desk/quotes answers ${quotes.length} quotes (${quotes[0].symbol}: bid ${quotes[0].bid}, ask ${quotes[0].ask})`,
  );

  const doc = { name: 'Compose Check', symbol: 'CMPS', description: 'test:compose round trip', template: 'community' };
  const posted = await json<{ meta_hash: string }>(url('APP_PORT', '/api/launchpad/metadata'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(doc),
  });
  check(/^[0-9a-f]{64}$/.test(posted.meta_hash), `launchpad POST answers meta_hash ${posted.meta_hash}`);
  const read = await json<{ name: string; symbol: string; template: string }>(
    url('APP_PORT', `/api/launchpad/metadata/${posted.meta_hash}`),
  );
  check(read.name === doc.name && read.symbol === doc.symbol, 'launchpad GET answers the document posted');
}

/**
 * The explorer on the gateway's REST_PORT (docs/explorer.md, "Compose"): the page, /v1 and /api
 * on one origin, no CORS header.
 */
async function explorerPage(): Promise<void> {
  const page = await get(url('REST_PORT', '/'));
  check(
    page.status === 200 && page.body.includes('<div id="app">'),
    `REST_PORT GET / answers the explorer's HTML (${page.status}, ${page.body.length} bytes)`,
  );
  const status = await json<Status>(url('REST_PORT', '/v1/status'));
  check(status.indexed_height > HISTORY, `REST_PORT /v1/status answers height ${status.indexed_height}`);
  const quotes = await fetch(url('REST_PORT', '/api/desk/quotes'), { signal: AbortSignal.timeout(10_000) });
  const quoted = (await quotes.json()) as { quotes?: unknown[] };
  check(
    quotes.status === 200 && (quoted.quotes?.length ?? 0) > 0 && !quotes.headers.has('access-control-allow-origin'),
    `REST_PORT /api/desk/quotes answers ${quoted.quotes?.length} quotes from app-services, no CORS header`,
  );
  const assets = [...page.body.matchAll(/(?:src|href)="(\/explorer\/app-[A-Za-z0-9]+\.(?:js|css))"/g)].map((m) => m[1]);
  check(
    assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')),
    `it names ${assets.join(', ')}`,
  );
  for (const a of assets) {
    const r = await fetch(url('REST_PORT', a), { signal: AbortSignal.timeout(10_000) });
    const body = await r.text();
    const type = r.headers.get('content-type') ?? '';
    check(
      r.status === 200 &&
        body.length > 1000 &&
        /javascript|css/.test(type) &&
        !r.headers.has('access-control-allow-origin'),
      `${a}: ${r.status} ${type}, ${body.length} bytes, cached ${r.headers.get('cache-control')}`,
    );
  }
  const b = await openBrowser();
  try {
    const started = Date.now();
    await b.page.goto(url('REST_PORT', '/'));
    await b.page.waitForSelector('[data-testid=block-rows] tr[data-height]', { timeout: 30_000 });
    figures.explorer_home_ms = Date.now() - started;
    const heights = () =>
      b.page.$$eval('[data-testid=block-rows] tr[data-height]', (trs) =>
        trs.map((t) => Number(t.getAttribute('data-height'))),
      );
    const top = Math.max(...(await heights()));
    await b.page.waitForSelector(`[data-testid=block-rows] tr[data-height="${top + 1}"]`, { timeout: 30_000 });
    const shown = await b.page.$$eval('.error', (els) => els.map((e) => e.textContent));
    check(
      shown.length === 0 && b.errors.length === 0,
      `chromium on REST_PORT's / showed the latest blocks in ${figures.explorer_home_ms} ms and block ${top + 1} live, no error (${[...shown, ...b.errors].join('; ')})`,
    );
    await b.page.goto(url('REST_PORT', '/#/desk'));
    await b.page.waitForSelector('[data-testid=quotes] tbody tr', { timeout: 30_000 });
    const rows = await b.page.$$eval('[data-testid=quotes] tbody tr', (trs) => trs.length);
    check(
      rows > 0 && b.errors.length === 0,
      `on REST_PORT the explorer's desk page lists ${rows} quotes (/api answered ${quoted.quotes?.length}) from the page's origin, no error`,
    );
    await b.page.goto(url('BALANCER_PORT', '/#/desk'));
    await b.page.waitForSelector('[data-testid=quotes] tbody tr', { timeout: 30_000 });
    check(
      b.errors.length === 0,
      `through the balancer the explorer's desk page lists the desk's quotes (/api, same origin)`,
    );
  } finally {
    await b.close();
  }
}

/** A container's fetch of `u` (on the project's network, so from another client address than this process's). */
function statusFromContainer(service: string, u: string, headers: Record<string, string>): number {
  const script = `fetch(${JSON.stringify(u)}, { headers: ${JSON.stringify(headers)}, signal: AbortSignal.timeout(10000) }).then((r) => { console.log(r.status); process.exit(0); }, (e) => { console.error(String(e)); process.exit(1); })`;
  return Number(docker('exec', containerOf(service).id, 'node', '-e', script).trim());
}

/**
 * The gateway passes on the client's address and the services believe only that one hop
 * (docker-compose.yml TRUST_PROXY=1, docker/gateway/haproxy.cfg), seen through the per-client cap
 * on open streams: this process opens streams through REST_PORT, each with another forged
 * X-Forwarded-For entry, and is refused at the cap (with the forged entries believed it never is);
 * at the cap a container's stream through the gateway is still accepted (were the gateway's own
 * address counted, every client would share its cap).
 */
async function gatewayClientAddress(): Promise<void> {
  const cap = Number(env.STREAM_MAX_PER_CLIENT ?? 50);
  const open: SseStream[] = [];
  let refused: number | undefined;
  try {
    for (let i = 1; i <= cap + 5 && refused === undefined; i++) {
      const s = await openSse(url('REST_PORT', '/v1/stream'), { 'X-Forwarded-For': `198.51.100.${i}` });
      if (isStream(s)) open.push(s);
      else refused = s.status;
    }
    check(
      refused === 429 && open.length <= cap,
      `through the gateway, forged X-Forwarded-For entries are not believed: ${open.length} streams open, the next one ${refused ?? 'accepted'} (STREAM_MAX_PER_CLIENT ${cap})`,
    );
    const other = statusFromContainer('reconciler', 'http://gateway:3001/v1/stream', {
      'X-Forwarded-For': '198.51.100.1',
    });
    check(
      other === 200,
      `meanwhile another client's stream through the gateway (from the reconciler's container): ${other}`,
    );
  } finally {
    for (const s of open) s.close();
  }
}

async function scaled(): Promise<void> {
  const servedBy = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const r = await get(url('BALANCER_PORT', '/v1/status'));
    if (r.status === 200 && r.servedBy) servedBy.add(r.servedBy);
  }
  check(
    servedBy.has('rest-adapter-1') && servedBy.has('rest-adapter-2'),
    `balancer /v1 answered by ${[...servedBy].sort().join(', ')}`,
  );
  const apiBy = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const r = await get(url('BALANCER_PORT', '/api/desk/quotes'));
    if (r.status === 200 && r.servedBy) apiBy.add(r.servedBy);
  }
  check(apiBy.size === 2, `balancer /api answered by ${[...apiBy].sort().join(', ')}`);

  const paths = await historyPaths(url('REST_PORT', ''));
  const n = await compareAnswers('replica vs primary', paths, url('REST_PORT', ''), url('BALANCER_PORT', ''));
  check(n === paths.length, `${n} answers from the replica (through the balancer) equal the primary's`);
  const db = `postgres://${env.DB_USER ?? 'svc'}@postgres-replica:5432/${env.DB_DATABASE ?? 'svc'}`;
  const replica = verifyInCompose(['--db', db]);
  figures.verify_replica_heights = (replica.to ?? 0) - (replica.from ?? 0) + 1;
  checkAgree('the replica against the primary (verify in the image)', replica, HISTORY);

  const lag = psql(
    'postgres',
    "SELECT coalesce(round(extract(epoch FROM replay_lag) * 1000), 0) || '|' || pg_wal_lsn_diff(sent_lsn, replay_lsn) FROM pg_stat_replication WHERE application_name = 'replica1'",
  );
  const [lagMs, lagBytes] = lag.split('|').map(Number);
  check(Number.isFinite(lagMs), `replica1 streams: replay lag ${lagMs} ms, ${lagBytes} bytes behind`);
  figures.replica_replay_lag_ms = lagMs;
  figures.replica_lag_bytes = lagBytes;
  const [p, r] = await Promise.all([
    json<Status>(url('REST_PORT', '/v1/status')),
    json<Status>(url('BALANCER_PORT', '/v1/status')),
  ]);
  figures.replica_height_behind_blocks = p.indexed_height - r.indexed_height;
  check(
    Math.abs(p.indexed_height - r.indexed_height) <= 2,
    `replica indexed height ${r.indexed_height}, primary ${p.indexed_height}`,
  );
}

// --- webhooks across the failover -----------------------------------------------------------

/** Each delivery is answered after this long, so that the stop is likely to find one in flight. */
const WEBHOOK_HOLD_MS = 100;

/** The host's address on the project's network: where the containers reach a server of this process. */
function networkGateway(): string {
  const gateway = docker(
    'network',
    'inspect',
    '--format',
    '{{range .IPAM.Config}}{{.Gateway}}{{end}}',
    `${PROJECT}_default`,
  ).trim();
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(gateway)) throw new Error(`the project's network has no IPv4 gateway: ${gateway}`);
  return gateway;
}

/** The app-services whose session holds the webhooks actor lock (the one delivering), if any. */
function webhooksHolder(): string | undefined {
  const key = lockKey(WEBHOOKS_ACTOR).toString();
  const ip = psql(
    'postgres',
    `SELECT host(a.client_addr) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted
       AND l.classid = ((${key}::bigint >> 32) & 4294967295)::oid AND l.objid = (${key}::bigint & 4294967295)::oid`,
  );
  return ip ? appServiceAddresses().get(ip.split('\n')[0]) : undefined;
}

const heightOfId = (id: string) => decodeEventId(id)!.height;

/** What /v1/stream sends (no filter: the chain's blocks) after `after`, up to the block of `through`. */
async function streamIds(after: string, through: number): Promise<string[]> {
  const stream = await openSse(url('REST_PORT', `/v1/stream?after=${encodeURIComponent(after)}`));
  if (!isStream(stream)) throw new Error(`/v1/stream: HTTP ${stream.status} ${stream.body.slice(0, 200)}`);
  try {
    await stream.waitFor(
      `the stream's block ${through}`,
      (events) => events.some((e) => e.id !== undefined && heightOfId(e.id) >= through),
      60_000,
    );
  } finally {
    stream.close();
  }
  return stream.events.filter((e) => e.id !== undefined && heightOfId(e.id) <= through).map((e) => e.id!);
}

/**
 * The failover drill. A webhook subscription of the chain's blocks is made through the API
 * (the drill's API key, tests/compose/webhooks.yml) from a recent block on, to a receiver of
 * this process; once the app-services holding the webhooks lock has delivered some, it (the
 * acting one) is stopped: the standby takes its actor locks (timed), and goes on delivering.
 * Checked: every delivery verifies with `standardwebhooks`; those before the stop came from the
 * acting one, those after it from the standby; the ids, in the order received, are exactly what
 * /v1/stream sends from the same id (consecutive blocks: no gap), a repeat only of the one in
 * flight at the stop; never two deliveries in flight at once.
 */
async function appServicesFailover(): Promise<void> {
  await waitFor('an app-services process to act (hold its actor locks)', 120_000, async () =>
    actorLocks().size > 0 ? true : undefined,
  );
  // on the project network's gateway only; each delivery is verified below, once the secret is known
  const receiver = await startWebhookReceiver({ host: networkGateway(), holdMs: () => WEBHOOK_HOLD_MS });
  let acting: string | undefined;
  try {
    const status = await json<Status>(url('REST_PORT', '/v1/status'));
    const after = encodeEventId(blockPosition(status.indexed_height));
    const created = await get(url('APP_PORT', '/api/webhooks'), {
      method: 'POST',
      headers: { authorization: `Bearer ${required('WEBHOOK_TEST_KEY')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, after }),
    });
    if (created.status !== 201) throw new Error(`POST /api/webhooks: HTTP ${created.status} ${created.body}`);
    const sub = JSON.parse(created.body) as { id: string; secret: string; blocks: boolean };
    check(
      sub.blocks,
      `webhook ${sub.id} made through /api/webhooks: the chain's blocks after height ${status.indexed_height}`,
    );
    await waitFor('5 webhook deliveries', 120_000, async () => (receiver.got.length >= 5 ? true : undefined), 250);
    acting = await waitFor('the webhooks actor lock held', 30_000, async () => webhooksHolder());
    const standby = acting === 'app-services' ? 'app-services-2' : 'app-services';
    const ipOf = new Map([...appServiceAddresses()].map(([ip, service]) => [service, ip]));

    const locks = actorLocks();
    const held = locks.get(acting) ?? 0;
    const standbyHeld = locks.get(standby) ?? 0;
    log(`${acting} delivers webhooks and holds ${held} actor lock(s), ${standby} ${standbyHeld}; stopping ${acting}`);
    const stopped = Date.now();
    compose('stop', '--timeout', '10', acting);
    const stopEnded = Date.now();
    const stopMs = stopEnded - stopped;
    await waitFor(
      `${standby} to take the actor locks`,
      60_000,
      async () => ((actorLocks().get(standby) ?? 0) >= standbyHeld + held ? true : undefined),
      250,
    );
    figures.failover_ms = Date.now() - stopped;
    figures.failover_stop_ms = stopMs;
    check(true, `${standby} acts ${figures.failover_ms} ms after the stop began (stop itself ${stopMs} ms)`);

    // the standby's deliveries: until it has delivered 5 blocks beyond the last one before the stop
    const idOf = (d: Delivered) => verifyDelivery(d, sub.secret).id;
    const beforeStop = receiver.got.filter((d) => d.at < stopped);
    const lastBefore = heightOfId(idOf(beforeStop[beforeStop.length - 1]));
    await waitFor(
      `${standby} to deliver the blocks after ${lastBefore}`,
      120_000,
      async () =>
        receiver.got.some((d) => d.at > stopEnded && heightOfId(idOf(d)) >= lastBefore + 5) ? true : undefined,
      250,
    );
    const all = [...receiver.got];
    const ids = all.map(idOf); // each verifies with the subscription's secret, or this throws
    const through = heightOfId(ids[ids.length - 1]) - 1; // every block up to it delivered
    const expected = await streamIds(after, through);
    const received = ids.filter((id) => heightOfId(id) <= through);
    const deduped = received.filter((id, i) => i === 0 || received[i - 1] !== id);
    const heights = deduped.map(heightOfId);
    figures.webhook_deliveries = all.length;
    figures.webhook_repeats = received.length - deduped.length;
    check(
      JSON.stringify(deduped) === JSON.stringify(expected) &&
        heights.every((h, i) => h === status.indexed_height + 1 + i),
      `webhook ids received = /v1/stream's from the same id: blocks ${heights[0]}..${heights.at(-1)}, none missing, in order`,
    );
    check(
      received.length - deduped.length <= 1,
      `webhook repeats: ${received.length - deduped.length} (at most the one in flight at the stop)`,
    );
    check(receiver.seen.most === 1, `never two webhook deliveries in flight at once (most ${receiver.seen.most})`);
    const before = all.filter((d) => d.at < stopped);
    const afterStop = all.filter((d) => d.at > stopEnded);
    check(
      before.length > 0 && before.every((d) => d.from === ipOf.get(acting!)),
      `the ${before.length} webhook deliveries before the stop came from ${acting}`,
    );
    check(
      afterStop.length > 0 && afterStop.every((d) => d.from === ipOf.get(standby)),
      `the ${afterStop.length} webhook deliveries after the stop came from ${standby}`,
    );
  } finally {
    await receiver.close();
  }
  compose('start', acting!);
}

/**
 * The chain shows no action twice: every tx the service keys signed after the history (the
 * devnet's `tx` event `acc_seq` = "<signer>/<sequence>", as indexed) is the tx of one intent
 * (one row per action, its id the action's identity), and no two intents share a tx.
 */
async function noActionTwice(): Promise<void> {
  await sleep(5000); // a few blocks, so that a second process's action would be on chain
  const schema = env.DB_SCHEMA ?? 'svc';
  const app = env.APP_SCHEMA ?? 'app';
  const row = psql(
    'postgres',
    `WITH actors AS (SELECT DISTINCT actor FROM ${app}.intents),
     actor_txs AS (
       SELECT DISTINCT t.hash FROM ${schema}.txes t JOIN actors a ON t.events LIKE '%' || a.actor || '/%'
       WHERE t.height > ${HISTORY} AND t.events LIKE '%acc_seq%')
     SELECT (SELECT count(*) FROM actor_txs) || '|' ||
            (SELECT count(*) FROM actor_txs x WHERE NOT EXISTS (SELECT 1 FROM ${app}.intents i WHERE i.tx_hash = x.hash)) || '|' ||
            (SELECT count(*) FROM (SELECT tx_hash FROM ${app}.intents WHERE tx_hash IS NOT NULL GROUP BY tx_hash HAVING count(*) > 1) d)`,
  );
  const [signed, withoutIntent, shared] = row.split('|').map(Number);
  figures.service_txs_on_chain = signed;
  check(
    withoutIntent === 0 && shared === 0,
    `no action twice: ${signed} txs signed by the service keys on chain, each one intent's (${withoutIntent} without, ${shared} shared)`,
  );
}

async function postgresRestart(): Promise<void> {
  const before = await json<Status>(url('REST_PORT', '/v1/status'));
  const started = Date.now();
  compose('restart', '--timeout', '10', 'postgres');
  await waitAllHealthy(300_000);
  figures.postgres_restart_to_healthy_s = Math.round((Date.now() - started) / 100) / 10;
  const after = await waitFor(
    'the index to resume after the postgres restart',
    300_000,
    async () => {
      const s = await json<Status>(url('REST_PORT', '/v1/status'));
      return s.indexed_height >= before.indexed_height + 3 ? s : undefined;
    },
    2000,
  );
  figures.postgres_restart_to_index_resumed_s = Math.round((Date.now() - started) / 100) / 10;
  check(
    after.indexed_height > before.indexed_height,
    `index resumed: ${before.indexed_height} -> ${after.indexed_height}`,
  );
  check(after.drift_total === before.drift_total, `drift_total unchanged (${after.drift_total})`);
  const replica = await waitFor('the replica to stream again', 120_000, async () => {
    const s = await json<Status>(url('BALANCER_PORT', '/v1/status'));
    return s.indexed_height >= after.indexed_height ? s : undefined;
  });
  check(true, `the replica streams again: its adapters answer height ${replica.indexed_height}`);
}

async function adapterKilledUnderLoad(): Promise<void> {
  const durationMs = 15_000;
  const workers = 4;
  let ok = 0;
  let failed = 0;
  const end = Date.now() + durationMs;
  const worker = async () => {
    while (Date.now() < end) {
      try {
        const r = await get(url('BALANCER_PORT', '/v1/status'));
        if (r.status === 200) ok++;
        else failed++;
      } catch {
        failed++;
      }
    }
  };
  const killer = (async () => {
    await sleep(5000);
    docker('kill', containerOf('rest-adapter-1').id);
    log('killed rest-adapter-1 under load');
  })();
  await Promise.all([...Array.from({ length: workers }, worker), killer]);
  figures.load_requests = ok + failed;
  figures.load_failed_requests = failed;
  log(
    `load through the balancer (${workers} workers, ${durationMs / 1000} s, rest-adapter-1 killed at 5 s): ${ok + failed} requests, ${failed} failed`,
  );
  check(ok > 0, `the balancer kept answering: ${ok} ok`);
}

async function main(): Promise<void> {
  const started = Date.now();
  await upAndHealthy();
  await indexesHistory();
  await graphqlAndApi();
  await explorerPage();
  await gatewayClientAddress();
  await scaled();
  await equalsNpmStart();
  await appServicesFailover();
  await noActionTwice();
  await postgresRestart();
  await adapterKilledUnderLoad();
  figures.build_s = Number(env.BUILD_SECONDS ?? 0);
  figures.checks_s = Math.round((Date.now() - started) / 1000);
  figures.date = new Date().toISOString().slice(0, 10);
  fs.writeFileSync(required('COMPOSE_FIGURES'), JSON.stringify(figures, null, 2) + '\n');
  log(`figures: ${JSON.stringify(figures)}`);
  log('test:compose passed');
}

main().catch((e: unknown) => {
  process.stderr.write(`[compose] FAILED: ${e instanceof Error ? e.message : String(e)}\n`);
  try {
    for (const c of containers()) process.stderr.write(`  ${c.service}: ${c.state} ${c.health ?? ''} ${c.exitCode}\n`);
  } catch {
    // the engine itself may be what failed
  }
  process.exit(1);
});
