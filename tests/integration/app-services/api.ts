/**
 * The app services' router on real PostgreSQL, served on a free port as /api; every answer
 * is checked against app-services/openapi.yaml before a test sees it.
 */
import express from 'express';
import type { Pool } from 'pg';
import type { Server } from 'http';
import type { AddressInfo } from 'net';
import { AppServices, type AppServicesOptions } from '../../../app-services';
import { APP_SERVICES_DEFAULTS, type AppServicesSettings } from '../../../app-services/config';
import { createTestSchema } from '../../harness/db';
import { APP_OPENAPI_FILE, loadOpenApiValidator, type OpenApiValidator } from '../../harness/openapi-validator';
import type { TestSchema } from '../../harness/postgres';
import { applyTrustProxy, type TrustProxy } from '../../../src/http/trust-proxy';

/* eslint-disable @typescript-eslint/no-explicit-any -- bodies are asserted field by field */
export interface AppResponse<T = any> {
  status: number;
  headers: Record<string, string>;
  body: T;
  text: string;
}

export interface AppApi {
  /** the app schema's database: a fresh test schema, or the one given */
  db: { pool: Pool; url: string; schema: string };
  services: AppServices;
  /** where the app listens (http://127.0.0.1:port; /api below it) */
  url: string;
  errors: string[];
  request<T = any>(
    method: string,
    path: string,
    init?: { body?: string | Buffer; headers?: Record<string, string> },
  ): Promise<AppResponse<T>>;
  postJson<T = any>(path: string, body: unknown, headers?: Record<string, string>): Promise<AppResponse<T>>;
  close(): Promise<void>;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

let validator: OpenApiValidator | undefined;

export interface StartAppApiOptions {
  settings?: Partial<AppServicesSettings>;
  devnetDocuments?: AppServicesOptions['devnetDocuments'];
  trustProxy?: TrustProxy;
  /** false: mount the router without running start() (no schema yet) */
  start?: boolean;
  /** an existing database (a live world's) where the app schema `app` goes, beside the indexer's `svc` */
  database?: { pool: Pool; url: string };
  /** where the services act */
  chain?: { rpcUrl: string };
  /** the webhooks' events (rest-adapter/stream/feed.ts on the world's index) and the keys that may hold them */
  webhookFeed?: AppServicesOptions['webhookFeed'];
  apiKeys?: AppServicesOptions['apiKeys'];
}

export async function startAppApi(o: StartAppApiOptions = {}): Promise<AppApi> {
  const own: TestSchema | undefined = o.database ? undefined : await createTestSchema('app');
  const db = own ?? { ...o.database!, schema: 'app' };
  const errors: string[] = [];
  const log = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: (m: string, f?: Record<string, unknown>) => void errors.push(`${m} ${JSON.stringify(f)}`),
  };
  const services = new AppServices({
    pool: db.pool,
    databaseUrl: db.url,
    settings: { ...APP_SERVICES_DEFAULTS, keys: {}, schema: db.schema, ...o.settings },
    hrp: 'svc',
    gasDenom: 'usvc',
    stableDenom: 'uusdc',
    indexerSchema: 'svc',
    devnetDocuments: o.devnetDocuments,
    chain: o.chain,
    log,
    webhookFeed: o.webhookFeed,
    apiKeys: o.apiKeys,
  });
  if (o.start !== false) await services.start();
  const app = express();
  app.disable('x-powered-by');
  applyTrustProxy(app, o.trustProxy ?? false);
  app.use('/api', services.router);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const openapi = (validator ??= loadOpenApiValidator(APP_OPENAPI_FILE));

  async function request<T>(
    method: string,
    path: string,
    init: { body?: string | Buffer; headers?: Record<string, string> } = {},
  ): Promise<AppResponse<T>> {
    const res = await fetch(base + path, { method, body: init.body, headers: init.headers });
    const text = await res.text();
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => (headers[name] = value));
    const isJson = (headers['content-type'] ?? '').startsWith('application/json');
    const body = (isJson ? JSON.parse(text) : text) as T;
    openapi.check({ method, path, status: res.status, headers, body });
    return { status: res.status, headers, body, text };
  }

  return {
    db,
    services,
    url: base,
    errors,
    request,
    postJson: (path, body, headers = {}) =>
      request('POST', path, {
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...headers },
      }),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.stop();
      await own?.drop();
    },
  };
}
