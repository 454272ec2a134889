/**
 * npx ts-node --transpile-only bench/history-cost.ts [-- options]
 *
 * What the node's own historical mode costs this project (issue 45, "measure before choosing"):
 *   1. generates a seeded devnet history (devnet/scenario, as bench:index: default 2,000 blocks x
 *      10 txs, skipSignatureVerification) and serves it over CometBFT RPC in this process,
 *   2. indexes it with the real @subql/node-cosmos into a fresh database per run, interleaved
 *      (main, historical, main, historical…, --repeat pairs): "main" is the product as it runs
 *      (`--historical=false`), "historical" the same build with the node's historical mode on
 *      (bench/lib/historical-project.ts; btree_gist created before the node starts, in both
 *      databases alike),
 *   3. prints per run blocks/s and CPU per block (node, PostgreSQL), per pair historical/main,
 *   4. on the last pair's stores: the store size (sum of pg_total_relation_size over schema svc, as
 *      the node left it and after VACUUM FULL), per table rows and, in the historical store,
 *      versions (rows - distinct ids), and the size a mapping-kept history of the state tables
 *      would add beside main's tables (every version: the historical store's state tables; superseded
 *      versions only: their count x that table's bytes per row in the historical store),
 *   5. EXPLAIN ANALYZE of the REST adapter's holders page (first page and a keyset page) and account
 *      answer (rest-adapter/repositories/assets.ts holdersPage, accounts.ts overview, same SQL
 *      with literals) on main's store, and on the historical store at the head (`upper_inf(_block_range)`
 *      on every table, and `_block_range @> head`) and at a past height (`_block_range @> H`), and
 *      on the mapping-kept layout built from the historical store's rows (buildMappingKept: current
 *      tables as main's plus `<table>_history` versions with `_from`/`_to`; at a height the current
 *      rows written at or below it UNION ALL the versions whose range holds it): median planning +
 *      execution ms of --explain-runs, and whether the forms answer alike; then the same after
 *      --synthetic-holders holders are added to the largest kind in both stores (the bench:api
 *      100k-holder shape; in the historical store with --synthetic-versions earlier versions each),
 *   6. a final JSON line.
 *
 * Options:
 *   --seed S --blocks N --txs-per-block N   the history (default bench, 2000, 10)
 *   --batch-size N                          the node's --batch-size (default 100, as the launcher)
 *   --repeat N                              interleaved pairs (default 2; median of the pair ratios)
 *   --explain-runs N                        EXPLAIN ANALYZE runs per query (default 15; median)
 *   --synthetic-holders N                   holders added for the scaled EXPLAIN (default 100000; 0: none)
 *   --synthetic-versions K                  earlier versions of each in the historical store (default 2)
 *   --logs DIR                              each run's node log
 *
 * PostgreSQL: DATABASE_URL when set, else an embedded server (tests/harness/postgres.ts).
 */
import fs from 'fs';
import path from 'path';
import { Client } from 'pg';
import { startRpcServer } from '../devnet/chain';
import { withConnection } from '../src/store';
import { generateHistory } from '../devnet/scenario';
import { createDatabase, startPostgres, subqlDbEnv, uniqueName, type TestDatabase } from '../tests/harness/postgres';
import { makeHistoricalProject } from './lib/historical-project';
import { busy, machineState } from './lib/machine';
import { REPO_ROOT, runNode, type NodeRunResult } from './lib/node-run';

interface Args {
  seed: string;
  blocks: number;
  txsPerBlock: number;
  batchSize: number;
  repeat: number;
  explainRuns: number;
  syntheticHolders: number;
  syntheticVersions: number;
  logs?: string;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    seed: 'bench',
    blocks: 2000,
    txsPerBlock: 10,
    batchSize: 100,
    repeat: 2,
    explainRuns: 15,
    syntheticHolders: 100_000,
    syntheticVersions: 2,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const int = (min: number) => {
      const n = Number(value());
      if (!Number.isSafeInteger(n) || n < min) throw new Error(`${flag} takes an integer >= ${min}`);
      return n;
    };
    if (flag === '--seed') a.seed = value();
    else if (flag === '--blocks') a.blocks = int(2);
    else if (flag === '--txs-per-block') a.txsPerBlock = int(1);
    else if (flag === '--batch-size') a.batchSize = int(1);
    else if (flag === '--repeat') a.repeat = int(1);
    else if (flag === '--explain-runs') a.explainRuns = int(1);
    else if (flag === '--synthetic-holders') a.syntheticHolders = int(0);
    else if (flag === '--synthetic-versions') a.syntheticVersions = int(1);
    else if (flag === '--logs') a.logs = value();
    else throw new Error(`unknown option ${flag}`);
  }
  return a;
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
const log = (line: string) => console.log(`[bench:history] ${line}`);

