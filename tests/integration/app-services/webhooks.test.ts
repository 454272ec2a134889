/**
 * Webhooks end to end on one live world: the devnet producing blocks, the real
 * subql-node-cosmos indexing them, the app services (their /api/webhooks on real HTTP, every
 * answer checked against app-services/openapi.yaml) delivering to real HTTP receivers on
 * loopback. Every delivery is verified with the `standardwebhooks` package (not with the
 * product's code) and compared with what /v1/stream sends for the same filter from the same id.
 */
import { spawn, type ChildProcess } from 'child_process';
import crypto from 'crypto';
import http from 'http';
import path from 'path';
import type { AddressInfo } from 'net';
import { Webhook } from 'standardwebhooks';
import { APP_SERVICES_DEFAULTS } from '../../../app-services/config';
import { StreamFeed } from '../../../rest-adapter/stream/feed';
import { blockPosition, decodeEventId, encodeEventId } from '../../../rest-adapter/stream/position';
import type { TestKey } from '../../harness/app-chain';
import { launchEquity, startLiveWorld, type EquityAsset, type LiveWorld, type Msg } from '../../harness/live-world';
import { isStream, openSse } from '../../harness/sse-client';
import { until } from '../../harness/until';
import { startAppApi, type AppApi } from './api';

jest.setTimeout(120_000);

const KEY_ONE = 'webhook-test-key-one';
const KEY_TWO = 'webhook-test-key-two';
const sha = (t: string) => crypto.createHash('sha256').update(t).digest('hex');
const apiKeys = [
  { name: 'one', sha256: sha(KEY_ONE), budget: { perSecond: 1000, burst: 1000 } },
  { name: 'two', sha256: sha(KEY_TWO), budget: { perSecond: 1000, burst: 1000 } },
];
const auth = (key = KEY_ONE) => ({ authorization: `Bearer ${key}` });

interface Received {
  headers: Record<string, string>;
  body: string;
  status: number;
}

/** A receiver on loopback answering each POST with `answer(n)` (n: the requests so far); 'close' drops the connection. */
interface Receiver {
  url: string;
  got: Received[];
  close(): Promise<void>;
}

