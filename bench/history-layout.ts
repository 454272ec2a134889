/**
 * npx ts-node --transpile-only bench/history-layout.ts [-- --holders N --versions K --changed F --runs R]
 *
 * The holders page at a past height on candidate layouts of a mapping-kept history, on a synthetic
 * kind (no node: the layouts only; bench/history-cost.ts measures them on an indexed devnet history):
 * N holders, each with K earlier versions before its current one; a fraction F of the holders last
 * changed after the past height H (the rest before it). Layouts:
 *   head          the current table alone (today's answer at the head; the reference)
 *   cur+versions  current table (updated_height) + superseded versions (from, to), a limited ordered
 *                 scan per table, (kind_ref, units) on both, (kind_ref, updated_height) on the current
 *   every-version one table holding every version, the current one with to = 2^31-1, (kind_ref, units)
 * Prints median ms (planning + execution) of R EXPLAIN ANALYZE runs and the ratio to the head.
 */
import { Client } from 'pg';
import { createDatabase, startPostgres, uniqueName } from '../tests/harness/postgres';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const N = opt('holders', 100_000);
const K = opt('versions', 2);
const F = opt('changed', 1);
const RUNS = opt('runs', 15);
const HEAD = 1000;
const H = 500;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(c: Client, sql: string): Promise<{ ms: number; answer: string; plan: string }> {
  const ms: number[] = [];
  let plan = '';
  for (let i = 0; i < RUNS; i++) {
    const lines = (await c.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE) ${sql}`)).rows.map(
      (r) => r['QUERY PLAN'],
    );
    const text = lines.join('\n');
    ms.push(Number(/Planning Time: ([\d.]+)/.exec(text)![1]) + Number(/Execution Time: ([\d.]+)/.exec(text)![1]));
    plan = text;
  }
  return { ms: Math.round(median(ms) * 1000) / 1000, answer: JSON.stringify((await c.query(sql)).rows), plan };
}

async function main(): Promise<void> {
  const pg = await startPostgres();
  const db = await createDatabase(pg.url, uniqueName('layout'));
  const c = new Client({ connectionString: db.url });
  await c.connect();
  try {
    // holder g: current version from `cur` (after H for the first F*N holders, before it for the rest),
    // K earlier versions evenly before it; units differ per version
    const changedAfter = Math.round(F * N);
    await c.query(`CREATE TABLE v AS
      SELECT 'k' AS kind_ref, 'h' || lpad(g::text, 9, '0') AS holder, j,
             (1 + (g * (j + 7)) % 991)::numeric AS units,
             CASE WHEN g <= ${changedAfter} THEN 600 ELSE 400 END AS cur
      FROM generate_series(1, ${N}) g, generate_series(0, ${K}) j`);
    // version j of K+1 covers [from, to): the current one (j = K) from `cur` on
    await c.query(`CREATE TABLE every AS SELECT kind_ref, holder, units,
        CASE WHEN j = ${K} THEN cur ELSE 1 + (j * (cur - 1)) / ${K} END AS from_height,
        CASE WHEN j = ${K} THEN 2147483647 ELSE 1 + ((j + 1) * (cur - 1)) / ${K} END AS to_height
      FROM v`);
    await c.query(
      `CREATE TABLE cur AS SELECT kind_ref, holder, units, from_height AS updated_height FROM every WHERE to_height = 2147483647`,
    );
    await c.query(`CREATE TABLE hist AS SELECT * FROM every WHERE to_height < 2147483647`);
    for (const t of ['every', 'cur', 'hist']) await c.query(`CREATE INDEX ON ${t} (kind_ref, units)`);
    await c.query('CREATE INDEX ON cur (kind_ref, updated_height)');
    await c.query('CREATE INDEX ON hist USING brin (to_height)');
    for (const t of ['every', 'cur', 'hist']) await c.query(`VACUUM ANALYZE ${t}`);
    const order = 'ORDER BY units DESC, holder ASC LIMIT 51';
    const cols = 'holder, units';
    const forms: [string, string][] = [
      ['head (current table)', `SELECT ${cols} FROM cur WHERE kind_ref = 'k' AND units > 0 ${order}`],
      [
        `cur+versions at ${H}`,
        `SELECT * FROM ((SELECT ${cols} FROM cur WHERE kind_ref = 'k' AND units > 0 AND updated_height <= ${H} ${order})
         UNION ALL (SELECT ${cols} FROM hist WHERE kind_ref = 'k' AND units > 0 AND from_height <= ${H} AND to_height > ${H} ${order})) p ${order}`,
      ],
      [
        `every-version at ${H}`,
        `SELECT ${cols} FROM every WHERE kind_ref = 'k' AND units > 0 AND from_height <= ${H} AND to_height > ${H} ${order}`,
      ],
    ];
    console.log(
      `[bench:history-layout] ${N} holders, ${K} earlier versions each, ${changedAfter} changed after ${H} (head ${HEAD})`,
    );
    let head = 0;
    const answers: string[] = [];
    for (const [name, sql] of forms) {
      const r = await time(c, sql);
      if (!head) head = r.ms;
      else answers.push(r.answer);
      console.log(`[bench:history-layout] ${name}: ${r.ms} ms (x${Math.round((r.ms / head) * 100) / 100} the head)`);
      if (argv.includes('--plans')) console.log(r.plan);
    }
    console.log(`[bench:history-layout] the two past forms answer alike: ${answers[0] === answers[1]}`);
  } finally {
    await c.end();
    await db.drop();
    await pg.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
