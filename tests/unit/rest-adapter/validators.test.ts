/**
 * ETag, If-None-Match and Cache-Control of /v1 JSON answers (rest-adapter/http/validators.ts and
 * respond.ts) on routes with a scripted indexed height: which requests get 304, and which are
 * answered without making the answer.
 */
import fs from 'fs';
import type { AddressInfo } from 'net';
import type { Server } from 'http';
import express, { Router } from 'express';
import { compileParameterChecks } from '../../../src/http/openapi-params';
import { DEFAULT_OPENAPI_PATH } from '../../../rest-adapter/app';
import { HeightWatcher } from '../../../rest-adapter/http/height-watcher';
import { pathParams } from '../../../src/http/contract-routes';
import { jsonRoutes } from '../../../rest-adapter/http/respond';
import { bytesTag, IMMUTABLE_CACHE_CONTROL, ifNoneMatchHits, Validators } from '../../../rest-adapter/http/validators';
import { ResponseCache } from '../../../rest-adapter/http/response-cache';

describe('ifNoneMatchHits (RFC 9110 13.1.2, weak comparison)', () => {
  const tag = '"h7.abc.def"';
  it.each([
    ['"h7.abc.def"', true],
    ['W/"h7.abc.def"', true],
    ['"x", "h7.abc.def"', true],
    ['"x",W/"h7.abc.def" , "y"', true],
    ['*', true],
    [' * ', true],
    ['"h7.abc.dex"', false],
    ['h7.abc.def', false], // not quoted: no entity-tag
    ['"H7.ABC.DEF"', false], // opaque tags compare by octets
    ['', false],
  ])('%j -> %s', (field, hits) => expect(ifNoneMatchHits(field, tag)).toBe(hits));

  it('no field matches nothing; a weak current tag compares by its opaque part', () => {
    expect(ifNoneMatchHits(undefined, tag)).toBe(false);
    expect(ifNoneMatchHits('"h7.abc.def"', 'W/"h7.abc.def"')).toBe(true);
  });
});

describe('pathParams (the routes checked before routing)', () => {
  const match = pathParams('/v1/txs/{hash}');
  it.each([
    ['/v1/txs/AB12', { hash: 'AB12' }],
    ['/v1/txs/a%20b', { hash: 'a b' }],
    ['/v1/txs/', undefined],
    ['/v1/txs/AB/x', undefined],
    ['/v1/txs', undefined],
    ['/v1/txs/%E0%A4%A', undefined], // undecodable: the router refuses it too
  ])('%s -> %j', (path, params) => expect(match(path)).toEqual(params));
});

