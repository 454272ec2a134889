/**
 * The parts of `npm start` and their order (entry: start.ts).
 *
 * With no configuration: builds the SubQuery project when stale, starts an embedded
 * PostgreSQL (persistent, DATA_DIR/postgres), the devnet (seeded history + live blocks,
 * journaled in DATA_DIR/devnet), the real subql-node-cosmos on this project, the reconciler
 * beside it (reconciler/), the app services, and one HTTP
 * server on PORT (/v1, /openapi.yaml, /graphql, /api, /health, /ready, /metrics).
 * DATABASE_URL and CHAIN_RPC_URL (+ CHAIN_ID) replace the embedded parts.
 * A restart on the same DATA_DIR resumes where indexing stopped.
 *
 * Stop: HTTP first, then the other parts in reverse start order.
 */
import fs from 'fs';
import http from 'http';
import path from 'path';
import type { Express, RequestHandler } from 'express';
import { Pool } from 'pg';
import { closeStreams, createRestApp, STORE_CONNECT_TIMEOUT_MS } from '../rest-adapter/app';
import { resolveExternalChain, fetchChainStatus } from './chain';
import type { LauncherConfig } from '../src/runtime/config';
import { devnetIdentity, startEmbeddedDevnet } from '../src/runtime/devnet';
import { POOLED_ASSETS } from '../devnet/scenario/flows/dex';
import { checkIdentity, DevnetJournal, JournalConflict } from '../src/runtime/devnet-journal';
import { createGraphqlService, keepPostgraphileOffServer } from '../src/runtime/graphql';
import { createAppServices } from '../src/runtime/app-services';
import type { AppServices } from '../app-services';
import {
  createHttpApp,
  routeUpgrades,
  Slot,
  startingApi,
  startingGraphql,
  startingRest,
  UpgradeSlot,
  waitingForReindex,
} from '../src/runtime/http';
import type { Logger } from '../src/runtime/logger';
import { createMetrics } from '../src/runtime/metrics';
import { forwardNodeLine } from './node-logs';
import { proofChainBroken } from '../src/runtime/node-errors';
import { freePort } from '../src/runtime/ports';
import { removeRunningStart, writeRunningStart } from '../src/runtime/running-file';
import { parseDatabaseUrl, subqlDbEnv, type PgConnection } from '../src/runtime/database-url';
import { startPostgres } from '../src/runtime/postgres';
import { ensureExplorerBuilt, explorerHandler } from '../src/runtime/explorer';
import { ensureProjectBuilt, projectFor, REPO_ROOT } from '../src/runtime/project';
import {
  dropSchema,
  planIndex,
  projectFingerprint,
  readFingerprint,
  recordFingerprint,
  saveServingSchema,
  servingSchemaOf,
  staleBesideSchemas,
} from '../src/runtime/index-version';
import {
  IndexWatcher,
  reindexProgress,
  withAppServices,
  withReindex,
  type Readiness,
  type ReindexProgress,
} from '../src/runtime/readiness';
import { checkChainId, checkIndexAgainstJournal, readStoredIndex, type ResetHint } from '../src/runtime/store-check';
import { startNode, type SubqlNode } from '../src/runtime/subql-node';
import { startsAtHead, switchWithin, watchForHead } from '../src/runtime/head-switch';
import { Supervisor, SUPERVISOR_DEFAULTS } from '../src/runtime/supervisor';
import { Reconciler } from '../reconciler/reconciler';
import { FairShare } from '../src/http/fair-share';
import { verify } from '../verify/compare';
import { renderReport } from '../verify/report';
import { StoreSource } from '../verify/sources';
import { clientAddressOf } from '../src/http/trust-proxy';
import { closeServer } from '../src/http/close-server';

const CHAIN_WAIT_MS = 60_000;
/** How long a reindex's switch lets requests the old schema's parts took finish (longer than their statement timeouts). */
const SWITCH_DRAIN_MS = 15_000;

/** Where the node reads the chain from, and how /ready learns the tip. */
interface ChainSource {
  endpoint: string;
  chainId: string;
  tip(): Promise<number>;
  /** set for the embedded devnet: its seed gives the app services their keys and documents */
  devnetSeed?: string;
  /** the embedded devnet's first live height (after its generated history) */
  devnetLiveFrom?: number;
  /** the embedded devnet's pooled assets (its scenario's main equity and community asset): listed unless RISK_LISTED_ASSETS says otherwise */
  devnetPooledAssets?: string[];
}

/**
 * Before the old index is dropped: the proofs of indexing of both over their common heights
 * (verify/), so the log says whether the changed project wrote the same rows, or the first
 * height and the entity types where it did not.
 */
