/**
 * Which proxies' X-Forwarded-For the services believe (APP_TRUST_PROXY), so that `req.ip`,
 * the key of every per-client limit, is the client's address and not one the client wrote.
 *
 * Each proxy appends the address it received the request from to X-Forwarded-For, so only the
 * right-hand entries that our own proxies added can be believed; everything to their left was
 * written by the client. "Trust everything" (Express's `true`) takes the leftmost entry, which
 * a client sets to anything it likes, so it is refused here. The two forms allowed:
 *
 *   a hop count N (1–10)        the client is the address N entries from the right (N proxies
 *                               of ours in front, each appending one entry)
 *   a list of addresses/subnets  entries from these addresses are our proxies and skipped from
 *                               the right; the first one that is not is the client
 *                               (IPv4/IPv6, CIDR, and Express's names loopback, linklocal,
 *                               uniquelocal)
 *   false (default)             X-Forwarded-For is ignored: the client is the socket's peer
 */
import net from 'net';
import type { Express } from 'express';

export type TrustProxy = false | { hops: number } | { subnets: string[] };

export const MAX_PROXY_HOPS = 10;
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

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
 * APP_TRUST_PROXY as written: `false`, a hop count, or a comma-separated list of addresses and
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

/** The same setting as APP_TRUST_PROXY would write it (for logs and docs). */
export function formatTrustProxy(t: TrustProxy): string {
  if (t === false) return 'false';
  return 'hops' in t ? String(t.hops) : t.subnets.join(',');
}

/** Sets Express's 'trust proxy' so `req.ip` follows the rule above. */
export function applyTrustProxy(app: Express, t: TrustProxy): void {
  app.set('trust proxy', t === false ? false : 'hops' in t ? t.hops : t.subnets);
}
