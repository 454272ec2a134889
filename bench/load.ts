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

function get(
  agent: http.Agent,
  base: URL,
  path: string,
  headers: Record<string, string> = {},
  expected = 200,
): Promise<{ status: number; body: string; hit: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ agent, host: base.hostname, port: base.port, path, headers }, (res) => {
      // an expected answer's body is not read (only its status counts); other bodies are kept for the report
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        if (res.statusCode !== expected) chunks.push(c);
      });
      const hit = /; hit\b/.test(String(res.headers['cache-status'] ?? ''));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), hit }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

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
  /** sent with every request */
  headers?: Record<string, string>;
  /** any other status is an error (default 200) */
  expectStatus?: number;
}

/** Runs `clients` loops of GET next() until `durationMs` has passed (after a warm-up that is not counted). */
export async function runLoad(baseUrl: string, next: () => string, o: LoadOptions): Promise<LoadResult> {
  return summarize(await sampleLoad(baseUrl, next, o));
}

/** runLoad's measurements, unsummarised. */
export async function sampleLoad(baseUrl: string, next: () => string, o: LoadOptions): Promise<LoadSamples> {
  const expectStatus = o.expectStatus ?? 200;
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
      const path = next();
      const t0 = performance.now();
      try {
        const r = await get(agent, base, path, o.headers, expectStatus);
        const ms = performance.now() - t0;
        if (t0 < warmEnd) continue;
        latencies.push(ms);
        if (r.hit) hits++;
        if (r.status !== expectStatus) {
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
