/**
 * The HTTP surface fuzzed (fast-check): every path template of openapi.yaml and
 * app-services/openapi.yaml, as `npm start` serves them (src/runtime/http.ts over the node-built
 * store and the app services), with arbitrary path segments and query values — NUL and invalid
 * UTF-8 percent sequences, very long values, numeric edge cases, repeated parameters — and every
 * method. Every answer must be one the contract lists for that path and method (the validator
 * checks status, headers and body), never a 500 (a 503 only where the contract lists it: the
 * lender and the desk answer it without a key), errors always `{error, code}`, and no answer may
 * carry a stack trace or SQL text. The seeds are fixed so a failure reproduces.
 */
import fc from 'fast-check';
import http from 'http';
import type { AddressInfo } from 'net';
import { AppServices } from '../../../app-services';
import { APP_SERVICES_DEFAULTS } from '../../../app-services/config';
import { createHttpApp, Slot, startingGraphql } from '../../../src/runtime/http';
import { createLogger } from '../../../src/runtime/logger';
import { createMetrics } from '../../../src/runtime/metrics';
import { createRestApp } from '../../../rest-adapter/app';
import { getIndexedStore, type IndexedStore } from '../../harness/indexed-store';
import { APP_OPENAPI_FILE, loadOpenApiValidator, type OpenApiValidator } from '../../harness/openapi-validator';

jest.setTimeout(300_000);

const APP_SCHEMA = 'app_fuzz';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
/** What no answer may contain: stack frames, SQL, PostgreSQL's own messages. */
const LEAKS = [
  /\bat \S+ \(/,
  /node_modules/,
  /\bSELECT\b/i,
  /\bFROM "/,
  /\binvalid byte sequence\b/,
  /\bsyntax error at\b/,
  /\bduplicate key\b/,
  /\bError: /,
];

/** Values known to break parsers and SQL: already percent-encoded where they need to be, so the bytes sent are these. */
const NASTY = [
  '%00',
  'a%00b',
  '%C0%AF',
  '%FF',
  '%E0%80%80',
  '%ED%A0%80',
  '%',
  '%zz',
  '%2F',
  '%2E%2E',
  '..',
  '.',
  '-1',
  '0',
  '00',
  '1e3',
  '0x',
  `0x${'0'.repeat(64)}`,
  `0x${'f'.repeat(40)}`,
  '18446744073709551616',
  '9007199254740993',
  '4294967296',
  '-0',
  '+1',
  'NaN',
  'null',
  'undefined',
  '%20',
  'a'.repeat(3000),
  '%C3%A9',
  '%F0%9F%98%80',
  'svc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq',
  '0'.repeat(64),
  'A'.repeat(64),
  '%27%3B--',
  'true',
  '[]',
  '{}',
];

/** Raw path segments and query values. */
const rawValue = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ maxLength: 60 }).map(encodeURIComponent),
  fc.stringMatching(/^[0-9a-fA-F]{1,70}$/),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.integer({ min: 0, max: 400 }).map(String),
);

interface Target {
  name: string;
  validator: OpenApiValidator;
  templates: { template: string; queryNames: string[] }[];
}

function templatesOf(validator: OpenApiValidator, prefix: string): Target['templates'] {
  const doc = validator.doc as unknown as {
    paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
  };
  return Object.keys(doc.paths)
    .filter((p) => p.startsWith(prefix))
    .map((template) => {
      const names = new Set<string>();
      for (const op of Object.values(doc.paths[template]))
        for (const param of op.parameters ?? []) if (param.in === 'query') names.add(param.name);
      return { template, queryNames: [...names] };
    });
}

function pathOf(template: string, segments: string[]): string {
  let i = 0;
  return template.replace(/\{[^}]+\}/g, () => segments[i++ % segments.length]);
}

function requestArb(target: Target) {
  return fc.record({
    at: fc.nat({ max: target.templates.length - 1 }),
    method: fc.constantFrom(...METHODS),
    segments: fc.array(rawValue, { minLength: 1, maxLength: 3 }),
    query: fc.array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom('limit', 'cursor', 'asset', 'route', 'status', 'account', 'message_id', 'kind'),
          rawValue,
        ),
        rawValue,
      ),
      { maxLength: 4 },
    ),
    repeatFirst: fc.boolean(),
    useDocumentedNames: fc.boolean(),
    body: fc.option(fc.oneof(fc.json(), fc.string({ maxLength: 200 })), { nil: undefined }),
  });
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Raw HTTP: the path goes out byte for byte (fetch would normalise it). */
function send(base: URL, method: string, path: string, body: string | undefined): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        headers:
          body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers[k] = v;
        const answer = (text: string) => resolve({ status: res.statusCode ?? 0, headers, text });
        const chunks: Buffer[] = [];
        // an open /v1/stream never ends: its opening frame is the answer, then the client hangs up
        const streaming = (headers['content-type'] ?? '').startsWith('text/event-stream') && method !== 'HEAD';
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          if (streaming) {
            answer(Buffer.concat(chunks).toString('utf8'));
            req.destroy();
          }
        });
        res.on('end', () => answer(Buffer.concat(chunks).toString('utf8')));
        res.on('error', () => undefined);
      },
    );
    req.on('error', reject); // after an answer (a stream hung up by us) this settles nothing
    if (body !== undefined) req.write(body);
    req.end();
  });
}

