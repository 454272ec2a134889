/**
 * The /v1 read API over the SubQuery store, as openapi.yaml describes it.
 *
 *   const app = createRestApp({ pool, schema: 'svc', hrp: 'svc' });
 *   app.listen(3001);
 */
import fs from 'fs';
import path from 'path';
import express, { Express, Request, Response, Router } from 'express';
import type { Pool } from 'pg';
import { DEFAULT_CHAIN_CONFIG, isValidDenom, isValidHrp } from '../src/lib/config';
import { createStore } from './db/sql';
import { checkRoutesAgainstContract } from './http/contract-check';
import { errorHandler, notFound } from './http/errors';
import type { Logger } from '../src/lib/logger';
import { getOnly, jsonRoutes } from './http/respond';
import { compileParameterChecks } from '../src/http/openapi-params';
import { requestScope, StatementCanceller } from '../src/http/cancel-on-disconnect';
import { FairShare, type FairShareSettings } from '../src/http/fair-share';
import { applyTrustProxy, type TrustProxy } from '../src/http/trust-proxy';
import { restCosts } from './http/costs';
import { HeightWatcher } from './http/height-watcher';
import { ResponseCache, ResponseCacheOptions } from './http/response-cache';
import { bytesTag, ifNoneMatchHits, Validators } from './http/validators';
import { RenderCache, type RenderCacheOptions } from './presenters/render-cache';
import { keptTx, presentTxRows, renderTxRows } from './presenters/txs';
import { presentActivity } from './presenters/activity';
import type { LiveStatus } from './presenters/status';
import { withReads } from './reads';
import { createRepositories } from './repositories';
import { registerAccountRoutes } from './routes/accounts';
import { registerAssetRoutes } from './routes/assets';
import { registerAttesterRoutes } from './routes/attesters';
import { registerBlockRoutes } from './routes/blocks';
import { registerBridgeRoutes } from './routes/bridge';
import type { RouteContext } from './routes/context';
import { registerDelegationRoutes } from './routes/delegations';
import { registerEncumbranceRoutes } from './routes/encumbrances';
import { registerInvariantRoutes } from './routes/invariants';
import { registerLookupRoutes } from './routes/lookup';
import { registerSettlementRoutes } from './routes/settlements';
import { registerStatusRoutes } from './routes/status';
import { registerTxRoutes } from './routes/txs';
import { ConnectionLimits } from './stream/limits';
import { StreamHub } from './stream/hub';
import { checkStreamOptions, DEFAULT_STREAM_OPTIONS, type StreamOptions } from './stream/options';
import { registerStreamRoute } from './stream/route';
import { StreamSource } from './stream/source';

import { DEFAULT_RENDER_CACHE, DEFAULT_RESPONSE_CACHE, DEFAULT_STATEMENT_TIMEOUT_MS } from './defaults';
export { DEFAULT_RENDER_CACHE, DEFAULT_RESPONSE_CACHE, DEFAULT_STATEMENT_TIMEOUT_MS };
export const DEFAULT_OPENAPI_PATH = path.resolve(__dirname, '..', 'openapi.yaml');

