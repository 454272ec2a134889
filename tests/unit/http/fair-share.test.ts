/** The fair share over real HTTP on loopback: budgets, headers, refusals, keys, shedding, idle capacity. */
import express from 'express';
import http, { type IncomingMessage, type Server } from 'http';
import type { AddressInfo, Socket } from 'net';
import { FairShare, sha256Hex, type FairShareSettings } from '../../../src/http/fair-share';

const SETTINGS: FairShareSettings = {
  perClient: { perSecond: 10, burst: 30 },
  keys: [{ name: 'explorer', sha256: sha256Hex('s3cret-key'), budget: { perSecond: 1000, burst: 5000 } }],
  shedDelayMs: 0,
};

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(
  port: number,
  path: string,
  o: { agent?: http.Agent; headers?: Record<string, string>; from?: string } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, agent: o.agent ?? false, headers: o.headers, localAddress: o.from },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
  });
}

describe('FairShare', () => {
  let server: Server;
  let port: number;
  let fair: FairShare;
  const sockets: Socket[] = [];

  beforeEach(async () => {
    // a clock that stands still: no refill between requests, so the figures do not depend on the machine's speed
    fair = new FairShare(
      SETTINGS,
      (req) => (req as express.Request).ip,
      () => 1_000_000,
    );
    const app = express();
    app.use((req, res, next) => {
      sockets.push(req.socket);
      const cost = Number(req.query.cost ?? 1);
      if (fair.admit(req, res, cost)) next();
    });
    app.get('/ok', (_req, res) => void res.json({ ok: true }));
    app.get('/same', (_req, res) => void res.status(304).end());
    app.get('/missing', (_req, res) => void res.status(404).json({ error: 'not found', code: 'not_found' }));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  });

  afterEach(async () => {
    fair.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  /** Another client (127.0.0.3) asks: budgets bite from now (the clock stands still: for good). */
  const contend = async () => expect((await get(port, '/ok', { from: '127.0.0.3' })).status).toBe(200);

  test('an idle server never refuses: a sequential client alone is served beyond its budget, and refused once another client asks', async () => {
    const alone = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const answers: Answer[] = [];
    // 20 requests of 10 units, 200 units against a budget of 30 and no refill: nobody else asks
    for (let i = 0; i < 20; i++) answers.push(await get(port, '/ok?cost=10', { agent: alone, from: '127.0.0.2' }));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    // the headers still say where it stands: its budget is spent, the rest was the server's idle capacity
    expect(answers[1].headers.ratelimit).toBe('"client";r=10;t=2');
    expect(answers[19].headers.ratelimit).toBe('"client";r=0;t=3');
    await contend();
    const refused = await get(port, '/ok?cost=10', { agent: alone, from: '127.0.0.2' });
    expect(refused.status).toBe(429);
    // no debt from what it took alone: its wait is that of an empty bucket (10 units at 10 a second)
    expect(refused.headers['retry-after']).toBe('1');
    alone.destroy();
  });

  test('every answer carries the IETF RateLimit fields of the client address budget', async () => {
    const a = await get(port, '/ok?cost=5');
    expect(a.status).toBe(200);
    expect(a.headers['ratelimit-policy']).toBe('"client";q=30;w=3');
    expect(a.headers.ratelimit).toBe('"client";r=25;t=1');
  });

  test('attack: one address spending everything gets 429 with Retry-After; another address is still served', async () => {
    await contend();
    const abusive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await get(port, '/ok?cost=21', { agent: abusive, from: '127.0.0.2' })).status).toBe(200);
    const refused = await get(port, '/ok?cost=21', { agent: abusive, from: '127.0.0.2' });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({
      error: 'rate limit: this request costs 21 units and 9 are left; see the RateLimit headers',
      code: 'too_many_requests',
    });
    expect(refused.headers['retry-after']).toBe('2');
    expect(refused.headers.ratelimit).toBe('"client";r=9;t=3');
    // the abusive connection is left unread until Retry-After: it cannot make the server answer 429s as fast as it sends
    await new Promise((r) => setImmediate(r));
    expect(sockets[sockets.length - 1].isPaused()).toBe(true);
    abusive.destroy();
    const polite = await get(port, '/ok', { from: '127.0.0.1' });
    expect(polite.status).toBe(200);
    expect(polite.headers.ratelimit).toBe('"client";r=29;t=1');
  });

  test('attack: a client that ignores Retry-After and reconnects gets its next refusal only once that time has passed', async () => {
    await contend();
    expect((await get(port, '/ok?cost=30', { from: '127.0.0.2' })).status).toBe(200);
    const first = await get(port, '/ok?cost=30', { from: '127.0.0.2' }); // a new connection each time
    expect(first.status).toBe(429);
    const started = Date.now();
    const second = await get(port, '/ok?cost=30', { from: '127.0.0.2' });
    expect(second.status).toBe(429);
    // a lower bound only: held until the first Retry-After (3 s) was over, so a reconnecting
    // abuser costs the server one parse per connection per Retry-After, not one per round trip
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    expect((await get(port, '/ok', { from: '127.0.0.1' })).status).toBe(200);
  });

  test('attack: X-Forwarded-For is not a way to a fresh budget (the rule is the socket peer here)', async () => {
    await contend();
    for (let i = 0; i < 3; i++) await get(port, '/ok?cost=10', { headers: { 'X-Forwarded-For': `203.0.113.${i}` } });
    const r = await get(port, '/ok?cost=10', { headers: { 'X-Forwarded-For': '198.51.100.1' } });
    expect(r.status).toBe(429);
  });

  test('a 304 costs almost nothing, a refused request at most 1, whatever their estimate', async () => {
    await get(port, '/same?cost=20');
    const after304 = await get(port, '/ok?cost=1');
    expect(after304.headers.ratelimit).toBe('"client";r=28;t=1'); // 30 - 0.1 - 1
    await get(port, '/missing?cost=20');
    expect((await get(port, '/ok')).headers.ratelimit).toBe('"client";r=26;t=1');
  });

  test('an API key has its own budget, named "key"; an unknown key is 401 and never the address budget', async () => {
    const keyed = await get(port, '/ok?cost=25', { headers: { Authorization: 'Bearer s3cret-key' } });
    expect(keyed.headers['ratelimit-policy']).toBe('"key";q=5000;w=5');
    expect(keyed.headers.ratelimit).toBe('"key";r=4975;t=1');
    // the same key by the other header: the same budget (refilled by 1000 a second meanwhile)
    const viaHeader = await get(port, '/ok', { headers: { 'X-API-Key': 's3cret-key' } });
    expect(viaHeader.headers.ratelimit).toMatch(/^"key";r=49[789]\d;t=1$/);
    expect((await get(port, '/ok')).headers.ratelimit).toBe('"client";r=29;t=1');
    const unknown = await get(port, '/ok', { headers: { 'X-API-Key': 'guess' } });
    expect(unknown.status).toBe(401);
    expect(JSON.parse(unknown.body)).toEqual({
      error: 'unknown API key: send a configured key, or none',
      code: 'unauthorized',
    });
    expect(unknown.body).not.toContain('guess');
  });

  test('overloaded: a client that spent more than half of its burst is answered 503, a quiet one is served', async () => {
    await get(port, '/ok?cost=20', { from: '127.0.0.2' });
    Object.defineProperty(fair.shedder, 'overloaded', { get: () => true });
    const shed = await get(port, '/ok', { from: '127.0.0.2' });
    expect(shed.status).toBe(503);
    expect(JSON.parse(shed.body).code).toBe('unavailable');
    expect(shed.headers['retry-after']).toBe('1');
    expect((await get(port, '/ok', { from: '127.0.0.1' })).status).toBe(200);
  });
});

