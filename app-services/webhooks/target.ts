/**
 * Where a webhook goes and how one delivery is made. A target is an http or https URL without
 * credentials; its host must resolve only to public addresses (not loopback, private, link-local,
 * carrier-grade NAT, multicast, reserved or the cloud metadata addresses) unless
 * WEBHOOK_ALLOW_PRIVATE is set. The check is made at create and at every connection, on the
 * addresses the resolver gave then (the request's own `lookup`), so a name that later resolves
 * elsewhere is refused too. A delivery is one POST: no redirect is followed (a 3xx is a failure),
 * reading the answer stops past RESPONSE_READ_BYTES, and it fails after the timeout whatever stage
 * it is in (waiting for one of the target's connections included).
 */
import dns from 'dns';
import http from 'http';
import https from 'https';
import net from 'net';

/**
 * Of a receiver's answer, reading stops once this much has come (the chunk that passes it is the
 * last one taken); the connection is then dropped, so a receiver sending megabytes costs nothing.
 * Only the status decides the delivery.
 */
export const RESPONSE_READ_BYTES = 4096;

/** A host's addresses, as `dns.lookup` with `all: true` answers them. */
export type Resolver = (hostname: string, options: dns.LookupOptions) => Promise<dns.LookupAddress[]>;

export const systemResolver: Resolver = (hostname, options) => dns.promises.lookup(hostname, { ...options, all: true });

const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, the metadata address 169.254.169.254 among them
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local, fd00:ec2::254 (a metadata address) among them
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6');

/** Whether an address is one a webhook may not reach (without WEBHOOK_ALLOW_PRIVATE). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]);
  const family = net.isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

/** The URL's refusal as a sentence, or the parsed URL. */
export function parseTarget(raw: string): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must be an http or https URL';
  if (url.username || url.password) return 'url must not carry credentials';
  if (url.hash) return 'url must not have a fragment';
  if (raw.length > 2048) return 'url must be at most 2048 characters';
  return url;
}

/** Every address of the URL's host, refused (TargetRefused) when one is private and that is not allowed. */
export async function checkTarget(url: URL, allowPrivate: boolean): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
  } catch (e) {
    throw new TargetRefused(`the host ${host} does not resolve (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!allowPrivate) {
    const bad = addresses.find(isPrivateAddress);
    if (bad !== undefined)
      throw new TargetRefused(
        `the host ${host} resolves to ${bad}, a loopback, private, link-local or reserved address (WEBHOOK_ALLOW_PRIVATE is off)`,
      );
  }
}

/** A lookup that refuses private addresses: the check at each connection, after DNS. */
function guardedLookup(allowPrivate: boolean, resolve: Resolver): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, options).then(
      (list) => {
        if (!list.length)
          return callback(Object.assign(new Error(`${hostname}: no address`), { code: 'ENOTFOUND' }), '', 0);
        const bad = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
        if (bad) return callback(new TargetRefused(`${hostname} resolves to ${bad.address}, a private address`), '', 0);
        if ((options as { all?: boolean }).all)
          return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
        callback(null, list[0].address, list[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

export interface DeliveryResult {
  ok: boolean;
  /** the HTTP status, when an answer came */
  status?: number;
  latencyMs: number;
  /** why it failed (a status, a timeout, a refused connection, a redirect, a TLS error) */
  error?: string;
}

export interface PosterOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** connections open to one target (host and port) at most */
  perTarget: number;
  /** where host names are resolved at each connection (the system's DNS unless given) */
  resolve?: Resolver;
}

/** Makes deliveries: keep-alive agents bounded per target, the guarded lookup, the timeout, the read bound. */
export class Poster {
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly lookup: net.LookupFunction;

  constructor(private readonly o: PosterOptions) {
    const common = {
      keepAlive: true,
      maxSockets: o.perTarget,
      maxFreeSockets: o.perTarget,
      scheduling: 'lifo' as const,
    };
    this.agents = { http: new http.Agent(common), https: new https.Agent(common) };
    this.lookup = guardedLookup(o.allowPrivate, o.resolve ?? systemResolver);
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  post(url: URL, headers: Record<string, string>, body: string): Promise<DeliveryResult> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.o.allowPrivate && net.isIP(host) && isPrivateAddress(host))
      return Promise.resolve({ ok: false, latencyMs: 0, error: `refused: ${host} is a private address` });
    const data = Buffer.from(body, 'utf8');
    const lib = url.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      let settled = false;
      const done = (r: Omit<DeliveryResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...r, latencyMs: latency() });
      };
      const req = lib.request(
        url,
        {
          method: 'POST',
          agent: url.protocol === 'https:' ? this.agents.https : this.agents.http,
          lookup: this.lookup,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(data.length),
            'user-agent': 'svc-indexer-webhooks/1',
          },
        },
        (res) => {
          const status = res.statusCode ?? 0;
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > RESPONSE_READ_BYTES) res.destroy(); // the rest is not read
          });
          const finish = () => {
            if (status >= 200 && status < 300) done({ ok: true, status });
            else if (status >= 300 && status < 400)
              done({ ok: false, status, error: `redirect ${status} (not followed)` });
            else done({ ok: false, status, error: `status ${status}` });
          };
          res.once('end', finish);
          res.once('close', finish);
          res.once('error', finish);
        },
      );
      const timer = setTimeout(() => {
        done({ ok: false, error: `timeout after ${this.o.timeoutMs} ms` });
        req.destroy();
      }, this.o.timeoutMs);
      req.once('error', (e: NodeJS.ErrnoException) =>
        done({
          ok: false,
          error: e instanceof TargetRefused ? `refused: ${e.message}` : `${e.code ?? e.name}: ${e.message}`,
        }),
      );
      req.end(data);
    });
  }
}
