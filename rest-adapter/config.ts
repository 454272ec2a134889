/**
 * Configuration of the rest-adapter process, from the environment, validated at start:
 * a bad value stops the process with a ConfigError naming the variable.
 *
 *   PORT                  listen port (default 3001)
 *   HOST                  listen address (default 0.0.0.0)
 *   DATABASE_URL          postgres://user:pass@host:port/db, or the node's variables
 *   DB_HOST DB_PORT DB_USER DB_PASS DB_DATABASE   (defaults: -, 5432, postgres, '', postgres)
 *   DB_SCHEMA             the node's --db-schema (default svc)
 *   DB_POOL_MAX           connections (default 10)
 *   STATEMENT_TIMEOUT_MS  per statement (default 5000; 0 = none)
 *   RESPONSE_CACHE_MB     answers kept per indexed height (default 64; 0 = no cache)
 *   RESPONSE_CACHE_POLL_MS  how often the indexed height is read (default 200): the most a
 *                         kept answer can be behind the store
 *   RENDER_CACHE_MB       rendered JSON of committed txs, reused by every answer (default 64; 0 = none)
 *   STREAM_MAX_CONNECTIONS  open /v1/stream connections in total (default 2000)
 *   STREAM_MAX_PER_CLIENT   open streams per client address (default 50)
 *   STREAM_HEARTBEAT_MS     a heartbeat comment after this long without a byte (default 15000)
 *   STREAM_RETRY_MS         the `retry:` reconnect hint (default 2000)
 *   STREAM_MAX_BUFFER_BYTES unsent bytes per stream before the client is closed as slow (default 1 MiB)
 *   STREAM_REPLAY_MAX_BLOCKS  how far behind the indexed height a resume point may be (default 10000)
 *   TRUST_PROXY           which proxies' X-Forwarded-For entries name the client (default false;
 *                         src/http/trust-proxy.ts; APP_TRUST_PROXY is read as an alias)
 *   RATE_LIMIT_PER_S, RATE_LIMIT_BURST, API_KEYS_FILE, LOAD_SHED_DELAY_MS, DB_WAIT_MS
 *                         each client's budget, API keys, load shedding and the wait for a store
 *                         connection (src/http/fair-share-settings.ts)
 *   SVC_HRP, SVC_GAS_DENOM  chain config (src/lib/config.ts)
 */
import type { PoolConfig } from 'pg';
import { ConfigError } from '../src/lib/errors';
import { loadChainConfig } from '../src/lib/config';
import type { FairShareSettings } from '../src/http/fair-share';
import { dbWaitFromEnv, fairShareFromEnv } from '../src/http/fair-share-settings';
import { trustProxyFromEnv, type TrustProxy } from '../src/http/trust-proxy';
import { DEFAULT_RENDER_CACHE, DEFAULT_RESPONSE_CACHE, DEFAULT_STATEMENT_TIMEOUT_MS } from './app';
import type { ResponseCacheOptions } from './http/response-cache';
import type { RenderCacheOptions } from './presenters/render-cache';
import { DEFAULT_STREAM_OPTIONS, type StreamOptions } from './stream/options';

export interface RestConfig {
  port: number;
  host: string;
  database: PoolConfig;
  schema: string;
  statementTimeoutMs: number;
  responseCache: ResponseCacheOptions | false;
  renderCache: RenderCacheOptions | false;
  stream: StreamOptions;
  trustProxy: TrustProxy;
  fairShare: FairShareSettings;
  hrp: string;
  gasDenom: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_PORT = 3001;
/** connections of the API's pool: enough to keep PostgreSQL's cores busy, not one per client (docs/rest-adapter.md, "Load while indexing") */
export const DEFAULT_POOL_MAX = 10;

function read(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const n = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max))
    throw new ConfigError(name, `must be an integer between ${min} and ${max}, got "${raw}"`);
  return n;
}

function databaseUrl(env: Env): PoolConfig | undefined {
  const url = read(env, 'DATABASE_URL');
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('DATABASE_URL', 'is not a URL (expected postgres://user:password@host:port/database)');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ConfigError('DATABASE_URL', `must use the postgres:// scheme, got "${parsed.protocol}"`);
  }
  return { connectionString: url };
}

