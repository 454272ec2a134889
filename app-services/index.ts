/**
 * The app services under /api (app-services/openapi.yaml): the launchpad metadata service,
 * the lender and the trade desk (each one's worker acts through its key's KeyActor).
 *
 *   const services = new AppServices({ pool, databaseUrl, settings, hrp, gasDenom, chain, log });
 *   app.use('/api', services.router);
 *   await services.start();   // migrations, devnet documents, chain, actor locks
 *   ...
 *   await services.stop();    // workers, then locks, then the chain connection
 *
 * The router answers before start() finishes: reads wait for nothing but the schema, and
 * answer 503 until the migrations have run.
 */
import fs from 'fs';
import path from 'path';
import express, { type RequestHandler, type Router } from 'express';
import type { Pool } from 'pg';
import { KeyActor, type ActorStatus, type ActorWorker, type IntentObserver } from './actor';
import { connectChain, type ChainClient } from './chain/chain-client';
import { AddressedEvents } from './chain/addressed-events';
import { ChainWatcher } from './chain/chain-watcher';
import type { AppServicesSettings } from './config';
import { HttpError, methodNotAllowed, sendError } from '../src/http/http-errors';
import { checkServedOperations } from '../src/http/openapi-routes';
import { compileBodyChecks, compileParameterChecks } from '../src/http/openapi-params';
import { errorHandler } from './http/errors';
import { appRoutes } from './http/routes';
import { SlidingWindowLimiter } from './http/rate-limit';
import { ChainQueries } from './chain/queries';
import { loadKey, type LoadedKey } from './keys';
import { LenderCapacity } from './lender/capacity';
import { LenderRepository } from './lender/repository';
import { registerLenderRoutes } from './lender/routes';
import type { LenderTerms } from './lender/terms';
import { ENCUMBRANCE_CREATED, LenderWorker } from './lender/worker';
import { gasMessagesMax } from './lender/release-batches';
import { DeskBook } from './desk/book';
import { DeskRepository, OfferRepository } from './desk/repository';
import { registerDeskRoutes, type DeskParts } from './desk/routes';
import { DeskWorker } from './desk/worker';
import { RFQ_WINDOW_MS } from './desk/routes';
import { Market, PriceOracle } from './market';
import { IndexedMarketReads, indexedHeight, SETTLEMENT_PROPOSED } from './store/indexer-reads';
import { PriceSampleStore } from './store/price-samples';
import { RiskRepository } from './risk/repository';
import { RiskTiers, type SharedRiskSettings } from './risk/exposure';
import { canonicalDocumentBytes, documentHash, parseMetadataDocument } from './launchpad/document';
import { LaunchpadRepository } from './launchpad/repository';
import { registerLaunchpadRoutes } from './launchpad/routes';
import type { PartLogger } from '../src/lib/logger';
import { migrate } from './store/migrations';
import { ConfigError } from '../src/lib/errors';
import { quoteIdent, tablesIn } from '../src/store';
import type { ApiKey } from '../src/http/fair-share';
import { WebhookDispatcher, type WebhookObserver, type WebhookProfile } from './webhooks/dispatcher';
import type { WebhookFeed } from './webhooks/feed';
import { applyWebhooksFile } from './webhooks/file';
import { WebhookRepository } from './webhooks/repository';
import { registerWebhookRoutes } from './webhooks/routes';
import { SecretBox } from './webhooks/secrets';

export const APP_OPENAPI_PATH = path.resolve(__dirname, 'openapi.yaml');
export { JSON_BODY_LIMIT_BYTES } from './http/body';
const RATE_WINDOW_MS = 10 * 60_000;
/** The watcher starts at most this far behind the chain: an index further behind brings the rest. */
const WATCH_BACKFILL_BLOCKS = 100;

