/**
 * Configuration of `npm start`, read from the environment once and validated: a bad value
 * throws a ConfigError naming the variable (start.ts prints it and exits with code 2).
 * Every variable is a row of a settings table (src/lib/settings.ts): npm start's own in
 * ./settings.ts, the others in their parts (app services, reconciler, /v1 caches, fair share,
 * trust proxy); rows read themselves (`readSettings`), and what the tables cannot say (URLs,
 * schema names, keys, lists, checks between two values) is read here. CONFIG_VARIABLES lists them
 * all; docs/running.md's table is checked against the rows (tests/unit/runtime/settings-docs.test.ts).
 */
import fs from 'fs';
import path from 'path';
import { DEFAULT_CHAIN_CONFIG, isValidChainId, loadChainConfig } from '../lib/config';
import { ConfigError } from '../lib/errors';
import {
  choice,
  envValue as read,
  readInteger,
  readSetting,
  readSettingOr,
  readSettings,
  variablesOf,
  type Env,
} from '../lib/settings';
import { isIdentifier } from '../store';
import type { LogFormat, LogLevel } from './logger';
import { LOG_FORMATS, START_SETTINGS as START } from './settings';
import {
  DB_PORT,
  renderCacheFromEnv,
  responseCacheFromEnv,
  SHARED_REST_VARIABLES,
  streamFromEnv,
} from '../../rest-adapter/config';
import type { ResponseCacheOptions } from '../../rest-adapter/http/response-cache';
import type { RenderCacheOptions } from '../../rest-adapter/presenters/render-cache';
import type { StreamOptions } from '../../rest-adapter/stream/options';
import {
  APP_SERVICES_VARIABLES,
  type AppServicesSettings,
  type DeskSettings,
  type LenderSettings,
  type RiskSettings,
} from '../../app-services/config';
import type { MarketSettings } from '../../app-services/market/eligibility';
import { APP_SETTINGS as S } from '../../app-services/settings';
import { KeySecret } from '../../app-services/keys';
import { readWebhooksFile, type WebhooksFile } from '../../app-services/webhooks/file';
import { TRUST_PROXY_SETTINGS, trustProxyFromEnv, type TrustProxy } from '../http/trust-proxy';
import type { FairShareSettings } from '../http/fair-share';
import { dbWaitFromEnv, fairShareFromEnv, FAIR_SHARE_VARIABLES } from '../http/fair-share-settings';
import type { ApiKey } from '../http/fair-share';
import { RECONCILER_VARIABLES, reconcilerFromEnv, type ReconcilerSettings } from '../../reconciler/config';

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
  node: { batchSize: number; workers: number; headWorkers: number; catchUpBlocks: number };
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

export const GRAPHQL_DEFAULTS: GraphqlOptions = Object.freeze(readSettings({}, START.graphql));

/** Every variable npm start reads, with its default as documented (docs/running.md). */
export const CONFIG_VARIABLES: Record<string, string> = {
  ...variablesOf(START),
  ...variablesOf(TRUST_PROXY_SETTINGS),
  ...FAIR_SHARE_VARIABLES,
  ...SHARED_REST_VARIABLES,
  ...APP_SERVICES_VARIABLES,
  ...RECONCILER_VARIABLES,
};

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
  const seed = read(env, START.devnet.seed.env) ?? START.devnet.seed.default;
  if (seed.length > 100) throw new ConfigError(START.devnet.seed.env, 'must be at most 100 characters');
  return { seed, ...readSettings(env, START.devnet) };
}

function schemaOf(env: Env): string {
  const schema = read(env, START.schema.env) ?? START.schema.default;
  if (!isIdentifier(schema))
    throw new ConfigError(
      START.schema.env,
      `must be a lower-case PostgreSQL identifier ([a-z_][a-z0-9_]*, at most 63), got "${schema}"`,
    );
  return schema;
}

function secretOf(env: Env, name: string): KeySecret | undefined {
  const raw = read(env, name);
  return raw === undefined ? undefined : new KeySecret(raw, name);
}

