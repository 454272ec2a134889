/**
 * Proof of indexing end to end, on real parts: one devnet history indexed three times — A by the
 * real node (the run's shared store), B by `npm start` with CHAIN_RPC_URL and DATABASE_URL (a
 * second, independent deployment serving /v1 and /graphql), C by the real node on a test build
 * whose SettlementTimelineEntry.blockTime comes from the wall clock. A and B keep equal proofs
 * at every height and `npm run verify` says so; verify finds C's first differing height and
 * names the entity and the field, through B's /v1 and GraphQL and through A's store directly.
 *
 * POI_BLOCKS=2000 runs the same on a fresh history of that many blocks instead of the shared
 * store (docs/indexer.md, "Proof of indexing").
 */
import { execFile } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Client } from 'pg';
import { startRpcServer } from '../../devnet/chain';
import { generateHistory } from '../../devnet/scenario';
import { writeProjectCopy } from '../../src/runtime/project';
import { freePort } from '../../src/runtime/ports';
import { runVerify } from '../../launcher/verify-main';
import { leafPrefix, rowLeaf } from '../../src/lib/proof';
import { StoreSource } from '../../verify/sources';
import { createTestDatabase } from '../harness/db';
import { ensureProjectBuilt, getIndexedStore } from '../harness/indexed-store';
import { spawnLauncher, type LauncherProcess } from '../harness/launcher-process';
import { loadOpenApiValidator } from '../harness/openapi-validator';
import { subqlDbEnv, type TestDatabase } from '../harness/postgres';
import { startNode } from '../harness/subql-node';

jest.setTimeout(900_000);

const LARGE = process.env.POI_BLOCKS ? Number(process.env.POI_BLOCKS) : undefined;
const SCHEMA = 'svc';
const ROOT = path.resolve(__dirname, '..', '..');

/** A copy of the built project whose settlement timeline entries take their block time from the wall clock. */
function wallClockProject(dir: string): void {
  writeProjectCopy(dir);
  const bundle = path.join(dir, 'dist', 'index.js');
  const text = fs.readFileSync(bundle, 'utf8');
  const patched = text.replace(
    /(SettlementTimelineEntry\.create\(\{[\s\S]{0,600}?blockTime: )[\w$]+\.blockTime/,
    '$1new Date()',
  );
  if (patched === text)
    throw new Error('wall-clock build: SettlementTimelineEntry.create(… blockTime …) not found in dist/index.js');
  fs.writeFileSync(bundle, patched);
}

async function query<R extends Record<string, unknown>>(url: string, sql: string): Promise<R[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<R>(sql)).rows;
  } finally {
    await c.end();
  }
}

const proofRows = (url: string) =>
  query<{ id: string; height: number; writes: string }>(
    url,
    `SELECT id, height, hash, previous, block_hash, entities_root, roots, writes FROM ${SCHEMA}.block_proofs ORDER BY height`,
  );

