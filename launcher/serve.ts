/**
 * The app-services server for containers (docker-compose.yml `app-services`): /api/* (the
 * launchpad, lender and desk: app-services/) plus /health, /ready and /metrics, over the
 * store the node writes; nothing embedded, no node. Run as many replicas as needed: each
 * key is acted for by one process at a time (its actor lock), the others serve reads.
 *
 *   DATABASE_URL (or DB_HOST/DB_PORT/DB_USER/DB_PASS/DB_DATABASE), DB_SCHEMA, PORT (3002),
 *   HOST (0.0.0.0), CHAIN_RPC_URL (where the services act; without it they serve reads only),
 *   CHAIN_ID, LENDER_KEY, DESK_KEY, APP_* (docs/running.md), READY_MAX_LAG_BLOCKS, LOG_FORMAT, LOG_LEVEL
 *
 * SIGTERM: stop accepting requests, stop the services' workers and release their locks,
 * then close the pools.
 */
import express from 'express';
import { Pool } from 'pg';
import { fetchChainStatus } from './chain';
import { loadServeConfig, type ServeConfig } from '../src/runtime/config';
import { createAppServices } from '../src/runtime/app-services';
import { lastResort, observe, operations } from '../src/runtime/http';
import { createLogger } from '../src/runtime/logger';
import { createMetrics } from '../src/runtime/metrics';
import { IndexWatcher, withAppServices } from '../src/runtime/readiness';
import { EXIT_CODES } from './start';
import { applyTrustProxy } from '../src/http/trust-proxy';
import { closeServer } from '../src/http/close-server';
import { forgetKeyVariables } from '../app-services/keys';

function configOrExit(): ServeConfig {
  try {
    const config = loadServeConfig(process.env, { stdoutIsTTY: Boolean(process.stdout.isTTY) });
    forgetKeyVariables(process.env); // read once; no child inherits a key
    return config;
  } catch (e) {
    process.stderr.write(`app-services: invalid configuration: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(EXIT_CODES.config);
  }
}

export function main(): void {
  const config = configOrExit();
  const log = createLogger({ format: config.log.format, level: config.log.level }, 'app-services');
  const metrics = createMetrics();
  const pool = new Pool({ connectionString: config.databaseUrl, max: 2, options: '-c statement_timeout=5000' });
  pool.on('error', () => undefined);
  const rpc = config.chainRpcUrl;
  const watcher = new IndexWatcher({
    pool,
    schema: config.schema,
    // without a chain endpoint, readiness compares with the tip the node last saw (_metadata.targetHeight)
    chainTip: async () => (rpc ? (await fetchChainStatus(rpc)).height : 0),
    maxLagBlocks: config.readyMaxLagBlocks,
    progressIntervalMs: 60_000,
    metrics,
    log,
  });
  void watcher.start();
  const { services, close: closeServices } = createAppServices({
    databaseUrl: config.databaseUrl,
    settings: config.app,
    hrp: config.hrp,
    gasDenom: config.gasDenom,
    stableDenom: config.stableDenom,
    indexerSchema: config.schema,
    chain: rpc ? { rpcUrl: rpc, chainId: config.chainId } : undefined,
    log: log.child('app'),
    intentObserver: metrics,
    apiKeys: config.apiKeys,
    webhookObserver: metrics,
  });
  const readiness = () => withAppServices(watcher.readiness(), services.readiness());
  const app = express();
  app.disable('x-powered-by');
  applyTrustProxy(app, config.trustProxy);
  app.use(observe({ metrics, log }));
  operations(app, { readiness, metrics, startedAt: Date.now() });
  app.use('/api', services.router);
  app.use((_req, res) => void res.status(404).json({ error: 'not found', code: 'not_found' }));
  app.use(lastResort(log));
  const server = app.listen(config.port, config.host, () =>
    log.info(`listening on ${config.host}:${config.port}`, { schema: config.schema }),
  );
  server.keepAliveTimeout = 65_000;
  services.start().catch((e) => {
    log.error(`the app services cannot start: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(EXIT_CODES.failure);
  });
  const stop = () => {
    watcher.stop();
    void closeServer(server)
      .then(closeServices)
      .finally(() => void pool.end().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) main();
