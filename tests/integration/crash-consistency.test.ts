/**
 * Crash consistency of the index: a devnet history indexed by the real node while the node is
 * killed with SIGKILL at several points — twice while it is writing a flush (an INSERT or UPDATE
 * of its connection seen active in pg_stat_activity), the others at random heights — and
 * restarted each time, must leave every entity table equal, row for row, to a clean run of the
 * same history (the node's own `_metadata` excepted: it records runs, not chain data), and the
 * proof of indexing equal to the clean run's at every height (`npm run verify` agrees). Then once
 * as a user's crash would be: `npm start` (on the test's database and chain) killed with its whole
 * process group mid-catch-up, and started again.
 *
 * CRASH_BLOCKS / CRASH_KILLS / CRASH_SEED run a larger case: `CRASH_BLOCKS=5000 CRASH_KILLS=12 npx
 * jest tests/integration/crash-consistency.test.ts --selectProjects integration` (docs/indexer.md).
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Client } from 'pg';
import { freePort } from '../../src/runtime/ports';
import { runVerify } from '../../launcher/verify-main';
import { startRpcServer } from '../../devnet/chain';
import { generateHistory } from '../../devnet/scenario';
import { Prng } from '../../devnet/scenario/prng';
import { createTestDatabase } from '../harness/db';
import { spawnLauncher, type LauncherProcess } from '../harness/launcher-process';
import { ensureProjectBuilt } from '../harness/indexed-store';
import { subqlDbEnv, type TestDatabase } from '../harness/postgres';
import { startNode } from '../harness/subql-node';

jest.setTimeout(900_000);

const SEED = process.env.CRASH_SEED ?? 'crash';
const BLOCKS = Number(process.env.CRASH_BLOCKS ?? 600);
const KILLS = Number(process.env.CRASH_KILLS ?? 4);
const SCHEMA = 'svc';

async function connect(db: TestDatabase): Promise<Client> {
  const c = new Client({ host: db.host, port: db.port, user: db.user, password: db.password, database: db.database });
  c.on('error', () => undefined);
  await c.connect();
  return c;
}

async function indexedHeight(c: Client): Promise<number> {
  try {
    const r = await c.query(`SELECT value FROM ${SCHEMA}._metadata WHERE key = 'lastProcessedHeight'`);
    return Number(r.rows[0]?.value ?? 0);
  } catch {
    return 0; // no schema yet
  }
}

/** Every entity table of the schema, each as its rows in id order (JSON text, so numerics compare exactly). */
async function tables(c: Client): Promise<Map<string, string[]>> {
  const names = (
    await c.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name <> '_metadata' ORDER BY table_name`,
      [SCHEMA],
    )
  ).rows.map((r) => r.table_name);
  const out = new Map<string, string[]>();
  for (const name of names) {
    const rows = await c.query<{ j: string }>(
      `SELECT row_to_json(t)::text AS j FROM ${SCHEMA}."${name}" t ORDER BY id`,
    );
    out.set(
      name,
      rows.rows.map((r) => r.j),
    );
  }
  return out;
}

/** Waits until the node's connection is writing (an INSERT or UPDATE active), or `ms` passes; true when caught. */
async function duringFlush(c: Client, database: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const r = await c.query(
      `SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND state = 'active' AND (query ILIKE 'INSERT%' OR query ILIKE 'UPDATE%') LIMIT 1`,
      [database],
    );
    if (r.rowCount) return true;
  }
  return false;
}

/** Every entity table of both stores, compared row for row; the number of rows compared. */
async function expectSameTables(clean: TestDatabase, crashed: TestDatabase, what: string): Promise<number> {
  const [a, b] = await Promise.all(
    [clean, crashed].map(async (db) => {
      const c = await connect(db);
      try {
        return await tables(c);
      } finally {
        await c.end();
      }
    }),
  );
  expect([...b.keys()]).toEqual([...a.keys()]);
  expect(a.size).toBeGreaterThan(25);
  let rows = 0;
  for (const [name, expected] of a) {
    const actual = b.get(name)!;
    rows += expected.length;
    if (actual.length !== expected.length || actual.some((r, i) => r !== expected[i])) {
      const first = actual.findIndex((r, i) => r !== expected[i]);
      throw new Error(
        `table ${name} differs after ${what}: ${actual.length} rows vs ${expected.length}; first difference:\n  killed: ${actual[first]}\n  clean:  ${expected[first]}`,
      );
    }
  }
  return rows;
}

/**
 * The proof of indexing of both stores equal at every height 1..BLOCKS (each height's own: the
 * tables above hold only the rows' last versions, a height's proof what it wrote), and
 * `npm run verify` of the one against the other agreeing.
 */
async function expectSameProofs(clean: TestDatabase, crashed: TestDatabase): Promise<void> {
  const [a, b] = await Promise.all(
    [clean, crashed].map(async (db) => {
      const c = await connect(db);
      try {
        const r = await c.query<{ height: number; hash: string; roots: string; writes: string }>(
          `SELECT height, hash, roots, writes FROM ${SCHEMA}.block_proofs ORDER BY height`,
        );
        return r.rows;
      } finally {
        await c.end();
      }
    }),
  );
  expect(a.map((p) => p.height)).toEqual(Array.from({ length: BLOCKS }, (_, i) => i + 1));
  const differing = a.filter((p, i) => JSON.stringify(p) !== JSON.stringify(b[i])).map((p) => p.height);
  expect(differing).toEqual([]);
  expect(b).toHaveLength(a.length);
  const out: string[] = [];
  const code = await runVerify(
    ['--db', crashed.url],
    { DATABASE_URL: clean.url, DB_SCHEMA: SCHEMA },
    (l) => out.push(l),
    () => undefined,
  );
  expect([code, out.at(-1)]).toEqual([0, expect.stringMatching(/^agree: the proofs at \d+ are equal/)]);
}

/** The whole history indexed into `db` by one node nobody interrupts: the reference run. */
async function indexCleanly(db: TestDatabase, rpcUrl: string): Promise<void> {
  const node = await startNode({ dbEnv: subqlDbEnv(db), endpoint: rpcUrl, schema: SCHEMA });
  try {
    await node.waitForHeight(BLOCKS, 600_000);
  } finally {
    await node.stop();
  }
}

/** `npm start` as its own process-group leader, on the test's database and chain. */
function launcher(
  databaseUrl: string,
  rpcUrl: string,
  chainId: string,
  dataDir: string,
  port: number,
): LauncherProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    CHAIN_RPC_URL: rpcUrl,
    CHAIN_ID: chainId,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_FORMAT: 'json',
    RECONCILE_EVERY_BLOCKS: '0', // its rows are not the node's: keep the comparison to what the node wrote
  };
  delete env.DB_SCHEMA;
  return spawnLauncher(env, { detached: true });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe(`crash consistency: ${BLOCKS} blocks`, () => {
  let history: Awaited<ReturnType<typeof generateHistory>>;
  let rpc: Awaited<ReturnType<typeof startRpcServer>>;
  let clean: TestDatabase;
  /** the reference run: it indexes beside the first test's killed runs, which mostly wait (node starts, kill heights) */
  let cleanIndexed: Promise<void> | undefined;

  beforeAll(async () => {
    ensureProjectBuilt();
    history = await generateHistory({ seed: SEED, blocks: BLOCKS, txsPerBlock: 5, skipSignatureVerification: true });
    rpc = await startRpcServer(history.chain);
    clean = await createTestDatabase('crash_clean');
    cleanIndexed = indexCleanly(clean, rpc.url);
    cleanIndexed.catch(() => undefined); // a failure is reported where the tests await it
  });
  afterAll(async () => {
    await cleanIndexed?.catch(() => undefined);
    await rpc?.close();
    await clean?.drop().catch(() => undefined);
  });

  it(`the node killed with SIGKILL ${KILLS} times (twice during a flush) and restarted: every entity table equals the clean run, row for row, and every height's proof`, async () => {
    const crashed = await createTestDatabase('crash_killed');
    const prng = new Prng(`${SEED}/kills`);
    const kills: string[] = [];
    try {
      const watch = await connect(crashed);
      try {
        // kill heights spread over the history, in order
        const targets = Array.from({ length: KILLS }, (_, i) =>
          Math.floor(((i + 0.2 + 0.6 * prng.next()) * BLOCKS) / (KILLS + 1)),
        );
        for (const [i, target] of targets.entries()) {
          const victim = await startNode({ dbEnv: subqlDbEnv(crashed), endpoint: rpc.url, schema: SCHEMA });
          const from = await indexedHeight(watch);
          while ((await indexedHeight(watch)) < target) await new Promise((r) => setTimeout(r, 20));
          // the first two kills wait for a flush under way; the others strike wherever the node is
          const inFlush = i < 2 ? await duringFlush(watch, crashed.database, 20_000) : false;
          process.kill(victim.pid, 'SIGKILL');
          await victim.stop();
          kills.push(`${from}→${await indexedHeight(watch)}${inFlush ? ' (in a flush)' : ''}`);
        }
        const last = await startNode({ dbEnv: subqlDbEnv(crashed), endpoint: rpc.url, schema: SCHEMA });
        await last.waitForHeight(BLOCKS, 600_000);
        await last.stop();
        expect(kills.filter((k) => k.endsWith('(in a flush)')).length).toBeGreaterThanOrEqual(Math.min(2, KILLS));
      } finally {
        await watch.end();
      }
      await cleanIndexed;
      expect(await expectSameTables(clean, crashed, `kills ${kills.join(', ')}`)).toBeGreaterThan(BLOCKS);
      await expectSameProofs(clean, crashed);
    } finally {
      await crashed.drop().catch(() => undefined);
    }
  });

  it("the launcher's whole process group killed with SIGKILL mid-catch-up, then npm start again: the same tables and proofs", async () => {
    const crashed = await createTestDatabase('crash_launcher');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-crash-'));
    let killedAtHeight = 0;
    try {
      const watch = await connect(crashed);
      try {
        const first = launcher(crashed.url, rpc.url, history.chain.chainId, dataDir, await freePort());
        const target = Math.floor(BLOCKS / 2);
        const deadline = Date.now() + 300_000;
        while ((await indexedHeight(watch)) < target) {
          if (Date.now() > deadline || first.child.exitCode !== null)
            throw new Error(`npm start did not reach ${target}: ${JSON.stringify(first.lines.slice(-20))}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        const nodePid = Number(first.lines.find((l) => l.msg === 'subql-node-cosmos running')?.pid);
        process.kill(-first.child.pid!, 'SIGKILL'); // the launcher's group: it and everything in it, at once
        await first.exited;
        // the node runs in its own group; its watchdog stops it when the launcher is gone
        const gone = Date.now() + 30_000;
        while (alive(nodePid) && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
        expect(alive(nodePid)).toBe(false);
        killedAtHeight = await indexedHeight(watch);
        expect(killedAtHeight).toBeLessThan(BLOCKS);

        const second = launcher(crashed.url, rpc.url, history.chain.chainId, dataDir, await freePort());
        while ((await indexedHeight(watch)) < BLOCKS) {
          if (Date.now() > deadline + 300_000 || second.child.exitCode !== null)
            throw new Error(`npm start did not resume: ${JSON.stringify(second.lines.slice(-20))}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        second.child.kill('SIGTERM');
        await second.exited;
        expect(second.child.exitCode).toBe(0);
      } finally {
        await watch.end();
      }
      await cleanIndexed;
      expect(await expectSameTables(clean, crashed, `the launcher group killed at ${killedAtHeight}`)).toBeGreaterThan(
        BLOCKS,
      );
      await expectSameProofs(clean, crashed);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await crashed.drop().catch(() => undefined);
    }
  });
});
