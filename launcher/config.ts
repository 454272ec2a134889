/**
 * Configuration of `npm start`, read from the environment once and validated: a bad value
 * throws a ConfigError naming the variable (start.ts prints it and exits with code 2).
 * docs/running.md has the table; CONFIG_VARIABLES below is its source of truth.
 */
import path from 'path';
import { DEFAULT_CHAIN_CONFIG, isValidChainId, loadChainConfig } from '../src/lib/config';
import { ConfigError } from '../src/lib/errors';
import type { LogFormat, LogLevel } from './logger';
import { responseCacheFromEnv } from '../rest-adapter/config';
import type { ResponseCacheOptions } from '../rest-adapter/http/response-cache';

export type Env = Readonly<Record<string, string | undefined>>;

export interface DevnetConfig {
  seed: string;
  historyBlocks: number;
  blockMs: number;
  txsPerBlock: number;
  port: number;
}

export interface LauncherConfig {
  port: number;
  host: string;
  /** absolute; holds postgres/, devnet/ and generated files */
  dataDir: string;
  /** external PostgreSQL; undefined = embedded in <dataDir>/postgres */
  databaseUrl?: string;
  /** external chain; undefined = embedded devnet */
  chain?: { rpcUrl: string; chainId?: string };
  schema: string;
  devnet: DevnetConfig;
  readyMaxLagBlocks: number;
  progressIntervalMs: number;
  log: { format: LogFormat; level: LogLevel };
  node: { batchSize: number; workers: number };
  /** the /v1 response cache (RESPONSE_CACHE_MB, RESPONSE_CACHE_POLL_MS as for rest-adapter/server.ts) */
  responseCache: ResponseCacheOptions | false;
  /** bech32 prefix and gas denom for the /v1 app (SVC_HRP, SVC_GAS_DENOM) */
  hrp: string;
  gasDenom: string;
}

/** Every variable npm start reads, with its default as documented (docs/running.md). */
export const CONFIG_VARIABLES: Record<string, string> = {
  PORT: '3000',
  HOST: '127.0.0.1',
  DATA_DIR: '.data',
  DATABASE_URL: '(embedded PostgreSQL in DATA_DIR/postgres)',
  CHAIN_RPC_URL: '(embedded devnet)',
  CHAIN_ID: '(reported by CHAIN_RPC_URL)',
  DB_SCHEMA: 'svc',
  DEVNET_SEED: 'svc-devnet',
  DEVNET_HISTORY_BLOCKS: '200',
  DEVNET_BLOCK_MS: '1000',
  DEVNET_TXS_PER_BLOCK: '10',
  DEVNET_PORT: '26657',
  READY_MAX_LAG_BLOCKS: '10',
  PROGRESS_INTERVAL_MS: '5000',
  LOG_FORMAT: 'pretty on a terminal, json otherwise',
  LOG_LEVEL: 'info',
  NODE_BATCH_SIZE: '20',
  NODE_WORKERS: '0',
  RESPONSE_CACHE_MB: '64',
  RESPONSE_CACHE_POLL_MS: '200',
};

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];
const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];
const SCHEMA_RE = /^[a-z_][a-z0-9_]{0,62}$/;