async function compareIndexes(db: PgConnection, into: string, old: string, log: Logger): Promise<void> {
  const sources = [new StoreSource(db.url, into), new StoreSource(db.url, old)] as const;
  try {
    const result = await verify(sources[0], sources[1], { rowLimit: 3 });
    for (const line of renderReport(result, [`${into} (the changed project)`, `${old} (the old index)`]))
      log.info(`verify: ${line}`);
  } catch (e) {
    log.warn('the new index could not be compared with the old', { error: e instanceof Error ? e.message : String(e) });
  } finally {
    await Promise.all(sources.map((s) => s.close().catch(() => undefined)));
  }
}

/** A signal arrived while a part was starting: that part was stopped again. */
export class StartAborted extends Error {}

export class Launcher {
  /** when the process started: the banner's times include ts-node's load before this module ran */
  private readonly startedAt = Math.round(Date.now() - process.uptime() * 1000);
  /** where the store is, for the ready banner (never the password itself), given the serving schema */
  private storeLine: () => string = () => '';
  /** the chain's RPC URL, for the ready banner (the examples' --rpc) */
  private chainRpc: string | undefined;
  private announced = false;
  private servingAnnounced = false;
  private announceTimer: NodeJS.Timeout | undefined;
  private readonly metrics = createMetrics({
    ready: () => this.readiness().ready,
    reindex: () => this.reindexProgress(),
  });
  private readonly rest = new Slot(startingRest);
  private readonly graphql = new Slot(startingGraphql);
  private readonly graphqlUpgrades = new UpgradeSlot();
  private upgrades: { destroyAll(): void } | undefined;
  private readonly api = new Slot(startingApi);
  private appServices: AppServices | undefined;
  private nodeSupervisor: Supervisor | undefined;
  private readonly closers: { name: string; close: () => Promise<void> }[] = [];
  private server: http.Server | undefined;
  private watcher: IndexWatcher | undefined;
  private stopRequested = false;
  private teardown: Promise<void> | undefined;
  /** one budget per client across /v1, /v1/stream and /graphql */
  private readonly fair: FairShare;
  /** the node's schema the API reads: DB_SCHEMA, or on the embedded store the one a reindex switched to */
  private schema: string;
  /** while a changed project indexes beside the serving schema (docs/running.md, "After a project change") */
  private reindex: { serving: string; into: string; watcher: IndexWatcher } | undefined;
  /** the parts read from the serving schema, closed when a reindex switches to another */
  private releaseRest: (() => Promise<void>) | undefined;
  private restApp: Express | undefined;
  private releaseGraphql: (() => Promise<void>) | undefined;
  private releaseWatcher: (() => Promise<void>) | undefined;
  private releaseReindexWatcher: (() => Promise<void>) | undefined;
  private graphqlHandler: RequestHandler | undefined;
  /** the schema /graphql is mounted on (or being mounted on) */
  private graphqlSchema: string | undefined;
  /** set when a child dies on its own: main() exits with code 1 */
  onFatal: (message: string) => void = () => undefined;

  constructor(
    readonly config: LauncherConfig,
    private readonly log: Logger,
  ) {
    this.schema = config.databaseUrl ? config.schema : servingSchemaOf(config.dataDir, config.schema);
    // req.ip where Express has seen the request; a websocket upgrade by the same rule
    this.fair = new FairShare(
      config.fairShare,
      (req) => (req as { ip?: string }).ip ?? clientAddressOf(req, config.trustProxy),
    );
  }

  // ------------------------------------------------------------------ start

  async start(): Promise<void> {
    fs.mkdirSync(this.config.dataDir, { recursive: true, mode: 0o755 });
    await this.listen();
    const journal = this.config.chain ? undefined : this.openJournal();
    const build = this.config.projectDir ? Promise.resolve(false) : ensureProjectBuilt(this.log.child('build'));
    ensureExplorerBuilt(this.log.child('explorer')).catch((e: unknown) =>
      this.log.warn('the explorer bundle could not be built: / is not served', { error: e }),
    );
    const chainAndDb = this.startDatabase().then(async (db) => ({ db, chain: await this.startChain(db, journal) }));
    const [, { db, chain }] = await Promise.all([build, chainAndDb]);
    const fingerprint = projectFingerprint(this.config.projectDir ?? REPO_ROOT);
    const plan = await this.withPool(db, async (pool) =>
      planIndex({
        servingSchema: this.schema,
        baseSchema: this.config.schema,
        stored: await readFingerprint(pool, this.schema),
        current: fingerprint,
        externalDatabase: this.config.databaseUrl !== undefined,
        reindex: this.config.reindex,
      }),
    );
    if (plan.kind === 'refuse') throw new JournalConflict(plan.message);
    if (plan.kind === 'drop') {
      this.log.warn('--reindex: dropping the index to build it afresh', { schema: plan.schema });
      await this.withPool(db, (pool) => dropSchema(pool, plan.schema));
    }
    if (plan.kind === 'beside') return this.reindexBeside(db, chain, plan.into, fingerprint);
    await this.startServing(db, chain, fingerprint);
  }

