/**
 * The explorer's one way to the API: GET /v1 and /api, POST /api, typed by path from the types
 * generated from openapi.yaml and app-services/openapi.yaml (no hand-written answer shapes).
 * An error answer is an ApiError worded as the API words it; 429 and 503 carry Retry-After.
 */
import type { components as V1, paths as V1Paths } from '../../rest-adapter/openapi.generated';
import type { components as AppC, paths as AppPaths } from '../../app-services/openapi.generated';

export type S = V1['schemas'];
export type A = AppC['schemas'];
type Paths = V1Paths & AppPaths;
type GetPath = {
  [P in keyof Paths]: Paths[P] extends { get: { responses: { 200: unknown } } } ? P : never;
}[keyof Paths];
type PostPath = {
  [P in keyof Paths]: Paths[P] extends { post: { responses: { 200: unknown } } } ? P : never;
}[keyof Paths];
type Json<R> = R extends { content: { 'application/json': infer T } } ? T : never;
export type GetOk<P extends GetPath> = Paths[P] extends { get: { responses: { 200: infer R } } } ? Json<R> : never;
type PostOk<P extends PostPath> = Paths[P] extends { post: { responses: { 200: infer R } } } ? Json<R> : never;
type PostBody<P extends PostPath> = Paths[P] extends {
  post: { requestBody: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
type PathParams<P extends string> = P extends `${string}{${infer K}}${infer Rest}`
  ? { [key in K]: string | number } & PathParams<Rest>
  : unknown;
type Query = Record<string, string | number | undefined | null>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    /** seconds, from Retry-After (429, 503) */
    readonly retryAfter: number | undefined,
    readonly reason?: string,
  ) {
    super(message);
  }
}

export function url<P extends string>(template: P, params: PathParams<P>, query: Query = {}): string {
  const p = params as Record<string, string | number>;
  const path = template.replace(/\{([a-z_]+)\}/g, (_m, k: string) => encodeURIComponent(String(p[k])));
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}

async function answer<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (res.ok) return body as T;
  const e = (body ?? {}) as { error?: string; code?: string; reason?: string };
  const retry = res.headers.get('retry-after');
  throw new ApiError(
    res.status,
    e.error ?? `${res.status} ${res.statusText}`,
    e.code ?? 'http_' + res.status,
    retry !== null && /^\d+$/.test(retry) ? Number(retry) : undefined,
    e.reason,
  );
}

/** GET one documented path: `get('/v1/blocks/{height}', { height: 5 })`. */
export async function get<P extends GetPath>(
  template: P,
  params: PathParams<P>,
  query?: Query,
  signal?: AbortSignal,
): Promise<GetOk<P>> {
  const res = await fetch(url(template, params, query), { headers: { accept: 'application/json' }, signal });
  return answer<GetOk<P>>(res);
}

/** POST a JSON body to one documented /api path. */
export async function post<P extends PostPath>(template: P, body: PostBody<P>): Promise<PostOk<P>> {
  const res = await fetch(template, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return answer<PostOk<P>>(res);
}
