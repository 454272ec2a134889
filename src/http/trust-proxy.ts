/**
 * The product's one client-address rule (TRUST_PROXY), shared by /v1, /v1/stream, /graphql (its
 * websocket upgrades too) and /api: which proxies' X-Forwarded-For entries are believed, so that
 * the address every per-client limit counts is the client's and not one the client wrote.
 *
 * Each proxy appends the address it received the request from to X-Forwarded-For, so only the
 * right-hand entries that our own proxies added can be believed; everything to their left was
 * written by the client. "Trust everything" (Express's `true`) takes the leftmost entry, which
 * a client sets to anything it likes, so it is refused here. The forms allowed:
 *
 *   a hop count N (1–10)        the client is the address N entries from the right (N proxies
 *                               of ours in front, each appending one entry)
 *   a list of addresses/subnets  entries from these addresses are our proxies and skipped from
 *                               the right; the first one that is not is the client
 *                               (IPv4/IPv6, CIDR, and Express's names loopback, linklocal,
 *                               uniquelocal)
 *   false (default)             X-Forwarded-For is ignored: the client is the socket's peer
 *
 * The setting is TRUST_PROXY; APP_TRUST_PROXY, its name when only the app services read it, is
 * still read as an alias.
 */
import net from 'net';
import type { IncomingMessage } from 'http';
import type { Express } from 'express';
import proxyaddr from 'proxy-addr';
import { ConfigError } from '../lib/errors';
import { special } from '../lib/settings';

export type TrustProxy = false | { hops: number } | { subnets: string[] };

export const MAX_PROXY_HOPS = 10;
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** The setting's name, and the older name still read when it is unset. */
export const TRUST_PROXY_VARIABLE = 'TRUST_PROXY';
export const TRUST_PROXY_ALIAS = 'APP_TRUST_PROXY';

/** The two variables as rows of a settings table (src/lib/settings.ts), as docs/running.md describes them. */
export const TRUST_PROXY_SETTINGS = {
  rule: special(
    TRUST_PROXY_VARIABLE,
    false,
    'false',
    '`false`',
    "the product's one client-address rule, for `/v1`, `/v1/stream`, `/graphql` and `/api`: behind a load balancer, the number of proxies in front (`1`), or their addresses/subnets (`10.0.0.0/8,loopback`); the client address of every per-client limit is then the `X-Forwarded-For` entry the nearest untrusted hop added. `true` (trust every entry, including those a client writes) is refused ([Fair share](#fair-share-budgets-deadlines-load-shedding))",
  ),
  olderName: special(
    TRUST_PROXY_ALIAS,
    undefined,
    '(the older name of TRUST_PROXY, still read)',
    'the older name of `TRUST_PROXY`',
    'still read when `TRUST_PROXY` is unset; both set to different rules stops the start',
  ),
} as const;

/** Why `entry` is not an address, a subnet or a named range; null when it is one. */
function subnetProblem(entry: string): string | null {
  if (NAMED_RANGES.includes(entry)) return null;
  const [address, prefix, extra] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || extra !== undefined) return `"${entry}" is not an IP address or a subnet`;
  if (prefix === undefined) return null;
  const max = family === 4 ? 32 : 128;
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= max
    ? null
    : `"${entry}" has a prefix length outside 0–${max}`;
}

/**
 * TRUST_PROXY as written: `false`, a hop count, or a comma-separated list of addresses and
 * subnets. Throws an Error saying what is wrong (the caller names the variable).
 */
export function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim();
  if (value === '' || value.toLowerCase() === 'false') return false;
  if (value.toLowerCase() === 'true')
    throw new Error(
      'must not be "true": that trusts the leftmost X-Forwarded-For entry, which any client writes; give the number of proxies in front (e.g. 1) or their addresses/subnets',
    );
  if (/^[0-9]+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > MAX_PROXY_HOPS)
      throw new Error(`a hop count must be from 1 to ${MAX_PROXY_HOPS}, got ${value} (use false for none)`);
    return { hops };
  }
  const subnets = value.split(',').map((s) => s.trim());
  const problem = subnets.map(subnetProblem).find((p) => p !== null);
  if (problem) throw new Error(`${problem} (expected false, a hop count or addresses/subnets such as 10.0.0.0/8)`);
  return { subnets };
}

/**
 * TRUST_PROXY from the environment, or APP_TRUST_PROXY when only that is set; a ConfigError
 * naming the variable when the value is refused, or when both are set to different rules.
 */
export function trustProxyFromEnv(env: Readonly<Record<string, string | undefined>>): TrustProxy {
  const read = (name: string) => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') return undefined;
    try {
      return parseTrustProxy(raw);
    } catch (e) {
      throw new ConfigError(name, (e as Error).message);
    }
  };
  const value = read(TRUST_PROXY_VARIABLE);
  const alias = read(TRUST_PROXY_ALIAS);
  if (value !== undefined && alias !== undefined && formatTrustProxy(value) !== formatTrustProxy(alias))
    throw new ConfigError(
      TRUST_PROXY_VARIABLE,
      `${TRUST_PROXY_ALIAS} (its older name) is also set, to another rule: set only ${TRUST_PROXY_VARIABLE}`,
    );
  return value ?? alias ?? false;
}

/** The same setting as TRUST_PROXY would write it (for logs and docs). */
export function formatTrustProxy(t: TrustProxy): string {
  if (t === false) return 'false';
  return 'hops' in t ? String(t.hops) : t.subnets.join(',');
}

/** The rule in Express's and proxy-addr's terms. */
function expressValue(t: TrustProxy): false | number | string[] {
  return t === false ? false : 'hops' in t ? t.hops : t.subnets;
}

/** Sets Express's 'trust proxy' so `req.ip` follows the rule above. */
export function applyTrustProxy(app: Express, t: TrustProxy): void {
  app.set('trust proxy', expressValue(t));
}

/**
 * The client's address of a request no Express app has seen (a websocket upgrade), by the same
 * rule as `req.ip`.
 */
export function clientAddressOf(req: IncomingMessage, t: TrustProxy): string {
  const trust =
    t === false
      ? () => false
      : 'hops' in t
        ? (_address: string, i: number) => i < t.hops
        : proxyaddr.compile(t.subnets);
  return proxyaddr(req, trust);
}

/**
 * The key one client's budget is kept under, from its address: IPv4-mapped IPv6 addresses as
 * IPv4, and an IPv6 address by its /64 (one subscriber's network, which it may fill with
 * addresses at will). Anything else as it is.
 */
export function clientKeyOf(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:([0-9.]+)$/i.exec(address);
  if (mapped && net.isIPv4(mapped[1])) return mapped[1];
  if (!net.isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, as lower-case hex without leading zeros. */
function expandIPv6(address: string): string[] {
  const plain = address.split('%')[0];
  const [head, tail] = plain.includes('::') ? plain.split('::') : [plain, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const lastRight = right.length ? right : left;
  // an embedded IPv4 tail (::1.2.3.4) is two groups
  const last = lastRight[lastRight.length - 1];
  if (last && net.isIPv4(last)) {
    const [a, b, c, d] = last.split('.').map(Number);
    lastRight.splice(lastRight.length - 1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => parseInt(g || '0', 16).toString(16));
}
