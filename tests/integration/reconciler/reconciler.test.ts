/**
 * The reconciler end to end: a seeded devnet history, the real subql-node-cosmos indexing it
 * (and still running, so every pass is at a new height), passes against the devnet's own
 * answers at that height, and the /v1 answers built from the rows (checked against openapi.yaml).
 * Divergence both ways (the store edited; the chain answering differently), the faults
 * (pruned height, unreachable RPC, an RPC that never answers), the loop, and an old chain.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import { Pool } from 'pg';
import type { Devnet } from '../../../devnet/cli';
import { createRestApp } from '../../../rest-adapter/app';
import { tablesIn } from '../../../src/store';
import { RECONCILER_DEFAULTS } from '../../../reconciler/config';
import { runPass, type PassOptions } from '../../../reconciler/pass';
import { Reconciler } from '../../../reconciler/reconciler';
import { createLogger } from '../../../src/runtime/logger';
import { createTestDatabase } from '../../harness/db';
import { ensureProjectBuilt } from '../../harness/indexed-store';
import { loadOpenApiValidator } from '../../harness/openapi-validator';
import { subqlDbEnv, type TestDatabase } from '../../harness/postgres';
import { startNode, type SubqlNode } from '../../harness/subql-node';
import { until } from '../../harness/until';

jest.setTimeout(600_000);

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are asserted field by field */

const SCHEMA = 'svc';
const openapi = loadOpenApiValidator();
const quietLog = createLogger({ format: 'json', level: 'error', write: () => undefined });

interface World {
  devnet: Devnet;
  db: TestDatabase;
  node: SubqlNode;
  pool: Pool;
  server: http.Server;
  baseUrl: string;
  /** an empty block on the chain, indexed by the node: the next pass is at a new height */
  nextBlock(): Promise<number>;
  get(path: string): Promise<any>;
  count(table: string, where?: string): Promise<number>;
  pass(overrides?: Partial<PassOptions>): ReturnType<typeof runPass>;
  close(): Promise<void>;
}

async function startWorld(seed: string, blocks: number, oldChain = false): Promise<World> {
  ensureProjectBuilt();
  const { startDevnet } = await import('../../../devnet/cli');
  // without CheckTx's secp256k1 check: the scenario's txs are signed all the same and the blocks identical
  const devnet = await startDevnet({ seed, blocks, txsPerBlock: 10, oldChain, skipSignatureVerification: true });
  // the node polls the chain's head at the interval of the last 20 blocks, hours apart in a history:
  // empty blocks 200 ms apart make it see each nextBlock() at once instead of seconds later
  for (let i = 0; i < 20; i++) devnet.chain.produceBlock(devnet.chain.lastBlockTimeMs + 200);
  const db = await createTestDatabase('reconciler');
  const node = await startNode({ dbEnv: subqlDbEnv(db), endpoint: devnet.url, schema: SCHEMA });
  await node.waitForHeight(devnet.chain.height, 300_000);
  const pool = new Pool({ connectionString: db.url, max: 4 });
  const app = createRestApp({ pool, schema: SCHEMA, hrp: 'svc', logger: { error: () => undefined } });
  const server: http.Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tables = tablesIn(SCHEMA);
  return {
    devnet,
    db,
    node,
    pool,
    server,
    baseUrl,
    async nextBlock() {
      const block = devnet.chain.produceBlock(devnet.chain.lastBlockTimeMs + 5000);
      await node.waitForHeight(block.height, 60_000);
      return block.height;
    },
    async get(path) {
      const res = await fetch(baseUrl + path);
      const body = await res.json();
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => (headers[k] = v));
      openapi.check({ method: 'GET', path, status: res.status, headers, body });
      if (res.status !== 200) throw new Error(`GET ${path} -> ${res.status} ${JSON.stringify(body)}`);
      return body;
    },
    async count(table, where = 'true') {
      return Number((await pool.query(`SELECT count(*) AS n FROM "${SCHEMA}".${table} WHERE ${where}`)).rows[0].n);
    },
    pass(overrides = {}) {
      return runPass({ pool, tables, rpcUrl: devnet.url, queryTimeoutMs: 5000, concurrency: 4, ...overrides });
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await node.stop();
      await pool.end();
      await devnet.close();
      await db.drop().catch(() => undefined);
    },
  };
}