export interface AppServicesOptions {
  pool: Pool;
  /** the same database, for each actor lock's own connection */
  databaseUrl: string;
  settings: AppServicesSettings;
  hrp: string;
  gasDenom: string;
  /** the stable denom loans and desk trades are in (SVC_STABLE_DENOM) */
  stableDenom: string;
  /** the indexer's schema (DB_SCHEMA), read-only to the services */
  indexerSchema: string;
  /** where the services act; undefined: nobody acts (reads only) */
  chain?: { rpcUrl: string; chainId?: string };
  /** launchpad documents to register at start (the embedded devnet's launches) */
  devnetDocuments?: readonly unknown[];
  log: PartLogger;
  /** failed intents and open intents, for /metrics */
  intentObserver?: IntentObserver;
  /** where the webhooks read their events (the stream's, rest-adapter/stream/feed.ts); none: /api/webhooks answers 503 and nothing is delivered */
  webhookFeed?: WebhookFeed;
  /** the API keys (API_KEYS_FILE) that may hold webhooks, each seeing only its own */
  apiKeys?: readonly ApiKey[];
  /** deliveries, failures and lag per webhook, for /metrics */
  webhookObserver?: WebhookObserver;
}

export interface AppServicesReadiness {
  ready: boolean;
  reasons: string[];
  actors: ActorStatus[];
}

export class AppServices {
  readonly router: Router;
  private schemaReady = false;
  private startError: string | undefined;
  private chain: ChainClient | undefined;
  private watcher: ChainWatcher | undefined;
  private readonly actors: KeyActor[] = [];
  private stopped = false;
  private readonly launchpad: LaunchpadRepository;
  private readonly lenderTerms: LenderTerms;
  private readonly risk: RiskRepository;
  /** the caps and cool-offs both services share, with the listed tier */
  private readonly shared: SharedRiskSettings;
  private lender: { address: string; repository: LenderRepository; capacity?: LenderCapacity } | undefined;
  private desk: DeskParts | undefined;
  private readonly webhookRepository: WebhookRepository;
  private webhookBox: SecretBox | undefined;
  private dispatcher: WebhookDispatcher | undefined;

  constructor(private readonly o: AppServicesOptions) {
    this.webhookRepository = new WebhookRepository(o.pool, o.settings.schema);
    this.launchpad = new LaunchpadRepository(o.pool, o.settings.schema, o.indexerSchema);
    this.lenderTerms = { ...o.settings.lender, denom: o.stableDenom };
    this.risk = new RiskRepository(o.pool, o.settings.schema, o.indexerSchema);
    this.shared = { ...o.settings.risk, tiers: new RiskTiers(o.settings.risk.listedAssets ?? []) };
    this.router = this.buildRouter();
  }