/** The state tables the /v1 state answers of issue 45 item 1 read: what a mapping-kept history would version. */
const STATE_TABLES = [
  'accounts',
  'assets',
  'kinds',
  'holdings',
  'accruals',
  'claimables',
  'encumbrances',
  'settlements',
  'attestations',
  'attester_type_stats',
  'delegations',
  'voting_powers',
  'waterfalls',
  'liquidations',
  'redemption_pools',
  'bridge_routes',
  'chain_totals',
];

interface TableFigures {
  table: string;
  rows: number;
  ids: number;
  bytes: number;
}

async function storeFigures(c: Client): Promise<{ bytes: number; tables: TableFigures[] }> {
  const rel = await c.query<{ table: string; bytes: string }>(
    `SELECT c.relname AS table, pg_total_relation_size(c.oid)::text AS bytes FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'svc' AND c.relkind = 'r' ORDER BY 1`,
  );
  const tables: TableFigures[] = [];
  for (const r of rel.rows) {
    const q = await c.query<{ rows: string; ids: string }>(
      `SELECT count(*)::text AS rows, ${r.table === '_metadata' ? 'count(*)' : 'count(DISTINCT id)'}::text AS ids FROM svc."${r.table}"`,
    );
    tables.push({ table: r.table, rows: Number(q.rows[0].rows), ids: Number(q.rows[0].ids), bytes: Number(r.bytes) });
  }
  return { bytes: tables.reduce((n, t) => n + t.bytes, 0), tables };
}

/**
 * Which rows a query reads: `from(table)` is the table (or subquery) standing for it, `filter(alias)`
 * what each reference to it adds. main: the table as it is; the node's historical store: its table
 * and a `_block_range` condition; the mapping-kept layout (mk): the current table at the head, and at
 * a height the current rows written at or below it UNION ALL the versions whose range holds it.
 */
interface Version {
  from(table: string): string;
  filter(alias: string): string;
  /** a paged list read as one ordered, limited scan per table it unions (each branch walks its own index and stops) */
  branches?: (table: string) => { table: string; filter(alias: string): string }[];
}
const NOW: Version = { from: (t) => `svc.${t}`, filter: () => '' };
const HEAD_UPPER_INF: Version = { from: (t) => `svc.${t}`, filter: (a) => ` AND upper_inf(${a}._block_range)` };
const at = (h: number): Version => ({
  from: (t) => `svc.${t}`,
  filter: (a) => ` AND ${a}._block_range @> ${h}::bigint`,
});
const MK_HEAD: Version = { from: (t) => `mk.${t}`, filter: () => '' };
const mkAt = (h: number, columns: Map<string, string>): Version => ({
  from: (t) =>
    `(SELECT ${columns.get(t)} FROM mk.${t} WHERE _from <= ${h} UNION ALL SELECT ${columns.get(t)} FROM mk.${t}_history WHERE _from <= ${h} AND _to > ${h})`,
  filter: () => '',
});
const mkAtBranches = (h: number, columns: Map<string, string>): Version => ({
  ...mkAt(h, columns),
  branches: (t) => [
    { table: `mk.${t}`, filter: (a) => ` AND ${a}._from <= ${h}` },
    { table: `mk.${t}_history`, filter: (a) => ` AND ${a}._from <= ${h} AND ${a}._to > ${h}` },
  ],
});

/** The tables the EXPLAINed answers read. */
const MK_TABLES = [
  'holdings',
  'kinds',
  'assets',
  'encumbrances',
  'chain_totals',
  'settlements',
  'attestations',
  'claimables',
  'accruals',
  'delegations',
  'voting_powers',
];

/**
 * The mapping-kept layout, built in the historical store's database from its rows (schema mk):
 * per table `mk.<t>`, the current rows (upper_inf) with `_from` = the height of their last write,
 * the primary key on id and main's other indexes; `mk.<t>_history`, the superseded versions with
 * `_from`, `_to` (the height that replaced them), primary key (id, _from), main's other indexes and
 * one on `_to` (what pruning would delete by). Returns each table's column list.
 */