function databaseParts(env: Env): PoolConfig {
  const host = read(env, 'DB_HOST');
  if (host === undefined)
    throw new ConfigError(
      'DB_HOST',
      'set DATABASE_URL, or DB_HOST (with DB_PORT, DB_USER, DB_PASS, DB_DATABASE) as for the SubQuery node',
    );
  return {
    host,
    port: integer(env, 'DB_PORT', 5432, 1, 65535),
    user: read(env, 'DB_USER') ?? 'postgres',
    password: env.DB_PASS ?? '',
    database: read(env, 'DB_DATABASE') ?? 'postgres',
  };
}

function schemaName(env: Env): string {
  const schema = read(env, 'DB_SCHEMA') ?? 'svc';
  if (schema.length > 63) throw new ConfigError('DB_SCHEMA', 'must be at most 63 characters (a PostgreSQL identifier)');
  return schema;
}

const MIB = 1024 * 1024;

/** RESPONSE_CACHE_MB and RESPONSE_CACHE_POLL_MS (also read by npm start's launcher). */
export function responseCacheFromEnv(env: Env): ResponseCacheOptions | false {
  const mb = integer(env, 'RESPONSE_CACHE_MB', DEFAULT_RESPONSE_CACHE.maxBytes / MIB, 0, 65_536);
  const pollMs = integer(env, 'RESPONSE_CACHE_POLL_MS', DEFAULT_RESPONSE_CACHE.pollMs, 10, 60_000);
  return mb === 0 ? false : { maxBytes: mb * MIB, pollMs };
}

/** RENDER_CACHE_MB (also read by npm start's launcher). */
export function renderCacheFromEnv(env: Env): RenderCacheOptions | false {
  const fallback = DEFAULT_RENDER_CACHE ? DEFAULT_RENDER_CACHE.maxBytes / MIB : 0;
  const mb = integer(env, 'RENDER_CACHE_MB', fallback, 0, 65_536);
  return mb === 0 ? false : { maxBytes: mb * MIB };
}

/** The STREAM_* settings of GET /v1/stream (also read by npm start's launcher). */
export function streamFromEnv(env: Env): StreamOptions {
  const d = DEFAULT_STREAM_OPTIONS;
  return {
    maxConnections: integer(env, 'STREAM_MAX_CONNECTIONS', d.maxConnections, 1, 1_000_000),
    maxPerClient: integer(env, 'STREAM_MAX_PER_CLIENT', d.maxPerClient, 1, 1_000_000),
    heartbeatMs: integer(env, 'STREAM_HEARTBEAT_MS', d.heartbeatMs, 100, 3_600_000),
    retryMs: integer(env, 'STREAM_RETRY_MS', d.retryMs, 100, 3_600_000),
    maxBufferBytes: integer(env, 'STREAM_MAX_BUFFER_BYTES', d.maxBufferBytes, 1024, 1024 * MIB),
    replayMaxBlocks: integer(env, 'STREAM_REPLAY_MAX_BLOCKS', d.replayMaxBlocks, 1, 100_000_000),
  };
}

export function loadRestConfig(env: Env): RestConfig {
  const chain = loadChainConfig(env);
  const database = databaseUrl(env) ?? databaseParts(env);
  return {
    port: integer(env, 'PORT', DEFAULT_PORT, 1, 65535),
    host: read(env, 'HOST') ?? '0.0.0.0',
    database: {
      ...database,
      max: integer(env, 'DB_POOL_MAX', DEFAULT_POOL_MAX, 1, 1000),
      // a request that cannot get a connection within DB_WAIT_MS is answered 503 (db/sql.ts)
      connectionTimeoutMillis: dbWaitFromEnv(env),
    },
    schema: schemaName(env),
    statementTimeoutMs: integer(env, 'STATEMENT_TIMEOUT_MS', DEFAULT_STATEMENT_TIMEOUT_MS, 0, 3_600_000),
    responseCache: responseCacheFromEnv(env),
    renderCache: renderCacheFromEnv(env),
    stream: streamFromEnv(env),
    trustProxy: trustProxyFromEnv(env),
    fairShare: fairShareFromEnv(env),
    hrp: chain.hrp,
    gasDenom: chain.gasDenom,
  };
}
