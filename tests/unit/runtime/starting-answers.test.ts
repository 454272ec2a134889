/**
 * What npm start's one HTTP server answers while its parts start: 503 `unavailable` with
 * `Retry-After` (the code the error rules reserve for 503), in the contract's error shape.
 */
import http from 'http';
import type { RequestHandler } from 'express';
import type { AddressInfo } from 'net';
import { createHttpApp, Slot, startingApi, startingGraphql, startingRest } from '../../../src/runtime/http';
import { createLogger } from '../../../src/runtime/logger';
import { createMetrics } from '../../../src/runtime/metrics';
import { loadOpenApiValidator } from '../../harness/openapi-validator';

const openapi = loadOpenApiValidator();
let server: http.Server;
let base: string;
let storeReady = false;
const rest = new Slot(startingRest);

beforeAll(async () => {
  const app = createHttpApp({
    rest,
    api: new Slot(startingApi),
    graphql: new Slot(startingGraphql),
    readiness: () => ({
      ready: false,
      reasons: ['starting'],
      indexed_height: null,
      chain_height: null,
      lag_blocks: null,
      max_lag_blocks: 10,
    }),
    storeReady: () => storeReady,
    metrics: createMetrics(),
    log: createLogger({ format: 'json', level: 'error', write: () => undefined }),
    startedAt: Date.now(),
  });
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function get(path: string) {
  const res = await fetch(base + path);
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  return { status: res.status, headers, body: (await res.json()) as { error: string; code: string } };
}

test('/v1 before the indexer has committed its first blocks: 503 unavailable with Retry-After, as documented', async () => {
  const r = await get('/v1/status');
  expect([r.status, r.body.code, r.headers['retry-after']]).toEqual([503, 'unavailable', '5']);
  expect(r.body.error).toMatch(/first blocks/);
  openapi.check({ method: 'GET', path: '/v1/status', status: r.status, headers: r.headers, body: r.body });
});

test('/v1 with the store indexed but the read API not mounted yet: 503 unavailable, then served', async () => {
  storeReady = true;
  const r = await get('/v1/txs');
  expect([r.status, r.body.code, r.headers['retry-after']]).toEqual([503, 'unavailable', '5']);
  expect(r.body.error).toMatch(/starting/);
  rest.set(readApi);
  expect((await get('/v1/txs')).status).toBe(200);
});

test('/api before the app services are up: 503 unavailable with Retry-After', async () => {
  const r = await get('/api/desk/quotes');
  expect([r.status, r.body.code, r.headers['retry-after']]).toEqual([503, 'unavailable', '5']);
});

/** the read API once the database is up (the real one is rest-adapter/app.ts) */
const readApi: RequestHandler = (_req, res) => void res.json({ txs: [] });