describe('fuzzed HTTP surface: /v1 and /api as npm start serves them', () => {
  let store: IndexedStore;
  let services: AppServices;
  let server: http.Server;
  let base: URL;
  const failures: string[] = [];
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    store = await getIndexedStore();
    await store.pool.query(`DROP SCHEMA IF EXISTS ${APP_SCHEMA} CASCADE`);
    const quiet = createLogger({
      format: 'json',
      level: 'error',
      write: (line) => void failures.push(`logged: ${line.slice(0, 300)}`),
    });
    services = new AppServices({
      pool: store.pool,
      databaseUrl: store.databaseUrl,
      settings: {
        ...APP_SERVICES_DEFAULTS,
        keys: {},
        schema: APP_SCHEMA,
        launchpadRateLimit: 1_000_000,
        desk: { ...APP_SERVICES_DEFAULTS.desk, rfqLimit: 1_000_000 },
      },
      hrp: 'svc',
      gasDenom: 'usvc',
      stableDenom: 'uusdc',
      indexerSchema: store.schema,
      log: quiet,
    });
    await services.start();
    const rest = new Slot(
      createRestApp({
        pool: store.pool,
        schema: store.schema,
        hrp: 'svc',
        logger: { error: (m, f) => void failures.push(`rest logged: ${m} ${String(f?.error)}`) },
      }),
    );
    const api = new Slot(services.router);
    const app = createHttpApp({
      rest,
      api,
      graphql: new Slot(startingGraphql),
      readiness: () => ({
        ready: true,
        reasons: [],
        indexed_height: 0,
        chain_height: 0,
        lag_blocks: 0,
        max_lag_blocks: 10,
      }),
      storeReady: () => true,
      metrics: createMetrics(),
      log: quiet,
      startedAt: Date.now(),
    });
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await services?.stop();
    await store?.pool.query(`DROP SCHEMA IF EXISTS ${APP_SCHEMA} CASCADE`).catch(() => undefined);
    await store?.close();
  });

  const targets = (): Target[] => {
    const v1 = loadOpenApiValidator();
    const app = loadOpenApiValidator(APP_OPENAPI_FILE);
    return [
      { name: '/v1', validator: v1, templates: templatesOf(v1, '/v1') },
      { name: '/api', validator: app, templates: templatesOf(app, '/api') },
    ];
  };

  for (const [index, runs] of [
    [0, 1500],
    [1, 600],
  ] as const) {
    it(`${index === 0 ? '/v1' : '/api'}: ${runs} arbitrary requests answer only what the contract lists, never 5xx, errors as {error, code}, nothing leaked`, async () => {
      const target = targets()[index];
      await fc.assert(
        fc.asyncProperty(requestArb(target), async (r) => {
          const { template, queryNames } = target.templates[r.at];
          if (r.useDocumentedNames)
            r.query = r.query.map(([name, value], i) => [
              queryNames[i % Math.max(1, queryNames.length)] ?? name,
              value,
            ]);
          const pairs = r.query.map(([name, value]) => `${name}=${value}`);
          if (r.repeatFirst && pairs.length) pairs.push(pairs[0]);
          const path = pathOf(template, r.segments) + (pairs.length ? `?${pairs.join('&')}` : '');
          const body =
            r.method === 'GET' || r.method === 'HEAD'
              ? undefined
              : r.body === undefined
                ? undefined
                : JSON.stringify(r.body);
          await expectContractAnswer(target, r.method, path, body);
        }),
        { numRuns: runs, seed: 20261123 + index, endOnFailure: true },
      );
      expect(failures).toEqual([]);
    });
  }

  it('every path parameter and every documented query parameter of every path, with each nasty value, by GET and by POST', async () => {
    let requests = 0;
    for (const target of targets()) {
      for (const { template, queryNames } of target.templates) {
        for (const value of NASTY) {
          for (const method of ['GET', 'POST']) {
            if (template.includes('{')) {
              await expectContractAnswer(target, method, pathOf(template, [value]), undefined);
              requests += 1;
            }
            for (const name of queryNames) {
              await expectContractAnswer(target, method, `${pathOf(template, ['1'])}?${name}=${value}`, undefined);
              requests += 1;
            }
          }
        }
      }
    }
    expect(requests).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  });

  /** One request: an answer the contract lists for it, not a 500, `{error, code}` on errors, nothing leaked. */
  async function expectContractAnswer(
    target: Target,
    method: string,
    path: string,
    body: string | undefined,
  ): Promise<void> {
    const answer = await send(base, method, path, body);
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    const where = `${method} ${path.slice(0, 200)} -> ${answer.status} ${answer.text.slice(0, 200)}`;
    // 503 only where the contract lists it (the validator below): a service not configured to act
    expect([where, answer.status < 500 || answer.status === 503]).toEqual([where, true]);
    for (const leak of LEAKS) expect([where, leak.test(answer.text)]).toEqual([where, false]);
    if (method === 'HEAD' || method === 'OPTIONS') return;
    const isJson = (answer.headers['content-type'] ?? '').startsWith('application/json');
    const parsed = isJson && answer.text !== '' ? JSON.parse(answer.text) : answer.text;
    if (answer.status >= 400)
      expect([where, typeof parsed.error, typeof parsed.code]).toEqual([where, 'string', 'string']);
    target.validator.check({ method, path, status: answer.status, headers: answer.headers, body: parsed });
  }
});
