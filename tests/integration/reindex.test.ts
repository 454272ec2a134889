/**
 * A changed project on existing data (docs/running.md, "After a project change"), as a handler
 * author meets it: a field added to schema.graphql, then `npm start` on the old DATA_DIR.
 *
 * On the embedded store the changed project indexes beside the old schema while /v1 keeps
 * answering from it (no answer fails meanwhile), then everything switches: GraphQL serves the
 * new field, /ready says which schema serves. Against DATABASE_URL the start is refused with one
 * line naming `--reindex`, and `npm start -- --reindex` drops the index and builds it afresh.
 */
import fs from 'fs';
import http from 'http';
import os from 'os';
import path from 'path';
import { spawnSync } from 'child_process';
import crypto from 'crypto';
import type { AddressInfo } from 'net';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { decodeEventId } from '../../rest-adapter/stream/position';
import { psqlInvocation } from '../../launcher/psql';
import { freePort } from '../../src/runtime/ports';
import { writeProjectCopy } from '../../src/runtime/project';
import type { Readiness } from '../../src/runtime/readiness';
import type { components } from '../../rest-adapter/openapi.generated';
import { EXIT_CODES } from '../../launcher/start';
import { createTestDatabase } from '../harness/db';
import { ensureProjectBuilt } from '../harness/indexed-store';
import { spawnLauncher, type LauncherProcess } from '../harness/launcher-process';
import type { TestDatabase } from '../harness/postgres';
import { until } from '../harness/until';

jest.setTimeout(400_000);

type Status = components['schemas']['Status'];

interface Started extends LauncherProcess {
  base: string;
}

let work: string;
let changedProject: string;

beforeAll(async () => {
  ensureProjectBuilt();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-reindex-'));
  fs.chmodSync(work, 0o755); // the embedded PostgreSQL runs as another user
  // the handler author's change: a new field on an entity (no mapping writes it yet)
  changedProject = path.join(work, 'changed');
  writeProjectCopy(changedProject);
  const schemaFile = path.join(changedProject, 'schema.graphql');
  const schema = fs.readFileSync(schemaFile, 'utf8');
  const changed = schema.replace('type Block @entity {\n', 'type Block @entity {\n  label: String\n');
  expect(changed).not.toBe(schema);
  fs.writeFileSync(schemaFile, changed);
});

const started: Started[] = [];

afterAll(async () => {
  for (const r of receivers) r.close();
  for (const s of started.filter((p) => p.child.exitCode === null)) {
    s.child.kill('SIGTERM');
    await s.exited;
  }
  fs.rmSync(work, { recursive: true, force: true });
});

async function npmStart(dataDir: string, extra: Record<string, string>, args: string[] = []): Promise<Started> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEVNET_HISTORY_BLOCKS: '60',
    DEVNET_BLOCK_MS: '500',
    DEVNET_PORT: '0',
    LOG_FORMAT: 'json',
    RECONCILE_EVERY_BLOCKS: '0',
    ...extra,
  };
  for (const v of ['CHAIN_RPC_URL', 'CHAIN_ID', 'DB_SCHEMA', 'LOG_LEVEL']) if (!(v in extra)) delete env[v];
  if (!('DATABASE_URL' in extra)) delete env.DATABASE_URL;
  const s = { ...spawnLauncher(env, { args }), base: `http://127.0.0.1:${port}` };
  started.push(s);
  return s;
}

function logTail(s: Started): string {
  return s.lines
    .slice(-30)
    .map((l) => JSON.stringify(l))
    .join('\n');
}

async function status(url: string): Promise<number> {
  try {
    return (await fetch(url)).status;
  } catch {
    return 0; // not listening yet
  }
}

async function waitFor(s: Started, what: string, check: () => Promise<boolean>): Promise<void> {
  await until(
    what,
    async () => {
      if (s.child.exitCode !== null) throw new Error(`npm start exited with ${s.child.exitCode}:\n${logTail(s)}`);
      return (await check()) || undefined;
    },
    { ms: 180_000, everyMs: 100, context: () => logTail(s) },
  );
}

const ready = (s: Started) => async () => (await status(`${s.base}/ready`)) === 200;
const serving = (s: Started) => async () => (await status(`${s.base}/v1/status`)) === 200;