  async start(): Promise<void> {
    try {
      const applied = await migrate(this.o.pool, this.o.settings.schema);
      this.schemaReady = true;
      this.o.log.info('app schema ready', { schema: this.o.settings.schema, applied_migrations: applied });
      await this.registerDevnetDocuments();
      await this.startWebhooks();
      await this.startActors();
    } catch (e) {
      this.startError = e instanceof Error ? e.message : String(e);
      throw e;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.dispatcher?.stop();
    await this.watcher?.stop();
    await Promise.all(this.actors.map((a) => a.stop()));
    this.chain?.disconnect();
  }

  /** For /ready: the schema is migrated and every configured key has an actor (acting or standing by). */
  readiness(): AppServicesReadiness {
    const reasons: string[] = [];
    if (this.startError) reasons.push(`app services failed to start: ${this.startError}`);
    else if (!this.schemaReady) reasons.push('app services: migrating their schema');
    for (const a of this.actors)
      if (a.state === 'recovering') reasons.push(`app services: ${a.role} is settling open intents`);
    return { ready: reasons.length === 0, reasons, actors: this.actors.map((a) => a.status()) };
  }

  actor(role: string): KeyActor | undefined {
    return this.actors.find((a) => a.role === role);
  }

  // ---------------------------------------------------------------- start

  /** The key webhook secrets are sealed with, then the deliverer (it waits for its actor lock). */
  private async startWebhooks(): Promise<void> {
    const { secretKey } = this.o.settings.webhooks;
    const key = secretKey ? Buffer.from(secretKey.reveal(), 'hex') : await this.webhookRepository.storedKey();
    this.webhookBox = new SecretBox(key);
    if (!this.o.webhookFeed || this.stopped) return;
    const { file } = this.o.settings.webhooks;
    if (file)
      await applyWebhooksFile(file, {
        repository: this.webhookRepository,
        feed: this.o.webhookFeed,
        box: this.webhookBox,
        allowPrivate: this.o.settings.webhooks.allowPrivate,
        keyNames: (this.o.apiKeys ?? []).map((k) => k.name),
        log: this.o.log,
      });
    this.dispatcher = new WebhookDispatcher({
      repository: this.webhookRepository,
      feed: this.o.webhookFeed,
      box: () => this.webhookBox!,
      settings: this.o.settings.webhooks,
      connection: { connectionString: this.o.databaseUrl },
      schema: this.o.settings.schema,
      lockRetryMs: this.o.settings.lockRetryMs,
      log: this.o.log,
      observer: this.o.webhookObserver,
    });
    this.dispatcher.start();
  }

  /** Where the webhook deliverer's time went since start (bench:webhooks prints it); undefined: no deliverer. */
  get webhookProfile(): WebhookProfile | undefined {
    return this.dispatcher?.profile;
  }

  /** Whether this process delivers the webhooks now (it holds their actor lock). */
  get deliveringWebhooks(): boolean {
    return this.dispatcher?.delivering ?? false;
  }

  private async registerDevnetDocuments(): Promise<void> {
    for (const input of this.o.devnetDocuments ?? []) {
      const parsed = parseMetadataDocument(input);
      if (!parsed.ok) throw new Error(`a devnet launch document is refused by the launchpad rules: ${parsed.error}`);
      await this.launchpad.save(documentHash(parsed.doc), canonicalDocumentBytes(parsed.doc), 'devnet');
    }
    if (this.o.devnetDocuments?.length)
      this.o.log.info('registered the devnet launch documents', { documents: this.o.devnetDocuments.length });
  }

  private async startActors(): Promise<void> {
    const keys = new Map<string, LoadedKey>();
    for (const [role, secret] of Object.entries(this.o.settings.keys))
      if (secret) keys.set(role, await loadKey(secret, this.o.hrp));
    const addresses = [...keys.values()].map((k) => k.address);
    if (new Set(addresses).size !== addresses.length)
      throw new ConfigError(
        'DESK_KEY',
        'is the same key as LENDER_KEY: each service needs its own key (one actor per key)',
      );
    const lenderKey = keys.get('lender');
    if (lenderKey)
      this.lender = {
        address: lenderKey.address,
        repository: new LenderRepository(
          this.o.pool,
          this.o.settings.schema,
          this.o.indexerSchema,
          lenderKey.address,
          this.o.stableDenom,
        ),
      };
    if (!this.o.chain || keys.size === 0) {
      this.o.log.warn('the lender and desk do not act: no chain or no keys configured (LENDER_KEY, DESK_KEY)');
      return;
    }
    this.chain = await connectChain(this.o.chain.rpcUrl, this.o.chain.chainId);
    const queries = new ChainQueries(this.o.chain.rpcUrl);
    const market = this.marketOf(queries);
    this.watcher = this.watcherOf(this.chain);
    if (this.lender) this.lender.capacity = this.capacityOf(market);
    const deskKey = keys.get('desk');
    if (deskKey) this.desk = this.deskOf(deskKey.address, this.chain, queries, market, this.watcher);
    for (const [role, { wallet, address }] of keys) {
      if (this.stopped) return;
      const actor = new KeyActor({
        role,
        wallet,
        address,
        chain: this.chain,
        pool: this.o.pool,
        connection: { connectionString: this.o.databaseUrl },
        schema: this.o.settings.schema,
        fee: {
          amount: [{ denom: this.o.gasDenom, amount: this.o.settings.txFee.toString() }],
          gas: this.o.settings.txGas,
        },
        gas: {
          adjustment: this.o.settings.gasAdjustment,
          base: this.o.settings.txGasBase,
          perMessage: this.o.settings.txGasPerMsg,
          max: this.o.settings.txGas,
        },
        retry: { baseMs: this.o.settings.retryBaseMs, maxMs: this.o.settings.retryMaxMs },
        observer: this.o.intentObserver,
        inclusionTimeoutMs: this.o.settings.inclusionTimeoutMs,
        reconcileMs: this.o.settings.reconcileMs,
        lockRetryMs: this.o.settings.lockRetryMs,
        log: this.o.log,
        workers: this.workersOf(role, queries, market),
      });
      this.actors.push(actor);
      actor.start();
    }
    this.watcher.start();
  }

  /**
   * The committed blocks the workers watch for what is addressed to them, from the indexed
   * height (what is older, the index holds), at most WATCH_BACKFILL_BLOCKS behind the chain.
   */
  private watcherOf(chain: ChainClient): ChainWatcher {
    const svc = tablesIn(this.o.indexerSchema);
    return new ChainWatcher({
      chain,
      pollMs: this.o.settings.watchMs,
      from: async () => {
        const [indexed, head] = await Promise.all([indexedHeight(this.o.pool, svc).catch(() => 0), chain.height()]);
        return Math.max(indexed, head - WATCH_BACKFILL_BLOCKS);
      },
      log: this.o.log,
    });
  }

  private deskOf(address: string, chain: ChainClient, queries: ChainQueries, market: Market, watcher: ChainWatcher) {
    const { desk, risk } = this.o.settings;
    const repository = new DeskRepository(this.o.pool, this.o.settings.schema, this.o.indexerSchema);
    const offers = new OfferRepository(this.o.pool, this.o.settings.schema);
    const limits = this.deskLimits();
    const book = new DeskBook({
      repository,
      risk: this.risk,
      queries,
      chain,
      market,
      pool: this.o.pool,
      svc: tablesIn(this.o.indexerSchema),
      desk: address,
      denom: this.o.stableDenom,
      cacheMs: desk.quoteCacheMs,
      limits,
      shared: this.shared,
      fromHeight: desk.fromHeight ?? 0,
    });
    const worker = new DeskWorker({
      repository,
      market,
      offers,
      risk: this.risk,
      book,
      queries,
      denom: this.o.stableDenom,
      maxTrade: desk.maxTrade,
      limits,
      shared: this.shared,
      inventory: {
        targetBps: desk.inventoryTargetBps,
        impactBps: desk.rebalanceImpactBps,
        everyBlocks: desk.rebalanceEveryBlocks,
      },
      lossToleranceBps: risk.deskLossToleranceBps,
      dust: desk.dust,
      cancelBatch: desk.cancelBatch,
      pollMs: desk.pollMs,
      seen: new AddressedEvents(watcher, address, [{ type: SETTLEMENT_PROPOSED, field: 'counterparty' }], () =>
        worker.wake(),
      ),
      log: this.o.log,
    });
    return { address, book, repository, offers, risk: this.risk, worker };
  }

  private deskLimits() {
    const { desk } = this.o.settings;
    return {
      maxPosition: desk.maxPosition,
      maxPoolShareBps: desk.maxPoolShareBps,
      maxTotal: desk.maxTotal,
      communityMaxPosition: desk.communityMaxPosition,
      communityMaxTotal: desk.communityMaxTotal,
    };
  }

  /** The one market (robust price, eligibility, one unit) the lender and the desk share; its window kept in the app schema. */
  private marketOf(queries: ChainQueries): Market {
    const { market } = this.o.settings;
    const oracle = new PriceOracle({
      source: queries,
      denom: this.o.stableDenom,
      windowBlocks: market.windowBlocks,
      store: new PriceSampleStore(this.o.pool, this.o.settings.schema),
    });
    return new Market(oracle, new IndexedMarketReads(this.o.pool, tablesIn(this.o.indexerSchema)), market);
  }

  private capacityOf(market: Market): LenderCapacity {
    const { lender, desk } = this.o.settings;
    return new LenderCapacity({
      repository: this.lender!.repository,
      market,
      risk: this.risk,
      caps: lender,
      shared: this.shared,
      maxPrincipal: lender.maxPrincipal,
      cacheMs: desk.quoteCacheMs,
    });
  }

  private workersOf(role: string, queries: ChainQueries, market: Market): ActorWorker[] {
    if (role === 'desk') return this.desk ? [this.desk.worker] : [];
    if (role !== 'lender' || !this.lender) return [];
    const { lender } = this.o.settings;
    const seen = new AddressedEvents(
      this.watcher!,
      this.lender.address,
      [
        { type: ENCUMBRANCE_CREATED, field: 'beneficiary' },
        { type: SETTLEMENT_PROPOSED, field: 'counterparty' },
      ],
      () => worker.wake(),
    );
    const worker = new LenderWorker({
      repository: this.lender.repository,
      queries,
      terms: this.lenderTerms,
      market,
      risk: this.risk,
      caps: lender,
      shared: this.shared,
      dust: lender.dust,
      batchMax: lender.batchMax,
      gasMessagesMax: gasMessagesMax(this.o.settings),
      releaseMinValue: lender.releaseMinValue,
      sale: { impactBps: lender.saleImpactBps, everyBlocks: lender.saleEveryBlocks },
      pollMs: lender.pollMs,
      claimEveryMs: lender.claimEveryMs,
      fromHeight: lender.fromHeight ?? 0,
      intentsTable: `${quoteIdent(this.o.settings.schema)}.intents`,
      seen,
      log: this.o.log,
    });
    return [worker];
  }

  // ---------------------------------------------------------------- http

  private buildRouter(): Router {
    const router = express.Router({ caseSensitive: true, strict: true });
    const openapi = fs.readFileSync(APP_OPENAPI_PATH, 'utf8');
    router.get('/openapi.yaml', (_req, res) => void res.type('application/yaml').send(openapi));
    router.all('/openapi.yaml', methodNotAllowed('GET'));
    router.use(this.needsSchema);
    const served = ['GET /api/openapi.yaml'];
    const checks = { parameters: compileParameterChecks(openapi), body: compileBodyChecks(openapi) };
    const routes = appRoutes(router, checks, served);
    registerLaunchpadRoutes(routes, {
      repository: this.launchpad,
      limiter: new SlidingWindowLimiter(this.o.settings.launchpadRateLimit, RATE_WINDOW_MS),
    });
    registerLenderRoutes(routes, {
      hrp: this.o.hrp,
      terms: this.lenderTerms,
      intentsTable: `${quoteIdent(this.o.settings.schema)}.intents`,
      fromHeight: this.o.settings.lender.fromHeight ?? 0,
      lender: () => this.lender,
    });
    const { desk } = this.o.settings;
    registerDeskRoutes(routes, {
      hrp: this.o.hrp,
      denom: this.o.stableDenom,
      maxTrade: desk.maxTrade,
      limits: {
        perAddress: desk.rfqLimit,
        perIp: desk.rfqIpLimit,
        windowMs: RFQ_WINDOW_MS,
        maxEscrowBps: desk.maxEscrowBps,
        maxEscrowPerAddressBps: desk.maxEscrowPerAddressBps,
      },
      risk: { limits: this.deskLimits(), shared: this.shared, maxReservationBps: desk.maxReservationBps },
      waitMs: this.o.settings.inclusionTimeoutMs,
      desk: () => this.desk,
    });
    registerWebhookRoutes(router, {
      repository: this.webhookRepository,
      feed: () => this.o.webhookFeed,
      box: () => this.webhookBox!,
      settings: this.o.settings.webhooks,
      keys: this.o.apiKeys ?? [],
      ...checks,
      wake: () => this.dispatcher?.wake(),
      served,
    });
    checkServedOperations('the /api routes', openapi, served);
    router.use((_req, res) => sendError(res, 'not_found', 'not found'));
    router.use(errorHandler(this.o.log, routeMethods(router)));
    return router;
  }

  private readonly needsSchema: RequestHandler = (_req, _res, next) => {
    if (this.schemaReady) return next();
    next(
      new HttpError(
        'unavailable',
        this.startError ? 'the app services failed to start; see /ready' : 'the app services are starting; see /ready',
      ),
    );
  };
}

/**
 * The methods each registered route answers, from the router itself: for a request whose path
 * matched a route but whose parameter could not be decoded (no route handler ran), so the error
 * handler can still answer 405 to a method the path does not have.
 */
function routeMethods(router: Router): (path: string) => string | undefined {
  const routes = (router.stack as { route?: { path: string; methods: Record<string, boolean> } }[])
    .filter((layer) => layer.route && typeof layer.route.path === 'string')
    .map(({ route }) => ({
      re: new RegExp(
        `^${route!.path
          .split('/')
          .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/')}$`,
      ),
      methods: Object.keys(route!.methods)
        .filter((m) => m !== '_all')
        .map((m) => m.toUpperCase())
        .join(', '),
    }));
  return (path) => routes.find((r) => r.re.test(path))?.methods;
}
