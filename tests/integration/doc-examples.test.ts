/**
 * Every runnable example of README.md and docs/*.md (marked `<!-- example: NAME -->`, read by
 * tests/harness/doc-examples.ts) run as a reader of the docs runs it: against `npm start` on
 * its default world (seed, history and block time as configured by default; only the ports and
 * DATA_DIR are the test's), the doc's host and port replaced by the test's.
 *
 * - curl: the status the doc says (default any 2xx), the answer valid against openapi.yaml or
 *   app-services/openapi.yaml, and data in it (a list answer with no item fails) unless
 *   the marker says `may-be-empty`;
 * - a stream (`curl -N …/v1/stream`): 200 `text/event-stream`, every event's data valid against
 *   its schema (Block, Tx, ActivityEvent), and with a filter at least one tx or activity event
 *   within STREAM_WAIT_MS (only blocks means the doc names a subject idle on the default world);
 * - GraphQL: valid against the served schema (introspected from /graphql), answered by
 *   npm start's /graphql without errors, every top-level field with data;
 * - subscriptions (```graphql `subscription` and graphql-ws clients' queries): valid against the
 *   schema, and a first event over the websocket within STREAM_WAIT_MS, of the documented shape.
 *
 * Then the explorer at `/` in headless chromium on the same world (./explorer-browser.ts).
 *
 * DOC_EXAMPLES_URL=http://127.0.0.1:3000 runs them against an `npm start` already running on
 * the default world instead of starting one.
 */
import fs from 'fs';
import { buildClientSchema, getIntrospectionQuery, parse, validate, type GraphQLSchema } from 'graphql';
import { createClient } from 'graphql-ws';
import os from 'os';
import path from 'path';
import WebSocket from 'ws';
import { freePort } from '../../src/runtime/ports';
import {
  readDocExamples,
  type CurlRequest,
  type GraphqlOperation,
  type RunnableExample,
} from '../harness/doc-examples';
import { spawnLauncher, type LauncherProcess } from '../harness/launcher-process';
import { explorerInTheBrowser } from './explorer-browser';
import { APP_OPENAPI_FILE, loadOpenApiValidator, type OpenApiValidator } from '../harness/openapi-validator';
import { isStream, openSse } from '../harness/sse-client';
import { until } from '../harness/until';

/* eslint-disable @typescript-eslint/no-explicit-any -- answers are walked generically */

jest.setTimeout(300_000);

const READY_TIMEOUT_MS = 240_000;
/** How long a stream or subscription example may take to show its first data: a few 1 s blocks. */
const STREAM_WAIT_MS = 45_000;

const examples = readDocExamples();
const GIVEN_URL = process.env.DOC_EXAMPLES_URL?.replace(/\/+$/, '');

/** npm start's environment with nothing configured but the test's ports and data directory. */
function defaultWorldEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEVNET_PORT: '0',
    LOG_FORMAT: 'json',
  };
  for (const v of Object.keys(env)) if (/^(DEVNET_(SEED|HISTORY|BLOCK|TXS)|GRAPHQL_|STREAM_)/.test(v)) delete env[v];
  for (const v of ['DATABASE_URL', 'CHAIN_RPC_URL', 'CHAIN_ID', 'DB_SCHEMA', 'LOG_LEVEL', 'LENDER_KEY', 'DESK_KEY'])
    delete env[v];
  return env;
}

/** Whether an answer holds data: a top-level field that is null, or every top-level list empty, is none. */
function emptyParts(body: unknown, where: string): string[] {
  if (body === null || body === undefined) return [`${where} is null`];
  if (Array.isArray(body)) return body.length === 0 ? [`${where} is an empty list`] : [];
  if (typeof body !== 'object') return [];
  const entries = Object.entries(body as Record<string, unknown>);
  const lists = entries.filter(([, v]) => Array.isArray(v));
  if (lists.length > 0 && lists.every(([, v]) => (v as unknown[]).length === 0))
    return [`${where}: every list (${lists.map(([k]) => k).join(', ')}) is empty`];
  return [];
}

