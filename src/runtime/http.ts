/**
 * The one HTTP server of `npm start`:
 *   /v1/*, /openapi.yaml   the rest adapter (createRestApp), once PostgreSQL is up
 *   /graphql, /graphiql    read-only GraphQL (graphql.ts), once the node has created its tables;
 *                          a websocket upgrade of /graphql: its subscriptions (routeUpgrades)
 *   /api/*                 the app services (app-services/), once PostgreSQL and the chain are up
 *   /health                the process is up: always 200
 *   /ready                 store reachable and lag within READY_MAX_LAG_BLOCKS: 200, else 503 with reasons
 *   /metrics               Prometheus text
 *   /, /explorer/*         the explorer page (explorer.ts), when the launcher gives it
 * The server listens before anything else starts, so /health and /ready answer during start-up.
 */
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Server } from 'http';
import type { Duplex } from 'stream';
import { refuseUpgrade, type UpgradeHandler } from './graphql';
import type { Logger } from './logger';
import type { LauncherMetrics } from './metrics';
import type { Readiness } from './readiness';
import { applyTrustProxy, type TrustProxy } from '../http/trust-proxy';

/** A handler filled in later (the rest app needs the database, GraphQL the node's tables). */
export class Slot {
  private handler: RequestHandler | undefined;
  /** requests each handler is answering now, so a replaced one can finish before its resources go */
  private readonly inFlight = new Map<RequestHandler, number>();
  constructor(private readonly whileEmpty: RequestHandler) {}
  set(handler: RequestHandler | undefined): void {
    this.handler = handler;
  }
  get filled(): boolean {
    return this.handler !== undefined;
  }
  readonly handle: RequestHandler = (req, res, next) => {
    const handler = this.handler ?? this.whileEmpty;
    this.inFlight.set(handler, (this.inFlight.get(handler) ?? 0) + 1);
    res.once('close', () => {
      const left = (this.inFlight.get(handler) ?? 1) - 1;
      if (left > 0) this.inFlight.set(handler, left);
      else this.inFlight.delete(handler);
    });
    handler(req, res, next);
  };

  /** Resolves once no request is being answered by `handler` (a replaced one), or after `timeoutMs`. */
  async drained(handler: RequestHandler, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.inFlight.has(handler) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  }
}

/** A websocket upgrade handler filled in later (GraphQL's, once the node has created its tables). */
export class UpgradeSlot {
  private handler: UpgradeHandler | undefined;
  set(handler: UpgradeHandler | undefined): void {
    this.handler = handler;
  }
  readonly handle: UpgradeHandler = (req, socket, head) => {
    if (this.handler) return this.handler(req, socket, head);
    refuseUpgrade(
      socket,
      503,
      'Service Unavailable',
      'GraphQL starts once the indexer has created its tables; see /ready',
    );
  };
}

/**
 * Websocket upgrades on the one server: /graphql goes to GraphQL (subscriptions), any other
 * path is refused with 404. The upgraded sockets are kept: `server.close()` waits for them and
 * `closeAllConnections()` does not end them, so a stop destroys them (`destroyAll`).
 */
export function routeUpgrades(server: Server, graphql: UpgradeSlot): { destroyAll(): void } {
  const open = new Set<Duplex>();
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined); // a client gone mid-handshake
    const pathname = (req.url ?? '').split('?')[0];
    if (pathname !== '/graphql')
      return refuseUpgrade(socket, 404, 'Not Found', 'websockets are served on /graphql only');
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    graphql.handle(req, socket, head);
  });
  return {
    destroyAll() {
      for (const socket of open) socket.destroy();
    },
  };
}

export interface HttpDeps {
  rest: Slot;
  graphql: Slot;
  api: Slot;
  readiness: () => Readiness;
  /** false until the node has committed its first blocks: /v1 answers 503 until then */
  storeReady: () => boolean;
  metrics: LauncherMetrics;
  log: Logger;
  startedAt: number;
  /** which proxies' X-Forwarded-For entries name the client (TRUST_PROXY), for every per-client limit */
  trustProxy?: TrustProxy;
  /** the explorer page at / (explorerHandler); without it / is an unknown path */
  explorer?: RequestHandler;
}

