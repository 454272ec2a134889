/**
 * Prometheus metrics of `npm start` (served at /metrics): HTTP requests by route template,
 * method and status (count and latency histogram), and the indexer's heights and lag.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface LauncherMetrics {
  registry: Registry;
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  setHeights(h: { indexed?: number; chain?: number; ready: boolean }): void;
}

const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export function createMetrics(): LauncherMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['route', 'method', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route template, method and status', labelNames, registers: [registry] });
  const latency = new Histogram({ name: 'http_request_duration_seconds', help: 'HTTP request latency in seconds, by route template, method and status', labelNames, buckets: LATENCY_BUCKETS, registers: [registry] });
  const indexed = new Gauge({ name: 'svc_indexed_height', help: 'Last block height the SubQuery node committed (_metadata.lastProcessedHeight)', registers: [registry] });
  const chain = new Gauge({ name: 'svc_chain_height', help: 'Latest block height of the chain', registers: [registry] });
  const lag = new Gauge({ name: 'svc_index_lag_blocks', help: 'Blocks the index is behind the chain', registers: [registry] });
  const ready = new Gauge({ name: 'svc_ready', help: '1 when /ready answers 200', registers: [registry] });
  return {
    registry,
    observeRequest(route, method, status, seconds) {
      const labels = { route, method, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    setHeights(h) {
      if (h.indexed !== undefined) indexed.set(h.indexed);
      if (h.chain !== undefined) chain.set(h.chain);
      if (h.indexed !== undefined && h.chain !== undefined) lag.set(Math.max(0, h.chain - h.indexed));
      ready.set(h.ready ? 1 : 0);
    },
  };
}
