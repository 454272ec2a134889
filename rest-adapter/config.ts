/**
 * Configuration of the rest-adapter process, from the environment, validated at start: a bad
 * value stops the process with a ConfigError naming the variable. Its settings are one table
 * (REST_SETTINGS, src/lib/settings.ts); the caches' and the stream's rows are also npm start's
 * (src/runtime/config.ts). docs/rest-adapter.md has the table (tests/unit/runtime/settings-docs.test.ts).
 * Beside them: DATABASE_URL or the node's DB_HOST DB_PORT DB_USER DB_PASS DB_DATABASE, DB_SCHEMA,
 * TRUST_PROXY (src/http/trust-proxy.ts), the fair-share settings (src/http/fair-share-settings.ts) and
 * SVC_HRP, SVC_GAS_DENOM (src/lib/config.ts).
 */
import type { PoolConfig } from 'pg';
import { ConfigError } from '../src/lib/errors';
import { envValue, integer, readSetting, readSettings, variablesOf, type Env } from '../src/lib/settings';
import { loadChainConfig } from '../src/lib/config';
import type { FairShareSettings } from '../src/http/fair-share';
import { dbWaitFromEnv, fairShareFromEnv } from '../src/http/fair-share-settings';
import { trustProxyFromEnv, type TrustProxy } from '../src/http/trust-proxy';
import {
  DEFAULT_RENDER_CACHE,
  DEFAULT_RESPONSE_CACHE,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  STORE_CONNECT_TIMEOUT_MS,
} from './defaults';
import type { ResponseCacheOptions } from './http/response-cache';
import type { RenderCacheOptions } from './presenters/render-cache';
import { DEFAULT_STREAM_OPTIONS, type StreamOptions } from './stream/options';

export interface RestConfig {
  port: number;
  host: string;
  database: PoolConfig;
  schema: string;
  statementTimeoutMs: number;
  /** DB_WAIT_MS: how long a request waits for a store connection before a 503 */
  dbWaitMs: number;
  responseCache: ResponseCacheOptions | false;
  renderCache: RenderCacheOptions | false;
  stream: StreamOptions;
  trustProxy: TrustProxy;
  fairShare: FairShareSettings;
  hrp: string;
  gasDenom: string;
}

const MIB = 1024 * 1024;
/** connections of the API's pool: enough to keep PostgreSQL's cores busy, not one per client (docs/rest-adapter.md, "Load while indexing") */
export const DEFAULT_POOL_MAX = 10;

const S = DEFAULT_STREAM_OPTIONS;

export const REST_SETTINGS = {
  port: integer('PORT', 3001, 1, 65535, 'listen port'),
  poolMax: integer(
    'DB_POOL_MAX',
    DEFAULT_POOL_MAX,
    1,
    1000,
    `connections; size to the database server's cores, not to the clients ("Load while indexing")`,
  ),
  statementTimeoutMs: integer(
    'STATEMENT_TIMEOUT_MS',
    DEFAULT_STATEMENT_TIMEOUT_MS,
    0,
    3_600_000,
    'per statement; `0` = none',
  ),
  responseCache: {
    mb: integer(
      'RESPONSE_CACHE_MB',
      DEFAULT_RESPONSE_CACHE.maxBytes / MIB,
      0,
      65_536,
      '`/v1` answers kept per indexed height (docs/rest-adapter.md, "Response cache"); `0` turns the cache off',
    ),
    pollMs: integer(
      'RESPONSE_CACHE_POLL_MS',
      DEFAULT_RESPONSE_CACHE.pollMs,
      10,
      60_000,
      'how often the `/v1` app reads the indexed height: the most a kept answer can be behind the store',
    ),
  },
  renderCacheMb: integer(
    'RENDER_CACHE_MB',
    DEFAULT_RENDER_CACHE ? DEFAULT_RENDER_CACHE.maxBytes / MIB : 0,
    0,
    65_536,
    'rendered JSON of committed txs kept by the `/v1` app and reused by every answer that includes them (docs/rest-adapter.md, "Cold answers"); `0` turns it off',
  ),
  stream: {
    maxConnections: integer(
      'STREAM_MAX_CONNECTIONS',
      S.maxConnections,
      1,
      1_000_000,
      'open `/v1/stream` connections in total; beyond it 429 (docs/rest-adapter.md, "Live push")',
    ),
    maxPerClient: integer(
      'STREAM_MAX_PER_CLIENT',
      S.maxPerClient,
      1,
      1_000_000,
      'open `/v1/stream` connections per client address (by `TRUST_PROXY`); beyond it 429',
    ),
    heartbeatMs: integer(
      'STREAM_HEARTBEAT_MS',
      S.heartbeatMs,
      100,
      3_600_000,
      'a `:` heartbeat comment after this long without a byte on a stream',
    ),
    retryMs: integer(
      'STREAM_RETRY_MS',
      S.retryMs,
      100,
      3_600_000,
      "the stream's `retry:` hint (the client's reconnect delay)",
    ),
    maxBufferBytes: integer(
      'STREAM_MAX_BUFFER_BYTES',
      S.maxBufferBytes,
      1024,
      1024 * MIB,
      'unsent bytes a stream may still hold when new events come; above it the client gets `event: close` (slow_client) and is disconnected',
    ),
    closeGraceMs: integer(
      'STREAM_CLOSE_GRACE_MS',
      S.closeGraceMs,
      100,
      3_600_000,
      'how long a closed stream (slow_client, shutting_down) may take to read its final `close` event before its socket is destroyed',
    ),
    replayMaxBlocks: integer(
      'STREAM_REPLAY_MAX_BLOCKS',
      S.replayMaxBlocks,
      1,
      100_000_000,
      'how far behind the indexed height a `Last-Event-ID` may be; older is 410 cursor_expired',
    ),
  },
} as const;