export interface RestAppOptions {
  /** pg pool of the database the SubQuery node writes */
  pool: Pool;
  /** the node's --db-schema (e.g. "svc") */
  schema: string;
  /** bech32 prefix of account addresses */
  hrp: string;
  /** gas denom, the denom of EVM `value` (default usvc) */
  gasDenom?: string;
  /** per-statement limit in ms (default 5000) */
  statementTimeoutMs?: number;
  /**
   * DB_WAIT_MS: how long a request waits for a store connection before a 503; the pool's
   * connectionTimeoutMillis then bounds only a new connection's setup (STORE_CONNECT_TIMEOUT_MS).
   * Unset: the pool's connectionTimeoutMillis is both.
   */
  dbWaitMs?: number;
  /** the document served at /openapi.yaml (default the repository's openapi.yaml) */
  openapiPath?: string;
  /** where internal errors are logged (default console) */
  logger?: Pick<Logger, 'error'>;
  /** wall clock in ms (default Date.now), for wall_clock_lag_seconds */
  now?: () => number;
  /** answers kept per indexed height (http/response-cache.ts); false = none. Default 64 MiB, height polled every 200 ms */
  responseCache?: ResponseCacheOptions | false;
  /**
   * false: the indexed height is never read in the background (for tools that record every
   * statement a request sends); needs `responseCache: false`. Head answers then carry tags of
   * their bytes and max-age=0, and the render cache relies on its stamps alone. Default true.
   */
  heightWatch?: boolean;
  /** rendered JSON of committed txs, kept to be reused by every answer (presenters/render-cache.ts); false = none. Default 64 MiB */
  renderCache?: RenderCacheOptions | false;
  /** GET /v1/stream's limits, heartbeat and replay bound (stream/options.ts; default DEFAULT_STREAM_OPTIONS) */
  stream?: StreamOptions;
  /** which proxies' X-Forwarded-For entries name the client (TRUST_PROXY, src/http/trust-proxy.ts); default false */
  trustProxy?: TrustProxy;
  /**
   * per-client budgets and load shedding of /v1 and /v1/stream (src/http/fair-share.ts; the
   * processes pass RATE_LIMIT_* and LOAD_SHED_DELAY_MS), or the FairShare of a process that also
   * serves GraphQL (one budget per client across both). Default false: no limit (tools and tests).
   */
  fairShare?: FairShareSettings | FairShare | false;
  /**
   * What the process serving this app knows now beside the store (npm start: its watchers), for
   * /v1/status: the chain's tip (chain_height is at least it, so the lag is true while the
   * serving index's node is stopped) and, while a reindex runs, its progress. Default none.
   */
  live?: () => LiveStatus;
}

function checkOptions(o: RestAppOptions): void {
  if (!o.pool) throw new TypeError('createRestApp: pool is required');
  if (typeof o.schema !== 'string' || o.schema.length === 0 || o.schema.length > 63)
    throw new TypeError('createRestApp: schema must be 1..63 characters');
  if (!isValidHrp(o.hrp)) throw new TypeError(`createRestApp: invalid hrp "${o.hrp}"`);
  if (o.gasDenom !== undefined && !isValidDenom(o.gasDenom))
    throw new TypeError(`createRestApp: invalid gasDenom "${o.gasDenom}"`);
  const cache = o.responseCache;
  if (cache && !(cache.maxBytes > 0 && cache.pollMs > 0))
    throw new TypeError('createRestApp: responseCache needs maxBytes > 0 and pollMs > 0 (or false)');
  if (o.heightWatch === false && o.responseCache !== false)
    throw new TypeError('createRestApp: heightWatch: false needs responseCache: false (the cache is kept per height)');
  if (o.renderCache && !(o.renderCache.maxBytes > 0))
    throw new TypeError('createRestApp: renderCache needs maxBytes > 0 (or false)');
  if (o.stream) checkStreamOptions(o.stream);
}

/** /openapi.yaml: changes only with a release, so revalidated on every use (ETag of its bytes, made once). */
function documentRoute(document: string): (req: Request, res: Response) => void {
  const etag = bytesTag(Buffer.from(document));
  return (req, res) => {
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'no-cache');
    if (ifNoneMatchHits(req.headers['if-none-match'], etag)) return void res.status(304).end();
    res.status(200).type('text/yaml; charset=utf-8').send(document);
  };
}

/** The stream hub of each app createRestApp made, for closeStreams. */
const hubs = new WeakMap<Express, StreamHub>();

/** Closes every /v1/stream connection of an app being replaced (npm start's switch to a reindexed schema). */
export function closeStreams(app: Express, message: string): void {
  hubs.get(app)?.closeAll(message);
}

/** the setup limit of a new connection, for the pool of an app given `dbWaitMs` */
export { STORE_CONNECT_TIMEOUT_MS } from './defaults';