async function buildMappingKept(mainDb: Client, histDb: Client): Promise<Map<string, string>> {
  const columns = new Map<string, string>();
  await histDb.query('DROP SCHEMA IF EXISTS mk CASCADE; CREATE SCHEMA mk');
  for (const t of MK_TABLES) {
    const cols = (
      await histDb.query<{ c: string }>(
        `SELECT quote_ident(column_name) AS c FROM information_schema.columns WHERE table_schema = 'svc' AND table_name = $1
         AND column_name NOT IN ('_id', '_block_range') ORDER BY ordinal_position`,
        [t],
      )
    ).rows.map((r) => r.c);
    columns.set(t, [...cols, '_from'].join(', '));
    await histDb.query(
      `CREATE TABLE mk.${t} AS SELECT ${cols.join(', ')}, lower(_block_range)::int AS _from FROM svc.${t} WHERE upper_inf(_block_range)`,
    );
    await histDb.query(
      `CREATE TABLE mk.${t}_history AS SELECT ${cols.join(', ')}, lower(_block_range)::int AS _from, upper(_block_range)::int AS _to
       FROM svc.${t} WHERE NOT upper_inf(_block_range)`,
    );
    await histDb.query(`ALTER TABLE mk.${t} ADD PRIMARY KEY (id)`);
    await histDb.query(`ALTER TABLE mk.${t}_history ADD PRIMARY KEY (id, _from)`);
    await histDb.query(`CREATE INDEX ON mk.${t}_history (_to)`);
    const defs = await mainDb.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = 'svc' AND tablename = $1 AND indexdef NOT LIKE '%UNIQUE%'`,
      [t],
    );
    for (const { indexdef } of defs.rows) {
      const using = indexdef.slice(indexdef.indexOf(' USING '));
      await histDb.query(`CREATE INDEX ON mk.${t} ${using}`);
      await histDb.query(`CREATE INDEX ON mk.${t}_history ${using}`);
    }
    await histDb.query(`ANALYZE mk.${t}; ANALYZE mk.${t}_history`);
  }
  return columns;
}

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const jsonList = (select: string, orderBy: string) =>
  `(SELECT coalesce(json_agg(x ORDER BY ${orderBy}), '[]') FROM (${select}) x)`;

/** rest-adapter/repositories/assets.ts holdersPage, literals instead of parameters, each table filtered by `v`. */
function holdersPageSql(
  v: Version,
  assetId: string,
  kindRef: string,
  after: [string, string] | null,
  n: number,
): string {
  const conditions = [`h.kind_ref = ${lit(kindRef)}`, 'h.units > 0'];
  if (after)
    conditions.push(
      `h.units <= ${after[0]}`,
      `(h.units < ${after[0]} OR (h.units = ${after[0]} AND h.holder > ${lit(after[1])}))`,
    );
  const order = `ORDER BY h.units DESC, h.holder ASC LIMIT ${n}`;
  const page = v.branches
    ? `SELECT * FROM (${v
        .branches('holdings')
        .map(
          (b) =>
            `(SELECT h.holder, h.units, h.locked, h.locks FROM ${b.table} h WHERE ${conditions.join(' AND ')}${b.filter('h')} ${order})`,
        )
        .join(' UNION ALL ')}) h ${order}`
    : `SELECT h.holder, h.units, h.locked, h.locks FROM ${v.from('holdings')} h WHERE ${conditions.join(' AND ')}${v.filter('h')} ${order}`;
  return `WITH page AS (${page})
    SELECT a.status,
           EXISTS (SELECT 1 FROM ${v.from('kinds')} k WHERE k.id = ${lit(kindRef)}${v.filter('k')}) AS "kindExists",
           ${jsonList('SELECT holder, units::text, locked::text, locks FROM page', 'x.units::numeric DESC, x.holder ASC')} AS holders,
           ${jsonList(
             `SELECT e.id, e.kind, e.beneficiary, e.units::text, e.status, e.expiry::text, e.holder_release_after::text FROM ${v.from('encumbrances')} e
              WHERE e.id IN (SELECT substring(l.value ->> 'ref' FROM '^encumbrance/([0-9]+)$')
                             FROM page, jsonb_array_elements(coalesce(page.locks, '[]')) l)${v.filter('e')}`,
             'x.id',
           )} AS encumbrances
    FROM ${v.from('assets')} a WHERE a.id = ${lit(assetId)}${v.filter('a')}`;
}

/** rest-adapter/repositories/accounts.ts overview, literals instead of parameters, each table filtered by `v`. */
function accountSql(v: Version, account: string): string {
  const acct = lit(account);
  return `SELECT (SELECT ct.latest_block_time FROM ${v.from('chain_totals')} ct WHERE ct.id = 'chain'${v.filter('ct')}) AS "latestBlockTime",
    ${jsonList(
      `SELECT h.asset_id, h.kind_id, k.kind_class, k.decimals, h.units::text, h.locked::text, h.locks
       FROM ${v.from('holdings')} h JOIN ${v.from('kinds')} k ON k.id = h.kind_ref${v.filter('k')}
       WHERE h.holder = ${acct} AND (h.units > 0 OR h.locked > 0)${v.filter('h')}`,
      'x.asset_id, x.kind_id',
    )} AS positions,
    ${jsonList(
      `SELECT s.id, s.status, s.number::text AS number FROM ${v.from('settlements')} s
       WHERE s.status = 'STATUS_PENDING' AND (s.proposer = ${acct} OR s.counterparty = ${acct})${v.filter('s')}`,
      'x.number::numeric DESC',
    )} AS "pendingSettlements",
    ${jsonList(
      `SELECT t.type, t.attester, t.expiry::text, t.revoked, t.evidence_hash, t.updated_height FROM ${v.from('attestations')} t WHERE t.subject = ${acct}${v.filter('t')}`,
      'x.type, x.attester',
    )} AS attestations,
    ${jsonList(
      `SELECT c.routed_from, c.ref, c.asset_id, c.kind_id, c.denom, c.units::text, c.snapshot_index::text, c.accrued::text, ac.index::text
       FROM ${v.from('claimables')} c JOIN ${v.from('accruals')} ac ON ac.id = c.accrual_id${v.filter('ac')}
       WHERE c.account = ${acct}${v.filter('c')}`,
      'x.asset_id, x.kind_id, x.routed_from, x.ref',
    )} AS claimables,
    ${jsonList(
      `SELECT d.id, d.units::text FROM ${v.from('delegations')} d WHERE (d.holder = ${acct} OR d.delegate = ${acct}) AND d.ended = ''${v.filter('d')}`,
      'x.id::numeric DESC',
    )} AS delegations,
    ${jsonList(
      `SELECT vp.asset_id, vp.kind_id, vp.delegated_out::text, vp.delegated_in::text
       FROM ${v.from('voting_powers')} vp JOIN ${v.from('kinds')} k ON k.id = vp.asset_id || '-' || vp.kind_id${v.filter('k')}
       WHERE vp.account = ${acct} AND k.kind_class = 'VOTE'${v.filter('vp')}`,
      'x.asset_id, x.kind_id',
    )} AS "delegatedVotes"`;
}

interface Timing {
  ms: number;
  planMs: number;
  execMs: number;
  plan: string;
  answer: string;
}

/** Median planning + execution time of `runs` EXPLAIN ANALYZE runs, the text plan of the last, and the answer's text. */
async function timeQuery(c: Client, sql: string, runs: number): Promise<Timing> {
  const totals: number[] = [];
  const plans: number[] = [];
  const execs: number[] = [];
  let plan = '';
  for (let i = 0; i < runs; i++) {
    const r = await c.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`);
    const lines = r.rows.map((x) => x['QUERY PLAN']);
    const p = Number(/Planning Time: ([\d.]+)/.exec(lines.join('\n'))?.[1] ?? NaN);
    const e = Number(/Execution Time: ([\d.]+)/.exec(lines.join('\n'))?.[1] ?? NaN);
    totals.push(p + e);
    plans.push(p);
    execs.push(e);
    if (i === runs - 1) plan = lines.join('\n');
  }
  const answer = JSON.stringify((await c.query(sql)).rows[0]);
  return { ms: round(median(totals), 3), planMs: median(plans), execMs: median(execs), plan, answer };
}

