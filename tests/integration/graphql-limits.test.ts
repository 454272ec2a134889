/**
 * GraphQL fair under load, on the node-built store over real HTTP (src/runtime/graphql.ts as npm
 * start serves it): a connection without `first` is one page, deep, huge and oversized queries
 * are refused with a clear error before they reach the store, an abusive address is refused by
 * its budget while a polite one is served, and a client that goes away cancels its statement.
 */
import express from 'express';
import http, { type Server } from 'http';
import type { AddressInfo } from 'net';
import { Client } from 'pg';
import { GRAPHQL_DEFAULTS } from '../../src/runtime/config';
import { createGraphqlService, type GraphqlService } from '../../src/runtime/graphql';
import { FairShare } from '../../src/http/fair-share';
import { getIndexedStore, type IndexedStore } from '../harness/indexed-store';
import { until } from '../harness/until';

jest.setTimeout(180_000);

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: {
    data?: Record<string, unknown>;
    errors?: { message: string; extensions?: { code?: string } }[];
    code?: string;
    error?: string;
  };
}

function post(base: string, query: string, from?: string): Promise<Answer> {
  const url = new URL(`${base}/graphql`);
  const payload = JSON.stringify({ query });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: '/graphql',
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('fair under load: /graphql', () => {
  let store: IndexedStore;
  let service: GraphqlService;
  let fair: FairShare;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    store = await getIndexedStore(1);
    // on a clock that stands still: nothing refills between requests, however slow the machine
    fair = new FairShare(
      { perClient: { perSecond: 1, burst: 40 }, keys: [], shedDelayMs: 0 },
      (req) => (req as express.Request).ip,
      () => 1_000_000,
    );
    service = await createGraphqlService(
      { url: store.databaseUrl },
      store.schema,
      undefined,
      { ...GRAPHQL_DEFAULTS, subscriptions: false },
      { fair, dbWaitMs: 500 },
    );
    const app = express();
    app.use(service.handler);
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await service.close();
    fair.close();
    await store.close();
  });

  test('a connection without first/last is one page of 100, never the whole table', async () => {
    const total = Number((await store.pool.query(`SELECT count(*) FROM "${store.schema}".txes`)).rows[0].count);
    expect(total).toBeGreaterThan(100);
    const r = await post(base, '{ txes { nodes { id } } }', '127.0.0.3');
    expect(r.status).toBe(200);
    expect((r.body.data!.txes as { nodes: unknown[] }).nodes).toHaveLength(100);
    expect(r.headers['ratelimit-policy']).toBe('"client";q=40;w=40');
  });

  test.each([
    // PostGraphile's root re-entry field `query` nests as deep as a client writes
    ['deep', `{ ${'query { '.repeat(10)}txes(first: 1) { nodes { id } }${' }'.repeat(10)} }`, 'QUERY_TOO_DEEP'],
    // one request of 101 full pages (the whole store at a million txs would be 10,100 rows per request)
    [
      'huge',
      `{ ${Array.from({ length: 101 }, (_, i) => `p${i}: txes(first: 100, offset: ${i * 100}) { nodes { id eventsJson } }`).join(' ')} }`,
      'QUERY_TOO_COSTLY',
    ],
    ['oversized page', '{ txes(first: 5000) { nodes { id } } }', 'PAGE_TOO_LARGE'],
  ])('attack: a %s query is refused with a clear error before it reaches the store', async (_what, query, code) => {
    const r = await post(base, query, '127.0.0.4');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(code);
    expect(r.body.errors![0].extensions!.code).toBe(code);
    expect(r.body.error).toBe(r.body.errors![0].message);
    expect(r.body.error).not.toMatch(/SELECT|at .*\.js/);
  });

  test('attack: an address sending full pages gets 429 with Retry-After while a polite address is served', async () => {
    const page = '{ txes(first: 100) { nodes { id hash eventsJson } } }'; // 101 rows read: 11 units
    const statuses: number[] = [];
    let refusal: Answer | undefined;
    for (let i = 0; i < 5; i++) {
      const a = await post(base, page, '127.0.0.2');
      statuses.push(a.status);
      if (a.status === 429) refusal ??= a;
      expect((await post(base, '{ blocks(first: 1) { nodes { height } } }', '127.0.0.1')).status).toBe(200);
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toEqual([429, 429]);
    expect(refusal!.body.code).toBe('too_many_requests');
    expect(refusal!.body.errors![0].extensions!.code).toBe('too_many_requests');
    expect(Number(refusal!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  test('a client that disconnects cancels its GraphQL statement (pg_stat_activity)', async () => {
    const locker = new Client({ connectionString: store.databaseUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE "${store.schema}".blocks IN ACCESS EXCLUSIVE MODE`);
      const waiting = async () =>
        (
          await store.pool.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity
              WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND wait_event_type = 'Lock'`,
          )
        ).rows.map((r) => r.pid);
      const controller = new AbortController();
      const request = fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ blocks(first: 2) { nodes { height } } }' }),
        signal: controller.signal,
      }).catch((e: Error) => e);
      const [pid] = await until('the GraphQL statement waiting on the lock', async () => {
        const pids = await waiting();
        return pids.length ? pids : undefined;
      });
      controller.abort();
      expect((await request) instanceof Response).toBe(false); // aborted: no answer
      // the lock is still held: only a cancel ends it
      await until('the statement cancelled', async () => ((await waiting()).includes(pid) ? undefined : true), {
        ms: 3000, // well within the statement time limit (10 s): only the cancel can end it this soon
        everyMs: 50,
      });
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
    }
  });
});
