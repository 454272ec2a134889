/**
 * Per-client fairness of the read surfaces (/v1, /v1/stream, /graphql): every request is charged
 * its cost, in units, to its client's token bucket (token-buckets.ts). A client is its API key
 * when it sends one, else its address by the product's one client-address rule (trust-proxy.ts).
 *
 * What a request costs is the surface's to say (costs.ts for /v1; the query's size for GraphQL);
 * the charge is settled when the answer's status is known: a 304 costs NOT_MODIFIED_COST, a
 * refused request (4xx) at most REFUSED_COST, whatever its estimate was.
 *
 * The budgets bite only under contention (work-conserving): a request beyond its client's budget is
 * still served when no other client has asked within the last `contentionMs` (RATE_LIMIT_CONTENTION_MS,
 * 1 s), since nobody waits for what it takes; it empties the bucket but runs no debt, so the client
 * holds its fair share again the moment another client asks. With another client asking, every
 * client's budget is its share, in the units of its requests' costs (costs.ts), as before.
 *
 * Every answer of a limited client carries the IETF RateLimit fields
 * (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: "client";q=<burst>;w=<seconds to
 * refill>` and `RateLimit: "client";r=<units left>;t=<seconds until full>`. Beyond the budget:
 * 429 too_many_requests with Retry-After (seconds until the bucket holds the request's cost).
 *
 * A client that keeps sending after a 429 is not read again on that connection until Retry-After
 * has passed (the connection's socket is paused): an honest client waits that long anyway, and an
 * abusive one cannot make the server spend its CPU answering 429s as fast as it can send.
 *
 * When the process is overloaded (load-shedder.ts), a client that has spent more than half of its
 * burst is answered 503 unavailable with Retry-After, so the quiet clients keep their latency.
 */
import crypto from 'crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'http';
import type { Request, Response } from 'express';
import { sendError } from './http-errors';
import { LoadShedder } from './load-shedder';
import { TokenBuckets, type Budget, type Take } from './token-buckets';
import { clientKeyOf } from './trust-proxy';

export type { Budget } from './token-buckets';

/** An API key: only its SHA-256 is configured, so the configuration never holds a key. */
export interface ApiKey {
  /** shown in RateLimit-Policy and logs; never the key */
  name: string;
  /** lower-case hex SHA-256 of the key as the client sends it */
  sha256: string;
  budget: Budget;
}

export interface FairShareSettings {
  /** each client address's budget (RATE_LIMIT_PER_S, RATE_LIMIT_BURST); false: no per-client limit */
  perClient: Budget | false;
  /** API keys with their own budgets (API_KEYS_FILE) */
  keys: readonly ApiKey[];
  /** event-loop delay (ms) above which spending clients are answered 503 (LOAD_SHED_DELAY_MS); 0: never */
  shedDelayMs: number;
  /**
   * how long (ms) after another client's request budgets bite (RATE_LIMIT_CONTENTION_MS); a
   * client beyond its budget with nobody else asking that long is served; 0: budgets always bite
   * (a fixed rate); default DEFAULT_CONTENTION_MS
   */
  contentionMs?: number;
}

/**
 * 300 units a second, 600 at once: a steady 300 point reads a second, 100 default pages or 14
 * pages of 100 txs; a client at 50 requests a second of mixed reads spends under half of it. The
 * burst is two seconds of refill: enough for any honest client's bursts, and it bounds what an
 * abusive client can take at once (measured by bench:fair: a burst of 3,000 let a fresh abuser
 * take 140 pages of 100 txs in its first second).
 */
export const DEFAULT_PER_CLIENT: Budget = { perSecond: 300, burst: 600 };

/**
 * A client beyond its budget is served while no other client has asked for a second: a paced
 * client asking more than once a second keeps every other client to its budget (bench:fair), and
 * a client alone gets what the server can give.
 */
export const DEFAULT_CONTENTION_MS = 1000;

export const DEFAULT_FAIR_SHARE: FairShareSettings = {
  perClient: DEFAULT_PER_CLIENT,
  keys: [],
  shedDelayMs: 500,
  contentionMs: DEFAULT_CONTENTION_MS,
};