/** A request of `address` (or with `key`), as `decide` sees it. */
const request = (address: string, key?: string) =>
  ({ address, headers: key ? { 'x-api-key': key } : {} }) as unknown as IncomingMessage;

describe('FairShare: budgets bite under contention only', () => {
  let clock = 1_000_000;
  const make = (contentionMs?: number) =>
    new FairShare(
      { perClient: { perSecond: 10, burst: 30 }, keys: [], shedDelayMs: 0, contentionMs },
      (req) => (req as unknown as { address: string }).address,
      () => clock,
    );

  test('a client alone beyond its budget is served until another client asks, and again once nobody has for contentionMs', () => {
    const fair = make(1000);
    const a = request('10.0.0.1');
    const b = request('10.0.0.2');
    expect(fair.decide(a, 30)).toMatchObject({ ok: true, charged: 30 });
    // alone: its bucket is empty, the request is served on idle capacity (charged what was left: nothing)
    expect(fair.decide(a, 30)).toMatchObject({ ok: true, charged: 0 });
    expect(fair.decide(b, 1)).toMatchObject({ ok: true, charged: 1 });
    clock += 999; // b asked 999 ms ago: a's budget bites (it holds 9.99 units of the 30 asked)
    expect(fair.decide(a, 30)).toMatchObject({ ok: false, code: 'too_many_requests', retryAfterSeconds: 3 });
    clock += 1; // nobody else for 1000 ms: served again
    expect(fair.decide(a, 30)).toMatchObject({ ok: true, charged: 10 });
    expect(fair.headers(fair.identify(a)!).RateLimit).toBe('"client";r=0;t=3');
    fair.close();
  });

  test('every client of two that keep asking is held to its budget; contentionMs 0 is a fixed rate even alone', () => {
    const shared = make(1000);
    const [a, b] = [request('10.0.0.1'), request('10.0.0.2')];
    const served = { a: 0, b: 0 };
    for (let i = 0; i < 10; i++) {
      if (shared.decide(a, 10).ok) served.a++;
      if (shared.decide(b, 10).ok) served.b++;
    }
    expect(served).toEqual({ a: 3, b: 3 });
    shared.close();
    const fixed = make(0);
    const statuses = [0, 1, 2, 3].map(() => fixed.decide(a, 10).ok);
    expect(statuses).toEqual([true, true, true, false]);
    fixed.close();
  });

  test("a stream's replay alone reads on without waiting for its budget; with another client asking it waits", async () => {
    const fair = make(1000);
    const a = request('10.0.0.1');
    const client = fair.identify(a)!;
    for (let i = 0; i < 5; i++) await expect(fair.take(client, 30, () => false)).resolves.toBe(true);
    fair.decide(request('10.0.0.2'), 1);
    let gone = false;
    const waiting = fair.take(client, 30, () => gone);
    await new Promise((r) => setTimeout(r, 50));
    gone = true;
    await expect(waiting).resolves.toBe(false);
    fair.close();
  });
});
