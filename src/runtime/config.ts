/**
 * Configuration of `npm start`, read from the environment once and validated: a bad value
 * throws a ConfigError naming the variable (start.ts prints it and exits with code 2).
 * docs/running.md has the table; CONFIG_VARIABLES below is its source of truth.
 */
import fs from 'fs';
import path from 'path';
import { DEFAULT_CHAIN_CONFIG, isValidChainId, loadChainConfig } from '../lib/config';
import { ConfigError } from '../lib/errors';
import { isIdentifier } from '../store';
import type { LogFormat, LogLevel } from './logger';
import { renderCacheFromEnv, responseCacheFromEnv, streamFromEnv } from '../../rest-adapter/config';
import type { ResponseCacheOptions } from '../../rest-adapter/http/response-cache';
import type { RenderCacheOptions } from '../../rest-adapter/presenters/render-cache';
import { DEFAULT_STREAM_OPTIONS, type StreamOptions } from '../../rest-adapter/stream/options';
import { APP_SERVICES_VARIABLES, type AppServicesSettings, type LenderSettings } from '../../app-services/config';
import type { MarketSettings } from '../../app-services/market/eligibility';
import {
  APP_SETTINGS as S,
  type BigintSetting,
  type DecimalSetting,
  type IntegerSetting,
  type SecondsSetting,
} from '../../app-services/settings';
import { KeySecret } from '../../app-services/keys';
import { TRUST_PROXY_ALIAS, trustProxyFromEnv, type TrustProxy } from '../http/trust-proxy';
import type { FairShareSettings } from '../http/fair-share';
import { dbWaitFromEnv, fairShareFromEnv, FAIR_SHARE_VARIABLES } from '../http/fair-share-settings';
import { RECONCILER_DEFAULTS, RECONCILER_VARIABLES, type ReconcilerSettings } from '../../reconciler/config';

export type Env = Readonly<Record<string, string | undefined>>;

export interface DevnetConfig {
  seed: string;
  historyBlocks: number;
  blockMs: number;
  txsPerBlock: number;
  port: number;
  /** heights whose state abci_query answers (older: the pruned-height error); 0 = every height. Default DEFAULT_STATE_WINDOW */
  stateWindow?: number;
  /** a snapshot every this many blocks, so a restart replays at most that many; 0 = none (replay from genesis). Default DEFAULT_SNAPSHOT_BLOCKS */
  snapshotBlocks?: number;
}

/** The reconciler checks the indexer's last processed height, a few blocks behind in live mode; 1,000 heights is ~17 minutes at 1 s. */
export const DEFAULT_STATE_WINDOW = 1000;
/** At most 500 blocks to replay on a restart (under 30 s at the replay's 16–33 blocks/s). */
export const DEFAULT_SNAPSHOT_BLOCKS = 500;

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
  /** a built SubQuery project directory to index with instead of this repository (PROJECT_DIR); not built by npm start */
  projectDir?: string;
  /** `npm start -- --reindex`: drop the node's schema and index afresh */
  reindex: boolean;
  devnet: DevnetConfig;
  readyMaxLagBlocks: number;
  progressIntervalMs: number;
  log: { format: LogFormat; level: LogLevel };
  node: { batchSize: number; workers: number };
  /** /graphql's subscriptions and websockets (GRAPHQL_*) */
  graphql: GraphqlOptions;
  /** the /v1 response cache (RESPONSE_CACHE_MB, RESPONSE_CACHE_POLL_MS as for launcher/rest-adapter-main.ts) */
  responseCache: ResponseCacheOptions | false;
  /** rendered JSON of committed txs for the /v1 app (RENDER_CACHE_MB as for launcher/rest-adapter-main.ts) */
  renderCache: RenderCacheOptions | false;
  /** GET /v1/stream's limits (STREAM_*, as for launcher/rest-adapter-main.ts) */
  stream: StreamOptions;
  /** the product's one client-address rule, for /v1, /v1/stream, /graphql and /api (TRUST_PROXY) */
  trustProxy: TrustProxy;
  /** each client's budget on /v1, /v1/stream and /graphql, API keys, load shedding (RATE_LIMIT_*, API_KEYS_FILE, LOAD_SHED_DELAY_MS) */
  fairShare: FairShareSettings;
  /** how long a request waits for a store connection before it is answered 503 (DB_WAIT_MS) */
  dbWaitMs: number;
  /** bech32 prefix and gas denom for the /v1 app (SVC_HRP, SVC_GAS_DENOM) */
  hrp: string;
  gasDenom: string;
  /** SVC_STABLE_DENOM: loans and desk trades */
  stableDenom: string;
  /** the app services under /api (APP_*, LENDER_KEY, DESK_KEY, LAUNCHPAD_*) */
  app: AppServicesSettings;
  /** the reconciler beside the node (RECONCILE_*) */
  reconciler: ReconcilerSettings;
}