/** What a 304 costs: the check of a tag, no store read, no body. */
export const NOT_MODIFIED_COST = 0.1;
/** The most a refused request (4xx) costs, whatever its estimate. */
export const REFUSED_COST = 1;
/** The longest a connection is left unread after a refusal (s). */
const MAX_PAUSE_S = 10;
/** Clients remembered as refused (until their Retry-After passes). */
const MAX_JAILED = 100_000;

/** A request let through (and charged), or how to refuse it. */
export type Decision =
  | {
      ok: true;
      client: Client;
      /** units taken from the client's bucket: the cost, or what was left when it was served on idle capacity */
      charged: number;
    }
  | {
      ok: false;
      code: 'unauthorized' | 'too_many_requests' | 'unavailable';
      message: string;
      headers: Record<string, string>;
      /** 0 for a refusal that waiting does not cure (401) */
      retryAfterSeconds: number;
      /** who was refused (none for an unknown key) */
      client?: Client;
    };

/** Who a request is charged to. */
export interface Client {
  /** the bucket's key: `key:<name>` or the address (clientKeyOf) */
  id: string;
  /** the RateLimit policy name */
  policy: 'client' | 'key';
  budget: Budget | false;
}

/** The key a request carries: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function presentedKey(req: IncomingMessage): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header.trim();
  const auth = req.headers.authorization;
  const bearer = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  return bearer?.[1];
}

export const sha256Hex = (text: string): string => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

function structuredInteger(n: number): string {
  return String(Math.max(0, Math.floor(n)));
}

/**
 * Who asked last: the most recent request of any client and the most recent one of a client
 * other than that one, so "has another client than c asked since t" is two comparisons.
 */
export class Contention {
  private last?: { id: string; at: number };
  private prev?: { id: string; at: number };

  asked(id: string, at: number): void {
    if (this.last?.id === id) this.last.at = at;
    else {
      this.prev = this.last;
      this.last = { id, at };
    }
  }

  /** When a client other than `id` last asked (-Infinity: never). */
  otherSince(id: string): number {
    const other = this.last && this.last.id !== id ? this.last : this.prev;
    return other?.at ?? -Infinity;
  }
}

export class FairShare {
  private readonly buckets: TokenBuckets;
  private readonly keys = new Map<string, ApiKey>();
  private readonly clients = new WeakMap<IncomingMessage, Client>();
  /** client id → until when it was told to wait (Retry-After) */
  private readonly jailed = new Map<string, number>();
  private readonly contention = new Contention();
  private readonly contentionMs: number;
  readonly shedder: LoadShedder;

  constructor(
    readonly settings: FairShareSettings,
    /** the request's address by the product's rule (req.ip behind Express; clientAddressOf for upgrades) */
    private readonly addressOf: (req: IncomingMessage) => string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.buckets = new TokenBuckets(100_000, now);
    for (const key of settings.keys) this.keys.set(key.sha256.toLowerCase(), key);
    this.shedder = new LoadShedder(settings.shedDelayMs);
    this.contentionMs = settings.contentionMs ?? DEFAULT_CONTENTION_MS;
  }

  /**
   * Whether `client`'s budget bites now: another client asked within `contentionMs` (it would
   * wait for what this one takes). Records `client`'s own request.
   */
  private contended(client: Client): boolean {
    const now = this.now();
    const contended = this.contentionMs <= 0 || now - this.contention.otherSince(client.id) < this.contentionMs;
    this.contention.asked(client.id, now);
    return contended;
  }

  /**
   * Takes `cost` from the client's bucket; beyond it, with nobody else asking, takes what is left
   * and lets the request through (served on idle capacity, no debt). The units taken, or the
   * refusal.
   */
  private takeShare(client: Client, budget: Budget, cost: number): { charged: number } | { refused: Take } {
    const contended = this.contended(client);
    const taken = this.buckets.take(client.id, budget, cost);
    if (taken.allowed) return { charged: cost };
    if (contended) return { refused: taken };
    this.buckets.adjust(client.id, budget, -taken.remaining);
    return { charged: taken.remaining };
  }

