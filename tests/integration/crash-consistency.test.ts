/**
 * Crash consistency of the index: a devnet history indexed by the real node while the node is
 * killed with SIGKILL at several points — twice while it is writing a flush (an INSERT or UPDATE
 * of its connection seen active in pg_stat_activity), the others at random heights — and
 * restarted each time, must leave every entity table equal, row for row, to a clean run of the
 * same history (the node's own `_metadata` excepted: it records runs, not chain data).
 *
 * CRASH_BLOCKS / CRASH_KILLS / CRASH_SEED run a larger case: `CRASH_BLOCKS=5000 CRASH_KILLS=12 npx
 * jest tests/integration/crash-consistency.test.ts --selectProjects integration` (docs/indexer.md).
 */
import { Client } from 'pg';
import { startRpcServer } from '../../devnet/chain';
import { generateHistory } from '../../devnet/scenario';
import { Prng } from '../../devnet/scenario/prng';
import { createTestDatabase } from '../harness/db';
import { ensureProjectBuilt } from '../harness/indexed-store';
import { subqlDbEnv, type TestDatabase } from '../harness/postgres';
import { startNode } from '../harness/subql-node';

jest.setTimeout(900_000);

const SEED = process.env.CRASH_SEED ?? 'crash';
const BLOCKS = Number(process.env.CRASH_BLOCKS ?? 1000);
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
    const rows = await c.query<{ j: string }>(`SELECT row_to_json(t)::text AS j FROM ${SCHEMA}."${name}" t ORDER BY id`);
    out.set(name, rows.rows.map((r) => r.j));
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

describe(`crash consistency: ${BLOCKS} blocks, the node killed ${KILLS} times`, () => {
  it('every entity table equals a clean run of the same history, row for row', async () => {
    ensureProjectBuilt();
    const history = await generateHistory({ seed: SEED, blocks: BLOCKS, txsPerBlock: 5, skipSignatureVerification: true });
    const rpc = await startRpcServer(history.chain);
    const clean = await createTestDatabase('crash_clean');
    const crashed = await createTestDatabase('crash_killed');
    const prng = new Prng(`${SEED}/kills`);
    const kills: string[] = [];
    try {
      // the clean run
      const node = await startNode({ dbEnv: subqlDbEnv(clean), endpoint: rpc.url, schema: SCHEMA });
      await node.waitForHeight(BLOCKS, 600_000);
      await node.stop();

      // the same history, killed and restarted
      const watch = await connect(crashed);
      try {
        // kill heights spread over the history, in order
        const targets = Array.from({ length: KILLS }, (_, i) => Math.floor(((i + 0.2 + 0.6 * prng.next()) * BLOCKS) / (KILLS + 1)));
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

      const [a, b] = await Promise.all([clean, crashed].map(async (db) => {
        const c = await connect(db);
        try {
          return await tables(c);
        } finally {
          await c.end();
        }
      }));
      expect([...b.keys()]).toEqual([...a.keys()]);
      expect(a.size).toBeGreaterThan(25);
      let rows = 0;
      for (const [name, expected] of a) {
        const actual = b.get(name)!;
        rows += expected.length;
        if (actual.length !== expected.length || actual.some((r, i) => r !== expected[i])) {
          const first = actual.findIndex((r, i) => r !== expected[i]);
          throw new Error(`table ${name} differs after kills ${kills.join(', ')}: ${actual.length} rows vs ${expected.length}; first difference:\n  killed: ${actual[first]}\n  clean:  ${expected[first]}`);
        }
      }
      expect(rows).toBeGreaterThan(BLOCKS);
    } finally {
      await rpc.close();
      await clean.drop().catch(() => undefined);
      await crashed.drop().catch(() => undefined);
    }
  });
});