  /** Everything that reads the serving schema, and the node writing it. */
  private async startServing(db: PgConnection, chain: ChainSource, fingerprint: string): Promise<void> {
    await Promise.all([
      this.startAppServices(db, chain),
      this.startIndexer(db, chain, this.schema, fingerprint).then(() => this.startReconciler(db, chain)),
    ]);
    await this.watch(db, chain);
  }

  /**
   * The project changed since the serving schema was indexed (embedded store): the API keeps
   * answering from it while the node indexes the new project into `into`; once that has caught
   * up with the chain, everything switches to it and the old schema is dropped. The app services
   * wait for the switch: they act on what the index shows, and the old one no longer moves.
   */
  private async reindexBeside(db: PgConnection, chain: ChainSource, into: string, fingerprint: string): Promise<void> {
    const log = this.log.child('reindex');
    const serving = this.schema;
    await this.withPool(db, async (pool) => {
      for (const stale of await staleBesideSchemas(pool, this.config.schema, [serving, into])) {
        log.info('dropping a schema left by an earlier reindex', { schema: stale });
        await dropSchema(pool, stale);
      }
    });
    log.warn(
      `the project changed since schema ${serving} was indexed: indexing it into ${into}; ${serving} serves until then`,
      {
        serving,
        into,
      },
    );
    this.api.set(waitingForReindex);
    const caughtUp = new Promise<void>((resolve) => {
      const pool = new Pool({ connectionString: db.url, max: 1, options: '-c statement_timeout=5000' });
      pool.on('error', () => undefined);
      const watcher = new IndexWatcher({
        pool,
        schema: into,
        chainTip: chain.tip,
        maxLagBlocks: this.config.readyMaxLagBlocks,
        progressIntervalMs: this.config.progressIntervalMs,
        metrics: createMetrics(), // its own: /metrics shows the serving schema, and this one's progress as svc_reindex_*
        log,
        progressLabel: `reindexing into ${into}:`,
        onFirstReady: () => resolve(),
      });
      this.reindex = { serving, into, watcher };
      void watcher.start();
      void this.own('reindex watcher', async () => {
        watcher.stop();
        await pool.end();
      }).then(
        (release) => (this.releaseReindexWatcher = release),
        () => undefined,
      );
    });
    await this.watch(db, chain);
    await this.startIndexer(db, chain, into, fingerprint);
    await caughtUp;
    if (this.stopRequested) return;
    await this.switchTo(db, chain, into);
    await compareIndexes(db, into, serving, log);
    await this.withPool(db, (pool) => dropSchema(pool, serving));
    log.notice(`switched to ${into}; ${serving} dropped`, { schema: into });
  }

  private async switchTo(db: PgConnection, chain: ChainSource, schema: string): Promise<void> {
    const old = { rest: this.releaseRest, watcher: this.releaseWatcher, app: this.restApp };
    this.schema = schema;
    saveServingSchema(this.config.dataDir, schema);
    this.watcher?.stop(); // the frozen schema's: its last reading stands until the new one's first
    await this.mountRest(db);
    this.reindex = undefined; // with /v1 on the new schema: its /v1/status and /ready no longer name a reindex
    await this.enableGraphql(db); // releases the old schema's
    await this.watch(db, chain);
    await this.releaseReindexWatcher?.();
    if (old.app) {
      closeStreams(old.app, 'the API switched to a reindexed store; reconnect with Last-Event-ID to resume');
      await this.rest.drained(old.app, SWITCH_DRAIN_MS); // requests it took before the switch finish on its pool
    }
    await old.rest?.();
    await old.watcher?.();
    await Promise.all([this.startAppServices(db, chain), this.startReconciler(db, chain)]);
  }

  private async withPool<T>(db: PgConnection, f: (pool: Pool) => Promise<T>): Promise<T> {
    const pool = new Pool({ connectionString: db.url, max: 1 });
    pool.on('error', () => undefined);
    try {
      return await f(pool);
    } finally {
      await pool.end();
    }
  }

