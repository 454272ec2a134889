/**
 * npx ts-node --transpile-only bench/history-reads.ts [-- --blocks N --txs-per-block N --seed S]
 *
 * What this project's reads do on a store the node wrote with its own historical mode on (issue 45,
 * "measure before choosing"; the cost side is bench:index --historical):
 *   1. indexes one seeded devnet history (default 300 blocks x 10 txs) twice with the real
 *      @subql/node-cosmos: "main" as the product runs (`--historical=false`) and "historical"
 *      (bench/lib/historical-project.ts, mode height; btree_gist created in both databases),
 *   2. the mappings: per table, the rows main holds against the historical store's current rows
 *      (`upper_inf(_block_range)`), compared as a hash of every column but the node's own
 *      `_block_range` and `_id` (its surrogate primary key in that mode, attribute `__id`); and
 *      svc.drifts in both,
 *   3. /v1 at the head: every endpoint of bench/endpoints.ts (one request each, drawn once from
 *      main's store, the same path on both), the REST adapter (launcher/rest-adapter-main.ts) on
 *      each store; status and body compared; a differing body shown in part,
 *   4. GraphQL as `npm start` serves it (PostGraphile, src/runtime/graphql.ts) on the historical
 *      store: does a `blockHeight` argument exist, do by-id queries exist, does a list answer alike.
 *
 * PostgreSQL: an embedded server (tests/harness/postgres.ts).
 */
import { type ChildProcess } from 'child_process';
import { Pool } from 'pg';
import { startRpcServer } from '../devnet/chain';
import { withConnection } from '../src/store';
import { generateHistory } from '../devnet/scenario';
import { createDatabase, startPostgres, subqlDbEnv, uniqueName, type TestDatabase } from '../tests/harness/postgres';
import { endpoints } from './endpoints';
import { startApiServer } from './lib/api-server';
import { startGraphqlServer } from './lib/graphql-server';
import { makeHistoricalProject } from './lib/historical-project';
import { REPO_ROOT, runNode } from './lib/node-run';

const log = (line: string) => console.log(`[bench:history-reads] ${line}`);

function parseArgs(argv: string[]): { seed: string; blocks: number; txsPerBlock: number } {
  const a = { seed: 'bench', blocks: 300, txsPerBlock: 10 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[++i];
    const n = Number(value);
    if (flag === '--seed' && value) a.seed = value;
    else if (flag === '--blocks' && Number.isSafeInteger(n) && n >= 2) a.blocks = n;
    else if (flag === '--txs-per-block' && Number.isSafeInteger(n) && n >= 1) a.txsPerBlock = n;
    else throw new Error(`bad option ${flag} ${value ?? ''}`);
  }
  return a;
}

/** Per table with an id: rows and a hash of every column but _block_range, in id order (current rows only when historical). */
async function tableHashes(url: string, historical: boolean): Promise<Map<string, { rows: number; hash: string }>> {
  return withConnection(url, async (c) => {
    const tables = await c.query<{ t: string }>(
      `SELECT table_name AS t FROM information_schema.columns WHERE table_schema = 'svc' AND column_name = 'id' ORDER BY 1`,
    );
    const out = new Map<string, { rows: number; hash: string }>();
    for (const { t } of tables.rows) {
      const r = await c.query<{ rows: string; hash: string | null }>(
        `SELECT count(*)::text AS rows, md5(string_agg((to_jsonb(x) - '_block_range' - '_id')::text, '|' ORDER BY x.id)) AS hash
         FROM svc."${t}" x${historical ? ' WHERE upper_inf(x._block_range)' : ''}`,
      );
      out.set(t, { rows: Number(r.rows[0].rows), hash: r.rows[0].hash ?? '' });
    }
    return out;
  });
}

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

async function graphql(url: string, query: string): Promise<unknown> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return res.json();
}

