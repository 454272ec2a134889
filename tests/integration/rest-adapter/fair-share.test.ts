/**
 * Fair under load, on the node-built store over real HTTP: per-client budgets (an abusive
 * address is refused while a polite one is served), the client-address rule against forged
 * X-Forwarded-For, deadlines answered 503 (a statement past its time, no store connection in
 * time), and a client that goes away cancelling its statement (pg_stat_activity says so).
 * Every answer is checked against openapi.yaml. Budgets are small here so that a few requests
 * spend them; the defaults are the bench's (npm run bench:fair).
 */
import http, { type Server } from 'http';
import net, { type AddressInfo } from 'net';
import { Client, Pool } from 'pg';
import { createRestApp, STORE_CONNECT_TIMEOUT_MS } from '../../../rest-adapter/app';
import { blockPosition, encodeEventId } from '../../../rest-adapter/stream/position';
import type { Request } from 'express';
import { FairShare, type FairShareSettings } from '../../../src/http/fair-share';
import type { TrustProxy } from '../../../src/http/trust-proxy';
import { startForwardingProxy } from '../../harness/forwarding-proxy';
import { getIndexedStore, type IndexedStore } from '../../harness/indexed-store';
import { loadOpenApiValidator } from '../../harness/openapi-validator';
import { until } from '../../harness/until';

jest.setTimeout(120_000);

const openapi = loadOpenApiValidator();
const FAIR: FairShareSettings = { perClient: { perSecond: 1, burst: 60 }, keys: [], shedDelayMs: 0 };
/** The budgets on a clock that stands still: nothing refills between requests, however slow the machine. */
const frozenFair = () =>
  new FairShare(
    FAIR,
    (req) => (req as Request).ip,
    () => 1_000_000,
  );

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: { error?: string; code?: string } & Record<string, unknown>;
}

/** A GET from `from` (a loopback address) on a fresh connection, checked against openapi.yaml. */
function get(base: string, path: string, o: { from?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const url = new URL(base + path);
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: url.hostname, port: url.port, path, localAddress: o.from, headers: o.headers, agent: false },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          const headers = res.headers as Record<string, string>;
          const body = (headers['content-type'] ?? '').startsWith('application/json') ? JSON.parse(text) : text;
          try {
            openapi.check({ method: 'GET', path, status: res.statusCode!, headers, body });
            resolve({ status: res.statusCode!, headers, body });
          } catch (e) {
            reject(e);
          }
        });
      },
    );
    req.on('error', reject);
  });
}

/**
 * A TCP relay to the store that holds each new connection `delayMs` before it reaches the
 * server: a backend slow to start, as on a loaded machine while the node restarts.
 */
