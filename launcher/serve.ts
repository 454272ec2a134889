/**
 * The app-services server for containers (docker-compose.yml `app-services`): /api/* plus
 * /health, /ready and /metrics, over the store the node writes; nothing embedded, no node.
 * The app services (launchpad, lender, desk: SPEC section 4) are not built yet, so /api/*
 * answers 404 JSON; their routers mount here. Stateless: run as many replicas as needed.
 *
 *   DATABASE_URL (or DB_HOST/DB_PORT/DB_USER/DB_PASS/DB_DATABASE), DB_SCHEMA, PORT (3002),
 *   HOST (0.0.0.0), CHAIN_RPC_URL (optional, for /ready), READY_MAX_LAG_BLOCKS, LOG_FORMAT, LOG_LEVEL
 */
import express from 'express';
import { Pool } from 'pg';
import { fetchChainStatus } from './chain';
import { loadServeConfig, type ServeConfig } from './config';
import { appServicesNotBuilt, lastResort, observe, operations } from './http';
import { createLogger } from './logger';
import { createMetrics } from './metrics';
import { IndexWatcher } from './readiness';
import { EXIT_CODES } from './start';

function configOrExit(): ServeConfig {
  try {
    return loadServeConfig(process.env, { stdoutIsTTY: Boolean(process.stdout.isTTY) });
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
  watcher.start();
  const app = express();
  app.disable('x-powered-by');
  app.use(observe({ metrics, log }));
  operations(app, { readiness: () => watcher.readiness(), metrics, startedAt: Date.now() });
  app.use('/api', appServicesNotBuilt);
  app.use((_req, res) => void res.status(404).json({ error: 'not found', code: 'not_found' }));
  app.use(lastResort(log));
  const server = app.listen(config.port, config.host, () => log.info(`listening on ${config.host}:${config.port}`, { schema: config.schema }));
  server.keepAliveTimeout = 65_000;
  const stop = () => {
    watcher.stop();
    server.close(() => void pool.end().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) main();
