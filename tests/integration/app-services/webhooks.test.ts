/**
 * Webhooks end to end on one live world: the devnet producing blocks, the real
 * subql-node-cosmos indexing them, the app services (their /api/webhooks on real HTTP, every
 * answer checked against app-services/openapi.yaml) delivering to real HTTP receivers on
 * loopback. Every delivery is verified with the `standardwebhooks` package (not with the
 * product's code) and compared with what /v1/stream sends for the same filter from the same id.
 */
import { spawn, type ChildProcess } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import http from 'http';
import os from 'os';
import path from 'path';
import type { AddressInfo } from 'net';
import { Client, Pool } from 'pg';
import { lockKey } from '../../../app-services/actor-lock';
import { APP_SERVICES_DEFAULTS } from '../../../app-services/config';
import { applyWebhooksFile, declaredId, readWebhooksFile } from '../../../app-services/webhooks/file';
import { targetShare } from '../../../app-services/webhooks/dispatcher';
import { WebhookRepository, WEBHOOKS_ACTOR, type NewWebhook } from '../../../app-services/webhooks/repository';
import { SecretBox } from '../../../app-services/webhooks/secrets';
import { StreamFeed } from '../../../rest-adapter/stream/feed';
import { blockPosition, decodeEventId, encodeEventId } from '../../../rest-adapter/stream/position';
import type { TestKey } from '../../harness/app-chain';
import { launchEquity, startLiveWorld, type EquityAsset, type LiveWorld, type Msg } from '../../harness/live-world';
import { isStream, openSse } from '../../harness/sse-client';
import { until } from '../../harness/until';
import {
  startWebhookReceiver,
  verifyDelivery,
  type Delivered,
  type WebhookReceiver,
} from '../../harness/webhook-receiver';
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

type Receiver = WebhookReceiver;

let world: LiveWorld;
let api: AppApi;
let alice: TestKey;
let bob: TestKey;
let asset: EquityAsset;
const receivers: Receiver[] = [];