function sendJson(res: Response, status: number, body: unknown): void {
  res.status(status).type('application/json').send(JSON.stringify(body));
}

/** 503 `unavailable` while a part starts: the error rules reserve that code for 503, and the client may retry. */
function sendStarting(res: Response, error: string): void {
  res.setHeader('Retry-After', String(STARTING_RETRY_AFTER_S));
  sendJson(res, 503, { error, code: 'unavailable' });
}

const STARTING_RETRY_AFTER_S = 5;

export const startingRest: RequestHandler = (_req, res) =>
  sendStarting(res, 'the API is starting (database not up yet); see /ready');

export const startingGraphql: RequestHandler = (_req, res) =>
  sendJson(res, 503, { errors: [{ message: 'GraphQL starts once the indexer has created its tables; see /ready' }] });

/** Route template for metrics labels: bounded cardinality (no ids, hashes or addresses). */
function routeLabel(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  if (route && typeof route.path === 'string') return route.path;
  const p = req.originalUrl.split('?')[0];
  for (const prefix of ['/graphql', '/graphiql', '/api', '/v1'])
    if (p === prefix || p.startsWith(`${prefix}/`)) return prefix === '/v1' ? 'unmatched /v1' : prefix;
  return 'other';
}

export function observe(deps: Pick<HttpDeps, 'metrics' | 'log'>): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      deps.metrics.observeRequest(routeLabel(req), req.method, res.statusCode, seconds);
      deps.log.debug('request', {
        method: req.method,
        path: req.originalUrl,
        status: res.statusCode,
        ms: Math.round(seconds * 1000),
      });
    });
    next();
  };
}

/** /health, /ready, /metrics. */
export function operations(app: Express, deps: Pick<HttpDeps, 'readiness' | 'metrics' | 'startedAt'>): void {
  app.get('/health', (_req, res) =>
    sendJson(res, 200, { status: 'ok', uptime_s: Math.round((Date.now() - deps.startedAt) / 1000) }),
  );
  app.get('/ready', (_req, res) => {
    const r = deps.readiness();
    sendJson(res, r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'not_ready', ...r });
  });
  app.get('/metrics', async (_req, res, next) => {
    try {
      const text = await deps.metrics.registry.metrics();
      res.status(200).type(deps.metrics.registry.contentType).send(text);
    } catch (e) {
      next(e);
    }
  });
}

export const waitingForReindex: RequestHandler = (_req, res) =>
  sendStarting(
    res,
    'the app services wait for the changed project to be reindexed (they act on the index); see /ready',
  );

export const startingApi: RequestHandler = (_req, res) =>
  sendStarting(res, 'the app services start once PostgreSQL and the chain are up; see /ready');

function restUntilIndexed(deps: HttpDeps): RequestHandler {
  return (req, res, next) => {
    if (req.path === '/openapi.yaml' || deps.storeReady()) return deps.rest.handle(req, res, next);
    sendStarting(res, 'the indexer has not committed its first blocks yet; see /ready');
  };
}

export function lastResort(log: Logger) {
  return (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    log.error('request failed', { method: req.method, path: req.originalUrl, error: err });
    sendJson(res, 500, { error: 'internal error', code: 'internal' });
  };
}

export function createHttpApp(deps: HttpDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  applyTrustProxy(app, deps.trustProxy ?? false);
  app.use(observe(deps));
  operations(app, deps);
  if (deps.explorer) app.use(deps.explorer);
  app.use('/api', deps.api.handle);
  app.use(['/graphql', '/graphiql'], (req, res, next) => {
    // postgraphile matches its routes on the full URL: hand it the request unchanged
    req.url = req.originalUrl;
    deps.graphql.handle(req, res, next);
  });
  app.use(restUntilIndexed(deps));
  app.use(lastResort(deps.log));
  return app;
}