export interface GraphqlOptions {
  /** subscriptions over a websocket on /graphql (GRAPHQL_SUBSCRIPTIONS; the node then runs with --subscription) */
  subscriptions: boolean;
  /** websockets open at once (GRAPHQL_WS_MAX_CONNECTIONS); beyond, an upgrade is answered 429 */
  maxWebsockets: number;
  /** nested selections a query may have (GRAPHQL_MAX_DEPTH) */
  maxDepth: number;
  /** rows a query may ask for, every connection's page size times its parents' (GRAPHQL_MAX_COST) */
  maxCost: number;
  /** per-statement limit of GraphQL's connections in ms (GRAPHQL_STATEMENT_TIMEOUT_MS) */
  statementTimeoutMs: number;
  /** only these operations are run (GRAPHQL_ALLOWLIST_FILE); undefined: any query within the limits */
  allowlistFile?: string;
}

export const GRAPHQL_DEFAULTS: GraphqlOptions = {
  subscriptions: true,
  maxWebsockets: 500,
  maxDepth: 10,
  maxCost: 10_000,
  statementTimeoutMs: 10_000,
};

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
  DEVNET_STATE_WINDOW: String(1000),
  DEVNET_SNAPSHOT_BLOCKS: String(500),
  READY_MAX_LAG_BLOCKS: '10',
  PROGRESS_INTERVAL_MS: '5000',
  LOG_FORMAT: 'pretty on a terminal, json otherwise',
  LOG_LEVEL: 'info',
  NODE_BATCH_SIZE: '100',
  NODE_WORKERS: '0',
  GRAPHQL_SUBSCRIPTIONS: String(GRAPHQL_DEFAULTS.subscriptions),
  GRAPHQL_WS_MAX_CONNECTIONS: String(GRAPHQL_DEFAULTS.maxWebsockets),
  GRAPHQL_MAX_DEPTH: String(GRAPHQL_DEFAULTS.maxDepth),
  GRAPHQL_MAX_COST: String(GRAPHQL_DEFAULTS.maxCost),
  GRAPHQL_STATEMENT_TIMEOUT_MS: String(GRAPHQL_DEFAULTS.statementTimeoutMs),
  GRAPHQL_ALLOWLIST_FILE: '(none: any query within the limits)',
  TRUST_PROXY: 'false',
  [TRUST_PROXY_ALIAS]: '(the older name of TRUST_PROXY, still read)',
  ...FAIR_SHARE_VARIABLES,
  RESPONSE_CACHE_MB: '64',
  RESPONSE_CACHE_POLL_MS: '200',
  RENDER_CACHE_MB: '64',
  STREAM_MAX_CONNECTIONS: String(DEFAULT_STREAM_OPTIONS.maxConnections),
  STREAM_MAX_PER_CLIENT: String(DEFAULT_STREAM_OPTIONS.maxPerClient),
  STREAM_HEARTBEAT_MS: String(DEFAULT_STREAM_OPTIONS.heartbeatMs),
  STREAM_RETRY_MS: String(DEFAULT_STREAM_OPTIONS.retryMs),
  STREAM_MAX_BUFFER_BYTES: String(DEFAULT_STREAM_OPTIONS.maxBufferBytes),
  STREAM_REPLAY_MAX_BLOCKS: String(DEFAULT_STREAM_OPTIONS.replayMaxBlocks),
  ...APP_SERVICES_VARIABLES,
  ...RECONCILER_VARIABLES,
};

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];
const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];

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