  /** Registers a running part for shutdown (stopped at once if a stop is already under way); returns its early release. */
  private async own(name: string, close: () => Promise<void>): Promise<() => Promise<void>> {
    if (this.stopRequested) {
      await close().catch(() => undefined);
      throw new StartAborted(`${name} stopped: shutting down`);
    }
    const part = { name, close };
    this.closers.push(part);
    return async () => {
      const i = this.closers.indexOf(part);
      if (i < 0) return; // already stopped with the rest
      this.closers.splice(i, 1);
      await close().catch((e: unknown) => this.log.warn(`stopping ${name} failed`, { error: e }));
    };
  }

  private async listen(): Promise<void> {
    const app = createHttpApp({
      rest: this.rest,
      graphql: this.graphql,
      api: this.api,
      trustProxy: this.config.trustProxy,
      readiness: () => this.readiness(),
      storeReady: () => this.watcher?.state.schemaReady ?? false,
      metrics: this.metrics,
      log: this.log.child('http'),
      startedAt: this.startedAt,
      explorer: explorerHandler(),
    });
    const server = http.createServer(app);
    server.keepAliveTimeout = 65_000; // longer than common load-balancer idle timeouts
    keepPostgraphileOffServer(server);
    this.upgrades = routeUpgrades(server, this.graphqlUpgrades);
    await new Promise<void>((resolve, reject) => {
      server.once('error', (e: NodeJS.ErrnoException) =>
        reject(
          e.code === 'EADDRINUSE'
            ? new Error(`PORT ${this.config.port} on ${this.config.host} is in use; set PORT to a free port`)
            : e,
        ),
      );
      server.listen(this.config.port, this.config.host, () => resolve());
    });
    this.server = server;
    const base = this.baseUrl();
    writeRunningStart(this.config.dataDir, { pid: process.pid, url: base });
    this.log.info(`listening on ${base}`, { pid: process.pid });
    for (const [what, p] of [
      ['explorer', '/ (docs/explorer.md)'],
      ['REST API', '/v1/status'],
      ['OpenAPI', '/openapi.yaml'],
      ['GraphQL', '/graphql (GraphiQL at /graphiql; subscriptions: websocket on /graphql)'],
      ['app services', '/api (contract: /api/openapi.yaml)'],
      ['health', '/health'],
      ['readiness', '/ready'],
      ['metrics', '/metrics'],
    ]) {
      this.log.info(`  ${what.padEnd(12)} ${base}${p}`);
    }
  }

  private baseUrl(): string {
    const addr = this.server?.address();
    const port = typeof addr === 'object' && addr ? addr.port : this.config.port;
    const host = ['0.0.0.0', '::'].includes(this.config.host) ? '127.0.0.1' : this.config.host;
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  }

  private openJournal(): DevnetJournal {
    const journal = DevnetJournal.open(path.join(this.config.dataDir, 'devnet'));
    if (journal.meta) checkIdentity(journal.meta, devnetIdentity(this.config.devnet), this.config.dataDir);
    return journal;
  }

  private async startDatabase(): Promise<PgConnection> {
    const log = this.log.child('postgres');
    if (this.config.databaseUrl) {
      const conn = parseDatabaseUrl(this.config.databaseUrl);
      log.info('using DATABASE_URL', { host: conn.host, port: conn.port, database: conn.database });
      this.storeLine = () =>
        `PostgreSQL ${conn.host}:${conn.port}, database ${conn.database} (DATABASE_URL), schemas ${this.schema} and ${this.config.app.schema}`;
      await this.mountRest(conn);
      return conn;
    }
    const dataDir = path.join(this.config.dataDir, 'postgres');
    const started = Date.now();
    const pg = await startPostgres({
      forceEmbedded: true,
      dataDir,
      handleSignals: false,
      onLog: (line) => log.debug(line),
      // everything else needs it and its data is safe on disk: stop clearly rather than restart behind the node's back
      onUnexpectedExit: (code, signal) =>
        this.onFatal(
          `the embedded PostgreSQL exited unexpectedly (code ${code}, signal ${signal}); everything else depends on it, so npm start stops. Its data in ${dataDir} is kept: start again to resume`,
        ),
    });
    await this.own('postgres', () => pg.stop());
    log.info('embedded PostgreSQL up', { pid: pg.pid, port: pg.port, data_dir: dataDir, ms: Date.now() - started });
    this.storeLine = () =>
      `embedded PostgreSQL ${pg.user}@${pg.host}:${pg.port}, database ${pg.database}, schemas ${this.schema} and ${this.config.app.schema}; ` +
      `password in ${dataDir}.password; npm run psql connects`;
    await this.mountRest(pg);
    return pg;
  }