function read(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const n = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

function url(env: Env, name: string, protocols: string[], example: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `is not a URL (expected ${example})`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(name, `must use ${protocols.map((p) => `${p}//`).join(' or ')}, got "${parsed.protocol}" (expected ${example})`);
  return raw;
}

function chainOf(env: Env): LauncherConfig['chain'] {
  const rpcUrl = url(env, 'CHAIN_RPC_URL', ['http:', 'https:'], 'http://host:26657');
  const chainId = read(env, 'CHAIN_ID');
  if (chainId !== undefined && !isValidChainId(chainId)) throw new ConfigError('CHAIN_ID', `"${chainId}" is not a chain id (1..50 printable characters)`);
  if (rpcUrl === undefined) {
    if (chainId !== undefined && chainId !== DEFAULT_CHAIN_CONFIG.chainId) {
      throw new ConfigError('CHAIN_ID', `applies with CHAIN_RPC_URL only; the embedded devnet is ${DEFAULT_CHAIN_CONFIG.chainId}`);
    }
    return undefined;
  }
  return { rpcUrl: rpcUrl.replace(/\/+$/, ''), chainId };
}

function devnetOf(env: Env): DevnetConfig {
  const seed = read(env, 'DEVNET_SEED') ?? 'svc-devnet';
  if (seed.length > 100) throw new ConfigError('DEVNET_SEED', 'must be at most 100 characters');
  return {
    seed,
    historyBlocks: integer(env, 'DEVNET_HISTORY_BLOCKS', 200, 0, 100_000),
    blockMs: integer(env, 'DEVNET_BLOCK_MS', 1000, 100, 3_600_000),
    txsPerBlock: integer(env, 'DEVNET_TXS_PER_BLOCK', 10, 0, 1000),
    port: integer(env, 'DEVNET_PORT', 26657, 0, 65535),
  };
}

function schemaOf(env: Env): string {
  const schema = read(env, 'DB_SCHEMA') ?? 'svc';
  if (!SCHEMA_RE.test(schema)) throw new ConfigError('DB_SCHEMA', `must be a lower-case PostgreSQL identifier ([a-z_][a-z0-9_]*, at most 63), got "${schema}"`);
  return schema;
}

/** Reads and validates the whole configuration (throws ConfigError naming the first bad variable). */
export function loadLauncherConfig(env: Env, opts: { stdoutIsTTY: boolean; cwd: string }): LauncherConfig {
  const chainConfig = loadChainConfig(env);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: read(env, 'HOST') ?? '127.0.0.1',
    dataDir: path.resolve(opts.cwd, read(env, 'DATA_DIR') ?? '.data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database'),
    chain: chainOf(env),
    schema: schemaOf(env),
    devnet: devnetOf(env),
    readyMaxLagBlocks: integer(env, 'READY_MAX_LAG_BLOCKS', 10, 0, 1_000_000),
    progressIntervalMs: integer(env, 'PROGRESS_INTERVAL_MS', 5000, 500, 600_000),
    log: { format: oneOf(env, 'LOG_FORMAT', LOG_FORMATS, opts.stdoutIsTTY ? 'pretty' : 'json'), level: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info') },
    node: { batchSize: integer(env, 'NODE_BATCH_SIZE', 20, 1, 1000), workers: integer(env, 'NODE_WORKERS', 0, 0, 64) },
    responseCache: responseCacheFromEnv(env),
    hrp: chainConfig.hrp,
    gasDenom: chainConfig.gasDenom,
  };
}

// ---------------------------------------------------------------- launcher/serve.ts (containers)

export interface ServeConfig {
  port: number;
  host: string;
  databaseUrl: string;
  schema: string;
  /** optional: /ready then compares with the chain's own tip, else with _metadata.targetHeight */
  chainRpcUrl?: string;
  readyMaxLagBlocks: number;
  log: { format: LogFormat; level: LogLevel };
}

/** DATABASE_URL, or the node's DB_HOST/DB_PORT/DB_USER/DB_PASS/DB_DATABASE (one compose env for both). */
function databaseUrlOf(env: Env): string {
  const direct = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database');
  if (direct) return direct;
  const host = read(env, 'DB_HOST');
  if (!host) throw new ConfigError('DATABASE_URL', 'set DATABASE_URL, or DB_HOST (with DB_PORT, DB_USER, DB_PASS, DB_DATABASE) as for the SubQuery node');
  const u = new URL('postgres://localhost');
  u.hostname = host;
  u.port = String(integer(env, 'DB_PORT', 5432, 1, 65535));
  u.username = read(env, 'DB_USER') ?? 'postgres';
  u.password = env.DB_PASS ?? '';
  u.pathname = `/${read(env, 'DB_DATABASE') ?? 'postgres'}`;
  return u.toString();
}

export function loadServeConfig(env: Env, opts: { stdoutIsTTY: boolean }): ServeConfig {
  return {
    port: integer(env, 'PORT', 3002, 0, 65535),
    host: read(env, 'HOST') ?? '0.0.0.0',
    databaseUrl: databaseUrlOf(env),
    schema: schemaOf(env),
    chainRpcUrl: url(env, 'CHAIN_RPC_URL', ['http:', 'https:'], 'http://host:26657')?.replace(/\/+$/, ''),
    readyMaxLagBlocks: integer(env, 'READY_MAX_LAG_BLOCKS', 10, 0, 1_000_000),
    log: { format: oneOf(env, 'LOG_FORMAT', LOG_FORMATS, opts.stdoutIsTTY ? 'pretty' : 'json'), level: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info') },
  };
}