  /** The request's client; undefined when it sends a key that is not configured. */
  identify(req: IncomingMessage): Client | undefined {
    const known = this.clients.get(req);
    if (known) return known;
    const presented = presentedKey(req);
    let client: Client;
    if (presented !== undefined) {
      const key = this.keys.get(sha256Hex(presented));
      if (!key) return undefined;
      client = { id: `key:${key.name}`, policy: 'key', budget: key.budget };
    } else {
      client = { id: clientKeyOf(this.addressOf(req)), policy: 'client', budget: this.settings.perClient };
    }
    this.clients.set(req, client);
    return client;
  }

  /** The RateLimit fields of `client` now (none for a client without a budget). */
  headers(client: Client): Record<string, string> {
    if (!client.budget) return {};
    const { remaining, fullInSeconds } = this.buckets.peek(client.id, client.budget);
    return this.fields(client, client.budget, remaining, fullInSeconds);
  }

  private fields(client: Client, budget: Budget, remaining: number, fullInSeconds: number): Record<string, string> {
    const window = Math.max(1, Math.ceil(budget.burst / budget.perSecond));
    return {
      'RateLimit-Policy': `"${client.policy}";q=${structuredInteger(budget.burst)};w=${window}`,
      RateLimit: `"${client.policy}";r=${structuredInteger(remaining)};t=${Math.ceil(fullInSeconds)}`,
    };
  }

  /**
   * Charges `cost` units to the request's client, or says how to refuse it: 401 for a key that
   * is not configured, 503 when the process is overloaded and the client spends fast, 429 beyond
   * its budget while another client is asking.
   */
  decide(req: IncomingMessage, cost: number): Decision {
    const client = this.identify(req);
    if (!client)
      return {
        ok: false,
        code: 'unauthorized',
        message: 'unknown API key: send a configured key, or none',
        headers: { 'WWW-Authenticate': 'Bearer' },
        retryAfterSeconds: 0,
      };
    if (this.shedder.overloaded && this.spending(client))
      return {
        ok: false,
        code: 'unavailable',
        message: 'the server is overloaded; retry later',
        headers: { 'Retry-After': '1', ...this.headers(client) },
        retryAfterSeconds: 1,
        client,
      };
    if (!client.budget) {
      this.contended(client);
      return { ok: true, client, charged: 0 };
    }
    const share = this.takeShare(client, client.budget, cost);
    if ('charged' in share) return { ok: true, client, charged: share.charged };
    const taken = share.refused;
    return {
      ok: false,
      code: 'too_many_requests',
      message: `rate limit: this request costs ${Math.ceil(cost)} units and ${Math.floor(taken.remaining)} are left; see the RateLimit headers`,
      headers: { 'Retry-After': String(taken.retryAfterSeconds), ...this.headers(client) },
      retryAfterSeconds: taken.retryAfterSeconds,
      client,
    };
  }

  /**
   * `decide` for an Express request: true, go on (the answer will carry the RateLimit fields,
   * and its charge is settled by its status); false, answered with `{error, code}`, and after a
   * 429 or 503 the connection is not read again until Retry-After has passed.
   */
  admit(req: Request, res: Response, cost: number): boolean {
    const decision = this.decide(req, cost);
    if (decision.ok) {
      this.settleAnswer(res, decision.client, cost, decision.charged);
      return true;
    }
    const send = () => sendError(res, decision.code, decision.message, decision.headers);
    if (decision.retryAfterSeconds > 0) this.refuse(req, res, decision.client, decision.retryAfterSeconds, send);
    else send();
    return false;
  }