  /** /v1 on the serving schema; a reindex's switch mounts it again on the new one and releases this one. */
  private async mountRest(conn: PgConnection): Promise<void> {
    // a request that cannot get a connection within DB_WAIT_MS is answered 503 (createRestApp's
    // dbWaitMs); the pool's own limit is a new connection's setup, which may take longer
    const pool = new Pool({ connectionString: conn.url, max: 10, connectionTimeoutMillis: STORE_CONNECT_TIMEOUT_MS });
    pool.on('error', () => undefined); // idle connection cut (server restart): the next query reconnects
    const log = this.log.child('http');
    const app = createRestApp({
      pool,
      dbWaitMs: this.config.dbWaitMs,
      schema: this.schema,
      hrp: this.config.hrp,
      gasDenom: this.config.gasDenom,
      responseCache: this.config.responseCache,
      renderCache: this.config.renderCache,
      stream: this.config.stream,
      trustProxy: this.config.trustProxy,
      fairShare: this.fair,
      logger: log,
      // the chain's tip as the watcher last read it (the serving schema's node may not be running: a reindex), and the reindex's progress
      live: () => ({ chainHeight: this.watcher?.state.chainHeight, reindex: this.reindexProgress() }),
    });
    this.rest.set(app);
    this.restApp = app;
    this.releaseRest = await this.own('rest pool', () => pool.end());
  }

  private resetHint(): ResetHint {
    return {
      dataDir: this.config.dataDir,
      schema: this.schema,
      externalDatabase: this.config.databaseUrl !== undefined,
    };
  }

  private async storedIndex(db: PgConnection) {
    const pool = new Pool({ connectionString: db.url, max: 1 });
    try {
      return await readStoredIndex(pool, this.schema);
    } finally {
      await pool.end();
    }
  }

  private async startChain(db: PgConnection, journal: DevnetJournal | undefined): Promise<ChainSource> {
    const index = await this.storedIndex(db);
    const chain = journal ? await this.startDevnet(journal, index) : await this.externalChain(index);
    if (!this.stopRequested)
      writeRunningStart(this.config.dataDir, {
        pid: process.pid,
        url: this.baseUrl(),
        rpc: chain.endpoint,
        chain_id: chain.chainId,
      });
    if (index?.indexedHeight !== undefined)
      this.log.info('resuming the index', { indexed_height: index.indexedHeight, schema: this.schema });
    return chain;
  }

  private async startDevnet(
    journal: DevnetJournal,
    index: Awaited<ReturnType<typeof readStoredIndex>>,
  ): Promise<ChainSource> {
    const log = this.log.child('devnet');
    checkIndexAgainstJournal(index, journal, this.resetHint());
    checkChainId(index, devnetIdentity(this.config.devnet).chainId, this.resetHint());
    const d = this.config.devnet;
    log.info(journal.meta ? 'rebuilding the saved devnet from its journal' : 'generating a devnet', {
      seed: d.seed,
      history_blocks: d.historyBlocks,
      txs_per_block: d.txsPerBlock,
      saved_blocks: journal.height || undefined,
    });
    // services mode: the live scenario leaves the lender's and the desk's signatures to the app services (docs/app-services.md)
    const devnet = await startEmbeddedDevnet({
      config: d,
      journal,
      dataDir: this.config.dataDir,
      log,
      servicesMode: true,
    });
    await this.own('devnet', () => devnet.close());
    this.chainRpc = devnet.url;
    log.info('devnet live', {
      rpc: devnet.url,
      chain_id: devnet.chainId,
      height: devnet.chain.height,
      block_ms: d.blockMs,
      journal: journal.dir,
    });
    return {
      endpoint: devnet.url,
      chainId: devnet.chainId,
      tip: async () => devnet.chain.height,
      devnetSeed: d.seed,
      devnetLiveFrom: journal.meta!.historyBlocks + 1,
      devnetPooledAssets: POOLED_ASSETS.flatMap((key) => devnet.engine.world.assets.get(key)?.assetId ?? []),
    };
  }

  private async externalChain(index: Awaited<ReturnType<typeof readStoredIndex>>): Promise<ChainSource> {
    const { rpcUrl, chainId } = this.config.chain!;
    const log = this.log.child('chain');
    const status = await resolveExternalChain(rpcUrl, chainId, CHAIN_WAIT_MS, (error) =>
      log.warn('waiting for the chain RPC', { rpc: rpcUrl, error }),
    );
    checkChainId(index, status.chainId, this.resetHint());
    this.chainRpc = rpcUrl;
    log.info('using CHAIN_RPC_URL', {
      rpc: rpcUrl,
      chain_id: status.chainId,
      height: status.height,
      version: status.version,
    });
    return { endpoint: rpcUrl, chainId: status.chainId, tip: async () => (await fetchChainStatus(rpcUrl)).height };
  }

