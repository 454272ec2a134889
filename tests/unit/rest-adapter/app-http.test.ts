/**
 * The HTTP layer without a database: routing, 400 before any query, 404/405 rules,
 * error bodies, headers, /openapi.yaml, and internal errors that never leak.
 */
import fs from 'fs';
import type { AddressInfo } from 'net';
import type { Server } from 'http';
import type { Pool } from 'pg';
import { createRestApp, DEFAULT_OPENAPI_PATH } from '../../../rest-adapter/app';
import { HEIGHT_NOT_SERVED } from '../../../rest-adapter/http/respond';

const SQL_ERROR = new Error('relation "svc.txes" does not exist: SELECT hash FROM "svc"."txes" WHERE id = $1');

/** A pool whose every use fails like a broken store. */
function failingPool(): Pool & { connects: number } {
  const pool = {
    connects: 0,
    async connect() {
      pool.connects++;
      throw SQL_ERROR;
    },
  };
  return pool as unknown as Pool & { connects: number };
}

describe('rest-adapter HTTP layer', () => {
  let server: Server;
  let base: string;
  let pool: Pool & { connects: number };
  const logged: unknown[] = [];

  beforeAll(async () => {
    pool = failingPool();
    const app = createRestApp({ pool, schema: 'svc', hrp: 'svc', logger: { error: (_m, f) => logged.push(f?.error) } });
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function call(method: string, path: string, headers: Record<string, string> = {}) {
    const res = await fetch(base + path, { method, headers });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      body: text && res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text,
    };
  }

  it.each([
    '/v1/txs?limit=0',
    '/v1/txs?limit=101',
    '/v1/txs?limit=abc',
    '/v1/txs?limit=5&limit=6',
    '/v1/txs?cursor=%%%',
    '/v1/txs?cursor=abc',
    '/v1/txs?method=MsgSend',
    '/v1/blocks?cursor=eyJrIjoidHhzIiwidiI6WyJvIiwxLDBdfQ',
    '/v1/blocks/-1',
    '/v1/blocks/1.5',
    '/v1/txs/xyz',
    '/v1/assets/' + 'AB'.repeat(32),
    '/v1/assets/' + 'ab'.repeat(32) + '/kinds/4294967296/holders',
    '/v1/accounts/svc1invalid',
    '/v1/accounts/cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu',
    '/v1/attesters/0x1234',
    '/v1/settlements?status=open',
    '/v1/settlements?party=nobody',
    '/v1/settlements/x',
    '/v1/encumbrances/-3',
    '/v1/delegations/18446744073709551616',
    '/v1/bridge/transfers?status=done',
    '/v1/bridge/transfers?message_id=0x12',
    '/v1/bridge/transfers?account=0xZZ',
    '/v1/invariants?asset=xyz',
  ])('400 bad_request before any query: %s', async (path) => {
    const before = pool.connects;
    const r = await call('GET', path);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: expect.any(String), code: 'bad_request' });
    expect([r.headers.get('cache-control'), r.headers.get('etag')]).toEqual(['no-store', null]);
    expect(pool.connects).toBe(before);
  });

  it.each([
    '/v1/assets/' + 'ab'.repeat(32) + '?height=3',
    '/v1/assets/' + 'ab'.repeat(32) + '/graph?height=3',
    '/v1/accounts/svc1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu?height=3',
    '/v1/invariants?height=',
  ])('400 before any query for a height on a path that does not serve it yet: %s', async (path) => {
    const before = pool.connects;
    const r = await call('GET', path);
    expect([r.status, r.body]).toEqual([400, { error: HEIGHT_NOT_SERVED, code: 'bad_request' }]);
    expect(pool.connects).toBe(before);
  });

  it('404 JSON for unknown paths, whatever the method', async () => {
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/v1'],
      ['GET', '/v2/status'],
      ['POST', '/nope'],
      ['GET', '/v1/assets/x/y/z'],
      ['GET', '/V1/STATUS'],
      ['GET', '/v1/status/'],
      ['POST', '/v1/txs/'],
    ]) {
      const r = await call(method, path);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'not found', code: 'not_found' });
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('405 with Allow: GET for any other method on a known path, before parameter checks', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      for (const path of ['/v1/status', '/v1/txs', '/v1/assets/NOT-AN-ID', '/v1/lookup/anything', '/openapi.yaml']) {
        const r = await call(method, path);
        expect(r.status).toBe(405);
        expect(r.headers.get('allow')).toBe('GET');
        expect(r.headers.get('cache-control')).toBe('no-store');
        expect(r.body).toEqual({ error: 'method not allowed', code: 'method_not_allowed' });
      }
    }
  });

  it('lookup never answers 400: an unrecognised shape is 404, even an undecodable path', async () => {
    for (const q of ['hello', '0x' + 'g'.repeat(40), '%E0%A4%A']) {
      const r = await call('GET', `/v1/lookup/${q}`);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('not_found');
    }
  });

  it('sends no CORS headers and no X-Powered-By, even to a browser-like request', async () => {
    const r = await call('GET', '/v1/txs?limit=0', { Origin: 'https://example.org' });
    const names = [...r.headers.keys()];
    expect(names.filter((n) => n.startsWith('access-control-'))).toEqual([]);
    expect(names).not.toContain('x-powered-by');
    const preflight = await call('OPTIONS', '/v1/txs', {
      Origin: 'https://example.org',
      'Access-Control-Request-Method': 'GET',
    });
    expect([...preflight.headers.keys()].filter((n) => n.startsWith('access-control-'))).toEqual([]);
  });

  it('serves openapi.yaml as text/yaml', async () => {
    const r = await call('GET', '/openapi.yaml');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/yaml/);
    expect(r.text).toBe(fs.readFileSync(DEFAULT_OPENAPI_PATH, 'utf8'));
    expect(r.headers.get('cache-control')).toBe('no-cache');
    const again = await call('GET', '/openapi.yaml', { 'If-None-Match': r.headers.get('etag')! });
    expect([again.status, again.text, again.headers.get('etag')]).toEqual([304, '', r.headers.get('etag')]);
  });

  it('answers a store failure with a bare 500 and logs the cause server-side', async () => {
    logged.length = 0;
    const r = await call('GET', '/v1/txs/' + 'AB'.repeat(32));
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: 'internal error', code: 'internal' });
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.text).not.toMatch(/relation|SELECT|svc|stack|at /);
    expect(logged).toEqual([SQL_ERROR]);
  });

  it('refuses bad options at construction', () => {
    expect(() => createRestApp({ pool, schema: '', hrp: 'svc' })).toThrow(/schema/);
    expect(() => createRestApp({ pool, schema: 'svc', hrp: 'SVC!' })).toThrow(/hrp/);
    expect(() => createRestApp({ pool, schema: 'svc', hrp: 'svc', gasDenom: '1' })).toThrow(/gasDenom/);
  });
});