/** The rows npm start shares with this process, and their variables as its list shows them. */
export const SHARED_REST_SETTINGS = {
  responseCache: REST_SETTINGS.responseCache,
  renderCacheMb: REST_SETTINGS.renderCacheMb,
  stream: REST_SETTINGS.stream,
} as const;
export const SHARED_REST_VARIABLES: Record<string, string> = variablesOf(SHARED_REST_SETTINGS);

function databaseUrl(env: Env): PoolConfig | undefined {
  const url = envValue(env, 'DATABASE_URL');
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

export const DB_PORT = integer('DB_PORT', 5432, 1, 65535, 'as for the SubQuery node');

function databaseParts(env: Env): PoolConfig {
  const host = envValue(env, 'DB_HOST');
  if (host === undefined)
    throw new ConfigError(
      'DB_HOST',
      'set DATABASE_URL, or DB_HOST (with DB_PORT, DB_USER, DB_PASS, DB_DATABASE) as for the SubQuery node',
    );
  return {
    host,
    port: readSetting(env, DB_PORT),
    user: envValue(env, 'DB_USER') ?? 'postgres',
    password: env.DB_PASS ?? '',
    database: envValue(env, 'DB_DATABASE') ?? 'postgres',
  };
}

function schemaName(env: Env): string {
  const schema = envValue(env, 'DB_SCHEMA') ?? 'svc';
  if (schema.length > 63) throw new ConfigError('DB_SCHEMA', 'must be at most 63 characters (a PostgreSQL identifier)');
  return schema;
}

/** RESPONSE_CACHE_MB and RESPONSE_CACHE_POLL_MS (also read by npm start's launcher). */
export function responseCacheFromEnv(env: Env): ResponseCacheOptions | false {
  const { mb, pollMs } = readSettings(env, REST_SETTINGS.responseCache);
  return mb === 0 ? false : { maxBytes: mb * MIB, pollMs };
}

/** RENDER_CACHE_MB (also read by npm start's launcher). */
export function renderCacheFromEnv(env: Env): RenderCacheOptions | false {
  const mb = readSetting(env, REST_SETTINGS.renderCacheMb);
  return mb === 0 ? false : { maxBytes: mb * MIB };
}

/** The STREAM_* settings of GET /v1/stream (also read by npm start's launcher). */
export function streamFromEnv(env: Env): StreamOptions {
  return readSettings(env, REST_SETTINGS.stream);
}

export function loadRestConfig(env: Env): RestConfig {
  const chain = loadChainConfig(env);
  const database = databaseUrl(env) ?? databaseParts(env);
  return {
    port: readSetting(env, REST_SETTINGS.port),
    host: envValue(env, 'HOST') ?? '0.0.0.0',
    database: {
      ...database,
      max: readSetting(env, REST_SETTINGS.poolMax),
      // a new connection's setup; a request waits dbWaitMs for one, then is answered 503 (db/sql.ts)
      connectionTimeoutMillis: STORE_CONNECT_TIMEOUT_MS,
    },
    schema: schemaName(env),
    statementTimeoutMs: readSetting(env, REST_SETTINGS.statementTimeoutMs),
    dbWaitMs: dbWaitFromEnv(env),
    responseCache: responseCacheFromEnv(env),
    renderCache: renderCacheFromEnv(env),
    stream: streamFromEnv(env),
    trustProxy: trustProxyFromEnv(env),
    fairShare: fairShareFromEnv(env),
    hrp: chain.hrp,
    gasDenom: chain.gasDenom,
  };
}