/** The first place two strings differ, with some context. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 60);
  return `main …${a.slice(from, i + 100)}… | historical …${b.slice(from, i + 100)}…`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const history = await generateHistory({ ...args, skipSignatureVerification: true });
  const chain = history.chain;
  log(`history: seed ${args.seed}, ${chain.height} blocks, ${history.summary.txs.total} txs`);
  const rpc = await startRpcServer(chain);
  const pg = await startPostgres();
  const project = makeHistoricalProject('height');
  const children: ChildProcess[] = [];
  const dbs: TestDatabase[] = [];
  try {
    const stores: Record<'main' | 'historical', TestDatabase> = {} as never;
    for (const mode of ['main', 'historical'] as const) {
      const db = await createDatabase(pg.url, uniqueName(`reads_${mode}`));
      dbs.push(db);
      await withConnection(db.url, (c) => c.query('CREATE EXTENSION IF NOT EXISTS btree_gist'));
      const r = await runNode({
        dbEnv: subqlDbEnv(db),
        endpoint: rpc.url,
        projectDir: mode === 'main' ? REPO_ROOT : project.dir,
        targetHeight: chain.height,
        subqlFlags: ['--batch-size=100'],
        historical: mode === 'historical' ? 'height' : false,
      });
      log(`${mode}: indexed ${r.blocks} blocks at ${r.blocksPerSec.toFixed(1)} blocks/s`);
      stores[mode] = db;
    }

    // 2. the mappings: the historical store's current rows against main's rows
    const [m, h] = [await tableHashes(stores.main.url, false), await tableHashes(stores.historical.url, true)];
    const differing = [...m].filter(([t, x]) => h.get(t)?.hash !== x.hash || h.get(t)?.rows !== x.rows);
    log(
      `mappings: ${m.size} tables with an id; current rows of the historical store equal main's in ${m.size - differing.length}` +
        (differing.length
          ? `; differ in ${differing.map(([t, x]) => `${t} (${x.rows} vs ${h.get(t)?.rows})`).join(', ')}`
          : ''),
    );
    const columns = (url: string) =>
      withConnection(url, async (c) =>
        (
          await c.query<{ c: string }>(
            `SELECT DISTINCT column_name AS c FROM information_schema.columns WHERE table_schema = 'svc'`,
          )
        ).rows.map((r) => r.c),
      );
    const mainColumns = new Set(await columns(stores.main.url));
    log(
      `columns only the historical store has: ${(await columns(stores.historical.url)).filter((x) => !mainColumns.has(x)).join(', ')}`,
    );
    for (const mode of ['main', 'historical'] as const) {
      const n = await withConnection(stores[mode].url, (c) =>
        c.query<{ n: string }>('SELECT count(*) AS n FROM svc.drifts'),
      );
      log(`${mode}: svc.drifts ${n.rows[0].n}`);
    }

    // 3. /v1 at the head: the same paths on both stores
    const pool = new Pool({ connectionString: stores.main.url, max: 2 });
    const eps = await endpoints(pool);
    await pool.end();
    const paths = eps.map((e) => ({ name: e.name, path: e.next() }));
    const apis: Record<string, string> = {};
    for (const mode of ['main', 'historical'] as const) {
      const api = await startApiServer(stores[mode].url, 'svc', 4, false).catch((e: Error) => {
        log(`${mode}: the REST adapter did not start: ${e.message}`);
        return undefined;
      });
      if (api) {
        children.push(api.child);
        apis[mode] = api.url;
      }
    }
    if (apis.main && apis.historical) {
      const same: string[] = [];
      for (const p of paths) {
        const [a, b] = [await get(apis.main + p.path), await get(apis.historical + p.path)];
        if (a.status === b.status && a.body === b.body) {
          same.push(p.name);
          continue;
        }
        log(
          `/v1 ${p.name} ${p.path}: main ${a.status} ${a.body.length} B, historical ${b.status} ${b.body.length} B: ${firstDifference(a.body, b.body).slice(0, 500)}`,
        );
      }
      log(`/v1 at the head: ${same.length} of ${paths.length} answers byte for byte alike: ${same.join(', ')}`);
    }

    // 4. GraphQL as npm start serves it, on the historical store
    for (const mode of ['main', 'historical'] as const) {
      const gql = await startGraphqlServer(stores[mode].url, 'svc').catch((e: Error) => {
        log(`${mode}: PostGraphile did not start: ${e.message}`);
        return undefined;
      });
      if (!gql) continue;
      children.push(gql.child);
      const fields = (await graphql(gql.url, '{ __type(name: "Query") { fields { name args { name } } } }')) as {
        data?: { __type: { fields: { name: string; args: { name: string }[] }[] } };
      };
      const qs = fields.data?.__type.fields ?? [];
      const withHeight = qs.filter((f) => f.args.some((x) => x.name === 'blockHeight')).map((f) => f.name);
      log(
        `${mode} GraphQL: ${qs.length} query fields; by-id "asset": ${qs.some((f) => f.name === 'asset') ? 'yes' : 'no'}; ` +
          `with a blockHeight argument: ${withHeight.length ? withHeight.join(', ') : 'none'}`,
      );
      const list = await graphql(gql.url, '{ holdings(first: 5, orderBy: ID_ASC) { totalCount nodes { id units } } }');
      log(`${mode} GraphQL holdings(first: 5): ${JSON.stringify(list).slice(0, 400)}`);
    }
  } finally {
    for (const c of children) c.kill('SIGKILL');
    for (const db of dbs) await db.drop().catch(() => undefined);
    project.remove();
    await rpc.close();
    await pg.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