interface Targets {
  assetId: string;
  kindRef: string;
  holders: number;
  after: [string, string] | null;
  account: string;
  pastHeight: number;
  head: number;
}

async function pickTargets(c: Client, head: number): Promise<Targets> {
  const k = (
    await c.query<{ kind_ref: string; asset_id: string; n: string }>(
      `SELECT kind_ref, min(asset_id) AS asset_id, count(*)::text AS n FROM svc.holdings WHERE units > 0 GROUP BY kind_ref ORDER BY count(*) DESC, kind_ref LIMIT 1`,
    )
  ).rows[0];
  const page = await c.query<{ units: string; holder: string }>(
    `SELECT units::text, holder FROM svc.holdings WHERE kind_ref = $1 AND units > 0 ORDER BY units DESC, holder ASC LIMIT 50`,
    [k.kind_ref],
  );
  const last = page.rows.length === 50 ? page.rows[49] : null;
  const acct = (
    await c.query<{ holder: string }>(
      `SELECT holder FROM svc.holdings GROUP BY holder ORDER BY count(*) DESC, holder LIMIT 1`,
    )
  ).rows[0];
  return {
    assetId: k.asset_id,
    kindRef: k.kind_ref,
    holders: Number(k.n),
    after: last ? [last.units, last.holder] : null,
    account: acct.holder,
    pastHeight: Math.floor(head / 2),
    head,
  };
}

