/**
 * The reconciler as its own process (docker-compose.yml `reconciler`): beside the node, over
 * the store it writes and the chain it reads; `npm start` runs the same Reconciler in-process.
 *
 *   DATABASE_URL (or DB_HOST/DB_PORT/DB_USER/DB_PASS/DB_DATABASE), DB_SCHEMA, CHAIN_RPC_URL
 *   (required), RECONCILE_* (docs/running.md), LOG_FORMAT, LOG_LEVEL
 *
 * Run one per store: two would each record their passes. SIGTERM waits for a pass under way
 * (it records all of its rows or none), then exits.
 */
import { Pool } from 'pg';
import { Reconciler } from '../reconciler/reconciler';
import { loadServeConfig, type ServeConfig } from '../src/runtime/config';
import { createLogger } from '../src/runtime/logger';
import { EXIT_CODES } from './start';

function configOrExit(): ServeConfig & { chainRpcUrl: string } {
  try {
    const config = loadServeConfig(process.env, { stdoutIsTTY: Boolean(process.stdout.isTTY) });
    if (!config.chainRpcUrl) throw new Error('CHAIN_RPC_URL: required (the chain the store is checked against)');
    return config as ServeConfig & { chainRpcUrl: string };
  } catch (e) {
    process.stderr.write(`reconciler: invalid configuration: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(EXIT_CODES.config);
  }
}

export function main(): void {
  const config = configOrExit();
  const log = createLogger({ format: config.log.format, level: config.log.level }, 'reconciler');
  const pool = new Pool({ connectionString: config.databaseUrl, max: 2, options: '-c statement_timeout=60000' });
  pool.on('error', () => undefined);
  const reconciler = new Reconciler({
    pool,
    schema: config.schema,
    rpcUrl: config.chainRpcUrl,
    settings: config.reconciler,
    log,
  });
  reconciler.start();
  const stop = () => {
    void reconciler.stop().finally(() => void pool.end().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 30_000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) main();
