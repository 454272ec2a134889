/**
 * Store rules on a copy of the node-built store in another schema (the schema name is
 * configuration): every response reads one snapshot on one connection (one statement, or
 * one REPEATABLE READ READ ONLY transaction), the response cache is keyed by the indexed
 * height (and the reconciler's generation for answers with its rows), and those rows
 * (InvariantCheck, Svc20Check, I8Check, which the node does not write) reach /v1/invariants,
 * the asset, the routes and drift_total. The validators: which answers are 304 before
 * routing, and which tags a new height or a reconciler pass (the real one) changes.
 */
import type { AddressInfo } from 'net';
import type { Server } from 'http';
import { Pool } from 'pg';
import { createRestApp } from '../../../rest-adapter/app';
import { runPass } from '../../../reconciler/pass';
import { tablesIn } from '../../../src/store';
import { getIndexedStore, IndexedStore } from '../../harness/indexed-store';
import { loadOpenApiValidator } from '../../harness/openapi-validator';
import { observedPool } from '../../harness/observed-pool';

jest.setTimeout(300_000);

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are asserted field by field */

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Copies every table of `from` (rows, columns, indexes) into a new schema `to`. */
async function cloneSchema(pool: Pool, from: string, to: string): Promise<void> {
  const tables = await pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`,
    [from],
  );
  await pool.query(`CREATE SCHEMA ${quote(to)}`);
  for (const { table_name } of tables.rows) {
    await pool.query(
      `CREATE TABLE ${quote(to)}.${quote(table_name)} (LIKE ${quote(from)}.${quote(table_name)} INCLUDING ALL)`,
    );
    await pool.query(`INSERT INTO ${quote(to)}.${quote(table_name)} SELECT * FROM ${quote(from)}.${quote(table_name)}`);
  }
}

/**
 * A pool that records, per checked-out connection, the statements a request ran. A session is
 * listed at its first statement, not at checkout: a connection the height watcher has checked out
 * but not yet used would otherwise be counted as a request's read (nothing tells it apart yet).
 */
function recordingPool(base: Pool): { pool: Pool; sessions: string[][] } {
  const sessions: string[][] = [];
  const pool = observedPool(base, () => {
    const statements: string[] = [];
    return (query) => {
      if (statements.length === 0) sessions.push(statements);
      statements.push(typeof query === 'string' ? query : String((query as { text: string }).text));
    };
  });
  return { pool, sessions };
}

describe('store rules on a copy of the node-built store', () => {
  let store: IndexedStore;
  let schema: string;
  let server: Server;
  let base: string;
  let sessions: string[][];
  const openapi = loadOpenApiValidator();
  let assetId: string;
  let routeId: string;
  let baseDrift: number;

  async function get(path: string): Promise<any> {
    const res = await fetch(base + path);
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    const body = JSON.parse(await res.text());
    openapi.check({ method: 'GET', path, status: res.status, headers, body });
    if (res.status !== 200) throw new Error(`${path} -> ${res.status} ${JSON.stringify(body)}`);
    return body;
  }

  beforeAll(async () => {
    store = await getIndexedStore();
    schema = `svc copy ${process.pid}`; // quoted identifiers: spaces and all
    await cloneSchema(store.pool, store.schema, schema);
    const q = (text: string, values?: unknown[]) => store.pool.query(text.replace(/\$S/g, quote(schema)), values);
    assetId = store.summary.assets[0].assetId;
    routeId = [...store.summary.routes].sort()[0];
    baseDrift = Number((await q('SELECT drift_total FROM $S.chain_totals')).rows[0].drift_total);
    // what the reconciler writes: an older agreeing check, then a disagreement on kind 0
    const snapshot = JSON.stringify({ exists: true, supply: '5', holder_count: 1, holders_sum: '5', accruals: [] });
    for (const [id, kind, height, agree] of [
      ['a', 0, 10, true],
      ['b', 1, 10, true],
      ['c', 0, 20, false],
    ] as const) {
      await q(
        'INSERT INTO $S.invariant_checks (id, asset_id, kind_id, height, agree, chain, indexer) VALUES ($1, $2, $3, $4, $5, $6, $6)',
        [id, assetId, kind, height, agree, snapshot],
      );
    }
    // registry rows: kind 0 (old disagreement superseded), kind 1 not evaluated (never drift), the bundle row disagreeing
    for (const [id, kind, bundle, height, evaluated, agree] of [
      ['r1', 0, false, 5, true, false],
      ['r2', 0, false, 10, true, true],
      ['r3', 1, false, 10, false, false],
      ['r4', null, true, 10, true, false],
    ] as const) {
      await q(
        'INSERT INTO $S.svc20_checks (id, asset_id, kind_id, bundle, height, indexer_address, chain_address, evaluated, agree) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
        [id, assetId, kind, bundle, height, '', '', evaluated, agree],
      );
    }
    await q(
      `INSERT INTO $S.i8_checks (id, route_id, height, chain_actual, indexer_actual, chain_ok, evaluated, agree) VALUES ('i1', $1, 10, '5', '5', true, true, true), ('i2', $1, 20, '6', '5', true, true, false)`,
      [routeId],
    );
    await q('UPDATE $S.chain_totals SET drift_total = drift_total + 3'); // post-value drifts the handlers would have recorded
    await q(
      `UPDATE $S.kinds SET policy_override = '{"transfer":"TRANSFER_MODE_ATTESTED","attestation_type":"kyc","attester":"","allowlist":[]}' WHERE asset_id = $1 AND kind_id = 0`,
      [assetId],
    );

    const recording = recordingPool(store.pool);
    sessions = recording.sessions;
    // no response cache and no height poller here: the poller would use the recorded pool too (the cache has its own tests below)
    const app = createRestApp({ pool: recording.pool, schema, hrp: 'svc', responseCache: false, heightWatch: false });
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await store?.pool.query(`DROP SCHEMA IF EXISTS ${quote(schema)} CASCADE`);
    await store?.close();
  });

  it('each response reads one statement on one connection (one snapshot, no BEGIN and COMMIT)', async () => {
    const holder = store.summary.accounts['holder-0'];
    const paths = [
      '/v1/status',
      '/v1/stats',
      '/v1/blocks?limit=3',
      '/v1/blocks/2',
      '/v1/txs?limit=5',
      `/v1/txs?limit=2&method=${encodeURIComponent('/svc.settlement.v1.MsgPropose')}`,
      `/v1/assets/${assetId}/graph`,
      `/v1/assets/${assetId}/kinds/0/holders`,
      `/v1/assets/${assetId}/liquidation`,
      `/v1/assets/${assetId}/events`,
      `/v1/accounts/${holder}`,
      `/v1/accounts/${holder}/attestations`,
      `/v1/attesters/${holder}`,
      '/v1/settlements?limit=3',
      '/v1/bridge/routes',
      '/v1/lookup/1',
      '/v1/invariants',
    ];
    // a connection's first use sets its session (statement_timeout, datestyle) once, and it sets
    // its planning when a statement needs the other one (counted in planning.test.ts)
    const withoutSession = (statements: string[]) =>
      statements.filter((text) => !/^SET (statement_timeout = \d+; SET datestyle|plan_cache_mode)/.test(text));
    for (const path of paths) {
      const before = sessions.length;
      await get(path);
      const mine = sessions.slice(before).map(withoutSession);
      expect(`${path}: ${mine.length} connection(s)`).toBe(`${path}: 1 connection(s)`);
      const oneStatement = mine[0].length === 1 && /^\s*(SELECT|WITH|\()/.test(mine[0][0]);
      expect(`${path}: ${oneStatement ? 'one statement' : mine[0].join(' | ')}`).toBe(`${path}: one statement`);
    }
  });

  it('the asset: one statement while its sum_claimable is kept for the height; else answered again from one transaction', async () => {
    const other = store.summary.assets[1].assetId; // not asked for yet at this height
    const before = sessions.length;
    const first = await get(`/v1/assets/${other}`);
    const probeAndSnapshot = sessions.slice(before);
    expect(probeAndSnapshot.length).toBe(2); // the probe (its answer is dropped), then the transaction the answer comes from
    expect(probeAndSnapshot[0].filter((t) => !t.startsWith('SET ')).length).toBe(1);
    expect(probeAndSnapshot[1].filter((t) => !t.startsWith('SET '))[0]).toBe(
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
    );
    const again = sessions.length;
    expect(await get(`/v1/assets/${other}`)).toEqual(first);
    const kept = sessions.slice(again);
    expect(kept.map((s) => s.filter((t) => !t.startsWith('SET ')).length)).toEqual([1]);
  });

  it('/v1/invariants: the latest check per (asset, kind); registry rows per kind then the bundle row', async () => {
    const body = await get('/v1/invariants');
    expect(body.checks.map((c: any) => [c.kind_id, c.height, c.agree])).toEqual([
      [0, 20, false],
      [1, 10, true],
    ]);
    expect(body.checks[0]).toMatchObject({
      asset_id: assetId,
      chain: { supply: '5', holder_count: 1 },
      indexer: { supply: '5', holder_count: 1 },
    });
    expect(body.svc20_registry.map((r: any) => [r.kind_id, r.bundle, r.height, r.evaluated, r.agree])).toEqual([
      [0, false, 10, true, true],
      [1, false, 10, false, false],
      [null, true, 10, true, false],
    ]);
    expect(await get(`/v1/invariants?asset=${assetId}`)).toEqual(body);
    expect(await get(`/v1/invariants?asset=${store.summary.assets[1].assetId}`)).toEqual({
      checks: [],
      svc20_registry: [],
    });
  });

  it('the asset carries its latest invariant check; a kind override becomes the effective policy', async () => {
    const { asset } = await get(`/v1/assets/${assetId}`);
    expect(asset.latest_invariant_check).toMatchObject({ height: 20, agree: false });
    expect(asset.latest_invariant_check.checks.map((c: any) => c.kind_id)).toEqual([0, 1]);
    expect(asset.kinds[0]).toMatchObject({
      policy_source: 'KIND_OVERRIDE',
      effective_policy: { transfer: 'TRANSFER_MODE_ATTESTED', attestation_type: 'kyc' },
    });
    expect(asset.kinds[0].policy_override).toEqual(asset.kinds[0].effective_policy);
    const { asset: other } = await get(`/v1/assets/${store.summary.assets[1].assetId}`);
    expect(other.latest_invariant_check).toBeNull();
  });

  it('a route carries its latest I8 reconciliation; other routes null', async () => {
    const { routes } = await get('/v1/bridge/routes');
    for (const r of routes) {
      if (r.route_id === routeId)
        expect(r.i8).toEqual({
          height: 20,
          chain_actual: '6',
          indexer_actual: '5',
          chain_ok: true,
          evaluated: true,
          agree: false,
        });
      else expect(r.i8).toBeNull();
    }
  });

  it('drift_total = post-value drifts + reconciliation rows that disagree (not-evaluated rows excluded)', async () => {
    const status = await get('/v1/status');
    // +3 handler drifts, +1 invariant row, +2 evaluated registry rows (r1, r4), +1 I8 row
    expect(status.drift_total).toBe(baseDrift + 3 + 1 + 2 + 1);
  });

  describe('the response cache (keyed by the indexed height)', () => {
    let cachedServer: Server;
    let cachedBase: string;
    const q = (text: string, values?: unknown[]) => store.pool.query(text.replace(/\$S/g, quote(schema)), values);
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    beforeAll(async () => {
      const app = createRestApp({
        pool: store.pool,
        schema,
        hrp: 'svc',
        responseCache: { maxBytes: 8 << 20, pollMs: 50 },
      });
      cachedServer = await new Promise((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      cachedBase = `http://127.0.0.1:${(cachedServer.address() as AddressInfo).port}`;
    });

    afterAll(() => new Promise<void>((resolve) => cachedServer?.close(() => resolve())));

    async function raw(path: string) {
      const res = await fetch(cachedBase + path);
      return {
        status: res.status,
        cacheStatus: res.headers.get('cache-status'),
        etag: res.headers.get('etag'),
        text: await res.text(),
      };
    }

    /** The answer once the poller knows the height (until then every answer is a bypass). */
    async function known(path: string) {
      for (let i = 0; i < 200; i++) {
        const r = await raw(path);
        if (r.cacheStatus !== 'svc-rest; fwd=bypass') return r;
        await sleep(10);
      }
      throw new Error('the cache never learned the indexed height');
    }

    it('keeps a node-derived answer for its height: a miss, then hits with the same bytes', async () => {
      const first = await known('/v1/blocks?limit=2');
      expect(first.cacheStatus).toBe('svc-rest; fwd=miss; stored');
      const second = await raw('/v1/blocks?limit=2');
      expect(second).toEqual({ ...first, cacheStatus: 'svc-rest; hit' });
      expect((await raw('/v1/blocks?limit=3')).cacheStatus).toBe('svc-rest; fwd=miss; stored'); // the URL is the key
    });

    it('a new indexed height drops what was kept', async () => {
      const path = '/v1/blocks?limit=1';
      await known(path);
      const kept = await raw(path);
      expect(kept.cacheStatus).toBe('svc-rest; hit');
      const top = JSON.parse(kept.text).blocks[0];
      const { rows } = await q(`SELECT value FROM $S._metadata WHERE key = 'lastProcessedHeight'`);
      const indexed = Number(rows[0].value);
      try {
        // a row changed without a new height (the node never does this) is not seen...
        await q('UPDATE $S.blocks SET event_count = event_count + 1000 WHERE height = $1', [top.height]);
        await sleep(200);
        expect(await raw(path)).toEqual(kept);
        // ...until the height moves, as it does with every flush of the node
        await q(`UPDATE $S._metadata SET value = to_jsonb($1::int) WHERE key = 'lastProcessedHeight'`, [indexed + 1]);
        let fresh = await raw(path);
        for (let i = 0; i < 200 && fresh.cacheStatus === 'svc-rest; hit'; i++) {
          await sleep(10);
          fresh = await raw(path);
        }
        expect(fresh.cacheStatus).toBe('svc-rest; fwd=miss; stored');
        expect(JSON.parse(fresh.text).blocks[0].event_count).toBe(top.event_count + 1000);
      } finally {
        await q('UPDATE $S.blocks SET event_count = event_count - 1000 WHERE height = $1', [top.height]);
        await q(`UPDATE $S._metadata SET value = to_jsonb($1::int) WHERE key = 'lastProcessedHeight'`, [indexed]);
      }
    });

    it('an answer with the wall clock in it is never kept', async () => {
      await known('/v1/blocks?limit=1');
      const r = await raw('/v1/status');
      expect(`${r.status} ${r.cacheStatus}`).toBe('200 null');
    });

    it("answers with reconciler rows are kept per height and reconciler generation: a new check row is a new generation's miss", async () => {
      // until the watcher shows the store's height (the test before moved it and back): only the generation moves below
      const { rows } = await q(`SELECT value FROM $S._metadata WHERE key = 'lastProcessedHeight'`);
      const atStoreHeight = async () => (await raw('/v1/blocks?limit=1')).etag?.startsWith(`"h${rows[0].value}.`);
      let ready = await atStoreHeight();
      for (let i = 0; i < 200 && !ready; i++) {
        await sleep(10);
        ready = await atStoreHeight();
      }
      expect(ready).toBe(true);
      for (const path of [
        `/v1/assets/${assetId}`,
        '/v1/bridge/routes',
        `/v1/bridge/routes/${routeId}`,
        '/v1/invariants',
      ]) {
        const first = await raw(path);
        expect(`${path} ${first.status} ${first.cacheStatus}`).toBe(`${path} 200 svc-rest; fwd=miss; stored`);
        expect(await raw(path)).toEqual({ ...first, cacheStatus: 'svc-rest; hit' });
      }
      const before = JSON.parse((await raw('/v1/invariants')).text).checks.length;
      await q(
        `INSERT INTO $S.invariant_checks (id, asset_id, kind_id, height, agree, chain, indexer) VALUES ('cache-test', $1, 2, 30, true, '{}', '{}')`,
        [assetId],
      );
      try {
        // the same height: seen once the watcher reads the new generation (pollMs 50)
        let fresh = await raw('/v1/invariants');
        for (let i = 0; i < 200 && fresh.cacheStatus === 'svc-rest; hit'; i++) {
          await sleep(10);
          fresh = await raw('/v1/invariants');
        }
        expect(fresh.cacheStatus).toBe('svc-rest; fwd=miss; stored');
        expect(JSON.parse(fresh.text).checks.length).toBe(before + 1);
      } finally {
        await q(`DELETE FROM $S.invariant_checks WHERE id = 'cache-test'`);
      }
    });
  });

  describe('validators (ETag, If-None-Match, Cache-Control) and the render cache', () => {
    const FIXED_NOW_MS = Date.UTC(2030, 0, 1); // wall_clock_lag_seconds of /v1/status stays the same
    const q = (text: string, values?: unknown[]) => store.pool.query(text.replace(/\$S/g, quote(schema)), values);
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let warm: { server: Server; base: string; sessions: string[][] };
    let cold: { server: Server; base: string };
    let txHash: string;
    let blockHeight: number;
    let busyAccount: string;

    async function listen(app: ReturnType<typeof createRestApp>) {
      const server: Server = await new Promise((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    }

    beforeAll(async () => {
      const recording = recordingPool(store.pool);
      const warmApp = createRestApp({
        pool: recording.pool,
        schema,
        hrp: 'svc',
        now: () => FIXED_NOW_MS,
        responseCache: false, // every answer is made here (the response cache would hide whether a 304 read the store)
      });
      warm = { ...(await listen(warmApp)), sessions: recording.sessions };
      cold = await listen(
        createRestApp({
          pool: store.pool,
          schema,
          hrp: 'svc',
          now: () => FIXED_NOW_MS,
          responseCache: false,
          renderCache: false,
        }),
      );
      const newest = JSON.parse(await (await fetch(`${cold.base}/v1/txs?limit=1`)).text()).txs[0];
      txHash = newest.hash;
      blockHeight = newest.height;
      const { rows } = await q(
        `SELECT feed FROM $S.activity_entries WHERE feed LIKE 'account:%' GROUP BY feed ORDER BY count(*) DESC LIMIT 1`,
      );
      busyAccount = String(rows[0].feed).slice('account:'.length);
    });

    afterAll(async () => {
      for (const s of [warm?.server, cold?.server]) await new Promise<void>((resolve) => s?.close(() => resolve()));
    });

    async function call(baseUrl: string, path: string, headers: Record<string, string> = {}) {
      const res = await fetch(baseUrl + path, { headers });
      const text = await res.text();
      const seen: Record<string, string> = {};
      res.headers.forEach((v, k) => (seen[k] = v));
      openapi.check({
        method: 'GET',
        path,
        status: res.status,
        headers: seen,
        body: text === '' ? '' : JSON.parse(text),
      });
      return { status: res.status, etag: seen.etag, cacheControl: seen['cache-control'], text };
    }

    /** Requests that read the store, the height watcher's polls left out. */
    const storeReads = () =>
      warm.sessions.filter((statements) => !statements.some((t) => t.includes('percentile_cont')));

    /** The first answer once the watcher knows the height (a head answer's tag then names it). */
    async function atKnownHeight(path: string) {
      for (let i = 0; i < 200; i++) {
        const r = await call(warm.base, path);
        if (/^"h\d+\./.test(r.etag)) return r;
        await sleep(10);
      }
      throw new Error('the watcher never learned the indexed height');
    }

    /** Sets the node's indexed height in the store, as a rewind or a new block would. */
    const setIndexedHeight = (height: number) =>
      q(`UPDATE $S._metadata SET value = to_jsonb($1::int) WHERE key = 'lastProcessedHeight'`, [height]);

    /** Waits until the warm app's height watcher shows `height` (a head answer's tag names it). */
    async function untilWatcherAt(height: number) {
      for (let i = 0; i < 200; i++) {
        if ((await call(warm.base, '/v1/txs?limit=1')).etag.startsWith(`"h${height}.`)) return;
        await sleep(10);
      }
      throw new Error(`the watcher never showed height ${height}`);
    }

    it('bodies are the same bytes with the render cache warm and without it', async () => {
      await atKnownHeight('/v1/txs?limit=20');
      for (const path of [
        '/v1/txs?limit=20', // every tx of it is in the render cache since atKnownHeight
        '/v1/txs?limit=20&method=%2Fcosmos.bank.v1beta1.MsgSend',
        '/v1/txs?limit=7',
        `/v1/txs/${txHash}`,
        `/v1/blocks/${blockHeight}`,
        '/v1/stats?limit=10',
        `/v1/assets/${assetId}/events?limit=50`, // fills it with the asset's events...
        `/v1/accounts/${busyAccount}/events?limit=50`, // ...some of which the account's feed lists too
        `/v1/assets/${assetId}/events?limit=20`,
      ]) {
        const [w, c] = [await call(warm.base, path), await call(cold.base, path)];
        expect(`${path} ${w.status} ${w.text.length}`).toBe(`${path} 200 ${c.text.length}`);
        expect(w.text).toBe(c.text);
      }
    });

    it("a txs page whose height's figures are kept is read keys first, in the same bytes, until a rewind", async () => {
      const method = encodeURIComponent('/cosmos.bank.v1beta1.MsgSend');
      const page = await atKnownHeight('/v1/txs?limit=7');
      const indexed = Number(/^"h(\d+)\./.exec(page.etag)![1]);
      const deep = JSON.parse(page.text).next_cursor as string;
      /** The statements of one request to the warm app (one list per statement sent), and its text. */
      async function read(path: string) {
        const before = storeReads().length;
        const r = await call(warm.base, path);
        return {
          text: r.text,
          statements: storeReads()
            .slice(before)
            .map((session) => session.join(';')),
        };
      }
      for (const path of [
        '/v1/txs?limit=7',
        `/v1/txs?limit=7&cursor=${deep}`,
        `/v1/txs?limit=5&method=${method}`,
        `/v1/txs?limit=5&method=${method}&cursor=${deep}`,
      ]) {
        await read(path); // keeps the figures of (height, method, limit) and the page's txs if they were not
        const keysFirst = await read(path);
        expect([path, keysFirst.statements.length]).toEqual([path, 1]); // every tx kept: its keys only
        expect([path, /json_agg|events/.test(keysFirst.statements[0])]).toEqual([path, false]); // no figures, no rows' text
        expect([path, keysFirst.text]).toEqual([path, (await call(cold.base, path)).text]);
      }
      // the oldest page (no other test reads it), of the same list and size, asked for the first time: its rows, one statement
      const older = `/v1/txs?limit=7&cursor=${JSON.parse(page.text).last_cursor}`;
      const first = await read(older);
      expect(first.statements.length).toBe(1);
      expect(first.statements[0]).toMatch(/events/);
      expect(first.text).toBe((await call(cold.base, older)).text);
      try {
        await setIndexedHeight(indexed - 1);
        await untilWatcherAt(indexed - 1);
        await setIndexedHeight(indexed);
        await untilWatcherAt(indexed);
        const again = await read('/v1/txs?limit=7'); // the rewind emptied the kept figures: all read again
        expect(again.statements.length).toBe(1);
        expect(again.statements[0]).toMatch(/json_agg/);
        // its 7 txs are kept again; the 8th, read only to know that a next page exists, is never
        // shown, so it needs no read by hash: keys only
        const keysOnly = await read('/v1/txs?limit=7');
        expect(keysOnly.statements.length).toBe(1);
        expect(keysOnly.text).toBe(again.text);
        // asked before, but the rewind emptied the render cache: its keys, then its txs by hash
        const unkept = await read(older);
        expect(unkept.statements.length).toBe(2);
        expect(unkept.statements[1]).toMatch(/ANY\(\$1\)/);
        expect(unkept.text).toBe((await call(cold.base, older)).text);
      } finally {
        await setIndexedHeight(indexed);
      }
    });

    it('a kept tx answers its hash and its EVM hash without a store read, in the bytes the store gives, until a rewind', async () => {
      const { rows } = await q(
        `SELECT e.id AS eth, e.tx_hash FROM $S.evm_txes e
         WHERE e.msg_index = (SELECT min(msg_index) FROM $S.evm_txes f WHERE f.tx_hash = e.tx_hash)
         ORDER BY e.id LIMIT 1`,
      );
      expect(rows.length).toBe(1); // the seeded history has EVM txs
      const { eth, tx_hash: hash } = rows[0] as { eth: string; tx_hash: string };
      const page = await atKnownHeight('/v1/txs?limit=1'); // the watcher knows the height
      const indexed = Number(/^"h(\d+)\./.exec(page.etag)![1]);
      const stored = await call(cold.base, `/v1/txs/${hash}`);
      expect(stored.status).toBe(200);
      expect((await call(cold.base, `/v1/txs/${eth}`)).text).toBe(stored.text);
      await call(warm.base, `/v1/txs/${hash}`); // kept (with its EVM hash) if it was not
      const reads = storeReads().length;
      for (const path of [
        `/v1/txs/${hash}`,
        `/v1/txs/${hash.toLowerCase()}`,
        `/v1/txs/${eth}`,
        `/v1/txs/${eth.toUpperCase().replace('0X', '0x')}`,
      ])
        expect([path, (await call(warm.base, path)).text]).toEqual([path, stored.text]);
      expect(storeReads().length).toBe(reads);
      try {
        await setIndexedHeight(indexed - 1);
        await untilWatcherAt(indexed - 1);
        const afterRewind = storeReads().length;
        expect((await call(warm.base, `/v1/txs/${eth}`)).text).toBe(stored.text);
        expect(storeReads().length).toBe(afterRewind + 1); // the cache was emptied: read again
      } finally {
        await setIndexedHeight(indexed);
      }
    });

    it('304 on a matching If-None-Match for a tx by hash, a page and /v1/status; tx and page without a store read', async () => {
      const tx = await call(warm.base, `/v1/txs/${txHash}`);
      expect(tx.cacheControl).toBe('public, max-age=31536000, immutable');
      const page = await atKnownHeight('/v1/txs?limit=5');
      expect(page.cacheControl).toMatch(/^public, max-age=\d+$/);
      const status = await call(warm.base, '/v1/status');
      expect(status.etag).toMatch(/^"b\./);
      const reads = storeReads().length;
      for (const [path, answer] of [
        [`/v1/txs/${txHash}`, tx],
        ['/v1/txs?limit=5', page],
      ] as const) {
        const r = await call(warm.base, path, { 'If-None-Match': `"other", W/${answer.etag}` });
        expect([path, r.status, r.text, r.etag, r.cacheControl]).toEqual([
          path,
          304,
          '',
          answer.etag,
          answer.cacheControl,
        ]);
      }
      expect(storeReads().length).toBe(reads); // the tx is in the render cache, the page's tag names the height
      const again = await call(warm.base, '/v1/status', { 'If-None-Match': status.etag });
      expect([again.status, again.text, again.etag]).toEqual([304, '', status.etag]);
      expect((await call(warm.base, '/v1/txs?limit=5', { 'If-None-Match': '"other"' })).status).toBe(200);
    });

    it("a new indexed height changes head answers' tags, not the tx's or the block's", async () => {
      const page = await atKnownHeight('/v1/txs?limit=5');
      const tx = await call(warm.base, `/v1/txs/${txHash}`);
      const block = await call(warm.base, `/v1/blocks/${blockHeight}`);
      const { rows } = await q(`SELECT value FROM $S._metadata WHERE key = 'lastProcessedHeight'`);
      const indexed = Number(rows[0].value);
      try {
        await setIndexedHeight(indexed + 1);
        let moved = await call(warm.base, '/v1/txs?limit=5', { 'If-None-Match': page.etag });
        for (let i = 0; i < 200 && moved.status === 304; i++) {
          await sleep(10);
          moved = await call(warm.base, '/v1/txs?limit=5', { 'If-None-Match': page.etag });
        }
        expect(moved.status).toBe(200);
        expect(moved.etag).not.toBe(page.etag);
        expect(moved.text).toBe(page.text); // same rows: only the height moved
        for (const [path, before] of [
          [`/v1/txs/${txHash}`, tx],
          [`/v1/blocks/${blockHeight}`, block],
        ] as const) {
          const r = await call(warm.base, path, { 'If-None-Match': before.etag });
          expect([path, r.status, r.etag]).toEqual([path, 304, before.etag]);
        }
      } finally {
        await setIndexedHeight(indexed);
      }
    });

    it('errors are not kept and carry no ETag', async () => {
      for (const path of ['/v1/txs/' + 'F'.repeat(64), '/v1/blocks/999999999', '/v1/txs?limit=0']) {
        const r = await call(warm.base, path, { 'If-None-Match': '*' });
        expect([path, r.status >= 400, r.cacheControl, r.etag]).toEqual([path, true, 'no-store', undefined]);
      }
    });

    // last: the pass replaces the check rows the earlier tests assert
    it('answers with reconciler rows: 304 before routing until a reconciler pass writes new checks, then 200 with them', async () => {
      const paths = [`/v1/assets/${assetId}`, '/v1/invariants', '/v1/bridge/routes', `/v1/bridge/routes/${routeId}`];
      const { rows } = await q(`SELECT value FROM $S._metadata WHERE key = 'lastProcessedHeight'`);
      const indexed = Number(rows[0].value);
      const tagged = [];
      for (const path of paths) {
        let r = await call(warm.base, path);
        for (let i = 0; i < 200 && !r.etag.startsWith(`"c${indexed}.`); i++) {
          await sleep(10); // until the watcher knows the height (an earlier test moved it) and the generation
          r = await call(warm.base, path);
        }
        expect(`${path} ${r.etag}`).toMatch(new RegExp(` "c${indexed}\\.[0-9a-f]{16}\\.`));
        expect(r.cacheControl).toMatch(/^public, max-age=\d+$/);
        tagged.push(r);
      }
      const reads = storeReads().length;
      for (const [i, path] of paths.entries()) {
        const r = await call(warm.base, path, { 'If-None-Match': tagged[i].etag });
        expect([path, r.status, r.text, r.etag]).toEqual([path, 304, '', tagged[i].etag]);
      }
      expect(storeReads().length).toBe(reads); // the tags name the height and the generation the watcher knows

      const pass = await runPass({
        pool: store.pool,
        tables: tablesIn(schema),
        rpcUrl: store.devnetUrl,
        queryTimeoutMs: 5000,
        concurrency: 4,
      });
      expect(pass?.invariants).toBeGreaterThan(0);
      const checked = pass!.height;
      expect(checked).toBe(indexed); // newer than every check row written above
      const renewed = [];
      for (const [i, path] of paths.entries()) {
        let r = await call(warm.base, path, { 'If-None-Match': tagged[i].etag });
        for (let n = 0; n < 200 && r.status === 304; n++) {
          await sleep(10); // until the watcher's next poll reads the new generation
          r = await call(warm.base, path, { 'If-None-Match': tagged[i].etag });
        }
        expect([path, r.status]).toEqual([path, 200]);
        // the same indexed height, another generation
        expect([path, r.etag.split('.')[0]]).toEqual([path, `"c${indexed}`]);
        expect([path, r.etag.split('.')[1]]).not.toEqual([path, tagged[i].etag.split('.')[1]]);
        renewed.push(JSON.parse(r.text));
      }
      const [asset, invariants, routes, route] = renewed;
      expect(asset.asset.latest_invariant_check.height).toBe(checked);
      expect(invariants.checks.length).toBeGreaterThan(0);
      for (const c of invariants.checks) expect([c.asset_id, c.height]).toEqual([c.asset_id, checked]);
      expect(route.route.i8.height).toBe(checked);
      expect(routes.routes.find((r: any) => r.route_id === routeId)).toEqual(route.route);
    });
  });
});