function decimal(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const n = /^[0-9]+(\.[0-9]+)?$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) throw new ConfigError(name, `must be a number from ${min} to ${max}, got "${raw}"`);
  return n;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw))
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  return oneOf(env, name, ['true', 'false'], fallback ? 'true' : 'false') === 'true';
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
  if (!protocols.includes(parsed.protocol))
    throw new ConfigError(
      name,
      `must use ${protocols.map((p) => `${p}//`).join(' or ')}, got "${parsed.protocol}" (expected ${example})`,
    );
  return raw;
}

function chainOf(env: Env): LauncherConfig['chain'] {
  const rpcUrl = url(env, 'CHAIN_RPC_URL', ['http:', 'https:'], 'http://host:26657');
  const chainId = chainIdOf(env);
  if (rpcUrl === undefined) {
    if (chainId !== undefined && chainId !== DEFAULT_CHAIN_CONFIG.chainId) {
      throw new ConfigError(
        'CHAIN_ID',
        `applies with CHAIN_RPC_URL only; the embedded devnet is ${DEFAULT_CHAIN_CONFIG.chainId}`,
      );
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
    stateWindow: integer(env, 'DEVNET_STATE_WINDOW', DEFAULT_STATE_WINDOW, 0, 100_000_000),
    snapshotBlocks: integer(env, 'DEVNET_SNAPSHOT_BLOCKS', DEFAULT_SNAPSHOT_BLOCKS, 0, 100_000_000),
  };
}

function schemaOf(env: Env): string {
  const schema = read(env, 'DB_SCHEMA') ?? 'svc';
  if (!isIdentifier(schema))
    throw new ConfigError(
      'DB_SCHEMA',
      `must be a lower-case PostgreSQL identifier ([a-z_][a-z0-9_]*, at most 63), got "${schema}"`,
    );
  return schema;
}

function bigintOf(env: Env, name: string, fallback: bigint, min: bigint, max: bigint): bigint {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const n = /^[0-9]{1,30}$/.test(raw) ? BigInt(raw) : -1n;
  if (n < min || n > max) throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

/** A numeric app setting by its row of the table (app-services/settings.ts): variable, default and bounds; seconds become ms. */
function numberSetting(env: Env, row: IntegerSetting | SecondsSetting | DecimalSetting): number {
  if (row.kind === 'decimal') return decimal(env, row.env, row.default, row.min, row.max);
  const n = integer(env, row.env, row.default, row.min, row.max);
  return row.kind === 'seconds' ? n * 1000 : n;
}

function bigintSetting(env: Env, row: BigintSetting): bigint {
  return bigintOf(env, row.env, row.default, row.min, row.max);
}

function secretOf(env: Env, name: string): KeySecret | undefined {
  const raw = read(env, name);
  return raw === undefined ? undefined : new KeySecret(raw, name);
}

function lenderOf(env: Env): LenderSettings {
  const ltvBps = numberSetting(env, S.lender.ltvBps);
  const liquidationLtvBps = numberSetting(env, S.lender.liquidationLtvBps);
  if (liquidationLtvBps <= ltvBps)
    throw new ConfigError(
      S.lender.liquidationLtvBps.env,
      `must be above ${S.lender.ltvBps.env} (${ltvBps}), got ${liquidationLtvBps}: a new loan would be liquidated at once`,
    );
  return {
    ltvBps,
    liquidationLtvBps,
    maxPrincipal: bigintSetting(env, S.lender.maxPrincipal),
    pledgeWindowMs: numberSetting(env, S.lender.pledgeWindowMs),
    pollMs: numberSetting(env, S.lender.pollMs),
    claimEveryMs: numberSetting(env, S.lender.claimEveryMs),
    maxPoolShareBps: numberSetting(env, S.lender.maxPoolShareBps),
    maxPerBorrower: bigintSetting(env, S.lender.maxPerBorrower),
    maxPerAsset: bigintSetting(env, S.lender.maxPerAsset),
    maxTotal: bigintSetting(env, S.lender.maxTotal),
    dust: bigintSetting(env, S.lender.dust),
    batchMax: numberSetting(env, S.lender.batchMax),
    fromHeight:
      read(env, S.lender.fromHeight.env) === undefined
        ? undefined
        : integer(env, S.lender.fromHeight.env, 0, 0, Number.MAX_SAFE_INTEGER),
  };
}

/** A comma-separated list (empty entries dropped); undefined when the variable is unset. */
function listOf(env: Env, name: string, valid: RegExp, what: string): string[] | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  const items = raw
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  const bad = items.find((x) => !valid.test(x));
  if (bad !== undefined) throw new ConfigError(name, `must be a comma-separated list of ${what}, got "${bad}"`);
  return items;
}

function marketOf(env: Env): MarketSettings {
  const { trustedReleasers, allowlist } = S.market;
  return {
    windowBlocks: numberSetting(env, S.market.windowBlocks),
    maxDivergenceBps: numberSetting(env, S.market.maxDivergenceBps),
    minPoolAgeBlocks: numberSetting(env, S.market.minPoolAgeBlocks),
    minPoolReserve: bigintSetting(env, S.market.minPoolReserve),
    trustedReleasers:
      listOf(env, trustedReleasers.env, /^[a-z0-9]{1,83}1[02-9ac-hj-np-z]{6,}$/, 'bech32 addresses') ??
      trustedReleasers.default,
    allowlist: listOf(env, allowlist.env, /^[0-9a-f]{64}$/, 'asset ids (64 lower-case hex)') ?? allowlist.default,
  };
}

function appServicesOf(env: Env, indexerSchema: string): AppServicesSettings {
  const schema = read(env, S.schema.env) ?? S.schema.default;
  if (!isIdentifier(schema))
    throw new ConfigError(
      S.schema.env,
      `must be a lower-case PostgreSQL identifier ([a-z_][a-z0-9_]*, at most 63), got "${schema}"`,
    );
  if (schema === indexerSchema)
    throw new ConfigError(
      S.schema.env,
      `must differ from DB_SCHEMA ("${indexerSchema}"): the indexer's schema is read-only to the app services`,
    );
  return {
    schema,
    keys: { lender: secretOf(env, S.keys.lender.env), desk: secretOf(env, S.keys.desk.env) },
    txFee: bigintSetting(env, S.txFee),
    txGas: bigintSetting(env, S.txGas),
    gasAdjustment: numberSetting(env, S.gasAdjustment),
    txGasBase: bigintSetting(env, S.txGasBase),
    txGasPerMsg: bigintSetting(env, S.txGasPerMsg),
    retryBaseMs: numberSetting(env, S.retryBaseMs),
    retryMaxMs: numberSetting(env, S.retryMaxMs),
    inclusionTimeoutMs: numberSetting(env, S.inclusionTimeoutMs),
    reconcileMs: numberSetting(env, S.reconcileMs),
    lockRetryMs: numberSetting(env, S.lockRetryMs),
    watchMs: numberSetting(env, S.watchMs),
    launchpadRateLimit: numberSetting(env, S.launchpadRateLimit),
    lender: lenderOf(env),
    market: marketOf(env),
    risk: {
      maxPerIssuer: bigintSetting(env, S.risk.maxPerIssuer),
      lossCooloffMs: numberSetting(env, S.risk.lossCooloffMs),
      deskLossToleranceBps: numberSetting(env, S.risk.deskLossToleranceBps),
    },
    desk: {
      rfqLimit: numberSetting(env, S.desk.rfqLimit),
      maxTrade: bigintSetting(env, S.desk.maxTrade),
      pollMs: numberSetting(env, S.desk.pollMs),
      quoteCacheMs: numberSetting(env, S.desk.quoteCacheMs),
      rfqIpLimit: numberSetting(env, S.desk.rfqIpLimit),
      maxEscrowBps: numberSetting(env, S.desk.maxEscrowBps),
      maxEscrowPerAddressBps: numberSetting(env, S.desk.maxEscrowPerAddressBps),
      maxPosition: bigintSetting(env, S.desk.maxPosition),
      maxPoolShareBps: numberSetting(env, S.desk.maxPoolShareBps),
      maxTotal: bigintSetting(env, S.desk.maxTotal),
      dust: bigintSetting(env, S.desk.dust),
      cancelBatch: numberSetting(env, S.desk.cancelBatch),
    },
  };
}

function graphqlOf(env: Env): GraphqlOptions {
  const d = GRAPHQL_DEFAULTS;
  const allowlistFile = read(env, 'GRAPHQL_ALLOWLIST_FILE');
  return {
    subscriptions: flag(env, 'GRAPHQL_SUBSCRIPTIONS', d.subscriptions),
    maxWebsockets: integer(env, 'GRAPHQL_WS_MAX_CONNECTIONS', d.maxWebsockets, 1, 100_000),
    maxDepth: integer(env, 'GRAPHQL_MAX_DEPTH', d.maxDepth, 2, 100),
    maxCost: integer(env, 'GRAPHQL_MAX_COST', d.maxCost, 100, 10_000_000),
    statementTimeoutMs: integer(env, 'GRAPHQL_STATEMENT_TIMEOUT_MS', d.statementTimeoutMs, 100, 3_600_000),
    ...(allowlistFile ? { allowlistFile } : {}),
  };
}

function reconcilerOf(env: Env): ReconcilerSettings {
  const d = RECONCILER_DEFAULTS;
  const retryMs = integer(env, 'RECONCILE_RETRY_MS', d.retryMs, 100, 3_600_000);
  return {
    ...d,
    everyBlocks: integer(env, 'RECONCILE_EVERY_BLOCKS', d.everyBlocks, 0, 10_000_000),
    minIntervalMs: integer(env, 'RECONCILE_MIN_INTERVAL_MS', d.minIntervalMs, 0, 86_400_000),
    queryTimeoutMs: integer(env, 'RECONCILE_QUERY_TIMEOUT_MS', d.queryTimeoutMs, 100, 600_000),
    concurrency: integer(env, 'RECONCILE_CONCURRENCY', d.concurrency, 1, 64),
    retryMs,
    maxRetryMs: Math.max(retryMs, d.maxRetryMs),
  };
}

/** Reads and validates the whole configuration (throws ConfigError naming the first bad variable). */
/** npm start's own arguments (after `--`): only `--reindex`. */
function startArgs(args: readonly string[]): { reindex: boolean } {
  const unknown = args.filter((a) => a !== '--reindex');
  if (unknown.length)
    throw new ConfigError('arguments', `npm start takes only --reindex (after --), got ${unknown.join(' ')}`);
  return { reindex: args.includes('--reindex') };
}

function projectDirOf(env: Env, cwd: string): string | undefined {
  const dir = read(env, 'PROJECT_DIR');
  if (dir === undefined) return undefined;
  const abs = path.resolve(cwd, dir);
  for (const f of ['project.yaml', 'schema.graphql', path.join('dist', 'index.js')])
    if (!fs.existsSync(path.join(abs, f)))
      throw new ConfigError('PROJECT_DIR', `${abs} is not a built SubQuery project (no ${f}; run subql build there)`);
  return abs;
}

export function loadLauncherConfig(
  env: Env,
  opts: { stdoutIsTTY: boolean; cwd: string; args?: readonly string[] },
): LauncherConfig {
  const chainConfig = loadChainConfig(env);
  return {
    ...startArgs(opts.args ?? []),
    projectDir: projectDirOf(env, opts.cwd),
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: read(env, 'HOST') ?? '127.0.0.1',
    dataDir: path.resolve(opts.cwd, read(env, 'DATA_DIR') ?? '.data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database'),
    chain: chainOf(env),
    schema: schemaOf(env),
    devnet: devnetOf(env),
    readyMaxLagBlocks: integer(env, 'READY_MAX_LAG_BLOCKS', 10, 0, 1_000_000),
    progressIntervalMs: integer(env, 'PROGRESS_INTERVAL_MS', 5000, 500, 600_000),
    log: {
      format: oneOf(env, 'LOG_FORMAT', LOG_FORMATS, opts.stdoutIsTTY ? 'pretty' : 'json'),
      level: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    },
    node: {
      batchSize: integer(env, 'NODE_BATCH_SIZE', 100, 1, 1000),
      workers: integer(env, 'NODE_WORKERS', 0, 0, 64),
    },
    graphql: graphqlOf(env),
    responseCache: responseCacheFromEnv(env),
    renderCache: renderCacheFromEnv(env),
    stream: streamFromEnv(env),
    trustProxy: trustProxyFromEnv(env),
    fairShare: fairShareFromEnv(env),
    dbWaitMs: dbWaitFromEnv(env),
    hrp: chainConfig.hrp,
    gasDenom: chainConfig.gasDenom,
    stableDenom: chainConfig.stableDenom,
    app: appServicesOf(env, schemaOf(env)),
    reconciler: reconcilerOf(env),
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
  /** CHAIN_ID, checked against the chain the services act on */
  chainId?: string;
  app: AppServicesSettings;
  hrp: string;
  gasDenom: string;
  stableDenom: string;
  /** launcher/reconciler-main.ts (the compose `reconciler` service) */
  reconciler: ReconcilerSettings;
  /** the product's one client-address rule (TRUST_PROXY), for /api's per-client limits */
  trustProxy: TrustProxy;
}

/** The store a tool works on: DATABASE_URL (or DB_*) and DB_SCHEMA, as the services read them. */
export function storeConfig(env: Env): { databaseUrl: string; schema: string } {
  return { databaseUrl: databaseUrlOf(env), schema: schemaOf(env) };
}

/** DATABASE_URL, or the node's DB_HOST/DB_PORT/DB_USER/DB_PASS/DB_DATABASE (one compose env for both). */
function databaseUrlOf(env: Env): string {
  const direct = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database');
  if (direct) return direct;
  const host = read(env, 'DB_HOST');
  if (!host)
    throw new ConfigError(
      'DATABASE_URL',
      'set DATABASE_URL, or DB_HOST (with DB_PORT, DB_USER, DB_PASS, DB_DATABASE) as for the SubQuery node',
    );
  const u = new URL('postgres://localhost');
  u.hostname = host;
  u.port = String(integer(env, 'DB_PORT', 5432, 1, 65535));
  u.username = read(env, 'DB_USER') ?? 'postgres';
  u.password = env.DB_PASS ?? '';
  u.pathname = `/${read(env, 'DB_DATABASE') ?? 'postgres'}`;
  return u.toString();
}

function chainIdOf(env: Env): string | undefined {
  const chainId = read(env, 'CHAIN_ID');
  if (chainId !== undefined && !isValidChainId(chainId))
    throw new ConfigError('CHAIN_ID', `"${chainId}" is not a chain id (1..50 printable characters)`);
  return chainId;
}

export function loadServeConfig(env: Env, opts: { stdoutIsTTY: boolean }): ServeConfig {
  const chainConfig = loadChainConfig(env);
  return {
    port: integer(env, 'PORT', 3002, 0, 65535),
    host: read(env, 'HOST') ?? '0.0.0.0',
    databaseUrl: databaseUrlOf(env),
    schema: schemaOf(env),
    chainRpcUrl: url(env, 'CHAIN_RPC_URL', ['http:', 'https:'], 'http://host:26657')?.replace(/\/+$/, ''),
    readyMaxLagBlocks: integer(env, 'READY_MAX_LAG_BLOCKS', 10, 0, 1_000_000),
    log: {
      format: oneOf(env, 'LOG_FORMAT', LOG_FORMATS, opts.stdoutIsTTY ? 'pretty' : 'json'),
      level: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    },
    chainId: chainIdOf(env),
    app: appServicesOf(env, schemaOf(env)),
    hrp: chainConfig.hrp,
    gasDenom: chainConfig.gasDenom,
    stableDenom: chainConfig.stableDenom,
    reconciler: reconcilerOf(env),
    trustProxy: trustProxyFromEnv(env),
  };
}