  /** The repository, or (another chain id) a project copy in DATA_DIR/project: the node requires the manifest's chainId to be the chain's. */
  private project(chain: ChainSource): string {
    if (this.config.projectDir) return this.config.projectDir;
    const dir = projectFor(chain.chainId, chain.endpoint, path.join(this.config.dataDir, 'project'));
    if (dir !== REPO_ROOT)
      this.log.info('running the node from a project copy for this chain id', { chain_id: chain.chainId, dir });
    return dir;
  }

  /** The node, supervised: restarted with a backoff when it dies, given up on after too many exits (src/runtime/supervisor.ts). */
  private async startIndexer(db: PgConnection, chain: ChainSource, schema: string, fingerprint: string): Promise<void> {
    const log = this.log.child('node');
    const projectDir = this.project(chain);
    const { workers: catchUpWorkers, catchUpBlocks } = this.config.node;
    const headWorkers = this.config.node.headWorkers || catchUpWorkers;
    const indexed = (await this.withPool(db, (pool) => readStoredIndex(pool, schema)))?.indexedHeight;
    const tip = await chain.tip().catch(() => undefined); // unknown: the head's flags, no restart
    // false while catching up; from the head switch on, every start (a restart after a crash too) uses the head's flags
    let atHead = headWorkers === catchUpWorkers || tip === undefined || startsAtHead({ indexed, tip, catchUpBlocks });
    let current: SubqlNode | undefined;
    // a broken chain of proofs fails every block from there on: said once, and with the give-up
    let proofBroken: string | undefined;
    const onLog = (line: string) => {
      forwardNodeLine(line, log);
      const broken = proofChainBroken(line);
      if (broken && proofBroken === undefined) {
        proofBroken = broken;
        log.error(`${broken}; the node fails this block at every restart until that is fixed`);
      }
    };
    const supervisor = new Supervisor({
      name: 'the SubQuery node',
      ...SUPERVISOR_DEFAULTS,
      log,
      start: async (onExit) => {
        const started = Date.now();
        const workers = atHead ? headWorkers : catchUpWorkers;
        const node = await startNode({
          dbEnv: subqlDbEnv(db),
          endpoint: chain.endpoint,
          schema,
          projectDir,
          port: await freePort(),
          batchSize: this.config.node.batchSize,
          workers,
          // --subscription: NOTIFY triggers on the entity tables, the feed of /graphql's subscriptions
          extraArgs: ['--output-fmt=json', ...(this.config.graphql.subscriptions ? ['--subscription'] : [])],
          ownProcessGroup: true,
          onLog,
          onUnexpectedExit: (code, signal) => onExit(`code ${code}, signal ${signal}`),
        });
        log.info('subql-node-cosmos running', {
          pid: node.pid,
          schema,
          batch_size: this.config.node.batchSize,
          workers,
          at_head: atHead,
          ms: Date.now() - started,
        });
        current = node;
        return node;
      },
      onRestart: () => this.metrics.countRestart('subql-node'),
      onGiveUp: (message) =>
        this.onFatal(
          proofBroken
            ? `${message}: ${proofBroken}`
            : `${message}; its last lines are above (LOG_LEVEL=debug shows all)`,
        ),
    });
    await supervisor.start();
    this.nodeSupervisor = supervisor;
    await this.own('subql node', () => supervisor.stop());
    if (!atHead) {
      // caught up: once more with the head's flags (src/runtime/head-switch.ts)
      const within = switchWithin(catchUpBlocks);
      log.info(
        `catching up with --workers=${catchUpWorkers}; restarting with --workers=${headWorkers} within ${within} blocks of the tip`,
        {
          indexed_height: indexed ?? null,
        },
      );
      const head = watchForHead({
        withinBlocks: within,
        lag: async () => {
          const h = await current?.lastProcessedHeight();
          return h === undefined || h < 0 ? undefined : (await chain.tip()) - h;
        },
        onHead: async (lag) => {
          atHead = true;
          const replaced = await supervisor.replace(
            `caught up to ${lag} blocks behind the chain's tip (at most ${within}): --workers=${headWorkers} from here`,
          );
          if (!replaced) log.warn('the node was not restarted with its head flags', { state: supervisor.state });
        },
      });
      await this.own('head switch', async () => head.stop());
    }
    // the node creates _metadata before it serves /health: record what this index is built with
    await this.withPool(db, (pool) => recordFingerprint(pool, schema, fingerprint)).then(
      (recorded) => recorded || log.warn('the project fingerprint was not recorded (no _metadata yet)', { schema }),
    );
  }