export function createRestApp(options: RestAppOptions): Express {
  checkOptions(options);
  const openapi = fs.readFileSync(options.openapiPath ?? DEFAULT_OPENAPI_PATH, 'utf8');
  const store = createStore(options.pool, {
    statementTimeoutMs: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    connectionWaitMs: options.dbWaitMs,
    canceller: new StatementCanceller(options.pool),
  });
  const fair =
    options.fairShare instanceof FairShare
      ? options.fairShare
      : options.fairShare
        ? new FairShare(options.fairShare, (req) => (req as Request).ip)
        : undefined;
  const repos = createRepositories(options.schema);
  const cacheOptions = options.responseCache ?? DEFAULT_RESPONSE_CACHE;
  // polled at the response cache's interval (the default one when that cache is off)
  const watcher = new HeightWatcher(
    () => store.readOne((sql) => repos.status.head(sql)),
    options.heightWatch === false ? false : (cacheOptions || DEFAULT_RESPONSE_CACHE).pollMs,
  );
  const cache = cacheOptions ? new ResponseCache(watcher, cacheOptions) : undefined;
  const renderOptions = options.renderCache ?? DEFAULT_RENDER_CACHE;
  const rendered = renderOptions ? new RenderCache(renderOptions) : undefined;
  if (rendered) watcher.onRewind(() => rendered.clear());
  const gasDenom = options.gasDenom ?? DEFAULT_CHAIN_CONFIG.gasDenom;
  const validators = new Validators(watcher, { document: openapi, hrp: options.hrp, gasDenom });

  // paths are exactly the documented ones: /V1/Status or /v1/status/ are unknown paths (404)
  const router = Router({ caseSensitive: true, strict: true });
  const served = ['/openapi.yaml'];
  const checks = compileParameterChecks(openapi);
  // without a logger: the message and the error on stderr
  const logger: Pick<Logger, 'error'> = options.logger ?? {
    error: (message, fields) => console.error(message, fields?.error),
  };
  const ctx: RouteContext = withReads<Omit<RouteContext, 'reads'>>({
    get: jsonRoutes(router, cache, checks, served, validators),
    store,
    repos,
    hrp: options.hrp,
    gasDenom,
    presentTxs: rendered ? (rows) => renderTxRows(rows, gasDenom, rendered) : (rows) => presentTxRows(rows, gasDenom),
    // feed entries are small and cheap to present: kept, they cost more in misses than hits save (docs/rest-adapter.md "Cold answers")
    presentActivities: (rows) => rows.map(presentActivity),
    rendered: (hash) => rendered?.has(hash) ?? false,
    keptTx: (hash, stamp) => (rendered ? keptTx(hash, rendered, stamp) : undefined),
    indexedHeight: () => watcher.current,
    onRewind: (listener) => watcher.onRewind(listener),
    now: options.now ?? Date.now,
    live: options.live ?? (() => ({})),
  });

  const app = express();
  app.disable('x-powered-by');
  // validators are the routes' own (http/validators.ts): Express's would hash every body, errors included
  app.set('etag', false);
  app.set('query parser', 'simple'); // a repeated key becomes an array, which params.ts refuses
  applyTrustProxy(app, options.trustProxy ?? false);
  app.use(requestScope); // a client that goes away cancels its statement
  if (fair) {
    const costOf = restCosts(openapi);
    app.use((req, res, next) => {
      if (fair.admit(req, res, costOf(req))) next();
    });
  }

  getOnly(router, '/openapi.yaml', documentRoute(openapi));
  for (const register of [
    registerStatusRoutes,
    registerBlockRoutes,
    registerTxRoutes,
    registerAssetRoutes,
    registerAccountRoutes,
    registerAttesterRoutes,
    registerSettlementRoutes,
    registerEncumbranceRoutes,
    registerDelegationRoutes,
    registerBridgeRoutes,
    registerLookupRoutes,
    registerInvariantRoutes,
  ]) {
    register(ctx);
  }
  const streamOptions = options.stream ?? DEFAULT_STREAM_OPTIONS;
  const source = new StreamSource(store, repos, ctx);
  const hub = new StreamHub(watcher, source, streamOptions, logger);
  hubs.set(app, hub);
  registerStreamRoute(router, {
    hub,
    source,
    limits: new ConnectionLimits(streamOptions.maxConnections, streamOptions.maxPerClient),
    options: streamOptions,
    hrp: options.hrp,
    checks,
    served,
    logger,
    fair,
  });
  checkRoutesAgainstContract(openapi, served);
  app.use(validators.notModified, router);
  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}