async function startReceiver(answer: (n: number) => number | 'close' = () => 200): Promise<Receiver> {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const a = answer(got.length);
      got.push({
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        status: a === 'close' ? 0 : a,
      });
      if (a === 'close') return void req.socket.destroy();
      res.writeHead(a, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let world: LiveWorld;
let api: AppApi;
let alice: TestKey;
let bob: TestKey;
let asset: EquityAsset;
const receivers: Receiver[] = [];

async function receiver(answer?: (n: number) => number | 'close'): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

beforeAll(async () => {
  world = await startLiveWorld({ keys: ['issuer', 'alice', 'bob'], blockMs: 300 });
  ({ alice, bob } = world.keys as Record<'alice' | 'bob', TestKey>);
  asset = await launchEquity(world, {
    issuer: world.keys.issuer,
    metaHash: 'cd'.repeat(32),
    holders: [{ key: alice, units: 1_000_000_000n }],
    poolShares: 10n,
    poolQuote: 10_000_000n,
  });
  api = await startAppApi({
    database: { pool: world.pool, url: world.db.url },
    settings: {
      lockRetryMs: 200,
      webhooks: {
        ...APP_SERVICES_DEFAULTS.webhooks,
        allowPrivate: true, // the receivers are on loopback
        pollMs: 50,
        retryBaseMs: 100,
        retryMaxMs: 300,
        retryHours: 0.0006, // about 2 s
        timeoutMs: 2000,
      },
    },
    webhookFeed: new StreamFeed({ pool: world.pool, schema: 'svc', hrp: 'svc', gasDenom: 'usvc' }),
    apiKeys,
  });
  await until('the webhooks actor', () => (api.services.deliveringWebhooks ? true : undefined));
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await api?.close();
  await world?.close();
});

async function create(body: Record<string, unknown>, key = KEY_ONE) {
  const res = await api.postJson('/api/webhooks', body, auth(key));
  if (res.status !== 201) throw new Error(`create -> ${res.status} ${res.text}`);
  return res.body as { id: string; secret: string; cursor: { height: number; event_id: string | null } };
}

const transfer = (units: bigint): Msg => ({
  typeUrl: '/svc.rights.v1.MsgTransfer',
  value: {
    sender: alice.address,
    recipient: bob.address,
    asset_id: asset.assetId,
    kind_id: 0,
    units: units.toString(),
  },
});

/** Two share transfers alice → bob, each in its own block; the height of the last, once indexed. */
async function twoSends(): Promise<number> {
  await world.submit(alice, [transfer(1000n)]);
  const last = await world.submit(alice, [transfer(2000n)]);
  await world.waitIndexed(last.height);
  return last.height;
}

const heightOf = (id: string) => decodeEventId(id)!.height;

/**
 * What /v1/stream sends for alice after every event of `from` up to `through` (blocks left out):
 * read from the id of the block of from + 1 (the txs and activity of a height come after its block).
 */
async function streamEvents(from: number, through: number): Promise<{ id: string; event: string; data: string }[]> {
  const after = encodeEventId(blockPosition(from + 1));
  const url = `${world.restUrl}/v1/stream?account=${alice.address}&after=${encodeURIComponent(after)}`;
  const stream = await openSse(url);
  if (!isStream(stream)) throw new Error(`stream -> ${stream.status}`);
  await stream.waitFor(
    `the block of ${through}`,
    (events) => events.some((e) => e.event === 'block' && heightOf(e.id!) >= through),
    20_000,
  );
  stream.close();
  return stream.events
    .filter((e) => e.event !== 'block' && heightOf(e.id!) <= through)
    .map((e) => ({ id: e.id!, event: e.event, data: e.data }));
}

/** Until the subscription has delivered `count` events (its `delivered` counter); its answer. */
async function deliveredAtLeast(id: string, count: number, ms = 20_000) {
  return until(
    `${count} deliveries`,
    async () => {
      const res = await api.request('GET', `/api/webhooks/${id}`, { headers: auth() });
      return res.body.delivered >= count ? res.body : undefined;
    },
    { ms },
  );
}

function verified(r: Received, secret: string): { id: string; type: string; data: unknown } {
  const payload = new Webhook(secret).verify(r.body, r.headers) as { id: string; type: string; data: unknown };
  expect(payload.id).toBe(r.headers['webhook-id']);
  return payload;
}

describe('managing subscriptions', () => {
  test('without a key 401, with an unknown key 401, bad input 400 {error, code} with the reason', async () => {
    const none = await api.postJson('/api/webhooks', { url: 'http://example.com/' });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('unauthorized');
    expect((await api.request('GET', '/api/webhooks', { headers: auth('not-a-key') })).status).toBe(401);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /url/],
      [{ url: 'ftp://example.com/' }, /http or https/],
      [{ url: 'http://u:p@example.com/' }, /credentials/],
      [{ url: 'http://127.0.0.1:1/', account: 'svc1notanaddress' }, /./],
      [{ url: 'http://127.0.0.1:1/', account: alice.address, asset: 'a'.repeat(64) }, /at most one filter/],
      [{ url: 'http://127.0.0.1:1/', asset: 'XYZ' }, /asset must be 64 lower-case hex/],
      [{ url: 'http://127.0.0.1:1/', after: 'nonsense' }, /cursor/],
      [{ url: 'http://127.0.0.1:1/', extra: 1 }, /additional properties|extra/],
    ];
    for (const [body, reason] of cases) {
      const res = await api.postJson('/api/webhooks', body, auth());
      expect([body, res.status, res.body.code]).toEqual([body, 400, 'bad_request']);
      expect(res.body.error).toMatch(reason);
    }
    expect((await api.request('GET', '/api/webhooks/not-an-id', { headers: auth() })).status).toBe(400);
  });

  test('a key sees and changes only its own; the secret is shown once; delete removes it', async () => {
    const mine = await create({ url: 'http://127.0.0.1:9/never', account: alice.address });
    expect(mine.secret).toMatch(/^whsec_/);
    const read = await api.request('GET', `/api/webhooks/${mine.id}`, { headers: auth() });
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    expect(read.body.filter).toEqual({ account: alice.address });
    expect(read.body.blocks).toBe(false);
    expect((await api.request('GET', `/api/webhooks/${mine.id}`, { headers: auth(KEY_TWO) })).status).toBe(404);
    expect((await api.request('DELETE', `/api/webhooks/${mine.id}`, { headers: auth(KEY_TWO) })).status).toBe(404);
    const list = await api.request('GET', '/api/webhooks', { headers: auth(KEY_TWO) });
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).not.toContain(mine.id);
    // the secret is stored sealed, never in clear
    const { rows } = await world.pool.query<{ secret: Buffer }>('SELECT secret FROM app.webhooks WHERE id = $1', [
      mine.id,
    ]);
    expect(rows[0].secret.toString('latin1')).not.toContain(mine.secret);
    expect((await api.request('DELETE', `/api/webhooks/${mine.id}`, { headers: auth() })).status).toBe(200);
    expect((await api.request('GET', `/api/webhooks/${mine.id}`, { headers: auth() })).status).toBe(404);
  });
});