async function receiver(answer?: (n: number) => number | 'close'): Promise<Receiver> {
  const r = await startWebhookReceiver({ answer });
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

function verified(r: Delivered, secret: string): { id: string; type: string; data: unknown } {
  const payload = verifyDelivery(r, secret);
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
  test('WEBHOOK_MAX_PER_KEY holds under concurrent creates: exactly the limit succeed, the others 400 with the reason', async () => {
    const LIMIT = 5;
    const KEY_LIMITED = 'webhook-test-key-limited';
    const limited = await startAppApi({
      database: { pool: world.pool, url: world.db.url },
      settings: { webhooks: { ...APP_SERVICES_DEFAULTS.webhooks, allowPrivate: true, maxPerKey: LIMIT } },
      webhookFeed: new StreamFeed({ pool: world.pool, schema: 'svc', hrp: 'svc', gasDenom: 'usvc' }),
      apiKeys: [...apiKeys, { name: 'limited', sha256: sha(KEY_LIMITED), budget: { perSecond: 1000, burst: 1000 } }],
    });
    const made: string[] = [];
    try {
      // all at once: each is checked and counted while the others are on their way
      const answers = await Promise.all(
        Array.from({ length: LIMIT + 1 }, () =>
          limited.postJson(
            '/api/webhooks',
            { url: 'http://127.0.0.1:9/never', account: bob.address },
            auth(KEY_LIMITED),
          ),
        ),
      );
      made.push(...answers.filter((a) => a.status === 201).map((a) => a.body.id as string));
      expect(answers.map((a) => a.status).sort()).toEqual([...Array(LIMIT).fill(201), 400]);
      const refused = answers.find((a) => a.status === 400)!;
      expect(refused.body).toEqual({
        error: `this key has ${LIMIT} webhooks already (WEBHOOK_MAX_PER_KEY)`,
        code: 'bad_request',
      });
      const list = await limited.request('GET', '/api/webhooks', { headers: auth(KEY_LIMITED) });
      expect(list.body.webhooks.map((w: { id: string }) => w.id).sort()).toEqual([...made].sort());
      // a place freed is a place: one delete, one create
      expect(
        (await limited.request('DELETE', `/api/webhooks/${made.pop()}`, { headers: auth(KEY_LIMITED) })).status,
      ).toBe(200);
      const again = await limited.postJson(
        '/api/webhooks',
        { url: 'http://127.0.0.1:9/never', account: bob.address },
        auth(KEY_LIMITED),
      );
      expect(again.status).toBe(201);
      made.push(again.body.id as string);
    } finally {
      // they target nothing: gone before the main deliverer counts them among the failing
      for (const id of made) await limited.request('DELETE', `/api/webhooks/${id}`, { headers: auth(KEY_LIMITED) });
      await limited.close();
    }
  });
  test("WEBHOOK_MAX_PER_KEY: two creates racing for the last place, both past their count before either inserts without the owner's lock: one made, one refused", async () => {
    const LIMIT = 3;
    const owner = `race-${crypto.randomBytes(4).toString('hex')}`;
    // a pool of its own: two creates at once, whatever the services hold of the world's
    const pool = new Pool({ connectionString: world.db.url, max: 2 });
    const repository = new WebhookRepository(pool, 'app');
    const webhook = (): NewWebhook => ({
      owner,
      url: 'http://127.0.0.1:9/never',
      filter: { account: bob.address },
      blocks: false,
      secret: crypto.randomBytes(32),
      cursor: { height: 1_000_000_000, eventId: null }, // never behind the index: no deliverer takes them up
    });
    const holder = new Client({ connectionString: world.db.url });
    const watcher = new Client({ connectionString: world.db.url });
    await Promise.all([holder.connect(), watcher.connect()]);
    try {
      for (let i = 0; i < LIMIT - 1; i++) await repository.create(webhook());
      // a session holding the table in SHARE mode lets each create count and stops its insert: both
      // reach the insert having counted LIMIT − 1, unless the owner's lock keeps the second from
      // counting until the first has committed
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE app.webhooks IN SHARE MODE');
      const racing = [repository.createWithin(webhook(), LIMIT), repository.createWithin(webhook(), LIMIT)];
      await until("both creates waiting: at their insert, or one at the owner's lock", async () => {
        const { rows } = await watcher.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'
             AND (query LIKE 'INSERT INTO %webhooks (id, owner%' OR query LIKE '%pg_advisory_xact_lock%')`,
        );
        return Number(rows[0].n) === 2 ? true : undefined;
      });
      await holder.query('COMMIT');
      const made = await Promise.all(racing);
      expect(made.map((m) => m !== undefined).sort()).toEqual([false, true]);
      const { rows } = await watcher.query<{ n: string }>('SELECT count(*) AS n FROM app.webhooks WHERE owner = $1', [
        owner,
      ]);
      expect(rows[0].n).toBe(String(LIMIT));
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await watcher.query('DELETE FROM app.webhooks WHERE owner = $1', [owner]);
      await Promise.all([holder.end(), watcher.end(), pool.end()]);
    }
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

  test("a resume after an earlier event while the subscription's task is live (caught up, waiting for the next height) replays from that event", async () => {
    const r = await receiver();
    const sub = await create({ url: r.url, account: alice.address });
    const through = await twoSends();
    const expected = await streamEvents(sub.cursor.height, through);
    expect(expected.length).toBeGreaterThan(1);
    await deliveredAtLeast(sub.id, expected.length);
    await new Promise((resolve) => setTimeout(resolve, 300)); // its task is idle now, kept for the next height
    const count = r.got.length;
    // no pause first: the cursor changes under a task that is kept across heights
    const resumed = await api.postJson(`/api/webhooks/${sub.id}/resume`, { after: expected[0].id }, auth());
    expect(resumed.status).toBe(200);
    await until('the replay', () => (r.got.length >= count + expected.length - 1 ? true : undefined), { ms: 10_000 });
    expect(r.got.slice(count).map((g) => verified(g, sub.secret).id)).toEqual(expected.slice(1).map((e) => e.id));
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

describe("an operator's file (WEBHOOKS_FILE)", () => {
  test("entries upserted by name with the file's secret; each wrong entry refused with one line, the others applied", async () => {
    const r = await receiver();
    const fileSecret = `whsec_${crypto.randomBytes(32).toString('base64')}`;
    const good = { name: 'deposits', url: r.url, secret: fileSecret, account: alice.address, owner: 'one' };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-file-'));
    const file = path.join(dir, 'webhooks.json');
    const entries: unknown[] = [
      good,
      { ...good, name: 'bad-secret', secret: 'not-a-secret' },
      { ...good, name: 'bad-url', url: 'ftp://example.com/' },
      { ...good, name: 'bad-account', account: 'svc1notanaddress' },
      { ...good, name: 'extra', colour: 'red' },
      { ...good, name: 'unknown-owner', owner: 'nobody' },
      { ...good }, // the same name again
      'not an object',
    ];
    fs.writeFileSync(file, JSON.stringify(entries));
    const lines: string[] = [];
    const log = {
      debug: () => undefined,
      info: () => undefined,
      warn: (m: string) => void lines.push(m),
      error: (m: string) => void lines.push(m),
    };
    const repository = new WebhookRepository(world.pool, 'app');
    const deps = {
      repository,
      feed: new StreamFeed({ pool: world.pool, schema: 'svc', hrp: 'svc', gasDenom: 'usvc' }),
      box: new SecretBox(await repository.storedKey()), // the services' own (WEBHOOK_SECRET_KEY unset)
      allowPrivate: true,
      keyNames: apiKeys.map((k) => k.name),
      log,
    };
    const first = await applyWebhooksFile(readWebhooksFile(file), deps);
    expect(first.created).toEqual(['deposits']);
    expect(first.refused).toHaveLength(entries.length - 1);
    expect(lines).toEqual(first.refused);
    const reasons: [number, RegExp][] = [
      [1, /entry 1 \(bad-secret\) refused: "secret" must be a Standard Webhooks secret/],
      [2, /entry 2 \(bad-url\) refused: .*http or https/],
      [3, /entry 3 \(bad-account\) refused: ./],
      [4, /entry 4 \(extra\) refused: unknown field "colour"/],
      [5, /entry 5 \(unknown-owner\) refused: "owner" must name a key of API_KEYS_FILE/],
      [6, /entry 6 \(deposits\) refused: the same name is listed twice/],
      [7, /entry 7 refused: must be an object/],
    ];
    for (const [i, reason] of reasons) expect(first.refused[i - 1]).toMatch(reason);
    for (const line of first.refused) {
      expect(line.split('\n')).toHaveLength(1);
      expect(line.startsWith(`WEBHOOKS_FILE ${file}: entry `)).toBe(true);
      expect(line).not.toContain(fileSecret);
    }
    // the subscription: its owner's key sees it, as the file's; deliveries signed with the file's secret
    const id = declaredId('deposits');
    const read = await api.request('GET', `/api/webhooks/${id}`, { headers: auth() });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ source: 'file', url: r.url, filter: { account: alice.address } });
    const through = await twoSends();
    const expected = await streamEvents(read.body.cursor.height, through);
    await deliveredAtLeast(id, expected.length);
    expect(r.got.map((g) => verified(g, fileSecret).id)).toEqual(expected.map((e) => e.id));
    // a later start with the entry changed: updated by name, its cursor kept, the new secret signs
    const moved = (await api.request('GET', `/api/webhooks/${id}`, { headers: auth() })).body.cursor;
    const r2 = await receiver();
    const newSecret = `whsec_${crypto.randomBytes(24).toString('base64')}`;
    fs.writeFileSync(file, JSON.stringify([{ ...good, url: r2.url, secret: newSecret }]));
    lines.length = 0;
    const second = await applyWebhooksFile(readWebhooksFile(file), deps);
    expect([second.created, second.updated, second.refused]).toEqual([[], ['deposits'], []]);
    const after = (await api.request('GET', `/api/webhooks/${id}`, { headers: auth() })).body;
    expect(after.url).toBe(r2.url);
    expect(after.cursor.height).toBeGreaterThanOrEqual(moved.height);
    const later = await twoSends();
    const more = await streamEvents(after.cursor.height, later);
    await deliveredAtLeast(id, expected.length + more.length);
    expect(r2.got.map((g) => verified(g, newSecret).id)).toEqual(more.map((e) => e.id));
    expect(() => verifyDelivery(r2.got[0], fileSecret)).toThrow();
    // its owner may delete it (the next start with the entry makes it again); a subscription made
    // through the API is never the file's to change
    expect((await api.request('DELETE', `/api/webhooks/${id}`, { headers: auth() })).status).toBe(200);
    const made = await create({ url: r.url, account: alice.address });
    await expect(
      repository.declare({
        ...good,
        id: made.id,
        filter: {},
        blocks: false,
        secret: deps.box.seal(fileSecret),
        owner: 'one',
        cursor: { height: 1, eventId: null },
      }),
    ).resolves.toBe('refused');
    // a file that is not JSON, or not an array: the start is refused with one line naming the variable
    fs.writeFileSync(file, '{"name":');
    expect(() => readWebhooksFile(file)).toThrow(/^WEBHOOKS_FILE: is not JSON/);
    fs.writeFileSync(file, '{}');
    expect(() => readWebhooksFile(file)).toThrow('WEBHOOKS_FILE: must hold a JSON array of subscriptions');
    expect(() => readWebhooksFile(path.join(dir, 'missing.json'))).toThrow(/^WEBHOOKS_FILE: cannot be read/);
    fs.rmSync(dir, { recursive: true, force: true });
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

/** tests/harness/webhook-process.ts: a deliverer in a process of its own; `delivering` resolves once it holds the lock. */
function spawnDeliverer(): { child: ChildProcess; delivering: Promise<void> } {
  const child = spawn(
    path.join(REPO, 'node_modules', '.bin', 'ts-node'),
    ['--transpile-only', path.join(REPO, 'tests/harness/webhook-process.ts')],
    { cwd: REPO, env: { ...process.env, DATABASE_URL: world.db.url }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const delivering = new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('delivering')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the deliverer exited (${code})`)));
  });
  delivering.catch(() => undefined); // a standby killed at the end never delivered
  return { child, delivering };
}

async function deliverer(): Promise<ChildProcess> {
  const d = spawnDeliverer();
  await d.delivering;
  return d.child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Every event of alice so far, from the start of the history, as /v1/stream sends them. */
async function aliceSoFar(): Promise<string[]> {
  const through = world.chain.height;
  await world.waitIndexed(through);
  return (await streamEvents(1, through)).map((e) => e.id);
}

/** The ids received, checked: each verifies, in order, duplicated at most `dups` times (the in flight). */
function inOrder(got: Delivered[], secret: string, expected: string[], dups: number): void {
  const ids = got.map((g) => verified(g, secret).id).filter((id) => expected.includes(id));
  const deduped = ids.filter((id, i) => i === 0 || ids[i - 1] !== id);
  expect(deduped.slice(0, expected.length)).toEqual(expected);
  expect(ids.length - deduped.length).toBeLessThanOrEqual(dups);
}

describe('crashes and a second process', () => {
  beforeAll(async () => {
    await api.services.stop(); // this process delivers no more: its webhooks lock is released
  });

  test('kill -9 of the deliverer mid-delivery: after a restart every event is delivered in order, duplicates only of the one in flight', async () => {
    // answers each delivery after 100 ms: the kill lands mid-delivery
    const r = await startWebhookReceiver({ holdMs: () => 100 });
    // from the start of the history: every event of alice so far
    const sub = await create({ url: r.url, account: alice.address, after: encodeEventId(blockPosition(1)) });
    const expected = await aliceSoFar();
    expect(expected.length).toBeGreaterThan(10);
    const first = await deliverer();
    await until('some deliveries', () => (r.got.length >= 5 ? true : undefined));
    await kill(first);
    const second = await deliverer();
    try {
      await deliveredAtLeast(sub.id, expected.length, 30_000);
      inOrder(r.got, sub.secret, expected, 1); // at most the one in flight
      expect(r.seen.most).toBe(1);
    } finally {
      await kill(second);
      await r.close();
    }
  });

  test('two deliverers on one database: one delivers; its lock cut mid-delivery, the next holder waits until that delivery has ended; order kept', async () => {
    let hold = false;
    // the delivery in flight when the lock is cut is held 1.5 s: longer than a takeover (200 ms)
    const r = await startWebhookReceiver({ holdMs: () => (hold ? 1500 : 20) });
    const sub = await create({ url: r.url, account: alice.address, after: encodeEventId(blockPosition(1)) });
    const expected = await aliceSoFar();
    const epochOf = async () =>
      Number(
        (await world.pool.query(`SELECT epoch FROM app.actor_epochs WHERE address = $1`, [WEBHOOKS_ACTOR])).rows[0]
          .epoch,
      );
    const before = await epochOf();
    const a = spawnDeliverer();
    const b = spawnDeliverer();
    try {
      await Promise.race([a.delivering, b.delivering]);
      await until('some deliveries', () => (r.got.length >= 3 ? true : undefined));
      const arrived = r.got.length;
      hold = true; // asked as each delivery arrives: the next one is held
      await until('a delivery held', () => (r.got.length > arrived ? true : undefined));
      hold = false;
      // what an administrator or a network cut does to the holder's lock session: the lock is
      // free on the server at once, while the holder's POST is still in flight
      const admin = new Client({ connectionString: world.db.url });
      await admin.connect();
      const cut = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted
           AND objid = ($1::bigint & 4294967295)::oid`,
        [lockKey(WEBHOOKS_ACTOR).toString()],
      );
      await admin.end();
      expect(cut.rowCount).toBe(1);
      await deliveredAtLeast(sub.id, expected.length, 30_000);
      // never two deliveries in flight at once, though the lock was free while one was
      expect(r.seen.most).toBe(1);
      inOrder(r.got, sub.secret, expected, 1); // the held one, delivered again by the next holder
      expect(await epochOf()).toBeGreaterThanOrEqual(before + 2); // the first holder, then the next
    } finally {
      await Promise.all([kill(a.child), kill(b.child)]);
      await r.close();
    }
  });
});

describe('failing subscriptions and the delivery slots', () => {
  const CONCURRENCY = 8;
  const QUARTER = CONCURRENCY / 4;
  const FAILING = 10;
  let slotted: AppApi;

  beforeAll(async () => {
    await api.services.stop(); // one deliverer: the one with few slots below
    // the subscriptions of the tests above would share the slots (some of their receivers are closed)
    for (const key of [KEY_ONE, KEY_TWO]) {
      const list = await api.request('GET', '/api/webhooks', { headers: auth(key) });
      for (const w of list.body.webhooks as { id: string }[])
        await api.request('DELETE', `/api/webhooks/${w.id}`, { headers: auth(key) });
    }
    slotted = await startAppApi({
      database: { pool: world.pool, url: world.db.url },
      settings: {
        lockRetryMs: 200,
        webhooks: {
          ...APP_SERVICES_DEFAULTS.webhooks,
          allowPrivate: true,
          pollMs: 50,
          concurrency: CONCURRENCY,
          timeoutMs: 1000,
          retryBaseMs: 100,
          retryMaxMs: 300,
          retryHours: 1, // none is disabled during the test
        },
      },
      webhookFeed: new StreamFeed({ pool: world.pool, schema: 'svc', hrp: 'svc', gasDenom: 'usvc' }),
      apiKeys,
    });
    await until('the webhooks actor', () => (slotted.services.deliveringWebhooks ? true : undefined));
  });

  afterAll(async () => {
    await slotted?.close();
  });

  /** Receivers that never answer (each delivery ends at WEBHOOK_TIMEOUT_MS), counting their deliveries in flight together. */
  async function hangingReceivers(n: number) {
    const seen = { inFlight: 0, most: 0, requests: 0 };
    const servers: http.Server[] = [];
    for (let i = 0; i < n; i++) {
      const server = http.createServer((req, res) => {
        seen.requests += 1;
        seen.inFlight += 1;
        seen.most = Math.max(seen.most, seen.inFlight);
        res.once('close', () => (seen.inFlight -= 1)); // the deliverer gave up and closed the connection
        req.resume();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      servers.push(server);
    }
    return {
      seen,
      urls: servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`),
      close: () =>
        Promise.all(
          servers.map(
            (s) =>
              new Promise<void>((resolve) => {
                s.closeAllConnections();
                s.close(() => resolve());
              }),
          ),
        ),
    };
  }

  test("a slow target (2xx after more than half the timeout) with many subscriptions holds at most its share of the slots, then the quarter; a healthy host's POSTs never wait for a slot", async () => {
    const SHARE = targetShare({ concurrency: CONCURRENCY, perTarget: APP_SERVICES_DEFAULTS.webhooks.perTarget });
    const SLOW_SUBS = 8;
    const HEALTHY_SUBS = 3;
    // the slow target's share and the healthy host's subscriptions (one POST in flight each) fit
    // in the slots together: with the target's turn taken first, no POST ever waits for a slot
    expect([SHARE, SHARE + HEALTHY_SUBS < CONCURRENCY]).toEqual([4, true]);
    // the slow target's deliveries in flight among those after its first SHARE, the most at once:
    // each of those waited for a turn given back after a slow answer, so took one of the quarter
    let laterMost = 0;
    const slow: WebhookReceiver = await startWebhookReceiver({
      holdMs: () => 600, // more than half the timeout, so the target is slow; less than it, so each succeeds
      onDelivery: () => (laterMost = Math.max(laterMost, slow.got.slice(SHARE).filter((g) => g.open).length)),
    });
    // how many deliveries the slow target had in flight as each of the healthy host's arrived
    const slowBusy: number[] = [];
    const healthy = await startWebhookReceiver({ onDelivery: () => slowBusy.push(slow.seen.inFlight) });
    const made: Awaited<ReturnType<typeof create>>[] = [];
    try {
      const subscribe = async (r: WebhookReceiver, n: number) => {
        const subs = [];
        for (let i = 0; i < n; i++) {
          const url = `${r.url}/${i}`;
          subs.push({ r, path: new URL(url).pathname, ...(await create({ url, account: alice.address })) });
        }
        return subs;
      };
      const subs = [...(await subscribe(slow, SLOW_SUBS)), ...(await subscribe(healthy, HEALTHY_SUBS))];
      made.push(...subs);
      const waitsBefore = slotted.services.webhookProfile!.slotWaits;
      await world.submit(alice, [transfer(3000n)]);
      const through = world.chain.height;
      await world.waitIndexed(through);
      const expectedFrom = new Map<number, Promise<string[]>>(); // by cursor height: the subscriptions share a few
      const expectedOf = (height: number) => {
        if (!expectedFrom.has(height))
          expectedFrom.set(
            height,
            streamEvents(height, through).then((es) => es.map((e) => e.id)),
          );
        return expectedFrom.get(height)!;
      };
      for (const sub of subs) await deliveredAtLeast(sub.id, (await expectedOf(sub.cursor.height)).length, 60_000);
      // every subscription, slow or healthy, got every event in order, each verified
      for (const { r, path, secret, cursor } of subs) {
        const expected = await expectedOf(cursor.height);
        expect(expected.length).toBeGreaterThan(0);
        const mine = r.got.filter((g) => g.path === path).map((g) => verified(g, secret).id);
        expect([path, mine]).toEqual([path, expected]);
      }
      // the slow target: at most its share in flight (its first deliveries), then the quarter
      expect(slow.seen.most).toBe(SHARE);
      expect(laterMost).toBe(QUARTER);
      // its timeout starts with its POST, not while it waits for its turn: none failed
      const { rows } = await world.pool.query<{ n: string }>(
        'SELECT count(*) AS n FROM app.webhook_deliveries WHERE webhook_id = ANY($1) AND status IS DISTINCT FROM 200',
        [made.map((m) => m.id)],
      );
      expect(rows[0].n).toBe('0');
      // the healthy host's deliveries came while the slow target held slots, and no POST waited for one
      expect(slowBusy.length).toBeGreaterThan(0);
      expect(slowBusy.some((n) => n > 0)).toBe(true);
      expect(slotted.services.webhookProfile!.slotWaits - waitsBefore).toBe(0);
    } finally {
      for (const m of made) await api.request('DELETE', `/api/webhooks/${m.id}`, { headers: auth() });
      await Promise.all([slow.close(), healthy.close()]);
    }
  });

  test('subscriptions that are failing (their targets hanging until the timeout) hold at most a quarter of the slots; the healthy ones are served meanwhile', async () => {
    const dead = await hangingReceivers(FAILING);
    try {
      const failing: Awaited<ReturnType<typeof create>>[] = [];
      for (const url of dead.urls) failing.push(await create({ url, account: alice.address }));
      const healthy = [];
      for (let i = 0; i < 3; i++) {
        const r = await receiver();
        healthy.push({ r, sub: await create({ url: r.url, account: alice.address }) });
      }
      const first = await twoSends();
      // a first attempt is not yet known to fail: it takes an ordinary slot. Once every failing
      // subscription has failed, each of their attempts is a retry
      await until(
        'every failing subscription failed once',
        async () => {
          const { rows } = await world.pool.query<{ n: string }>(
            'SELECT count(*) AS n FROM app.webhooks WHERE id = ANY($1) AND failures > 0',
            [failing.map((f) => f.id)],
          );
          return Number(rows[0].n) === FAILING ? true : undefined;
        },
        { ms: 30_000 },
      );
      dead.seen.most = dead.seen.inFlight;
      const before = dead.seen.requests;
      const through = await twoSends();
      for (const { r, sub } of healthy) {
        const expected = await streamEvents(sub.cursor.height, through);
        expect(heightOf(expected[expected.length - 1].id)).toBeGreaterThan(first);
        await deliveredAtLeast(sub.id, expected.length);
        expect(r.got.map((g) => verified(g, sub.secret).id)).toEqual(expected.map((e) => e.id));
      }
      // the failing ones kept retrying meanwhile: as many retries as there are failing subscriptions
      await until('retries of the failing', () => (dead.seen.requests - before >= FAILING ? true : undefined), {
        ms: 30_000,
      });
      expect(dead.seen.most).toBe(QUARTER);
      const { rows } = await world.pool.query<{ delivered: string }>(
        'SELECT delivered FROM app.webhooks WHERE id = ANY($1)',
        [failing.map((f) => f.id)],
      );
      expect(rows.every((r) => r.delivered === '0')).toBe(true);
    } finally {
      await dead.close();
    }
  });
});