async function verifyRun(args: string[], databaseUrl: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runVerify(
    args,
    { DATABASE_URL: databaseUrl, DB_SCHEMA: SCHEMA },
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { code, out, err, text: out.join('\n') };
}

describe('proof of indexing: two deployments of one history, and a build that reads the wall clock', () => {
  let a: { url: string; close(): Promise<void> };
  let height: number;
  let npmStart: LauncherProcess | undefined;
  let bUrl: string;
  let dbB: TestDatabase;
  let dbC: TestDatabase;
  let variantHeight: number;
  const cleanup: (() => Promise<unknown> | void)[] = [];

  beforeAll(async () => {
    ensureProjectBuilt();
    let devnetUrl: string;
    if (LARGE) {
      const history = await generateHistory({
        seed: 'poi',
        blocks: LARGE,
        txsPerBlock: 5,
        skipSignatureVerification: true,
      });
      const rpc = await startRpcServer(history.chain);
      cleanup.push(() => rpc.close());
      const dbA = await createTestDatabase('poi_a');
      cleanup.push(() => dbA.drop());
      const node = await startNode({ dbEnv: subqlDbEnv(dbA), endpoint: rpc.url, schema: SCHEMA });
      await node.waitForHeight(LARGE, 1_800_000);
      await node.stop();
      [a, devnetUrl, height] = [{ url: dbA.url, close: async () => undefined }, rpc.url, LARGE];
    } else {
      const store = await getIndexedStore();
      [a, devnetUrl, height] = [
        { url: store.databaseUrl, close: () => store.close() },
        store.devnetUrl,
        store.indexedHeight,
      ];
    }
    [dbB, dbC] = await Promise.all([createTestDatabase('poi_npm_start'), createTestDatabase('poi_wall_clock')]);
    cleanup.push(
      () => dbB.drop(),
      () => dbC.drop(),
    );
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-poi-'));
    cleanup.push(() => fs.rmSync(work, { recursive: true, force: true }));
    wallClockProject(path.join(work, 'wall-clock'));

    const port = await freePort();
    bUrl = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: dbB.url,
      CHAIN_RPC_URL: devnetUrl,
      DATA_DIR: path.join(work, 'npm-start'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_FORMAT: 'json',
      RECONCILE_EVERY_BLOCKS: '0',
    };
    delete env.DB_SCHEMA;
    npmStart = spawnLauncher(env);
    // the wall-clock build first differs where the first settlement timeline entry is written:
    // it is indexed a little past that height, not through the whole history
    const [{ k }] = await query<{ k: number | null }>(
      a.url,
      `SELECT min(height) AS k FROM ${SCHEMA}.settlement_timeline_entries`,
    );
    variantHeight = Math.min(height, (k ?? height) + 10);
    const variant = await startNode({
      dbEnv: subqlDbEnv(dbC),
      endpoint: devnetUrl,
      schema: SCHEMA,
      projectDir: path.join(work, 'wall-clock'),
    });
    const timeout = LARGE ? 1_800_000 : 300_000;
    await Promise.all([
      variant.waitForHeight(variantHeight, timeout).finally(() => variant.stop()),
      (async () => {
        const deadline = Date.now() + timeout;
        for (;;) {
          if (npmStart!.child.exitCode !== null)
            throw new Error(`npm start exited: ${JSON.stringify(npmStart!.lines.slice(-20))}`);
          const s = await fetch(`${bUrl}/v1/status`)
            .then((r) => (r.ok ? (r.json() as Promise<{ indexed_height: number }>) : undefined))
            .catch(() => undefined);
          if (s && s.indexed_height >= height) return;
          if (Date.now() > deadline) throw new Error(`npm start did not index ${height} blocks`);
          await new Promise((r) => setTimeout(r, 100));
        }
      })(),
    ]);
  });

  afterAll(async () => {
    if (npmStart && npmStart.child.exitCode === null) {
      npmStart.child.kill('SIGTERM');
      await npmStart.exited;
    }
    await a?.close();
    for (const c of cleanup.reverse()) await Promise.resolve(c()).catch(() => undefined);
  });

  it('keeps equal proofs at every height in two independent deployments (the node, and npm start)', async () => {
    const [pa, pb] = await Promise.all([proofRows(a.url), proofRows(dbB.url)]);
    expect(pa).toHaveLength(height);
    expect(pb.map((r) => r.id)).toEqual(pa.map((r) => r.id));
    const differing = pa.filter((r, i) => JSON.stringify(r) !== JSON.stringify(pb[i])).map((r) => r.id);
    expect(differing).toEqual([]);
  });

  it('serves the proof: /v1/status at the indexed height, /v1/blocks/{h} of each height (as openapi.yaml describes), GraphQL', async () => {
    const openapi = loadOpenApiValidator();
    const get = async (p: string) => {
      const r = await fetch(bUrl + p);
      const body = (await r.json()) as Record<string, unknown>;
      const headers: Record<string, string> = {};
      r.headers.forEach((v, k) => (headers[k] = v));
      openapi.check({ method: 'GET', path: p, status: r.status, headers, body });
      return body as { proof: Record<string, unknown> | null; indexed_height?: number };
    };
    const rows = new Map((await proofRows(a.url)).map((r) => [Number(r.height), r as Record<string, unknown>]));
    const served = (h: number) => {
      const r = rows.get(h)!;
      return {
        height: h,
        hash: r.hash,
        previous: r.previous === '' ? null : r.previous,
        block_hash: r.block_hash,
        entities_root: r.entities_root,
        roots: JSON.parse(String(r.roots)),
      };
    };
    const status = await get('/v1/status');
    expect(status.indexed_height).toBe(height);
    expect(status.proof).toEqual(served(height));
    for (const h of [1, Math.ceil(height / 2), height]) expect((await get(`/v1/blocks/${h}`)).proof).toEqual(served(h));
    expect(served(1).previous).toBeNull();
    expect(served(2).previous).toBe(served(1).hash);

    // GraphQL has the entity, its JSON text also as JSON values
    const r = await fetch(`${bUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `{ blockProofs(filter: { height: { equalTo: ${height} } }) { nodes { height hash previous entitiesRoot rootsJson } } }`,
      }),
    });
    const gql = (await r.json()) as { data: { blockProofs: { nodes: Record<string, unknown>[] } } };
    const last = served(height);
    expect(gql.data.blockProofs.nodes).toEqual([
      { height, hash: last.hash, previous: last.previous, entitiesRoot: last.entities_root, rootsJson: last.roots },
    ]);
  });

  it('holds every row as its last write says: each leaf recomputed from the store equals the proof (every entity type)', async () => {
    const source = new StoreSource(a.url, SCHEMA);
    try {
      const last = new Map<string, Map<string, string>>();
      for (const r of await proofRows(a.url)) {
        for (const [type, ids] of Object.entries(
          JSON.parse(String(r.writes)) as Record<string, Record<string, string>>,
        )) {
          const m = last.get(type) ?? new Map<string, string>();
          for (const [id, leaf] of Object.entries(ids)) m.set(id, leaf);
          last.set(type, m);
        }
      }
      expect(last.size).toBeGreaterThanOrEqual(20);
      const mismatches: string[] = [];
      for (const [type, m] of last) {
        const rows = await source.rows(type, [...m.keys()]);
        expect([type, rows.size]).toEqual([type, m.size]);
        for (const [id, leaf] of m)
          if (leafPrefix(rowLeaf(type, rows.get(id)!)) !== leaf) mismatches.push(`${type}/${id}`);
      }
      expect(mismatches.slice(0, 5)).toEqual([]);
    } finally {
      await source.close();
    }
  });

  it('npm run verify agrees, exit 0, against the other deployment over HTTP and against its store', async () => {
    const overHttp = await verifyRun(['--against', bUrl], a.url);
    expect(overHttp.code).toBe(0);
    expect(overHttp.text).toContain(`common heights: 1..${height}`);
    expect(overHttp.text).toMatch(/^agree: the proofs at \d+ are equal/m);

    // the command itself, as an operator runs it
    const cli = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(
        path.join(ROOT, 'node_modules', '.bin', 'ts-node'),
        ['--transpile-only', 'launcher/verify-main.ts', '--db', dbB.url],
        { cwd: ROOT, env: { ...process.env, DATABASE_URL: a.url, DB_SCHEMA: SCHEMA } },
        (e, stdout) => resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, stdout }),
      ),
    );
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('agree:');
  });

  it('finds the wall-clock build at its first height, naming the entity and the field, over HTTP and over the store', async () => {
    const [{ k }] = await query<{ k: number }>(
      a.url,
      `SELECT min(height) AS k FROM ${SCHEMA}.settlement_timeline_entries`,
    );
    expect(k).toBeGreaterThan(1);
    const entriesAtK = (
      await query<{ id: string }>(
        a.url,
        `SELECT id FROM ${SCHEMA}.settlement_timeline_entries WHERE height = ${k} ORDER BY id`,
      )
    ).map((r) => r.id);

    for (const other of [
      ['--against', bUrl],
      ['--db', a.url],
    ]) {
      const run = await verifyRun([...other, '--json'], dbC.url);
      expect([other[0], run.code]).toEqual([other[0], 1]);
      const result = JSON.parse(run.out[0]);
      expect(result.firstDiffering).toBe(k);
      const d = result.diagnosis;
      expect(d.blockHashDiffers).toBe(false);
      expect(d.types.map((t: { type: string }) => t.type)).toEqual(['SettlementTimelineEntry']);
      const t = d.types[0];
      expect([t.onlyA, t.onlyB]).toEqual([[], []]);
      expect([...t.differing].sort()).toEqual(entriesAtK);
      for (const row of t.rows) {
        expect(row.asWritten).toEqual({ a: true, b: true }); // timeline entries are never rewritten
        expect(row.fields.map((f: { field: string }) => f.field)).toEqual(['blockTime']);
      }
    }
    const report = await verifyRun(['--against', bUrl], dbC.url);
    expect(report.code).toBe(1);
    expect(report.text).toContain(`DIFFER: the first height whose proofs differ is ${k}`);
    expect(report.text).toContain(`entity types whose root differs at ${k}: SettlementTimelineEntry`);
    expect(report.text).toMatch(/^ {6}blockTime:$/m);
  });

  it('answers bad arguments and an unreachable deployment with exit code 2 and a reason, never a stack trace', async () => {
    const bad = await verifyRun(['--against', 'ftp://example'], a.url);
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toBe('verify: --against: expected http: or https: URL, got ftp://example');
    expect(bad.err.join('\n')).toContain('usage: npm run verify');
    expect((await verifyRun([], a.url)).err[0]).toBe(
      'verify: give exactly one of --against <URL> and --db <postgres URL>',
    );
    const gone = await verifyRun(['--against', 'http://127.0.0.1:9'], a.url);
    expect(gone.code).toBe(2);
    expect(gone.text).toMatch(/^cannot verify: /m);
    expect(gone.text).not.toMatch(/\n\s+at /);
  });
});