async function graphql(s: Started, query: string): Promise<{ data?: unknown; errors?: { message: string }[] }> {
  const res = await fetch(`${s.base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as { data?: unknown; errors?: { message: string }[] };
}

const LABEL_QUERY = '{ blocks(first: 1, orderBy: HEIGHT_DESC) { nodes { height label } } }';

/** Everything /v1/stream sends until the server ends it. */
function readStream(base: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}/v1/stream`, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve(text));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function sql(url: string, text: string): Promise<Record<string, unknown>[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query(text);
    return (Array.isArray(r) ? r[r.length - 1] : r).rows as Record<string, unknown>[];
  } finally {
    await c.end();
  }
}

/** `npm run psql -- -tAc <query>` on DATA_DIR, as a user runs it (pg with its PGOPTIONS where no psql client is installed). */
async function npmRunPsql(dataDir: string, query: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  for (const v of ['DATABASE_URL', 'DB_SCHEMA', 'APP_SCHEMA', 'PGOPTIONS']) delete env[v];
  const run = psqlInvocation(env, ['-tAc', query]);
  if ('error' in run) throw new Error(run.error);
  const r = spawnSync('psql', run.args, { env: run.env, encoding: 'utf8' });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT') {
    if (r.status !== 0) throw new Error(`psql exited ${r.status}: ${r.stderr}`);
    return r.stdout.trim();
  }
  const c = new Client({ connectionString: run.conn.url, options: run.env.PGOPTIONS });
  await c.connect();
  try {
    return String(Object.values((await c.query(query)).rows[0] as object)[0]);
  } finally {
    await c.end();
  }
}

/**
 * A webhook receiver on loopback, verifying every delivery with `standardwebhooks`; the heights of
 * the block events it got, in the order they came.
 */
const receivers: { close(): void }[] = [];