interface QueryFigures {
  query: string;
  /** median ms (planning + execution) */
  main: number;
  nodeHeadUpperInf: number;
  nodeHeadContains: number;
  nodePast: number;
  mkHead: number;
  mkPast: number;
  /** the same with the page read as a limited scan per table (holders pages; the account answer has no page) */
  mkPastBranches: number;
  /** planning and execution ms (medians) of main and of the mapping-kept past forms */
  split: Record<string, [number, number]>;
  /** main / the historical store's faster head form (bound >= 0.9) */
  nodeHeadRatio: number;
  nodePastOverHead: number;
  /** main / the mapping-kept head (bound >= 0.9) */
  mkHeadRatio: number;
  /** the mapping-kept past height (the faster form) / its head (bound <= 3) */
  mkPastOverHead: number;
  /** every head form answers what main answers; the two past forms answer alike */
  sameAtHead: boolean;
  sameAtPast: boolean;
}

async function explainAll(
  mainDb: Client,
  histDb: Client,
  t: Targets,
  columns: Map<string, string>,
  runs: number,
  label: string,
  plans: Record<string, string>,
): Promise<QueryFigures[]> {
  const queries: [string, (v: Version) => string][] = [
    ['holders page 1', (v) => holdersPageSql(v, t.assetId, t.kindRef, null, 51)],
  ];
  if (t.after) queries.push(['holders page 2 (keyset)', (v) => holdersPageSql(v, t.assetId, t.kindRef, t.after, 51)]);
  queries.push(['account', (v) => accountSql(v, t.account)]);
  const out: QueryFigures[] = [];
  for (const [name, sql] of queries) {
    const main = await timeQuery(mainDb, sql(NOW), runs);
    const headU = await timeQuery(histDb, sql(HEAD_UPPER_INF), runs);
    const headC = await timeQuery(histDb, sql(at(t.head)), runs);
    const past = await timeQuery(histDb, sql(at(t.pastHeight)), runs);
    const mkHead = await timeQuery(histDb, sql(MK_HEAD), runs);
    const mkPast = await timeQuery(histDb, sql(mkAt(t.pastHeight, columns)), runs);
    const mkPastB = await timeQuery(histDb, sql(mkAtBranches(t.pastHeight, columns)), runs);
    plans[`${label} ${name}: main`] = main.plan;
    plans[`${label} ${name}: node historical, head (upper_inf)`] = headU.plan;
    plans[`${label} ${name}: node historical, at ${t.pastHeight}`] = past.plan;
    plans[`${label} ${name}: mapping-kept, head`] = mkHead.plan;
    plans[`${label} ${name}: mapping-kept, at ${t.pastHeight}`] = mkPast.plan;
    plans[`${label} ${name}: mapping-kept, at ${t.pastHeight}, a limited scan per table`] = mkPastB.plan;
    const nodeHead = Math.min(headU.ms, headC.ms);
    const f: QueryFigures = {
      query: name,
      main: main.ms,
      nodeHeadUpperInf: headU.ms,
      nodeHeadContains: headC.ms,
      nodePast: past.ms,
      mkHead: mkHead.ms,
      mkPast: mkPast.ms,
      mkPastBranches: mkPastB.ms,
      split: Object.fromEntries(
        (
          [
            ['main', main],
            ['mkHead', mkHead],
            ['mkPast', mkPast],
            ['mkPastBranches', mkPastB],
          ] as const
        ).map(([k, x]) => [k, [round(x.planMs, 3), round(x.execMs, 3)]]),
      ),
      nodeHeadRatio: round(main.ms / nodeHead, 3),
      nodePastOverHead: round(past.ms / nodeHead, 2),
      mkHeadRatio: round(main.ms / mkHead.ms, 3),
      mkPastOverHead: round(Math.min(mkPast.ms, mkPastB.ms) / mkHead.ms, 2),
      sameAtHead: [headU, headC, mkHead].every((x) => x.answer === main.answer),
      sameAtPast: mkPast.answer === past.answer && mkPastB.answer === past.answer,
    };
    out.push(f);
    log(
      `${label} ${name}: main ${f.main} ms | node historical: head ${f.nodeHeadUpperInf} ms (upper_inf) / ${f.nodeHeadContains} ms (@> ${t.head}), ` +
        `at ${t.pastHeight} ${f.nodePast} ms | mapping-kept: head ${f.mkHead} ms, at ${t.pastHeight} ${f.mkPast} ms ` +
        `(plan ${f.split.mkPast[0]} + exec ${f.split.mkPast[1]}), a limited scan per table ${f.mkPastBranches} ms | ` +
        `main/head: node x${f.nodeHeadRatio}, mapping-kept x${f.mkHeadRatio} (bound >= 0.9); past/head: node x${f.nodePastOverHead}, ` +
        `mapping-kept x${f.mkPastOverHead} (bound <= 3); same answer at the head ${f.sameAtHead}, at ${t.pastHeight} ${f.sameAtPast}`,
    );
  }
  return out;
}