  /**
   * Sends a refusal that waiting cures (429, 503): at once, the connection then left unread until
   * Retry-After has passed. A client refused again before then ignored Retry-After (perhaps on a
   * new connection): its answer is sent only once that time has passed, so however many
   * connections it opens, each costs the server one parse a second at most.
   */
  refuse(
    req: IncomingMessage,
    res: ServerResponse,
    client: Client | undefined,
    retryAfterSeconds: number,
    send: () => void,
  ): void {
    const now = this.now();
    const ms = Math.min(MAX_PAUSE_S, retryAfterSeconds) * 1000;
    const jailedUntil = client ? this.jailed.get(client.id) : undefined;
    if (jailedUntil !== undefined && jailedUntil > now) {
      const timer = setTimeout(() => {
        if (!res.destroyed) send();
      }, jailedUntil - now);
      timer.unref();
      res.once('close', () => clearTimeout(timer));
    } else {
      if (client) this.jail(client.id, now + ms);
      send();
    }
    pauseAfter(req, res, ms);
  }

  private jail(id: string, until: number): void {
    this.jailed.delete(id); // re-inserted last: Map order is the order of refusals
    this.jailed.set(id, until);
    if (this.jailed.size <= MAX_JAILED) return;
    const now = this.now();
    for (const [key, t] of this.jailed) {
      if (this.jailed.size <= MAX_JAILED / 2) break;
      if (t <= now || this.jailed.size > MAX_JAILED) this.jailed.delete(key);
    }
  }

  /** More than half of the client's burst spent (every client counts as spending when there is no budget). */
  private spending(client: Client): boolean {
    if (!client.budget) return true;
    return this.buckets.peek(client.id, client.budget).remaining < client.budget.burst / 2;
  }

  /** Adds `units` to the client's charge (a stream's replay reads), the bucket may go below zero. */
  charge(client: Client, units: number): void {
    if (client.budget) this.buckets.adjust(client.id, client.budget, -units);
  }

  /**
   * Resolves once the client's bucket holds `cost` units and takes them (at once when it does, or
   * when no other client is asking, as `decide`):
   * for work that is already under way and waits instead of being refused (a stream's replay).
   * Resolves false when `gone()` turns true first.
   */
  async take(client: Client, cost: number, gone: () => boolean): Promise<boolean> {
    if (!client.budget) return true;
    for (;;) {
      if (gone()) return false;
      const share = this.takeShare(client, client.budget, cost);
      if ('charged' in share) return true;
      const taken = share.refused;
      const waitMs = Math.min(1000, ((cost - taken.remaining) / client.budget.perSecond) * 1000);
      await new Promise((resolve) => setTimeout(resolve, Math.max(10, waitMs)));
    }
  }

  /**
   * For a request `decide` let through at `cost` (`charged` of it taken: less when it was served on
   * idle capacity): the answer's status settles the charge, and its
   * headers get the RateLimit fields, when Node writes them (every answer goes through writeHead,
   * an implicit one included).
   */
  settleAnswer(res: ServerResponse, client: Client, cost: number, charged = cost): void {
    const budget = client.budget;
    if (!budget) return;
    const writeHead = res.writeHead;
    res.writeHead = ((status: number, ...rest: unknown[]) => {
      res.writeHead = writeHead;
      const owed = status === 304 ? NOT_MODIFIED_COST : status >= 400 ? Math.min(cost, REFUSED_COST) : cost;
      if (owed < charged) this.buckets.adjust(client.id, budget, charged - owed);
      const { remaining, fullInSeconds } = this.buckets.peek(client.id, budget);
      const fields = this.fields(client, budget, remaining, fullInSeconds);
      // headers given to writeHead win over those set before; set ours on both forms
      const last = rest[rest.length - 1];
      if (last && typeof last === 'object' && !Array.isArray(last)) Object.assign(last as OutgoingHttpHeaders, fields);
      else for (const [name, value] of Object.entries(fields)) res.setHeader(name, value);
      return (writeHead as (...a: unknown[]) => ServerResponse).call(res, status, ...rest);
    }) as typeof res.writeHead;
  }

  close(): void {
    this.shedder.close();
  }
}

/** Once `res` is sent, leaves the connection unread for `ms` (the client's next request waits in its socket). */
export function pauseAfter(req: IncomingMessage, res: ServerResponse, ms: number): void {
  const socket = req.socket;
  res.once('finish', () => {
    if (socket.destroyed) return;
    socket.pause();
    const timer = setTimeout(() => socket.resume(), ms);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}
