/** HTTP load: N concurrent keep-alive clients for a fixed time; latency percentiles and throughput. */
import http from 'http';
import { performance } from 'perf_hooks';

export interface LoadResult {
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
  rps: number;
  /** share of measured answers served from the API's response cache (`Cache-Status: …; hit`) */
  hitRate: number;
  /** first unexpected status and body, if any */
  firstError?: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * One request: a GET of `path`, or a POST of `body` (JSON, e.g. a GraphQL document), with
 * extra `headers` (e.g. If-None-Match). `followUp` makes it a client's two round trips
 * (the second built from the first answer's body), measured as one.
 */
export interface HttpRequest {
  path: string;
  body?: string;
  headers?: Record<string, string>;
  followUp?: (body: string) => HttpRequest;
}

export interface HttpAnswer {
  status: number;
  /** read only when asked for (or when the status is unexpected): a 200's body is not decoded under load */
  body: string;
  hit: boolean;
  etag: string | undefined;
}

function send(agent: http.Agent, base: URL, r: HttpRequest, readBody: boolean, ok: number): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...r.headers };
    if (r.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(r.body);
    }
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path: r.path,
        method: r.body === undefined ? 'GET' : 'POST',
        headers,
      },
      (res) => {
        const keep = readBody || res.statusCode !== ok;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (keep) chunks.push(c);
        });
        const hit = /; hit\b/.test(String(res.headers['cache-status'] ?? ''));
        const etag = res.headers.etag;
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), hit, etag }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(r.body);
  });
}

/** The request, and its follow-up when it has one (whose answer is the one returned). */
async function exchange(
  agent: http.Agent,
  base: URL,
  r: HttpRequest,
  readBody: boolean,
  ok: number,
): Promise<HttpAnswer> {
  const first = await send(agent, base, r, readBody || r.followUp !== undefined, ok);
  if (!r.followUp || first.status !== ok) return first;
  return send(agent, base, r.followUp(first.body), readBody, ok);
}

/** One request outside a load run, its body read (to check an answer or take its ETag). */
export async function probe(baseUrl: string, r: HttpRequest): Promise<HttpAnswer> {
  const agent = new http.Agent({ keepAlive: false });
  try {
    return await exchange(agent, new URL(baseUrl), r, true, 200);
  } finally {
    agent.destroy();
  }
}

const asRequest = (r: string | HttpRequest): HttpRequest => (typeof r === 'string' ? { path: r } : r);

/** What one or more load runs measured, before it is summarised. */
export interface LoadSamples {
  /** latency of every measured answer (ms) */
  latencies: number[];
  errors: number;
  hits: number;
  /** measured wall time (ms) */
  ms: number;
  firstError?: string;
}

/** Percentiles and rates of the samples (which may come from several runs, e.g. the segments of one phase). */
export function summarize(s: LoadSamples): LoadResult {
  const latencies = [...s.latencies].sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors: s.errors,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? NaN,
    rps: (latencies.length / Math.max(1, s.ms)) * 1000,
    hitRate: latencies.length ? s.hits / latencies.length : 0,
    firstError: s.firstError,
  };
}

export interface LoadOptions {
  clients: number;
  durationMs: number;
  warmupMs: number;
  /** sent with every request (besides a request's own) */
  headers?: Record<string, string>;
  /** any other status is an error (default 200) */
  expectStatus?: number;
}

/**
 * Runs `clients` loops of next() (a path to GET, or a request) until `durationMs` has passed
 * (after a warm-up that is not counted).
 */
export async function runLoad(baseUrl: string, next: () => string | HttpRequest, o: LoadOptions): Promise<LoadResult> {
  return summarize(await sampleLoad(baseUrl, next, o));
}

/** runLoad's measurements, unsummarised. */
export async function sampleLoad(
  baseUrl: string,
  next: () => string | HttpRequest,
  o: LoadOptions,
): Promise<LoadSamples> {
  const ok = o.expectStatus ?? 200;
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.clients });
  const latencies: number[] = [];
  let errors = 0;
  let hits = 0;
  let firstError: string | undefined;
  const warmEnd = performance.now() + o.warmupMs;
  const end = warmEnd + o.durationMs;
  const client = async () => {
    while (performance.now() < end) {
      const asked = asRequest(next());
      const request = o.headers ? { ...asked, headers: { ...o.headers, ...asked.headers } } : asked;
      const path = request.path;
      const t0 = performance.now();
      try {
        const r = await exchange(agent, base, request, false, ok);
        const ms = performance.now() - t0;
        if (t0 < warmEnd) continue;
        latencies.push(ms);
        if (r.hit) hits++;
        if (r.status !== ok) {
          errors++;
          firstError ??= `${path} -> ${r.status} ${r.body.slice(0, 200)}`;
        }
      } catch (e) {
        errors++;
        firstError ??= `${path} -> ${(e as Error).message}`;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: o.clients }, client));
  agent.destroy();
  const ms = Math.max(1, performance.now() - Math.max(started, warmEnd));
  return { latencies, errors, hits, ms, firstError };
}