async function blockReceiver(secret: string): Promise<{ url: string; heights: number[]; close(): void }> {
  const wh = new Webhook(secret);
  const heights: number[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      try {
        const event = wh.verify(body, req.headers as Record<string, string>) as { id: string; type: string };
        if (event.type === 'block') heights.push(decodeEventId(event.id)!.height);
        res.writeHead(204).end();
      } catch {
        heights.push(-1); // not verified: shows as a gap
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    heights,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
  receivers.push(receiver);
  return receiver;
}

async function stop(s: Started): Promise<void> {
  s.child.kill('SIGTERM');
  expect(await s.exited).toBe(0);
}

test('embedded store: the changed project indexes beside the old schema, which serves until the switch', async () => {
  const dataDir = path.join(work, 'embedded');
  // an operator's webhook of the chain's blocks (WEBHOOKS_FILE), delivered before, during and after the switch
  const secret = `whsec_${crypto.randomBytes(24).toString('base64')}`;
  const hook = await blockReceiver(secret);
  const webhooksFile = path.join(work, 'webhooks.json');
  fs.writeFileSync(webhooksFile, JSON.stringify([{ name: 'blocks', url: hook.url, secret, blocks: true }]));
  const hooks = { WEBHOOKS_FILE: webhooksFile, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '100' };
  const first = await npmStart(dataDir, hooks);
  await waitFor(first, 'the first start ready', ready(first));
  await waitFor(first, 'some blocks delivered', async () => hook.heights.length >= 3);
  expect((await graphql(first, LABEL_QUERY)).errors?.[0]?.message).toMatch(/label/);
  await stop(first);

  const delivered = hook.heights.length;
  const second = await npmStart(dataDir, { ...hooks, PROJECT_DIR: changedProject });
  const answers: number[] = [];
  const failed: string[] = [];
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const res = await fetch(`${second.base}/v1/status`).catch(() => undefined);
      if (res) {
        answers.push(res.status);
        const text = await res.text();
        if (res.status !== 200 && res.status !== 503) failed.push(`${res.status} ${text}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    // while the new schema catches up: the old one answers, /ready names both
    let during: Readiness | undefined;
    let stream: Promise<string> | undefined;
    // /v1/status, /ready and /metrics read together while the reindex runs
    const truths: { ready: Readiness; status: Status; metrics: string }[] = [];
    await waitFor(second, 'the switch', async () => {
      const r = await fetch(`${second.base}/ready`).catch(() => undefined);
      const body = r ? ((await r.json()) as Readiness) : undefined;
      if (body?.reindex) {
        during = body;
        const st = await fetch(`${second.base}/v1/status`).catch(() => undefined);
        const m = await fetch(`${second.base}/metrics`).catch(() => undefined);
        const answer = st?.status === 200 ? ((await st.json()) as Status) : undefined;
        // (a /v1/status answered just after the switch is the new schema's: no reindex in it)
        if (answer?.reindex && m?.status === 200) truths.push({ ready: body, status: answer, metrics: await m.text() });
      }
      // a stream client of the old schema: told to reconnect at the switch
      if (during && !stream && (await status(`${second.base}/v1/status`)) === 200) stream = readStream(second.base);
      return second.lines.some((l) => typeof l.msg === 'string' && l.msg.startsWith('switched to'));
    });
    expect(stream).toBeDefined();
    expect(await stream).toMatch(
      /event: close\ndata: \{"error":"the API switched to a reindexed store[^\n]*"code":"shutting_down"\}/,
    );
    expect(during?.reindex).toMatchObject({ serving: 'svc', into: expect.stringMatching(/^svc_[0-9a-f]{8}$/) });
    expect(during?.reasons.join(' ')).toMatch(/reindexing the changed project into svc_[0-9a-f]{8}/);
    const into = during!.reindex!.into;
    // every answer told the truth meanwhile: the serving index's lag behind the live chain (not the
    // tip its stopped node last saw), the reindex's progress, /metrics not ready
    expect(truths.length).toBeGreaterThan(0);
    const frozen = truths[0].status.indexed_height;
    for (const { ready: rd, status: st, metrics } of truths) {
      expect(rd.ready).toBe(false);
      expect(st.indexed_height).toBe(frozen);
      expect(st.chain_height).toBeGreaterThanOrEqual(rd.chain_height! - 2);
      expect(st.lag_blocks).toBe(st.chain_height - st.indexed_height);
      expect(st.reindex).toMatchObject({ serving: 'svc', into });
      expect(metrics).toMatch(/^svc_ready 0$/m);
      expect(metrics).toMatch(/^svc_reindexing 1$/m);
    }
    const last = truths[truths.length - 1];
    // the chain moved meanwhile (blocks every 500 ms), and the serving index's lag with it
    expect(last.ready.chain_height! - truths[0].ready.chain_height!).toBeGreaterThan(2);
    expect(last.status.lag_blocks).toBeGreaterThan(truths[0].status.lag_blocks);
    // the expected time is a number once a rate is measured, null before (a reindex this short
    // may finish before any sample saw a rate: seen in CI)
    for (const t of truths)
      expect(t.status.reindex!.eta_s === null || typeof t.status.reindex!.eta_s === 'number').toBe(true);

    await waitFor(second, 'ready after the switch', ready(second));
    const labelled = await graphql(second, LABEL_QUERY);
    expect(labelled.errors).toBeUndefined();
    expect(labelled.data).toEqual({ blocks: { nodes: [{ height: expect.any(Number), label: null }] } });
    const readiness = (await (await fetch(`${second.base}/ready`)).json()) as Readiness;
    expect(readiness.reindex).toBeUndefined();
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'store.json'), 'utf8'))).toEqual({ schema: into });
    // the README's SQL after the switch: npm run psql's search_path follows the serving schema
    expect(Number(await npmRunPsql(dataDir, 'SELECT count(*) FROM txes'))).toBeGreaterThan(0);
    expect(await npmRunPsql(dataDir, 'SELECT current_schema()')).toBe(into);
    // the proofs of both compared before the old was dropped: a field no mapping writes changes no row
    // the log: the first banner says it serves frozen and is not ready; "ready after" only after the switch;
    // progress lines are the reindex's, none from the frozen schema
    const msgs = second.lines.map((l) => ({ component: l.component, msg: String(l.msg) }));
    const switched = msgs.findIndex((l) => l.msg.startsWith('switched to'));
    const servingBanner = msgs.findIndex((l) => l.msg.startsWith('serving after'));
    expect(msgs[servingBanner]?.msg).toMatch(
      /frozen at height \d+ while the changed project is reindexed into svc_[0-9a-f]{8}; not ready/,
    );
    const readyBanner = msgs.findIndex((l) => l.msg.startsWith('ready after'));
    const lastProgress = msgs.reduce(
      (last, l, i) => (l.component === 'reindex' && l.msg.startsWith('reindexing into') ? i : last),
      -1,
    );
    expect(readyBanner).toBeGreaterThan(servingBanner);
    expect(readyBanner).toBeGreaterThan(lastProgress);
    expect(switched).toBeGreaterThan(servingBanner);
    expect(msgs.filter((l) => l.component === 'index' && l.msg.startsWith('indexing '))).toEqual([]);
    expect(msgs.some((l) => l.component === 'reindex' && l.msg.startsWith(`reindexing into ${into}:`))).toBe(true);
    const verdict = second.lines.find((l) => typeof l.msg === 'string' && /^verify: (agree|DIFFER|cannot)/.test(l.msg));
    expect(String(verdict?.msg)).toMatch(/^verify: agree: the proofs at \d+ are equal/);
    // the webhook: after the switch it delivers from the new schema where it stopped, no height
    // skipped or repeated out of order across the stop, the reindex and the switch
    const { indexed_height: now } = (await (await fetch(`${second.base}/v1/status`)).json()) as Status;
    await waitFor(second, 'blocks delivered after the switch', async () => Math.max(...hook.heights) >= now);
    expect(hook.heights.length).toBeGreaterThan(delivered);
    const heights = hook.heights.filter((h, i) => i === 0 || hook.heights[i - 1] !== h);
    expect(heights.slice(1).map((h, i) => h - heights[i])).toEqual(heights.slice(1).map(() => 1));
    expect(heights[heights.length - 1]).toBeGreaterThan(frozen);
  } finally {
    polling = false;
    await poll;
  }
  // from the first answer of /v1 on, none failed: the old schema served until the new one did
  const firstServed = answers.indexOf(200);
  expect(firstServed).toBeGreaterThanOrEqual(0);
  expect(failed).toEqual([]);
  expect(answers.slice(firstServed).filter((c) => c !== 200)).toEqual([]);
  expect(answers.slice(0, firstServed).every((c) => c === 503)).toBe(true);
  await stop(second);
});

test('DATABASE_URL: refused with one line naming --reindex; npm start -- --reindex builds it afresh', async () => {
  const db: TestDatabase = await createTestDatabase('reindex_ext');
  try {
    const dataDir = path.join(work, 'external');
    const external = { DATABASE_URL: db.url };
    // an index another version of the project built (the embedded test above builds a real one;
    // here only its record matters): its _metadata row and a table of its own
    await sql(
      db.url,
      `CREATE SCHEMA svc;
       CREATE TABLE svc._metadata (key varchar(255) PRIMARY KEY, value jsonb, "createdAt" timestamptz NOT NULL, "updatedAt" timestamptz NOT NULL);
       INSERT INTO svc._metadata VALUES ('svcProjectFingerprint', to_jsonb('${'0'.repeat(64)}'::text), now(), now());
       CREATE TABLE svc.old_rows (id text)`,
    );

    const refused = await npmStart(dataDir, { ...external, PROJECT_DIR: changedProject });
    expect(await refused.exited).toBe(EXIT_CODES.config);
    const line = refused.lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('cannot start'));
    expect(String(line?.msg)).toMatch(/another version of the project.*npm start -- --reindex.*force-clean/);

    const rebuilt = await npmStart(dataDir, { ...external, PROJECT_DIR: changedProject }, ['--reindex']);
    await waitFor(rebuilt, 'the rebuilt index serving', serving(rebuilt));
    await waitFor(rebuilt, 'GraphQL on the rebuilt index', async () => !(await graphql(rebuilt, LABEL_QUERY)).errors);
    const recorded = await sql(db.url, `SELECT value FROM svc._metadata WHERE key = 'svcProjectFingerprint'`);
    expect(recorded[0]?.value).toMatch(/^[0-9a-f]{64}$/);
    expect(recorded[0]?.value).not.toBe('0'.repeat(64));
    // the old index was dropped, not written over
    expect(await sql(db.url, `SELECT to_regclass('svc.old_rows') AS t`)).toEqual([{ t: null }]);
    await stop(rebuilt);
  } finally {
    await db.drop();
  }
});
