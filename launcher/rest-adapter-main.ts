/**
 * rest-adapter entry: `ts-node --transpile-only launcher/rest-adapter-main.ts`.
 * Configuration from the environment (see config.ts and docs/rest-adapter.md). Beside /v1 it
 * serves the explorer page at `/` when explorer/dist is built (the image builds it), so a browser
 * reads /v1 from the page's own origin (docs/explorer.md, "Compose").
 */
import express from 'express';
import { Pool } from 'pg';
import { isSvcError } from '../src/lib/errors';
import { createRestApp } from '../rest-adapter/app';
import { loadRestConfig, RestConfig } from '../rest-adapter/config';
import { escapeIdent } from '../src/store';
import { explorerHandler } from '../src/runtime/explorer';
import { closeServer } from '../src/http/close-server';

function configOrExit(): RestConfig {
  try {
    return loadRestConfig(process.env);
  } catch (e) {
    console.error(`rest-adapter: invalid configuration: ${isSvcError(e) ? e.message : String(e)}`);
    process.exit(2);
  }
}

/** Warns (does not fail) when the node has not created the schema yet: it may still be starting. */
async function checkStore(pool: Pool, schema: string): Promise<void> {
  try {
    const r = await pool.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [
      `${escapeIdent(schema)}._metadata`,
    ]);
    if (!r.rows[0]?.t)
      console.warn(
        `rest-adapter: schema "${schema}" has no _metadata table yet (is the SubQuery node running with --db-schema=${schema}?)`,
      );
  } catch (e) {
    console.warn(`rest-adapter: database not reachable yet: ${(e as Error).message}`);
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  const pool = new Pool(config.database);
  pool.on('error', (e) => console.error('rest-adapter: idle database connection failed', e));
  await checkStore(pool, config.schema);
  const rest = createRestApp({
    pool,
    schema: config.schema,
    hrp: config.hrp,
    gasDenom: config.gasDenom,
    statementTimeoutMs: config.statementTimeoutMs,
    dbWaitMs: config.dbWaitMs,
    responseCache: config.responseCache,
    renderCache: config.renderCache,
    stream: config.stream,
    trustProxy: config.trustProxy,
    fairShare: config.fairShare,
  });
  // the page's files ahead of /v1 (outside its per-client budget, as on npm start's server); any other path is the API's
  const app = express();
  app.disable('x-powered-by');
  app.use(explorerHandler(), rest);
  const server = app.listen(config.port, config.host, () =>
    console.log(`rest-adapter: listening on ${config.host}:${config.port} (schema ${config.schema})`),
  );
  server.on('error', (e) => {
    console.error(`rest-adapter: cannot listen on ${config.host}:${config.port}: ${e.message}`);
    process.exit(1);
  });
  server.keepAliveTimeout = 65_000; // longer than common load-balancer idle timeouts
  const stop = () => {
    void closeServer(server).finally(() => void pool.end().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