describe('deliveries', () => {
  test("an account's events, signed (standardwebhooks verifies), in order, the stream's JSON; the cursor kept in PostgreSQL", async () => {
    const r = await receiver();
    const sub = await create({ url: r.url, account: alice.address });
    const through = await twoSends();
    const expected = await streamEvents(sub.cursor.height, through);
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const after = await deliveredAtLeast(sub.id, expected.length);
    const payloads = r.got.map((g) => verified(g, sub.secret));
    expect(payloads.map((p) => [p.id, p.type, JSON.stringify(p.data)])).toEqual(
      expected.map((e) => [e.id, e.event, JSON.stringify(JSON.parse(e.data))]),
    );
    expect(after.state).toBe('active');
    expect(after.failures).toBe(0);
    // the cursor is in PostgreSQL: after the last event delivered (or the end of a later height)
    const { rows } = await world.pool.query('SELECT cursor_height, cursor_event FROM app.webhooks WHERE id = $1', [
      sub.id,
    ]);
    expect(Number(rows[0].cursor_height)).toBeGreaterThanOrEqual(through);
    if (rows[0].cursor_event !== null) expect(rows[0].cursor_event).toBe(expected[expected.length - 1].id);
    const log = await api.request('GET', `/api/webhooks/${sub.id}/deliveries`, { headers: auth() });
    expect(log.body.deliveries.map((d: { event_id: string }) => d.event_id).reverse()).toEqual(
      expected.map((e) => e.id),
    );
    expect(log.body.deliveries.every((d: { status: number }) => d.status === 200)).toBe(true);
  });

  test('a receiver answering 500, then closing the connection, then 200: retried with backoff, nothing lost, duplicates only of the failed', async () => {
    const r = await receiver((n) => (n === 0 ? 500 : n === 1 ? 'close' : 200));
    const sub = await create({ url: r.url, account: alice.address });
    const through = await twoSends();
    const expected = await streamEvents(sub.cursor.height, through);
    await deliveredAtLeast(sub.id, expected.length);
    const ids = r.got.map((g) => verified(g, sub.secret).id);
    // the first event three times (500, closed, 200), then each next one once, in order
    expect(ids).toEqual([expected[0].id, expected[0].id, ...expected.map((e) => e.id)]);
    const log = (await api.request('GET', `/api/webhooks/${sub.id}/deliveries`, { headers: auth() })).body.deliveries;
    const oldest = log.slice(-3);
    expect(oldest.map((d: { status: number | null; attempt: number }) => [d.status, d.attempt])).toEqual([
      [200, 3],
      [null, 2],
      [500, 1],
    ]);
    expect(oldest[1].error).toMatch(/ECONNRESET|socket hang up|closed/i);
  });

  test('a paused then resumed subscription gets exactly the events it missed', async () => {
    const r = await receiver();
    const sub = await create({ url: r.url, account: alice.address });
    expect((await api.postJson(`/api/webhooks/${sub.id}/pause`, {}, auth())).body.state).toBe('paused');
    const through = await twoSends();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(r.got.length).toBe(0);
    const resumed = await api.postJson(`/api/webhooks/${sub.id}/resume`, {}, auth());
    expect(resumed.body.state).toBe('active');
    const expected = await streamEvents(sub.cursor.height, through);
    await deliveredAtLeast(sub.id, expected.length);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.got.map((g) => verified(g, sub.secret).id)).toEqual(expected.map((e) => e.id));
  });

  test('a dead target is disabled after WEBHOOK_RETRY_HOURS with the reason; a resume replays from where it stopped', async () => {
    let up = false;
    const r = await receiver(() => (up ? 200 : 503));
    const sub = await create({ url: r.url, account: alice.address });
    const through = await twoSends();
    const expected = await streamEvents(sub.cursor.height, through);
    const disabled = await until(
      'disabled',
      async () => {
        const res = await api.request('GET', `/api/webhooks/${sub.id}`, { headers: auth() });
        return res.body.state === 'disabled' ? res.body : undefined;
      },
      { ms: 15_000 },
    );
    expect(disabled.reason).toMatch(/status 503/);
    expect(disabled.delivered).toBe(0);
    const tries = r.got.length;
    expect(tries).toBeGreaterThan(2);
    up = true;
    await api.postJson(`/api/webhooks/${sub.id}/resume`, {}, auth());
    await deliveredAtLeast(sub.id, expected.length);
    expect(r.got.slice(tries).map((g) => verified(g, sub.secret).id)).toEqual(expected.map((e) => e.id));
  });

  test('rotate-secret: both secrets verify during the overlap; redeliver sends one delivered event again', async () => {
    const r = await receiver();
    const sub = await create({ url: r.url, account: alice.address });
    const rotated = await api.request('POST', `/api/webhooks/${sub.id}/rotate-secret`, { headers: auth() });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(sub.secret);
    expect(rotated.body.previous_secret_valid_until).not.toBeNull();
    const through = await twoSends();
    const expected = await streamEvents(sub.cursor.height, through);
    await deliveredAtLeast(sub.id, expected.length);
    verified(r.got[0], sub.secret);
    verified(r.got[0], rotated.body.secret);
    const first = verified(r.got[0], sub.secret).id;
    const count = r.got.length;
    const asked = await api.postJson(`/api/webhooks/${sub.id}/redeliver`, { event_id: first }, auth());
    expect(asked.status).toBe(202);
    await until('the redelivery', () => (r.got.length > count ? true : undefined));
    expect(verified(r.got[count], rotated.body.secret).id).toBe(first);
    const log = (await api.request('GET', `/api/webhooks/${sub.id}/deliveries`, { headers: auth() })).body.deliveries;
    expect(log[0]).toEqual(expect.objectContaining({ event_id: first, redelivery: true, status: 200 }));
  });
});

