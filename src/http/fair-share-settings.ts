/**
 * The fair-share settings (RATE_LIMIT_* with RATE_LIMIT_CONTENTION_MS, API_KEYS_FILE, LOAD_SHED_DELAY_MS, DB_WAIT_MS) as one table
 * (src/lib/settings.ts), read the same way by the rest-adapter process and by npm start (a bad value
 * is a ConfigError naming the variable). An API_KEYS_FILE holds only the keys' SHA-256 hashes; a
 * client sends its key as `Authorization: Bearer <key>` or `X-API-Key: <key>`.
 */
import fs from 'fs';
import { ConfigError } from '../lib/errors';
import { envValue, integer, readSetting, special, variablesOf, type Env } from '../lib/settings';
import {
  DEFAULT_CONTENTION_MS,
  DEFAULT_FAIR_SHARE,
  DEFAULT_PER_CLIENT,
  type ApiKey,
  type FairShareSettings,
} from './fair-share';

export const DEFAULT_DB_WAIT_MS = 1000;

/** The fair-share settings as a table (src/lib/settings.ts), as docs/running.md describes them. */
export const FAIR_SHARE_SETTINGS = {
  perSecond: integer(
    'RATE_LIMIT_PER_S',
    DEFAULT_PER_CLIENT.perSecond,
    0,
    1e9,
    "units a client's budget on `/v1`, `/v1/stream` and `/graphql` refills each second (a point read costs 1, a page of 100 txs 21: [Fair share](#fair-share-budgets-deadlines-load-shedding)); `0`: no per-client limit",
  ),
  burst: integer(
    'RATE_LIMIT_BURST',
    DEFAULT_PER_CLIENT.burst,
    1,
    1e12,
    'units a client may spend at once (at least `RATE_LIMIT_PER_S`)',
  ),
  contentionMs: integer(
    'RATE_LIMIT_CONTENTION_MS',
    DEFAULT_CONTENTION_MS,
    0,
    3_600_000,
    'budgets bite only while another client has asked within this many ms: a client alone beyond its budget is served (on idle capacity, no debt) instead of 429; `0`: budgets always bite (a fixed rate per client)',
  ),
  apiKeysFile: special(
    'API_KEYS_FILE',
    undefined,
    '(none)',
    'none',
    'JSON file of API keys with their own budgets: `[{"name": "explorer", "sha256": "<hex SHA-256 of the key>", "per_second": 3000, "burst": 30000}]`; a client sends `Authorization: Bearer <key>` or `X-API-Key: <key>`; an unknown key is answered 401. Only hashes are configured; keys are never logged',
  ),
  shedDelayMs: integer(
    'LOAD_SHED_DELAY_MS',
    DEFAULT_FAIR_SHARE.shedDelayMs,
    0,
    60_000,
    "when the event loop's delay exceeds this, requests of clients that have spent more than half of their burst are answered 503 with `Retry-After`; `0`: never",
  ),
  dbWaitMs: integer(
    'DB_WAIT_MS',
    DEFAULT_DB_WAIT_MS,
    1,
    600_000,
    'how long a `/v1` or GraphQL request waits for a store connection before it is answered 503 with `Retry-After`',
  ),
} as const;

/** The variables and their defaults as documented (docs/running.md, docs/rest-adapter.md). */
export const FAIR_SHARE_VARIABLES: Record<string, string> = variablesOf(FAIR_SHARE_SETTINGS);

const KEY_NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;

/** The keys of an API_KEYS_FILE's text; a ConfigError saying which entry is wrong (never echoing a hash). */
export function parseApiKeys(text: string, variable = 'API_KEYS_FILE'): ApiKey[] {
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(variable, `is not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(entries)) throw new ConfigError(variable, 'must hold a JSON array of keys');
  const seen = new Set<string>();
  return entries.map((entry: unknown, i) => {
    const e = (entry ?? {}) as Record<string, unknown>;
    const where = `entry ${i}`;
    if (typeof e.name !== 'string' || !KEY_NAME_RE.test(e.name))
      throw new ConfigError(variable, `${where}: "name" must be 1-64 letters, digits, "_", "." or "-"`);
    if (typeof e.sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(e.sha256))
      throw new ConfigError(
        variable,
        `${where} (${e.name}): "sha256" must be the 64-hex SHA-256 of the key, not the key`,
      );
    const perSecond = e.per_second;
    const burst = e.burst;
    if (typeof perSecond !== 'number' || !Number.isInteger(perSecond) || perSecond < 1 || perSecond > 1e9)
      throw new ConfigError(variable, `${where} (${e.name}): "per_second" must be an integer from 1 to 1e9`);
    if (typeof burst !== 'number' || !Number.isInteger(burst) || burst < perSecond || burst > 1e12)
      throw new ConfigError(variable, `${where} (${e.name}): "burst" must be an integer from per_second to 1e12`);
    const sha256 = e.sha256.toLowerCase();
    if (seen.has(sha256) || seen.has(`name:${e.name}`))
      throw new ConfigError(variable, `${where} (${e.name}): the same key or name is listed twice`);
    seen.add(sha256).add(`name:${e.name}`);
    return { name: e.name, sha256, budget: { perSecond, burst } };
  });
}

export function fairShareFromEnv(env: Env): FairShareSettings {
  const S = FAIR_SHARE_SETTINGS;
  const perSecond = readSetting(env, S.perSecond);
  const burst = readSetting(env, S.burst);
  if (perSecond > 0 && burst < perSecond)
    throw new ConfigError('RATE_LIMIT_BURST', `must be at least RATE_LIMIT_PER_S (${perSecond}), got ${burst}`);
  const file = envValue(env, S.apiKeysFile.env);
  let keys: ApiKey[] = [];
  if (file) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      throw new ConfigError('API_KEYS_FILE', `cannot be read: ${(e as Error).message}`);
    }
    keys = parseApiKeys(text);
  }
  return {
    perClient: perSecond === 0 ? false : { perSecond, burst },
    keys,
    shedDelayMs: readSetting(env, S.shedDelayMs),
    contentionMs: readSetting(env, S.contentionMs),
  };
}

export function dbWaitFromEnv(env: Env): number {
  return readSetting(env, FAIR_SHARE_SETTINGS.dbWaitMs);
}
