/**
 * The rest-adapter on the node-built store, served on a free port; every answer is
 * checked against openapi.yaml (tests/harness/openapi-validator.ts) before a test sees it.
 */
import type { AddressInfo } from 'net';
import type { Server } from 'http';
import { createRestApp } from '../../../rest-adapter/app';
import { getIndexedStore, IndexedStore } from '../../harness/indexed-store';
import { loadOpenApiValidator, OpenApiValidator } from '../../harness/openapi-validator';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are asserted field by field
export interface ApiResponse<T = any> {
  status: number;
  headers: Record<string, string>;
  body: T;
  text: string;
  /** the openapi schema the answer was checked against */
  schema: string;
}

export interface Api {
  store: IndexedStore;
  baseUrl: string;
  openapi: OpenApiValidator;
  /** GET, checked against openapi.yaml */
  get<T = any>(path: string): Promise<ApiResponse<T>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** any method, checked against openapi.yaml */
  request<T = any>(method: string, path: string): Promise<ApiResponse<T>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** GET expecting 200; the body */
  ok<T = any>(path: string): Promise<T>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** every request made, for coverage assertions */
  readonly log: { method: string; path: string; status: number }[];
  close(): Promise<void>;
}

let validator: OpenApiValidator | undefined;

export async function startApi(options: { now?: () => number } = {}): Promise<Api> {
  const store = await getIndexedStore();
  const logged: string[] = [];
  const app = createRestApp({
    pool: store.pool,
    schema: store.schema,
    hrp: 'svc',
    now: options.now,
    logger: { error: (m, f) => logged.push(`${m}: ${String(f?.error)}`) },
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const openapi = (validator ??= loadOpenApiValidator());
  const log: Api['log'] = [];

  async function request<T>(method: string, path: string): Promise<ApiResponse<T>> {
    const res = await fetch(baseUrl + path, { method });
    const text = await res.text();
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => (headers[name] = value));
    const isJson = (headers['content-type'] ?? '').startsWith('application/json');
    const body = (isJson && text !== '' ? JSON.parse(text) : text) as T; // HEAD answers carry no body
    log.push({ method, path, status: res.status });
    const schema = method === 'HEAD' ? '' : openapi.check({ method, path, status: res.status, headers, body });
    if (res.status === 500) throw new Error(`500 on ${method} ${path}: ${logged.join('\n')}`);
    return { status: res.status, headers, body, text, schema };
  }

  return {
    store,
    baseUrl,
    openapi,
    log,
    request,
    get: (path) => request('GET', path),
    async ok<T>(path: string): Promise<T> {
      const r = await request<T>('GET', path);
      if (r.status !== 200) throw new Error(`GET ${path} -> ${r.status} ${r.text}`);
      return r.body;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    },
  };
}

/** Follows next_cursor from `first` to the end; returns every page body. */
export async function walkPages<T extends { next_cursor: string | null }>(
  api: Api,
  first: string,
  maxPages = 10_000,
): Promise<T[]> {
  const pages: T[] = [];
  let path: string | null = first;
  while (path !== null) {
    if (pages.length >= maxPages) throw new Error(`more than ${maxPages} pages from ${first}`);
    const page: T = await api.ok<T>(path);
    pages.push(page);
    path = page.next_cursor === null ? null : withCursor(first, page.next_cursor);
  }
  return pages;
}

/** `path` with its cursor parameter replaced. */
export function withCursor(path: string, cursor: string): string {
  const [base, query = ''] = path.split('?');
  const params = new URLSearchParams(query);
  params.set('cursor', cursor);
  return `${base}?${params.toString()}`;
}

/** JSON-RPC call to the devnet (the chain the store was built from). */
export async function devnetRpc<T = Record<string, unknown>>(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: unknown };
  if (body.result === undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}