  /** The chain-vs-store checks, after the node (so they stop before it). */
  private async startReconciler(db: PgConnection, chain: ChainSource): Promise<void> {
    const pool = new Pool({ connectionString: db.url, max: 2, options: '-c statement_timeout=60000' });
    pool.on('error', () => undefined);
    const reconciler = new Reconciler({
      pool,
      schema: this.schema,
      rpcUrl: chain.endpoint,
      settings: this.config.reconciler,
      log: this.log.child('reconciler'),
      onPass: (o) => this.metrics.observeReconcilerPass(o),
    });
    reconciler.start();
    await this.own('reconciler', async () => {
      await reconciler.stop();
      await pool.end();
    });
  }

  /** /api: mounted at once (503 until migrated), then the schema, the devnet documents and the actors. */
  private async startAppServices(db: PgConnection, chain: ChainSource): Promise<void> {
    const log = this.log.child('app');
    const { services, close } = createAppServices({
      databaseUrl: db.url,
      settings: this.config.app,
      hrp: this.config.hrp,
      gasDenom: this.config.gasDenom,
      stableDenom: this.config.stableDenom,
      indexerSchema: this.schema,
      chain: { rpcUrl: chain.endpoint, chainId: chain.chainId },
      devnetSeed: chain.devnetSeed,
      devnetLiveFrom: chain.devnetLiveFrom,
      devnetPooledAssets: chain.devnetPooledAssets,
      log,
      intentObserver: this.metrics,
      apiKeys: this.config.fairShare.keys,
      webhookObserver: this.metrics,
    });
    this.appServices = services;
    this.api.set(services.router);
    await this.own('app services', close);
    await services.start();
    log.info('app services running', {
      schema: this.config.app.schema,
      actors: services.readiness().actors.map((a) => `${a.role} ${a.address}`),
    });
  }

  /** /ready and the store's readiness from the serving schema; replaces the previous watcher after its first poll. */
  private async watch(db: PgConnection, chain: ChainSource): Promise<void> {
    const pool = new Pool({ connectionString: db.url, max: 2, options: '-c statement_timeout=5000' });
    pool.on('error', () => undefined);
    const watcher = new IndexWatcher({
      pool,
      schema: this.schema,
      chainTip: chain.tip,
      maxLagBlocks: this.config.readyMaxLagBlocks,
      progressIntervalMs: this.config.progressIntervalMs,
      metrics: this.metrics,
      log: this.log.child('index'),
      onSchemaReady: () => {
        void this.enableGraphql(db);
        if (this.reindex) this.announceServing();
      },
      onFirstReady: () => this.announceWhenReady(),
      quiet: () => this.reindex !== undefined, // frozen: the reindex watcher reports progress
    });
    await watcher.start();
    this.watcher = watcher;
    void this.own('index watcher', async () => {
      watcher.stop();
      await pool.end();
    }).then(
      (release) => (this.releaseWatcher = release),
      () => undefined,
    );
  }

  /** /graphql on the serving schema, once per schema (a reindex's switch mounts it on the new one first). */
  private enableGraphql(db: PgConnection): Promise<void> {
    const schema = this.schema;
    if (this.graphqlSchema === schema) return Promise.resolve();
    this.graphqlSchema = schema;
    const log = this.log.child('http');
    return createGraphqlService(
      db,
      schema,
      (e) =>
        log.warn('GraphQL JSON fields (eventsJson, msgsJson…) not created; the string fields still answer', {
          error: e.message,
        }),
      this.config.graphql,
      { fair: this.fair, dbWaitMs: this.config.dbWaitMs },
    ).then(
      (service) =>
        this.own('graphql', () => service.close()).then(
          (release) => {
            const previous = { release: this.releaseGraphql, handler: this.graphqlHandler };
            this.graphql.set(service.handler);
            this.graphqlUpgrades.set(service.upgrade);
            this.graphqlHandler = service.handler;
            this.releaseGraphql = release;
            if (previous.handler)
              void this.graphql.drained(previous.handler, SWITCH_DRAIN_MS).then(() => previous.release?.());
            log.info(`GraphQL on ${this.baseUrl()}/graphql`, { schema });
          },
          () => undefined, // shutting down: closed already
        ),
      (e: unknown) => log.error('GraphQL could not start', { error: e instanceof Error ? e.message : String(e) }),
    );
  }

