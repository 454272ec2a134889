/**
 * Prometheus metrics of `npm start` (served at /metrics): HTTP requests by route template,
 * method and status (count and latency histogram), the indexer's heights and lag, and the
 * reconciler's passes, the app services' failed and open chain actions (intents), and their
 * webhook deliveries and lag per subscription.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface LauncherMetrics {
  registry: Registry;
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  setHeights(h: { indexed?: number; chain?: number; ready: boolean }): void;
  /** a supervised part (the SubQuery node) was restarted after it died */
  countRestart(part: string): void;
  /** after each reconciliation attempt: recorded at a height with its disagreements, or failed */
  observeReconcilerPass(o: {
    result?: { height: number; disagreements: number };
    error?: string;
    seconds: number;
  }): void;
  /** an app-services intent settled failed (in a block, code ≠ 0) or rejected (refused at CheckTx) */
  intentFailed(role: string, intent: { kind: string; status: string }): void;
  /** intents of a key still open after its actor's latest reconcile */
  openIntents(role: string, count: number): void;
  /** a webhook delivery answered 2xx */
  webhookDelivered(id: string): void;
  /** a webhook delivery failed (status, timeout, refused connection, redirect, TLS error) */
  webhookFailed(id: string): void;
  /** heights between the indexed height and a webhook's cursor */
  webhookLag(id: string, blocks: number): void;
}

const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Read at each scrape, where the process knows better than the last poll of one watcher. */
export interface MetricsProbes {
  /** whether /ready answers 200 now (the app services and a reindex included) */
  ready?: () => boolean;
  /** a reindex's progress while one runs (svc_reindex_*) */
  reindex?: () => { indexed_height: number | null; lag_blocks: number | null; eta_s: number | null } | undefined;
}

export function createMetrics(probes: MetricsProbes = {}): LauncherMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['route', 'method', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route template, method and status',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency in seconds, by route template, method and status',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const indexed = new Gauge({
    name: 'svc_indexed_height',
    help: 'Last block height the SubQuery node committed (_metadata.lastProcessedHeight)',
    registers: [registry],
  });
  const chain = new Gauge({
    name: 'svc_chain_height',
    help: 'Latest block height of the chain',
    registers: [registry],
  });
  const lag = new Gauge({
    name: 'svc_index_lag_blocks',
    help: 'Blocks the index is behind the chain',
    registers: [registry],
  });
  const ready = new Gauge({
    name: 'svc_ready',
    help: '1 when /ready answers 200',
    registers: [registry],
    collect() {
      if (probes.ready) this.set(probes.ready() ? 1 : 0);
    },
  });
  if (probes.reindex) {
    const progress = probes.reindex;
    const gauge = (name: string, help: string, value: (r: NonNullable<ReturnType<typeof progress>>) => number | null) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          const r = progress();
          this.set(r ? (value(r) ?? -1) : 0);
        },
      });
    gauge('svc_reindexing', '1 while a changed project is reindexed beside the serving index', () => 1);
    gauge(
      'svc_reindex_indexed_height',
      'Height of the index a reindex builds (0 when none runs)',
      (r) => r.indexed_height ?? 0,
    );
    gauge(
      'svc_reindex_lag_blocks',
      'Blocks the index a reindex builds is behind the chain (0 when none runs, -1 unknown)',
      (r) => r.lag_blocks,
    );
    gauge(
      'svc_reindex_eta_seconds',
      'Expected seconds until the reindex has caught up (0 when none runs, -1 unknown)',
      (r) => r.eta_s,
    );
  }
  const restarts = new Counter({
    name: 'svc_restarts_total',
    help: 'Supervised parts restarted after they died, by part',
    labelNames: ['part'] as const,
    registers: [registry],
  });
  const passes = new Counter({
    name: 'svc_reconciler_passes_total',
    help: 'Reconciliation passes, by outcome (recorded, failed: nothing recorded)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const passSeconds = new Histogram({
    name: 'svc_reconciler_pass_duration_seconds',
    help: 'Duration of reconciliation passes in seconds',
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [registry],
  });
  const checkedHeight = new Gauge({
    name: 'svc_reconciler_height',
    help: 'Height of the last recorded reconciliation pass',
    registers: [registry],
  });
  const disagreements = new Gauge({
    name: 'svc_reconciler_disagreements',
    help: 'Rows of the last recorded pass that disagree',
    registers: [registry],
  });
  const intentFailures = new Counter({
    name: 'app_intent_failures_total',
    help: 'App-services chain actions that settled failed or rejected, by key role, intent kind and outcome',
    labelNames: ['role', 'kind', 'outcome'] as const,
    registers: [registry],
  });
  const intentsOpen = new Gauge({
    name: 'app_intents_open',
    help: 'App-services chain actions not yet settled, by key role (as of the actor’s latest reconcile)',
    labelNames: ['role'] as const,
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: 'app_webhook_deliveries_total',
    help: 'Webhook deliveries by subscription and outcome (delivered: a 2xx answer; failed: anything else)',
    labelNames: ['webhook', 'outcome'] as const,
    registers: [registry],
  });
  const webhookLag = new Gauge({
    name: 'app_webhook_lag_blocks',
    help: 'Heights a webhook subscription is behind the indexed height (0 while paused or disabled)',
    labelNames: ['webhook'] as const,
    registers: [registry],
  });
  return {
    registry,
    webhookDelivered(id) {
      webhookDeliveries.inc({ webhook: id, outcome: 'delivered' });
    },
    webhookFailed(id) {
      webhookDeliveries.inc({ webhook: id, outcome: 'failed' });
    },
    webhookLag(id, blocks) {
      webhookLag.set({ webhook: id }, blocks);
    },
    intentFailed(role, intent) {
      intentFailures.inc({ role, kind: intent.kind, outcome: intent.status });
    },
    openIntents(role, count) {
      intentsOpen.set({ role }, count);
    },
    observeRequest(route, method, status, seconds) {
      const labels = { route, method, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    setHeights(h) {
      if (h.indexed !== undefined) indexed.set(h.indexed);
      if (h.chain !== undefined) chain.set(h.chain);
      if (h.indexed !== undefined && h.chain !== undefined) lag.set(Math.max(0, h.chain - h.indexed));
      if (!probes.ready) ready.set(h.ready ? 1 : 0);
    },
    countRestart(part) {
      restarts.inc({ part });
    },
    observeReconcilerPass(o) {
      passes.inc({ outcome: o.result ? 'recorded' : 'failed' });
      passSeconds.observe(o.seconds);
      if (o.result) {
        checkedHeight.set(o.result.height);
        disagreements.set(o.result.disagreements);
      }
    },
  };
}