describe('/v1 JSON routes with validators', () => {
  const document = fs.readFileSync(DEFAULT_OPENAPI_PATH, 'utf8');
  const head = { height: 10, intervalMs: 5_400 as number | null, generation: 'g1' };
  let watcher: HeightWatcher;
  let server: Server;
  let base: string;
  const made = { tx: 0, page: 0, status: 0, checks: 0 };
  let statusBody = 'one';
  /** run while /v1/invariants is made (a reconciler pass landing mid-answer) */
  let whileMakingChecks = async () => undefined as void;

  beforeAll(async () => {
    watcher = new HeightWatcher(
      async () => ({
        indexedHeight: head.height,
        blockIntervalMs: head.intervalMs,
        reconcilerGeneration: head.generation,
      }),
      60_000,
    );
    await watcher.poll(); // polled by hand below
    const validators = new Validators(watcher, { document, hrp: 'svc', gasDenom: 'usvc' });
    const router = Router({ caseSensitive: true, strict: true });
    const cache = new ResponseCache(watcher, { maxBytes: 1 << 20 });
    const get = jsonRoutes(router, cache, compileParameterChecks(document), [], validators);
    const known = new Set(['A'.repeat(64)]);
    get('/v1/txs/{hash}', async (req) => (made.tx++, { hash: String(req.params.hash) }) as never, {
      fixedPerHeight: true,
      immutable: { exists: (params) => known.has(params.hash) },
    });
    get('/v1/txs', async () => (made.page++, { txs: [], height: head.height }) as never, { fixedPerHeight: true });
    get('/v1/status', async () => (made.status++, { status: statusBody }) as never);
    get(
      '/v1/invariants',
      async () => {
        made.checks++;
        await whileMakingChecks();
        return { checks: [head.generation] } as never;
      },
      { fixedPerHeightAndChecks: true },
    );
    const app = express().use(validators.notModified, router);
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    watcher.stop();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function call(path: string, headers: Record<string, string> = {}, method = 'GET') {
    const res = await fetch(base + path, { headers, method });
    return {
      status: res.status,
      etag: res.headers.get('etag'),
      cc: res.headers.get('cache-control'),
      cacheStatus: res.headers.get('cache-status'),
      text: await res.text(),
    };
  }

  it('a tx known to exist: identity ETag, immutable, and 304 without making the answer', async () => {
    const path = `/v1/txs/${'A'.repeat(64)}`;
    const ok = await call(path);
    expect(ok.status).toBe(200);
    expect(ok.cc).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(ok.etag).toMatch(/^"i\./);
    const before = made.tx;
    const again = await call(path, { 'If-None-Match': `W/${ok.etag}` });
    expect([again.status, again.text, again.etag, again.cc]).toEqual([304, '', ok.etag, IMMUTABLE_CACHE_CONTROL]);
    expect(made.tx).toBe(before);
    const other = await call(path, { 'If-None-Match': '"i.other"' });
    expect(other.status).toBe(200);
  });

  it('a tx not known yet: the answer is read (here from the response cache), then compared: 304 with the same tag', async () => {
    const path = `/v1/txs/${'B'.repeat(64)}`;
    const ok = await call(path);
    const again = await call(path, { 'If-None-Match': ok.etag! });
    expect([again.status, again.etag]).toEqual([304, ok.etag]);
  });

  it('a head page: height tag, one block interval of freshness; a new height changes the tag', async () => {
    const ok = await call('/v1/txs?limit=5');
    expect(ok.etag).toMatch(/^"h10\./);
    expect(ok.cc).toBe('public, max-age=5');
    const before = made.page;
    expect((await call('/v1/txs?limit=5', { 'If-None-Match': ok.etag! })).status).toBe(304);
    expect((await call('/v1/txs?limit=5', { 'If-None-Match': ok.etag! }, 'HEAD')).status).toBe(304);
    expect(made.page).toBe(before);
    expect((await call('/v1/txs?limit=6')).etag).not.toBe(ok.etag); // another URL
    // `*` matches only once the answer is made: before, nothing tells that this URL has a 200 answer (it may be a 400)
    expect((await call('/v1/txs?limit=8', { 'If-None-Match': '*' })).status).toBe(304);
    expect(made.page).toBe(before + 2);
    head.height = 11;
    head.intervalMs = 300;
    await watcher.poll();
    const moved = await call('/v1/txs?limit=5', { 'If-None-Match': ok.etag! });
    expect(moved.status).toBe(200);
    expect(moved.etag).toMatch(/^"h11\./);
    expect(moved.cc).toBe('public, max-age=0');
  });

  it('an answer with reconciler rows: a checks tag, 304 without making the answer; a new generation or height changes the tag', async () => {
    head.height = 20;
    head.generation = 'g1';
    await watcher.poll();
    const ok = await call('/v1/invariants');
    expect(ok.etag).toMatch(/^"c20\.g1\./);
    expect(ok.cc).toBe('public, max-age=0');
    const before = made.checks;
    const again = await call('/v1/invariants', { 'If-None-Match': ok.etag! });
    expect([again.status, again.text, again.etag, again.cc]).toEqual([304, '', ok.etag, ok.cc]);
    // answered before routing: neither made nor taken from the response cache (which says so in Cache-Status)
    expect([made.checks, again.cacheStatus]).toEqual([before, null]);
    // a new generation (the reconciler wrote a pass) at the same height: the old tag no longer matches
    head.generation = 'g2';
    await watcher.poll();
    const renewed = await call('/v1/invariants', { 'If-None-Match': ok.etag! });
    expect([renewed.status, renewed.text]).toEqual([200, '{"checks":["g2"]}']);
    expect(renewed.etag).toMatch(/^"c20\.g2\./);
    expect(made.checks).toBe(before + 1);
    head.height = 21;
    await watcher.poll();
    const moved = await call('/v1/invariants', { 'If-None-Match': renewed.etag! });
    expect(moved.status).toBe(200);
    expect(moved.etag).toMatch(/^"c21\.g2\./);
  });

  it('an answer with reconciler rows made while the generation moved: a tag of its bytes', async () => {
    head.height += 1; // nothing kept in the response cache at this height: the answer is made
    await watcher.poll();
    whileMakingChecks = async () => {
      head.generation = 'g3'; // a pass lands while the answer is made: it may hold either generation's rows
      await watcher.poll();
    };
    try {
      const ok = await call('/v1/invariants');
      expect(ok.etag).toBe(bytesTag(Buffer.from(ok.text)));
    } finally {
      whileMakingChecks = async () => undefined;
    }
    const next = await call('/v1/invariants');
    expect(next.etag).toMatch(/^"c\d+\.g3\./);
  });

  it('an answer of neither kind: a tag of its bytes, 304 only while the bytes are the same', async () => {
    statusBody = 'one';
    const ok = await call('/v1/status');
    expect(ok.etag).toBe(bytesTag(Buffer.from(ok.text)));
    expect((await call('/v1/status', { 'If-None-Match': ok.etag! })).status).toBe(304);
    statusBody = 'two';
    expect((await call('/v1/status', { 'If-None-Match': ok.etag! })).status).toBe(200);
  });

  it('HEAD answers as GET without a body, with the same validators', async () => {
    const get = await call('/v1/txs?limit=7');
    const headRes = await call('/v1/txs?limit=7', {}, 'HEAD');
    expect([headRes.status, headRes.text, headRes.etag, headRes.cc]).toEqual([200, '', get.etag, get.cc]);
  });
});