/** GraphQL data with something in each top-level field (a connection's nodes not empty). */
function emptyGraphqlFields(data: Record<string, any>): string[] {
  return Object.entries(data).flatMap(([field, value]) => {
    if (value === null || value === undefined) return [`${field} is null`];
    if (Array.isArray(value?.nodes)) return value.nodes.length === 0 ? [`${field}.nodes is empty`] : [];
    if (Array.isArray(value)) return value.length === 0 ? [`${field} is empty`] : [];
    return [];
  });
}

const STREAM_SCHEMAS: Record<string, string> = { block: 'Block', tx: 'Tx', activity: 'ActivityEvent' };

describe('every runnable example of README.md and docs/*.md, on npm start’s default world', () => {
  let world: LauncherProcess;
  let base: string;
  let dataDir: string;
  let schema: GraphQLSchema;
  let readApi: OpenApiValidator;
  let appApi: OpenApiValidator;
  const started = Date.now();
  let readyMs = 0;

  const logTail = () =>
    world.lines
      .slice(-30)
      .map((l) => JSON.stringify(l))
      .join('\n');

  beforeAll(async () => {
    readApi = loadOpenApiValidator();
    appApi = loadOpenApiValidator(APP_OPENAPI_FILE);
    if (GIVEN_URL) {
      base = GIVEN_URL;
      schema = buildClientSchema(await graphqlPost(getIntrospectionQuery()));
      return;
    }
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-doc-examples-'));
    fs.chmodSync(dataDir, 0o755); // as root the embedded PostgreSQL runs as the postgres user, who enters DATA_DIR/postgres
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    world = spawnLauncher(defaultWorldEnv(port, dataDir));
    await until(
      'npm start ready',
      async () => {
        if (world.child.exitCode !== null) throw new Error(`npm start exited ${world.child.exitCode}:\n${logTail()}`);
        const res = await fetch(`${base}/ready`).catch(() => undefined);
        return res?.status === 200 ? true : undefined;
      },
      { ms: READY_TIMEOUT_MS, everyMs: 100, context: logTail },
    );
    readyMs = Date.now() - started;
    const introspection = await graphqlPost(getIntrospectionQuery());
    schema = buildClientSchema(introspection);
  });

  afterAll(async () => {
    if (world && world.child.exitCode === null) {
      world.child.kill('SIGTERM');
      await world.exited;
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    console.log(
      `doc examples: ${examples.runnable.length} runnable (${examples.runnable.reduce((n, e) => n + e.operations.length, 0)} operations), ${examples.notRun.length} not run; npm start ready after ${readyMs} ms, whole file ${Date.now() - started} ms`,
    );
  });

  async function graphqlPost(query: string): Promise<any> {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const body = (await res.json()) as { data?: any; errors?: unknown[] };
    if (res.status !== 200 || body.errors)
      throw new Error(`/graphql answered ${res.status} ${JSON.stringify(body.errors ?? body)}`);
    return body.data;
  }

  function validatorOf(p: string): OpenApiValidator | undefined {
    if (p.startsWith('/api/')) return appApi;
    if (p.startsWith('/v1/') || p.startsWith('/openapi.yaml')) return readApi;
    return undefined;
  }

  async function runHttp(e: RunnableExample, r: CurlRequest): Promise<void> {
    if (r.stream) return runStream(e, r);
    const res = await fetch(base + r.path, { method: r.method, headers: r.headers, body: r.body });
    const text = await res.text();
    const headers = Object.fromEntries([...res.headers.entries()].map(([k, v]) => [k.toLowerCase(), v]));
    const body = (headers['content-type'] ?? '').includes('json') ? JSON.parse(text) : text;
    const what = `${e.where} ${r.source}\n  -> ${res.status} ${text.slice(0, 300)}`;
    if (e.status !== undefined) expect([what, res.status]).toEqual([what, e.status]);
    else expect([what, res.status >= 200 && res.status < 300]).toEqual([what, true]);
    if (r.path.split('?')[0] === '/graphql') {
      const query = (JSON.parse(r.body ?? '{}') as { query?: string }).query ?? '';
      checkAgainstSchema(e, { kind: 'graphql', query, subscription: false, source: r.source });
      expect([what, body.errors]).toEqual([what, undefined]);
      if (!e.mayBeEmpty) expect([what, emptyGraphqlFields(body.data)]).toEqual([what, []]);
      return;
    }
    validatorOf(r.path)?.check({ method: r.method, path: r.path, status: res.status, headers, body });
    if (!e.mayBeEmpty && res.status < 300) expect(emptyParts(body, what)).toEqual([]);
  }

  async function runStream(e: RunnableExample, r: CurlRequest): Promise<void> {
    const stream = await openSse(base + r.path, r.headers);
    if (!isStream(stream)) throw new Error(`${e.where} ${r.source}: ${stream.status} ${stream.body}`);
    try {
      const filtered = /[?&](account|asset|method)=/.test(r.path);
      const wanted = filtered ? 'a tx or activity event' : 'a block event';
      await stream.waitFor(
        `${wanted} on ${r.source} (${e.where})`,
        (events) =>
          events.some((ev) => (filtered ? ev.event === 'tx' || ev.event === 'activity' : ev.event === 'block')),
        STREAM_WAIT_MS,
      );
      for (const ev of stream.events) {
        const name = STREAM_SCHEMAS[ev.event];
        if (!name) throw new Error(`${e.where}: unexpected ${ev.event} event ${ev.data}`);
        const validate = readApi.schema(name);
        if (!validate(JSON.parse(ev.data)))
          throw new Error(`${e.where}: ${ev.event} event not a ${name}: ${JSON.stringify(validate.errors)}`);
      }
    } finally {
      stream.close();
    }
  }

  function checkAgainstSchema(e: RunnableExample, op: GraphqlOperation): void {
    const errors = validate(schema, parse(op.query));
    expect([e.where, op.query, errors.map((x) => x.message)]).toEqual([e.where, op.query, []]);
  }

  async function runQuery(e: RunnableExample, op: GraphqlOperation): Promise<void> {
    checkAgainstSchema(e, op);
    const data = await graphqlPost(op.query);
    if (!e.mayBeEmpty) expect([e.where, op.query, emptyGraphqlFields(data)]).toEqual([e.where, op.query, []]);
  }

  async function runSubscription(e: RunnableExample, op: GraphqlOperation): Promise<void> {
    checkAgainstSchema(e, op);
    const client = createClient({
      url: `${base.replace('http:', 'ws:')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    try {
      const first = await new Promise<any>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${e.where}: no event within ${STREAM_WAIT_MS} ms for ${op.query}`)),
          STREAM_WAIT_MS,
        );
        client.subscribe(
          { query: op.query },
          {
            next: (value) => {
              clearTimeout(timer);
              if (value.errors) reject(new Error(`${e.where}: ${JSON.stringify(value.errors)}`));
              else resolve(value.data);
            },
            error: (err) => {
              clearTimeout(timer);
              reject(err instanceof Error ? err : new Error(`${e.where}: ${JSON.stringify(err)}`));
            },
            complete: () => undefined,
          },
        );
      });
      for (const [field, event] of Object.entries(first as Record<string, any>)) {
        const what = `${e.where} ${field}`;
        expect([what, event === null]).toEqual([what, false]);
        if ('mutation_type' in event) expect(['INSERT', 'UPDATE', 'DELETE']).toContain(event.mutation_type);
        if ('_entity' in event && event.mutation_type !== 'DELETE')
          expect([what, event._entity]).not.toEqual([what, null]);
      }
    } finally {
      await client.dispose();
    }
  }

  it('has examples to run', () => {
    expect(examples.problems).toEqual([]);
    expect(examples.runnable.length).toBeGreaterThan(0);
  });

  it.each(examples.runnable.map((e) => [`${e.name} (${e.where})`, e] as const))('%s', async (_title, e) => {
    // one after the other, except that subscriptions wait for their first events together
    const waiting: Promise<void>[] = [];
    for (const op of e.operations) {
      if (op.kind === 'http') await runHttp(e, op);
      else if (op.subscription) waiting.push(runSubscription(e, op));
      else await runQuery(e, op);
    }
    await Promise.all(waiting);
  });

  // last: the explorer in a real browser, on this same world
  explorerInTheBrowser(() => base);
});