async function slowConnectRelay(
  databaseUrl: string,
  delayMs: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.pause();
    setTimeout(() => {
      const upstream = net.connect(Number(target.port), target.hostname, () => {
        client.pipe(upstream).pipe(client);
        client.resume();
      });
      sockets.add(upstream);
      const end = () => (client.destroy(), upstream.destroy());
      upstream.on('error', end).on('close', end);
      client.on('error', end).on('close', end);
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface Running {
  base: string;
  pool: Pool;
  logged: string[];
  close(): Promise<void>;
}

async function serve(
  store: IndexedStore,
  o: {
    fairShare?: FairShare | false;
    trustProxy?: TrustProxy;
    poolMax?: number;
    statementTimeoutMs?: number;
    /** the store through another address (a relay) */
    databaseUrl?: string;
    /** DB_WAIT_MS as npm start passes it; the pool's own limit is then a connection's setup */
    dbWaitMs?: number;
  },
): Promise<Running> {
  const pool = new Pool({
    connectionString: o.databaseUrl ?? store.databaseUrl,
    max: o.poolMax ?? 4,
    connectionTimeoutMillis: o.dbWaitMs === undefined ? 300 : STORE_CONNECT_TIMEOUT_MS,
  });
  pool.on('error', () => undefined);
  const logged: string[] = [];
  const app = createRestApp({
    pool,
    schema: store.schema,
    hrp: 'svc',
    responseCache: false, // every request reaches the store
    fairShare: o.fairShare ?? false,
    trustProxy: o.trustProxy,
    statementTimeoutMs: o.statementTimeoutMs,
    dbWaitMs: o.dbWaitMs,
    logger: { error: (m, f) => logged.push(`${m} ${String(f?.error)}`) },
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pool,
    logged,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await pool.end();
    },
  };
}

describe('fair under load: /v1', () => {
  let store: IndexedStore;
  let txHash: string;

  beforeAll(async () => {
    store = await getIndexedStore(2);
    txHash = (await store.pool.query(`SELECT hash FROM "${store.schema}".txes LIMIT 1`)).rows[0].hash;
  });

  afterAll(async () => {
    await store.close();
  });

  test('attack: an address walking 100-tx pages gets 429s with Retry-After, while a polite address is served', async () => {
    const api = await serve(store, { fairShare: frozenFair() });
    try {
      const abusive: number[] = [];
      let refusal: Answer | undefined;
      for (let i = 0; i < 4; i++) {
        const a = await get(api.base, '/v1/txs?limit=100', { from: '127.0.0.2' });
        abusive.push(a.status);
        if (a.status === 429) refusal ??= a;
        const polite = await get(api.base, `/v1/txs/${txHash}`, { from: '127.0.0.1' });
        expect(polite.status).toBe(200);
        expect(polite.headers['ratelimit-policy']).toBe('"client";q=60;w=60');
      }
      // 60 units hold two pages of 100 txs (21 each); the rest are refused before any store read
      expect(abusive.slice(0, 2)).toEqual([200, 200]);
      // (the second refusal came after the first one's Retry-After: a client that ignores it waits)
      expect(abusive.slice(2)).toEqual([429, 429]);
      expect(refusal!.body).toEqual({
        error: expect.stringMatching(/^rate limit: this request costs 21 units/),
        code: 'too_many_requests',
      });
      expect(Number(refusal!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refusal!.headers.ratelimit).toMatch(/^"client";r=\d+;t=\d+$/);
    } finally {
      await api.close();
    }
  });

  test('an idle server never refuses: an address alone walks pages beyond its budget; once another address asks, it gets 429', async () => {
    const api = await serve(store, { fairShare: frozenFair() });
    try {
      const alone: number[] = [];
      // 4 pages of 100 txs: 84 units of a budget of 60 that never refills, and nobody else asks
      for (let i = 0; i < 4; i++) alone.push((await get(api.base, '/v1/txs?limit=100', { from: '127.0.0.2' })).status);
      expect(alone).toEqual([200, 200, 200, 200]);
      expect((await get(api.base, `/v1/txs/${txHash}`, { from: '127.0.0.1' })).status).toBe(200);
      const contended = await get(api.base, '/v1/txs?limit=100', { from: '127.0.0.2' });
      expect([contended.status, contended.body.code]).toEqual([429, 'too_many_requests']);
      expect(contended.headers.ratelimit).toBe('"client";r=0;t=60');
    } finally {
      await api.close();
    }
  });

  test("attack: the stream's replay is charged too; reconnecting from far back is refused once the budget is spent", async () => {
    // a budget the whole history's replay (~230 heights, ~60 units) surely spends
    const small = new FairShare(
      { ...FAIR, perClient: { perSecond: 1, burst: 20 } },
      (req) => (req as Request).ip,
      () => 1_000_000,
    );
    const api = await serve(store, { fairShare: small });
    try {
      // another address asks (the clock stands still: for good), so the replayer's budget bites
      expect((await get(api.base, '/v1/status', { from: '127.0.0.1' })).status).toBe(200);
      const from = encodeEventId(blockPosition(1));
      const statuses: number[] = [];
      for (let i = 0; i < 2; i++) {
        const status = await new Promise<number>((resolve, reject) => {
          const req = http.get(
            {
              host: '127.0.0.1',
              port: new URL(api.base).port,
              path: `/v1/stream?after=${from}`,
              localAddress: '127.0.0.2',
              agent: false,
            },
            (res) => {
              if (res.statusCode !== 200) {
                res.resume();
                return resolve(res.statusCode!);
              }
              // read until the replay stops for want of budget (the clock stands still: it never refills),
              // then go away and reconnect from the start
              let stalled: NodeJS.Timeout | undefined;
              res.on('data', () => {
                clearTimeout(stalled);
                stalled = setTimeout(() => {
                  req.destroy();
                  resolve(200);
                }, 500);
              });
            },
          );
          req.on('error', reject);
        });
        statuses.push(status);
      }
      expect(statuses).toEqual([200, 429]);
      expect((await get(api.base, '/v1/status', { from: '127.0.0.1' })).status).toBe(200);
    } finally {
      await api.close();
    }
  });

  test('attack: a client writing its own X-Forwarded-For behind our proxy is still one client', async () => {
    const api = await serve(store, { fairShare: frozenFair(), trustProxy: { hops: 1 } });
    const proxy = await startForwardingProxy(api.base);
    try {
      // another client (straight to the API, not through the proxy) asks: budgets bite
      expect((await get(api.base, '/v1/status', { from: '127.0.0.3' })).status).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await get(proxy.url, '/v1/txs?limit=100', { headers: { 'X-Forwarded-For': `203.0.113.${i}` } });
        statuses.push(r.status);
      }
      expect(statuses).toEqual([200, 200, 429, 429]);
    } finally {
      await proxy.close();
      await api.close();
    }
  });

  test('an unknown API key is 401, and no key reaches the logs', async () => {
    const api = await serve(store, { fairShare: frozenFair() });
    try {
      const r = await get(api.base, '/v1/status', { headers: { Authorization: 'Bearer not-configured-key-123' } });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'unknown API key: send a configured key, or none', code: 'unauthorized' });
      expect(JSON.stringify(r)).not.toContain('not-configured-key-123');
      expect(api.logged.join('\n')).not.toContain('not-configured-key-123');
    } finally {
      await api.close();
    }
  });

  describe('deadlines, while a writer holds the txs table', () => {
    let locker: Client;

    beforeEach(async () => {
      locker = new Client({ connectionString: store.databaseUrl });
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE "${store.schema}".txes IN ACCESS EXCLUSIVE MODE`);
    });

    afterEach(async () => {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
    });

    /** The API's statements now waiting on the lock (read outside the locker's transaction, whose view of pg_stat_activity is frozen). */
    const waiting = async (): Promise<number[]> => {
      const { rows } = await store.pool.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND wait_event_type = 'Lock'`,
      );
      return rows.map((r) => r.pid);
    };

    test('a client that disconnects cancels its statement (pg_stat_activity)', async () => {
      const api = await serve(store, { statementTimeoutMs: 60_000 });
      try {
        const controller = new AbortController();
        const request = fetch(`${api.base}/v1/txs?limit=7`, { signal: controller.signal }).catch((e: Error) => e);
        const [pid] = await until('the statement waiting on the lock', async () => {
          const pids = await waiting();
          return pids.length ? pids : undefined;
        });
        controller.abort();
        expect((await request) instanceof Response).toBe(false); // aborted: no answer
        // the lock is still held: only a cancel ends the statement
        await until('the statement cancelled', async () => ((await waiting()).includes(pid) ? undefined : true), {
          ms: 3000, // well within the statement's time limit: only the cancel can end it this soon
          everyMs: 50,
        });
        const after = await store.pool.query(`SELECT state FROM pg_stat_activity WHERE pid = $1`, [pid]);
        expect(after.rows[0]?.state).not.toBe('active');
        // the gone client's request had started the indexed-height polls: they are not its own,
        // and the next clients are served as before
        await locker.query('ROLLBACK');
        expect((await get(api.base, '/v1/txs?limit=3')).status).toBe(200);
        expect((await get(api.base, '/v1/status')).status).toBe(200);
        expect(api.logged).toEqual([]); // a client gone is not a server fault
      } finally {
        await api.close();
      }
    });

    test('a statement past its time limit is 503 unavailable with Retry-After, not a 500', async () => {
      const api = await serve(store, { statementTimeoutMs: 300 });
      try {
        const r = await get(api.base, '/v1/txs?limit=8');
        expect(r.status).toBe(503);
        expect(r.body).toEqual({ error: 'the query ran past its time limit; retry later', code: 'unavailable' });
        expect(r.headers['retry-after']).toBe('1');
        expect(api.logged).toEqual([]);
      } finally {
        await api.close();
      }
    });

    test('a request that gets no store connection within the deadline is 503, not queued without end', async () => {
      const api = await serve(store, { poolMax: 1 });
      try {
        const first = get(api.base, '/v1/txs?limit=9'); // holds the only connection, waiting on the lock
        await until('the first request on the lock', async () => ((await waiting()).length ? true : undefined));
        const second = await get(api.base, `/v1/txs/${txHash}`);
        expect(second.status).toBe(503);
        expect(second.body).toEqual({
          error: 'no store connection came free in time; retry later',
          code: 'unavailable',
        });
        expect(second.headers['retry-after']).toBe('1');
        await locker.query('ROLLBACK');
        expect((await first).status).toBe(200);
      } finally {
        await api.close();
      }
    });
  });

  test('a connection slower to set up than a request waits is kept for the next request, not torn down', async () => {
    const relay = await slowConnectRelay(store.databaseUrl, 700);
    // the pool's deadline as the request's (how npm start ran before): the setup is cut at 300 ms
    const cut = await serve(store, { databaseUrl: relay.url, poolMax: 1 });
    // DB_WAIT_MS 300 as the request's wait, the pool's limit a connection's setup
    const kept = await serve(store, { databaseUrl: relay.url, poolMax: 1, dbWaitMs: 300 });
    try {
      const missed = { error: 'no store connection came free in time; retry later', code: 'unavailable' };
      for (const api of [cut, kept]) {
        const first = await get(api.base, `/v1/txs/${txHash}`);
        expect([first.status, first.body, first.headers['retry-after']]).toEqual([503, missed, '1']);
      }
      await until('the late connection idle in the pool', async () => (kept.pool.idleCount === 1 ? true : undefined));
      expect((await get(kept.base, `/v1/txs/${txHash}`)).status).toBe(200);
      // cut: nothing was kept, so every request sets a connection up again and misses again
      expect(cut.pool.totalCount).toBe(0);
      expect((await get(cut.base, `/v1/txs/${txHash}`)).status).toBe(503);
      expect([cut.logged, kept.logged]).toEqual([[], []]); // a missed deadline is not a server fault
    } finally {
      await cut.close();
      await kept.close();
      await relay.close();
    }
  });
});