  /**
   * The ready banner, printed whatever LOG_LEVEL is, once /ready answers 200 (not before: the
   * index may be within reach of the chain while the app services migrate, or a reindex runs).
   */
  private announceWhenReady(): void {
    if (this.announced || this.stopRequested) return;
    clearTimeout(this.announceTimer);
    const r = this.readiness();
    if (r.ready) {
      this.announced = true;
      return this.banner(`ready after ${this.elapsed()} s`, r);
    }
    if (!this.reindex && !this.servingAnnounced) {
      this.servingAnnounced = true;
      this.log.notice(`serving after ${this.elapsed()} s; not ready yet: ${r.reasons.join('; ')}`);
    }
    this.announceTimer = setTimeout(() => this.announceWhenReady(), 250);
    this.announceTimer.unref();
  }

  /** While a reindex runs: where the old index serves, frozen, and that the ready banner follows the switch. */
  private announceServing(): void {
    if (this.servingAnnounced) return;
    this.servingAnnounced = true;
    const r = this.readiness();
    this.banner(
      `serving after ${this.elapsed()} s from ${this.schema}, frozen at height ${r.indexed_height ?? 0} while the changed project is reindexed ` +
        `into ${r.reindex?.into}; not ready (/ready 503) until the switch, the ready banner follows it`,
      r,
    );
  }

  /** Seconds since the process started (ts-node's load included). */
  private elapsed(): string {
    return ((Date.now() - this.startedAt) / 1000).toFixed(1);
  }

  private banner(headline: string, r: Readiness): void {
    const base = this.baseUrl();
    this.log.notice(headline, { indexed_height: r.indexed_height, chain_height: r.chain_height });
    for (const [what, where] of [
      ['explorer', `${base}/`],
      ['REST API', `${base}/v1/status`],
      ['GraphQL', `${base}/graphql`],
      ['app services', `${base}/api/openapi.yaml`],
      ['health', `${base}/health, ${base}/ready, ${base}/metrics`],
      ['store', this.storeLine()],
      ...(this.chainRpc ? [['chain RPC', this.chainRpc]] : []),
    ])
      this.log.notice(`  ${what.padEnd(12)} ${where}`);
  }

  /** How far a reindex is, while one runs. */
  reindexProgress(): ReindexProgress | undefined {
    const r = this.reindex;
    return r && reindexProgress(r.serving, r.into, r.watcher.readiness(), r.watcher.rate());
  }

  readiness(): Readiness {
    if (this.stopRequested)
      return {
        ready: false,
        reasons: ['shutting down'],
        indexed_height: null,
        chain_height: null,
        lag_blocks: null,
        max_lag_blocks: this.config.readyMaxLagBlocks,
      };
    const watched = this.watcher?.readiness() ?? {
      ready: false,
      reasons: ['starting'],
      indexed_height: null,
      chain_height: null,
      lag_blocks: null,
      max_lag_blocks: this.config.readyMaxLagBlocks,
    };
    // while the node restarts the API serves the last committed state, but is not ready
    const nodeDown = this.nodeSupervisor?.notRunningReason();
    let index = nodeDown ? { ...watched, ready: false, reasons: [...watched.reasons, nodeDown] } : watched;
    const reindex = this.reindexProgress();
    if (reindex) index = withReindex(index, reindex);
    return withAppServices(
      index,
      this.appServices?.readiness() ?? { ready: false, reasons: ['app services: starting'], actors: [] },
    );
  }

  // ------------------------------------------------------------------ stop

  get stopping(): boolean {
    return this.stopRequested;
  }

  /** Stops every part in reverse start order (HTTP first). Safe to call more than once. */
  stop(): Promise<void> {
    this.stopRequested = true;
    clearTimeout(this.announceTimer);
    this.teardown ??= this.closeAll();
    return this.teardown;
  }

  /** After a start that was still running when stop() began: stops parts it registered since. */
  async stopLateParts(): Promise<void> {
    await this.stop();
    await this.closeParts();
  }

  private async closeAll(): Promise<void> {
    removeRunningStart(this.config.dataDir);
    await this.closeHttp();
    await this.closeParts();
  }

  private async closeHttp(): Promise<void> {
    const server = this.server;
    if (!server) return;
    const closed = closeServer(server);
    this.upgrades?.destroyAll();
    await closed;
  }

  private async closeParts(): Promise<void> {
    for (let part = this.closers.pop(); part; part = this.closers.pop()) {
      const started = Date.now();
      try {
        await part.close();
        this.log.info(`stopped ${part.name}`, { ms: Date.now() - started });
      } catch (e) {
        this.log.warn(`stopping ${part.name} failed`, { error: e });
      }
    }
  }
}
