/**
 * The fair-share settings from the environment, read the same way by the rest-adapter process
 * and by npm start (a bad value is a ConfigError naming the variable):
 *
 *   RATE_LIMIT_PER_S     units a client's budget refills each second (default 300; 0 = no per-client limit)
 *   RATE_LIMIT_BURST     units a client may spend at once (default 600)
 *   API_KEYS_FILE        JSON file of API keys with their own budgets (default none):
 *                        [{"name": "explorer", "sha256": "<hex SHA-256 of the key>", "per_second": 3000, "burst": 30000}]
 *                        Only the keys' hashes are configured; a client sends its key as
 *                        `Authorization: Bearer <key>` or `X-API-Key: <key>`.
 *   LOAD_SHED_DELAY_MS   event-loop delay above which clients spending fast are answered 503 (default 500; 0 = never)
 *   DB_WAIT_MS           how long a request waits for a store connection before it is answered 503 (default 1000)
 */
import fs from 'fs';
import { ConfigError } from '../lib/errors';
import { DEFAULT_FAIR_SHARE, DEFAULT_PER_CLIENT, type ApiKey, type FairShareSettings } from './fair-share';

type Env = Readonly<Record<string, string | undefined>>;

export const DEFAULT_DB_WAIT_MS = 1000;

/** The variables and their defaults as documented (docs/running.md, docs/rest-adapter.md). */
export const FAIR_SHARE_VARIABLES: Record<string, string> = {
  RATE_LIMIT_PER_S: String(DEFAULT_PER_CLIENT.perSecond),
  RATE_LIMIT_BURST: String(DEFAULT_PER_CLIENT.burst),
  API_KEYS_FILE: '(none)',
  LOAD_SHED_DELAY_MS: String(DEFAULT_FAIR_SHARE.shedDelayMs),
  DB_WAIT_MS: String(DEFAULT_DB_WAIT_MS),
};

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const n = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

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
  const perSecond = integer(env, 'RATE_LIMIT_PER_S', DEFAULT_PER_CLIENT.perSecond, 0, 1e9);
  const burst = integer(env, 'RATE_LIMIT_BURST', DEFAULT_PER_CLIENT.burst, 1, 1e12);
  if (perSecond > 0 && burst < perSecond)
    throw new ConfigError('RATE_LIMIT_BURST', `must be at least RATE_LIMIT_PER_S (${perSecond}), got ${burst}`);
  const file = env.API_KEYS_FILE?.trim();
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
    shedDelayMs: integer(env, 'LOAD_SHED_DELAY_MS', DEFAULT_FAIR_SHARE.shedDelayMs, 0, 60_000),
  };
}

export function dbWaitFromEnv(env: Env): number {
  return integer(env, 'DB_WAIT_MS', DEFAULT_DB_WAIT_MS, 1, 600_000);
}