describe('SSRF', () => {
  test('targets resolving to loopback, private, link-local or metadata addresses are refused at create', async () => {
    const strict = await startAppApi({
      database: { pool: world.pool, url: world.db.url },
      settings: { webhooks: { ...APP_SERVICES_DEFAULTS.webhooks, allowPrivate: false } },
      apiKeys,
    });
    try {
      for (const url of [
        'http://127.0.0.1:8080/',
        'http://localhost/',
        'http://10.1.2.3/',
        'http://192.168.0.1/',
        'http://169.254.169.254/latest/meta-data/',
        'http://[::1]/',
        'http://[fd00:ec2::254]/',
        'http://[::ffff:127.0.0.1]/',
      ]) {
        const res = await strict.postJson('/api/webhooks', { url }, auth());
        expect([url, res.status, res.body.code]).toEqual([url, 400, 'bad_request']);
        expect(res.body.error).toMatch(/loopback, private, link-local or reserved/);
      }
    } finally {
      await strict.close();
    }
  });
});

const REPO = path.resolve(__dirname, '../../..');

/** tests/harness/webhook-process.ts: a deliverer in a process of its own; resolves once it delivers. */
async function deliverer(): Promise<ChildProcess> {
  const child = spawn(
    path.join(REPO, 'node_modules', '.bin', 'ts-node'),
    ['--transpile-only', path.join(REPO, 'tests/harness/webhook-process.ts')],
    { cwd: REPO, env: { ...process.env, DATABASE_URL: world.db.url }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('delivering')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the deliverer exited (${code})`)));
  });
  return child;
}

describe('crashes', () => {
  test('kill -9 of the deliverer mid-delivery: after a restart every event is delivered in order, duplicates only of the one in flight', async () => {
    await api.services.stop(); // this process delivers no more: its webhooks lock is released
    const r = await receiver();
    // answers each delivery after 100 ms: the kill lands mid-delivery
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        r.got.push({ headers: req.headers as Record<string, string>, body, status: 200 });
        setTimeout(() => res.writeHead(200).end(), 100);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    // from the start of the history: every event of alice so far
    const sub = await create({ url, account: alice.address, after: encodeEventId(blockPosition(1)) });
    const through = world.chain.height;
    await world.waitIndexed(through);
    const expected = (await streamEvents(1, through)).map((e) => e.id);
    expect(expected.length).toBeGreaterThan(10);
    const first = await deliverer();
    await until('some deliveries', () => (r.got.length >= 5 ? true : undefined));
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const second = await deliverer();
    try {
      await deliveredAtLeast(sub.id, expected.length, 30_000);
      const ids = r.got.map((g) => verified(g, sub.secret).id).filter((id) => expected.includes(id));
      const deduped = ids.filter((id, i) => i === 0 || ids[i - 1] !== id);
      expect(deduped.slice(0, expected.length)).toEqual(expected);
      expect(ids.length - deduped.length).toBeLessThanOrEqual(1); // at most the one in flight
    } finally {
      second.kill('SIGKILL');
      server.closeAllConnections();
      server.close();
    }
  });
});