/** The lender's rows read, checked against each other, with LENDER_FROM_HEIGHT (unset unless given). */
function lenderOf(env: Env, lender: Omit<LenderSettings, 'fromHeight'>): LenderSettings {
  const { ltvBps, liquidationLtvBps } = lender;
  if (liquidationLtvBps <= ltvBps)
    throw new ConfigError(
      S.lender.liquidationLtvBps.env,
      `must be above ${S.lender.ltvBps.env} (${ltvBps}), got ${liquidationLtvBps}: a new loan would be liquidated at once`,
    );
  const fromHeight = S.lender.fromHeight.env;
  return {
    ...lender,
    fromHeight:
      read(env, fromHeight) === undefined ? undefined : readInteger(env, fromHeight, 0, 0, Number.MAX_SAFE_INTEGER),
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

/** The market's rows read, with its two lists. */
function marketOf(env: Env, market: Omit<MarketSettings, 'trustedReleasers' | 'allowlist'>): MarketSettings {
  const { trustedReleasers, allowlist } = S.market;
  return {
    ...market,
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
  const settings = readSettings(env, S);
  return {
    ...settings,
    schema,
    keys: { lender: secretOf(env, S.keys.lender.env), desk: secretOf(env, S.keys.desk.env) },
    lender: lenderOf(env, settings.lender),
    desk: deskOf(env, settings.desk),
    market: marketOf(env, settings.market),
    webhooks: { ...settings.webhooks, secretKey: webhookKeyOf(env), file: webhooksFileOf(env) },
    risk: riskOf(env, settings.risk),
  };
}

/** WEBHOOKS_FILE: read and parsed now (a ConfigError when it cannot be); its entries are checked at start. */
function webhooksFileOf(env: Env): WebhooksFile | undefined {
  const file = read(env, S.webhooks.file.env);
  return file ? readWebhooksFile(file) : undefined;
}

/** WEBHOOK_SECRET_KEY: 64 hex characters when set (the message never quotes it). */
function webhookKeyOf(env: Env): KeySecret | undefined {
  const secret = secretOf(env, S.webhooks.secretKey.env);
  if (secret && !/^[0-9a-fA-F]{64}$/.test(secret.reveal()))
    throw new ConfigError(S.webhooks.secretKey.env, 'must be 64 hex characters (a 32-byte key)');
  return secret;
}

/** The desk's rows read, with DESK_FROM_HEIGHT (unset unless given). */
function deskOf(env: Env, desk: Omit<DeskSettings, 'fromHeight'>): DeskSettings {
  const fromHeight = S.desk.fromHeight.env;
  return {
    ...desk,
    fromHeight:
      read(env, fromHeight) === undefined ? undefined : readInteger(env, fromHeight, 0, 0, Number.MAX_SAFE_INTEGER),
  };
}

/** The risk rows read, with the listed tier (RISK_LISTED_ASSETS; unset unless given). */
function riskOf(env: Env, risk: Omit<RiskSettings, 'listedAssets'>): RiskSettings {
  const listedAssets = listOf(env, S.risk.listedAssets.env, /^[0-9a-f]{64}$/, 'asset ids (64 lower-case hex)');
  return { ...risk, listedAssets };
}

function graphqlOf(env: Env): GraphqlOptions {
  const allowlistFile = read(env, START.graphql.allowlistFile.env);
  return { ...readSettings(env, START.graphql), ...(allowlistFile ? { allowlistFile } : {}) };
}

/** LOG_FORMAT (pretty on a terminal, json otherwise) and LOG_LEVEL. */
function logOf(env: Env, stdoutIsTTY: boolean): { format: LogFormat; level: LogLevel } {
  const { format } = START.log;
  return {
    format: readSetting(env, choice(format.env, stdoutIsTTY ? 'pretty' : 'json', LOG_FORMATS, format.description)),
    level: readSetting(env, START.log.level),
  };
}

/** npm start's own arguments (after `--`): only `--reindex`. */
function startArgs(args: readonly string[]): { reindex: boolean } {
  const unknown = args.filter((a) => a !== '--reindex');
  if (unknown.length)
    throw new ConfigError('arguments', `npm start takes only --reindex (after --), got ${unknown.join(' ')}`);
  return { reindex: args.includes('--reindex') };
}

function projectDirOf(env: Env, cwd: string): string | undefined {
  const dir = read(env, START.projectDir.env);
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
    port: readSetting(env, START.port),
    host: read(env, START.host.env) ?? START.host.default,
    dataDir: path.resolve(opts.cwd, read(env, START.dataDir.env) ?? START.dataDir.default),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database'),
    chain: chainOf(env),
    schema: schemaOf(env),
    devnet: devnetOf(env),
    readyMaxLagBlocks: readSetting(env, START.readyMaxLagBlocks),
    progressIntervalMs: readSetting(env, START.progressIntervalMs),
    log: logOf(env, opts.stdoutIsTTY),
    node: readSettings(env, START.node),
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
    reconciler: reconcilerFromEnv(env),
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
  /** the API keys (API_KEYS_FILE) that may hold webhooks (/api/webhooks) */
  apiKeys: readonly ApiKey[];
}

/** DB_SCHEMA and APP_SCHEMA, checked as npm start checks them (npm run psql's search_path). */
export function schemasOf(env: Env): { schema: string; appSchema: string } {
  const schema = schemaOf(env);
  return { schema, appSchema: appServicesOf(env, schema).schema };
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
  u.port = String(readSetting(env, DB_PORT));
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
    port: readSettingOr(env, START.port, 3002),
    host: read(env, START.host.env) ?? '0.0.0.0',
    databaseUrl: databaseUrlOf(env),
    schema: schemaOf(env),
    chainRpcUrl: url(env, 'CHAIN_RPC_URL', ['http:', 'https:'], 'http://host:26657')?.replace(/\/+$/, ''),
    readyMaxLagBlocks: readSetting(env, START.readyMaxLagBlocks),
    log: logOf(env, opts.stdoutIsTTY),
    chainId: chainIdOf(env),
    app: appServicesOf(env, schemaOf(env)),
    hrp: chainConfig.hrp,
    gasDenom: chainConfig.gasDenom,
    stableDenom: chainConfig.stableDenom,
    reconciler: reconcilerFromEnv(env),
    trustProxy: trustProxyFromEnv(env),
    apiKeys: fairShareFromEnv(env).keys,
  };
}
