/**
 * The explorer on npm start's one HTTP server: `/` is its page and `/explorer/<file>` its bundle
 * (a built copy in a temporary directory here); every other path, method and a missing build
 * answer as before (JSON 404s from the routes behind it). The bundle itself: built by
 * scripts/build-explorer.js within its 200 KB gzipped budget.
 */
import fs from 'fs';
import http from 'http';
import type { AddressInfo } from 'net';
import os from 'os';
import path from 'path';
import { explorerHandler } from '../../../src/runtime/explorer';
import { createHttpApp, Slot, startingApi, startingGraphql } from '../../../src/runtime/http';
import { createLogger } from '../../../src/runtime/logger';
import { createMetrics } from '../../../src/runtime/metrics';

const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-explorer-'));
fs.writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><script type="module" src="/explorer/app-X1.js"></script>',
);
fs.writeFileSync(path.join(dist, 'app-X1.js'), 'console.log(1)');
let server: http.Server;
let base: string;

beforeAll(async () => {
  const notFound = new Slot((_req, res) => {
    res
      .status(404)
      .type('application/json')
      .send(JSON.stringify({ error: 'not found', code: 'not_found' }));
  });
  const app = createHttpApp({
    rest: notFound,
    api: new Slot(startingApi),
    graphql: new Slot(startingGraphql),
    readiness: () => ({
      ready: true,
      reasons: [],
      indexed_height: 1,
      chain_height: 1,
      lag_blocks: 0,
      max_lag_blocks: 10,
    }),
    storeReady: () => true,
    metrics: createMetrics(),
    log: createLogger({ format: 'json', level: 'error', write: () => undefined }),
    startedAt: Date.now(),
    explorer: explorerHandler(dist),
  });
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(dist, { recursive: true, force: true });
});

async function call(method: string, p: string) {
  const res = await fetch(base + p, { method });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    headers: res.headers,
    text: await res.text(),
  };
}

test('GET / is the page: HTML, not cached, with a content security policy of its own origin', async () => {
  const r = await call('GET', '/');
  expect([r.status, r.type]).toEqual([200, 'text/html; charset=utf-8']);
  expect(r.text).toContain('/explorer/app-X1.js');
  expect(r.headers.get('cache-control')).toBe('no-cache');
  expect(r.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
  expect(r.headers.get('access-control-allow-origin')).toBeNull();
});

test('the bundle is served with its content-hashed name, cached for good', async () => {
  const r = await call('GET', '/explorer/app-X1.js');
  expect([r.status, r.type]).toEqual([200, 'text/javascript; charset=utf-8']);
  expect(r.headers.get('cache-control')).toMatch(/immutable/);
});

test.each([
  ['GET', '/explorer/nope.js'],
  ['GET', '/explorer/index.html'],
  ['GET', '/explorer/'],
  ['GET', '/explorer/../package.json'],
  ['POST', '/'],
  ['GET', '/index.html'],
  ['GET', '/v1'],
])('%s %s stays a JSON 404', async (method, p) => {
  const r = await call(method, p);
  expect([r.status, r.type, JSON.parse(r.text)]).toEqual([
    404,
    'application/json; charset=utf-8',
    { error: 'not found', code: 'not_found' },
  ]);
});

test('without a build, / is an unknown path as before', async () => {
  const app = createHttpApp({
    rest: new Slot((_req, res) => void res.status(404).json({ error: 'not found', code: 'not_found' })),
    api: new Slot(startingApi),
    graphql: new Slot(startingGraphql),
    readiness: () => ({
      ready: true,
      reasons: [],
      indexed_height: 1,
      chain_height: 1,
      lag_blocks: 0,
      max_lag_blocks: 10,
    }),
    storeReady: () => true,
    metrics: createMetrics(),
    log: createLogger({ format: 'json', level: 'error', write: () => undefined }),
    startedAt: Date.now(),
    explorer: explorerHandler(path.join(dist, 'missing')),
  });
  const s: http.Server = await new Promise((resolve) => {
    const x = app.listen(0, '127.0.0.1', () => resolve(x));
  });
  const res = await fetch(`http://127.0.0.1:${(s.address() as AddressInfo).port}/`);
  expect(res.status).toBe(404);
  await new Promise<void>((resolve) => s.close(() => resolve()));
});

test('the built bundle is within 200 KB gzipped', async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build script
  const { buildExplorer, BUDGET_GZ_BYTES } = require('../../../scripts/build-explorer.js') as {
    buildExplorer(): Promise<{ gz: number; files: { name: string }[] }>;
    BUDGET_GZ_BYTES: number;
  };
  const { gz, files } = await buildExplorer();
  expect(files.map((f) => f.name.replace(/-[A-Z0-9]+\./, '.')).sort()).toEqual(['app.css', 'app.js', 'index.html']);
  expect(gz).toBeLessThanOrEqual(BUDGET_GZ_BYTES);
}, 60_000);