/** A TCP server that accepts and never answers: every request to it times out. */
async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function closedPortUrl(): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** the old chain's world, started once the first is up: its node starts and indexes while the first world's tests run */
let oldWorld: Promise<World> | undefined;
const startOldWorld = () => startWorld('reconciler-old', 60, true);
afterAll(() => oldWorld?.then((w) => w.close()).catch(() => undefined));

describe('reconciler: a scenario history on chain 0.12.2', () => {
  let w: World;
  let kinds: number;
  let assets: number;
  let routes: number;

  beforeAll(async () => {
    w = await startWorld('reconciler-it', 120);
    oldWorld = startOldWorld();
    oldWorld.catch(() => undefined); // a failure is reported by the old chain's tests
    kinds = await w.count('kinds');
    assets = await w.count('assets');
    routes = await w.count('bridge_routes');
  });
  afterAll(() => w?.close());

  it('the history has what every check needs: assets with several kinds, accruals, routes of all three directions', async () => {
    expect(assets).toBeGreaterThan(2);
    expect(kinds).toBeGreaterThan(assets);
    expect(await w.count('accruals', 'total_distributed > 0')).toBeGreaterThan(0);
    const directions = (
      await w.pool.query(`SELECT DISTINCT direction FROM "${SCHEMA}".bridge_routes ORDER BY 1`)
    ).rows.map((r) => r.direction);
    expect(directions).toEqual(['DIRECTION_NATIVE_OUT', 'DIRECTION_RIGHT_OUT', 'DIRECTION_SYNTHETIC_IN']);
    expect(await w.count('bridge_routes', 'outbound > 0')).toBeGreaterThan(0);
  });

  it('a pass at the indexed height agrees on every asset, kind and route, with rows for each', async () => {
    const height = await w.nextBlock();
    const result = (await w.pass())!;
    expect(result).toMatchObject({
      height,
      invariants: kinds,
      registry: kinds + assets,
      routes,
      disagreements: 0,
      registryEvaluated: true,
    });
    expect(await w.count('invariant_checks', `height = ${height} AND agree`)).toBe(kinds);
    expect(await w.count('svc20_checks', `height = ${height} AND evaluated AND agree AND chain_address <> ''`)).toBe(
      kinds + assets,
    );
    expect(await w.count('i8_checks', `height = ${height} AND evaluated AND agree AND chain_ok`)).toBe(routes);
    // both sides side by side, with something to compare: accruals and non-zero supplies
    const withAccruals = (
      await w.pool.query(
        `SELECT chain, indexer FROM "${SCHEMA}".invariant_checks WHERE height = $1 AND jsonb_array_length(chain->'accruals') > 0`,
        [height],
      )
    ).rows;
    expect(withAccruals.length).toBeGreaterThan(0);
    for (const r of withAccruals) expect(r.chain).toEqual(r.indexer);
  });

  it('/v1 answers from the rows: invariants, the asset check, the route i8, drift_total from event drifts only', async () => {
    const height = await w.nextBlock();
    await w.pass();
    const inv = await w.get('/v1/invariants');
    expect(inv.checks).toHaveLength(kinds);
    expect(inv.checks.every((c: any) => c.height === height && c.agree)).toBe(true);
    expect(inv.checks[0].chain).toMatchObject({
      exists: true,
      supply: expect.stringMatching(/^[0-9]+$/),
      holder_count: expect.any(Number),
      holders_sum: inv.checks[0].chain.supply,
    });
    expect(inv.svc20_registry).toHaveLength(kinds + assets);
    const assetId = inv.checks[0].asset_id;
    const scoped = await w.get(`/v1/invariants?asset=${assetId}`);
    expect(scoped.checks.length).toBeGreaterThan(0);
    expect(scoped.checks.every((c: any) => c.asset_id === assetId)).toBe(true);
    expect(scoped.svc20_registry.at(-1)).toMatchObject({
      asset_id: assetId,
      kind_id: null,
      bundle: true,
      evaluated: true,
      agree: true,
    });
    const { asset } = await w.get(`/v1/assets/${assetId}`);
    expect(asset.latest_invariant_check).toMatchObject({ height, agree: true });
    expect(asset.latest_invariant_check.checks).toHaveLength(asset.kinds.length);
    const { routes: list } = await w.get('/v1/bridge/routes');
    for (const r of list)
      expect(r.i8).toMatchObject({
        height,
        evaluated: true,
        agree: true,
        chain_ok: true,
        chain_actual: r.outstanding,
        indexer_actual: r.outstanding,
      });
    const eventDrifts = Number(
      (await w.pool.query(`SELECT drift_total FROM "${SCHEMA}".chain_totals`)).rows[0].drift_total,
    );
    expect((await w.get('/v1/status')).drift_total).toBe(eventDrifts);
  });

  it('(a) one holding changed in the store: the next pass disagrees on that (asset, kind) only, drift_total rises; repaired, it agrees again and the record stays', async () => {
    const holding = (
      await w.pool.query(`SELECT id, asset_id, kind_id FROM "${SCHEMA}".holdings WHERE units > 0 ORDER BY id LIMIT 1`)
    ).rows[0];
    const driftBefore = (await w.get('/v1/status')).drift_total;
    await w.pool.query(`UPDATE "${SCHEMA}".holdings SET units = units + 7 WHERE id = $1`, [holding.id]);
    try {
      const height = await w.nextBlock();
      const result = (await w.pass())!;
      expect(result.disagreements).toBe(1);
      const bad = (await w.get(`/v1/invariants?asset=${holding.asset_id}`)).checks.find((c: any) => !c.agree);
      expect(bad).toMatchObject({ asset_id: holding.asset_id, kind_id: holding.kind_id, height, agree: false });
      expect(BigInt(bad.indexer.holders_sum) - BigInt(bad.chain.holders_sum)).toBe(7n);
      expect(bad.indexer.supply).toBe(bad.chain.supply);
      expect((await w.get('/v1/status')).drift_total).toBe(driftBefore + 1);
      expect((await w.get(`/v1/assets/${holding.asset_id}`)).asset.latest_invariant_check).toMatchObject({
        height,
        agree: false,
      });
    } finally {
      await w.pool.query(`UPDATE "${SCHEMA}".holdings SET units = units - 7 WHERE id = $1`, [holding.id]);
    }
    const repaired = await w.nextBlock();
    expect((await w.pass())!.disagreements).toBe(0);
    expect(
      (await w.get(`/v1/invariants?asset=${holding.asset_id}`)).checks.every(
        (c: any) => c.agree && c.height === repaired,
      ),
    ).toBe(true);
    // a disagreement a later check clears still counts: drift_total is the record, never decremented
    expect((await w.get('/v1/status')).drift_total).toBe(driftBefore + 1);
  });

  it('(b) the chain answering differently (a devnet fault switch) is caught the same way; switched off, the next pass agrees', async () => {
    const kind = (
      await w.pool.query(
        `SELECT asset_id, kind_id, supply::text FROM "${SCHEMA}".kinds WHERE supply > 0 ORDER BY id LIMIT 1`,
      )
    ).rows[0];
    const driftBefore = (await w.get('/v1/status')).drift_total;
    w.devnet.app.queryFaults.supplySkew.set(`${kind.asset_id}/${kind.kind_id}`, -3n);
    try {
      const height = await w.nextBlock();
      expect((await w.pass())!.disagreements).toBe(1);
      const bad = (await w.get('/v1/invariants')).checks.find((c: any) => !c.agree);
      expect(bad).toMatchObject({ asset_id: kind.asset_id, kind_id: kind.kind_id, height });
      expect(bad.indexer.supply).toBe(kind.supply);
      expect(BigInt(bad.chain.supply)).toBe(BigInt(kind.supply) - 3n);
      expect((await w.get('/v1/status')).drift_total).toBe(driftBefore + 1);
    } finally {
      w.devnet.app.queryFaults.supplySkew.clear();
    }
    await w.nextBlock();
    expect((await w.pass())!.disagreements).toBe(0);
    expect((await w.get('/v1/invariants')).checks.every((c: any) => c.agree)).toBe(true);
  });

  it('a route whose escrow the chain holds differently: i8 disagrees with chain_ok false', async () => {
    const route = (
      await w.pool.query(
        `SELECT id FROM "${SCHEMA}".bridge_routes WHERE direction = 'DIRECTION_NATIVE_OUT' AND outbound > inbound ORDER BY id LIMIT 1`,
      )
    ).rows[0];
    await w.pool.query(`UPDATE "${SCHEMA}".bridge_routes SET inbound = inbound + 1 WHERE id = $1`, [route.id]);
    try {
      const height = await w.nextBlock();
      expect((await w.pass())!.disagreements).toBe(1);
      const r = (await w.get(`/v1/bridge/routes/${encodeURIComponent(route.id)}`)).route;
      expect(r.i8).toMatchObject({ height, evaluated: true, agree: false, chain_ok: true });
      expect(BigInt(r.i8.chain_actual) - BigInt(r.i8.indexer_actual)).toBe(1n);
    } finally {
      await w.pool.query(`UPDATE "${SCHEMA}".bridge_routes SET inbound = inbound - 1 WHERE id = $1`, [route.id]);
    }
  });

  describe('faults: nothing false is recorded, the node and the API go on', () => {
    const rows = () => Promise.all(['invariant_checks', 'svc20_checks', 'i8_checks'].map((t) => w.count(t)));

    it('a height the chain has pruned', async () => {
      const before = await rows();
      w.devnet.app.queryFaults.prunedBelow = w.devnet.chain.height + 100;
      try {
        await w.nextBlock();
        await expect(w.pass()).rejects.toThrow(/failed to load state at height/);
      } finally {
        w.devnet.app.queryFaults.prunedBelow = 0;
      }
      expect(await rows()).toEqual(before);
    });

    it('an unreachable chain and one that never answers, through the loop: logged, retried with backoff, then recorded once the chain is back', async () => {
      const before = await rows();
      const silent = await silentServer();
      const warnings: string[] = [];
      const log = createLogger({ format: 'json', level: 'warn', write: (line) => warnings.push(line) });
      const settings = {
        ...RECONCILER_DEFAULTS,
        everyBlocks: 1,
        minIntervalMs: 0,
        pollMs: 50,
        queryTimeoutMs: 300,
        retryMs: 100,
        maxRetryMs: 200,
      };
      for (const rpcUrl of [await closedPortUrl(), silent.url]) {
        const reconciler = new Reconciler({ pool: w.pool, schema: SCHEMA, rpcUrl, settings, log });
        reconciler.start();
        await until('two failed passes', () => (reconciler.status().consecutiveFailures >= 2 ? true : undefined), {
          ms: 20_000,
          everyMs: 50,
        });
        await reconciler.stop();
        expect(reconciler.status()).toMatchObject({
          lastHeight: null,
          lastError: expect.stringMatching(/ECONNREFUSED|no answer within 300 ms/),
        });
      }
      await silent.close();
      expect(warnings.some((l) => l.includes('recorded nothing'))).toBe(true);
      expect(await rows()).toEqual(before);
      // the node kept indexing and the API kept answering
      const height = await w.nextBlock();
      expect((await w.get('/v1/status')).indexed_height).toBe(height);
      // the loop against the chain: a pass at start, then one per `everyBlocks` new blocks
      const reconciler = new Reconciler({
        pool: w.pool,
        schema: SCHEMA,
        rpcUrl: w.devnet.url,
        settings: { ...settings, everyBlocks: 2 },
        log: quietLog,
      });
      reconciler.start();
      try {
        await until('the pass at start', () => (reconciler.status().lastHeight === height ? true : undefined), {
          ms: 20_000,
          everyMs: 50,
        });
        await w.nextBlock();
        const second = await w.nextBlock();
        await until('a pass two blocks later', () => (reconciler.status().lastHeight === second ? true : undefined), {
          ms: 20_000,
          everyMs: 50,
        });
        expect(reconciler.status()).toMatchObject({ lastDisagreements: 0, lastError: null, consecutiveFailures: 0 });
      } finally {
        await reconciler.stop();
      }
    });
  });
});

describe('reconciler: an old chain (0.8.3) without the token registry', () => {
  let w: World;
  beforeAll(async () => {
    w = await (oldWorld ??= startOldWorld());
  });

  it('every Svc20Check is evaluated false with no chain address, and nothing is drift', async () => {
    const kinds = await w.count('kinds');
    const assets = await w.count('assets');
    expect(kinds).toBeGreaterThan(0);
    const result = (await w.pass())!;
    expect(result).toMatchObject({
      invariants: kinds,
      registry: kinds + assets,
      disagreements: 0,
      registryEvaluated: false,
    });
    const inv = await w.get('/v1/invariants');
    expect(inv.svc20_registry).toHaveLength(kinds + assets);
    expect(
      inv.svc20_registry.every((r: any) => r.evaluated === false && r.chain_address === '' && r.indexer_address !== ''),
    ).toBe(true);
    expect(inv.checks.every((c: any) => c.agree)).toBe(true);
    const eventDrifts = Number(
      (await w.pool.query(`SELECT drift_total FROM "${SCHEMA}".chain_totals`)).rows[0].drift_total,
    );
    expect((await w.get('/v1/status')).drift_total).toBe(eventDrifts);
  });
});