/**
 * Adds n holders to the target kind in both stores, as bench:api scales its store: in main one row
 * each; in the historical store the same row as the current version (from 1 + k x step) after k
 * earlier versions with other units (step = head / (k + 1)), so a past height reads old versions.
 */
async function addSyntheticHolders(mainDb: Client, histDb: Client, t: Targets, n: number, k: number): Promise<void> {
  const kindId = Number(t.kindRef.slice(t.assetId.length + 1));
  const step = Math.max(1, Math.floor(t.head / (k + 1)));
  const holder = `'svc1synthetic' || lpad(g::text, 9, '0')`;
  const row = (
    units: string,
  ) => `${lit(t.kindRef)} || '-' || ${holder}, ${lit(t.kindRef)}, ${lit(t.assetId)}, ${kindId}, ${holder},
      ${units}, 0, '[]'::jsonb, 0`;
  const cols = 'id, kind_ref, asset_id, kind_id, holder, units, locked, locks, routed_out, updated_height';
  await mainDb.query(
    `INSERT INTO svc.holdings (${cols}) SELECT ${row('(1 + g % 997)::numeric')}, ${1 + k * step} FROM generate_series(1, ${n}) g`,
  );
  await histDb.query(
    `INSERT INTO svc.holdings (${cols}, _id, _block_range)
     SELECT ${row('(1 + g % 997)::numeric')}, ${1 + k * step}, gen_random_uuid(), int8range(${1 + k * step}, NULL) FROM generate_series(1, ${n}) g
     UNION ALL
     SELECT ${row('(1 + (g * (j + 7)) % 991)::numeric')}, 1 + j * ${step}, gen_random_uuid(), int8range(1 + j * ${step}, 1 + (j + 1) * ${step})
     FROM generate_series(1, ${n}) g, generate_series(0, ${k - 1}) j`,
  );
  await mainDb.query('ANALYZE svc.holdings');
  await histDb.query('ANALYZE svc.holdings');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const before = machineState();
  log(
    `machine: ${before.cores} cores, load ${before.load.join(' ')}${busy(before) ? ' (BUSY: figures below are disturbed)' : ''}; busiest: ${before.busiest.join(' | ')}`,
  );
  if (!fs.existsSync(path.join(REPO_ROOT, 'dist', 'index.js')))
    throw new Error('dist/index.js missing: npm run build first');

  const t0 = Date.now();
  const history = await generateHistory({
    seed: args.seed,
    blocks: args.blocks,
    txsPerBlock: args.txsPerBlock,
    skipSignatureVerification: true,
    onBlock: (h) => {
      if (h % 1000 === 0) log(`generated ${h}/${args.blocks} blocks (${round((Date.now() - t0) / 1000)} s)`);
    },
  });
  const chain = history.chain;
  log(
    `history: seed ${args.seed}, ${chain.height} blocks, ${history.summary.txs.total} txs, generated in ${round((Date.now() - t0) / 1000)} s`,
  );

  const rpc = await startRpcServer(chain);
  const pg = await startPostgres();
  const project = makeHistoricalProject();
  const modes = [
    { label: 'main', historical: false, dir: REPO_ROOT },
    { label: 'historical', historical: true, dir: project.dir },
  ];
  const runs: Record<string, NodeRunResult[]> = { main: [], historical: [] };
  const kept: Record<string, TestDatabase> = {};
  const allDbs: TestDatabase[] = [];
  try {
    for (let i = 0; i < args.repeat; i++) {
      for (const m of modes) {
        const db = await createDatabase(pg.url, uniqueName(`hist_${m.label}`));
        allDbs.push(db);
        await withConnection(db.url, (c) => c.query('CREATE EXTENSION IF NOT EXISTS btree_gist'));
        const stream = args.logs
          ? (fs.mkdirSync(args.logs, { recursive: true }),
            fs.createWriteStream(path.join(args.logs, `${m.label}-${i + 1}.log`)))
          : undefined;
        const r = await runNode({
          dbEnv: subqlDbEnv(db),
          endpoint: rpc.url,
          projectDir: m.dir,
          targetHeight: chain.height,
          historical: m.historical,
          subqlFlags: [`--batch-size=${args.batchSize}`],
          onLog: stream ? (line) => stream.write(line + '\n') : undefined,
        });
        stream?.end();
        runs[m.label].push(r);
        log(
          `${m.label} #${i + 1}: ${round(r.blocksPerSec)} blocks/s (${round(r.indexMs / 1000)} s + ${round(r.startupMs / 1000)} s start-up), ` +
            `CPU/block node ${r.nodeCpuMsPerBlock} ms + postgres ${r.pgCpuMsPerBlock ?? '?'} ms, peak RSS ${r.hwmRssMb} MB, load ${machineState().load[0]}`,
        );
        if (i === args.repeat - 1) kept[m.label] = db;
        else await db.drop();
      }
    }

    // pairs: run i of main and run i of historical ran one after the other
    const pairs = runs.main.map((mr, i) => {
      const hr = runs.historical[i];
      return {
        nodeCpu: round(hr.nodeCpuMsPerBlock / mr.nodeCpuMsPerBlock, 3),
        pgCpu: mr.pgCpuMsPerBlock && hr.pgCpuMsPerBlock ? round(hr.pgCpuMsPerBlock / mr.pgCpuMsPerBlock, 3) : null,
        blocksPerSec: round(hr.blocksPerSec / mr.blocksPerSec, 3),
      };
    });
    const ok = (met: boolean) => (met ? 'met' : 'NOT met');
    const cpuRatio = median(pairs.map((p) => p.nodeCpu));
    const rateRatio = median(pairs.map((p) => p.blocksPerSec));
    const pgRatio = median(pairs.map((p) => p.pgCpu ?? NaN));
    log(
      `historical/main per pair: ${pairs.map((p) => `node CPU x${p.nodeCpu} postgres CPU x${p.pgCpu ?? '?'} rate x${p.blocksPerSec}`).join('; ')}`,
    );
    log(
      `historical/main (median of ${args.repeat} pairs): node CPU per block x${cpuRatio} (bound <= 1.25: ${ok(cpuRatio <= 1.25)}), ` +
        `blocks/s x${rateRatio} (bound >= 0.8: ${ok(rateRatio >= 0.8)}), postgres CPU per block x${pgRatio}`,
    );

    // store size and versions
    const sizes: Record<string, { asLeft: number; vacuumed: number; tables: TableFigures[] }> = {};
    for (const m of modes) {
      await withConnection(kept[m.label].url, async (c) => {
        const asLeft = await storeFigures(c);
        await c.query('VACUUM FULL');
        await c.query('ANALYZE');
        const vacuumed = await storeFigures(c);
        sizes[m.label] = { asLeft: asLeft.bytes, vacuumed: vacuumed.bytes, tables: vacuumed.tables };
      });
    }
    const mainTables = new Map(sizes.main.tables.map((x) => [x.table, x]));
    const versions = sizes.historical.tables
      .filter((x) => x.table !== '_metadata')
      .map((x) => ({ ...x, versions: x.rows - x.ids, main: mainTables.get(x.table) }));
    let mappingKeptAll = 0;
    let mappingKeptSuperseded = 0;
    log(
      `per table (after VACUUM FULL): rows main / historical (distinct ids), MB main / historical; state tables marked *:`,
    );
    for (const v of versions) {
      const state = STATE_TABLES.includes(v.table);
      // a version table of a state table is shaped like the historical one (same columns, a height
      // range, its indexes): its bytes per row, which on a store of some size is not page overhead
      const perRow = v.rows ? v.bytes / v.rows : 0;
      if (state) {
        mappingKeptAll += v.bytes;
        mappingKeptSuperseded += v.versions * perRow;
      }
      if (v.rows !== v.ids || state)
        log(
          `  ${state ? '*' : ' '}${v.table.padEnd(28)} ${String(v.main?.rows ?? '?').padStart(8)} / ${String(v.rows).padStart(8)} (${v.ids})  ${mb(v.main?.bytes ?? 0)} / ${mb(v.bytes)} MB`,
        );
    }
    const stateVersions = versions.filter((v) => STATE_TABLES.includes(v.table)).reduce((n, v) => n + v.versions, 0);
    const allVersions = versions.reduce((n, v) => n + v.versions, 0);
    const sizeRatio = round(sizes.historical.vacuumed / sizes.main.vacuumed, 2);
    log(
      `store size: main ${mb(sizes.main.asLeft)} MB as left (${mb(sizes.main.vacuumed)} MB after VACUUM FULL), ` +
        `historical ${mb(sizes.historical.asLeft)} MB (${mb(sizes.historical.vacuumed)} MB): x${sizeRatio}`,
    );
    log(
      `superseded versions: ${allVersions} (${round(allVersions / chain.height, 1)} a block), ${stateVersions} in the state tables (${round(stateVersions / chain.height, 1)} a block); ` +
        `a mapping-kept history of the state tables (the historical store's bytes per row): +${mb(mappingKeptAll)} MB keeping every version ` +
        `(x${round((sizes.main.vacuumed + mappingKeptAll) / sizes.main.vacuumed, 2)} of main), +${mb(mappingKeptSuperseded)} MB keeping superseded ones only`,
    );

    // answer time
    const plans: Record<string, string> = {};
    const explain: Record<string, QueryFigures[]> = {};
    let targets: Targets | undefined;
    await withConnection(kept.main.url, (mc) =>
      withConnection(kept.historical.url, async (hc) => {
        targets = await pickTargets(mc, chain.height);
        log(
          `EXPLAIN targets: kind ${targets.kindRef} (${targets.holders} holders), account ${targets.account}, past height ${targets.pastHeight}`,
        );
        let columns = await buildMappingKept(mc, hc);
        explain.devnet = await explainAll(mc, hc, targets, columns, args.explainRuns, 'devnet', plans);
        if (args.syntheticHolders > 0) {
          await addSyntheticHolders(mc, hc, targets, args.syntheticHolders, args.syntheticVersions);
          columns = await buildMappingKept(mc, hc);
          const scaled = { ...targets, holders: targets.holders + args.syntheticHolders };
          const page = await mc.query<{ units: string; holder: string }>(
            `SELECT units::text, holder FROM svc.holdings WHERE kind_ref = $1 AND units > 0 ORDER BY units DESC, holder ASC LIMIT 50`,
            [scaled.kindRef],
          );
          scaled.after = [page.rows[49].units, page.rows[49].holder];
          log(
            `scaled: +${args.syntheticHolders} holders on ${scaled.kindRef} in both stores (historical: ${args.syntheticVersions} earlier versions each)`,
          );
          explain.scaled = await explainAll(mc, hc, scaled, columns, args.explainRuns, 'scaled', plans);
        }
      }),
    );
    if (args.logs)
      fs.writeFileSync(
        path.join(args.logs, 'plans.txt'),
        Object.entries(plans)
          .map(([k, p]) => `== ${k}\n${p}\n`)
          .join('\n'),
      );
    for (const k of Object.keys(plans).filter((k) => k.startsWith('scaled holders page 2')))
      log(`plan, ${k}:\n${plans[k]}`);

    const after = machineState();
    log(
      `load before ${before.load.join(' ')}, after ${after.load.join(' ')}${busy(before) || busy(after) ? ' — the machine was busy: compare within the run' : ''}`,
    );
    console.log(
      JSON.stringify({
        bench: 'history-cost',
        seed: args.seed,
        blocks: chain.height,
        txs: history.summary.txs.total,
        batchSize: args.batchSize,
        repeat: args.repeat,
        runs: Object.fromEntries(
          modes.map((m) => [
            m.label,
            runs[m.label].map((r) => ({
              blocksPerSec: round(r.blocksPerSec),
              nodeCpuMsPerBlock: r.nodeCpuMsPerBlock,
              pgCpuMsPerBlock: r.pgCpuMsPerBlock,
              hwmRssMb: r.hwmRssMb,
            })),
          ]),
        ),
        pairs,
        nodeCpuRatio: cpuRatio,
        blocksPerSecRatio: rateRatio,
        pgCpuRatio: pgRatio,
        storeBytes: {
          main: sizes.main.asLeft,
          mainVacuumed: sizes.main.vacuumed,
          historical: sizes.historical.asLeft,
          historicalVacuumed: sizes.historical.vacuumed,
          mappingKeptAllVersions: Math.round(sizes.main.vacuumed + mappingKeptAll),
          mappingKeptSuperseded: Math.round(sizes.main.vacuumed + mappingKeptSuperseded),
        },
        versions: Object.fromEntries(versions.filter((v) => v.versions > 0).map((v) => [v.table, v.versions])),
        targets,
        explain,
        machine: { cores: before.cores, loadBefore: before.load, loadAfter: after.load },
      }),
    );
  } finally {
    project.remove();
    for (const db of allDbs) await db.drop().catch(() => undefined);
    await rpc.close();
    await pg.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
