/**
 * The most answers per second a cold /v1 answer can reach on this machine while it reads the
 * store per request: the statements the API sends, run back to back from 20 connections with
 * no HTTP, no presenting and no API, against the HTTP floor measured in the same run.
 *
 *   flock /tmp/cpu.lock npx ts-node --transpile-only scripts/statement-bound.ts [--txs 100000]
 *
 * The store is bench:api's (bench/store.ts: a devnet history indexed by the real node, scaled
 * with SQL), prewarmed. Each statement runs three times, each prepared and planned as the API
 * plans it (custom, or generic for PLANNED_ONCE): through node-postgres (as
 * rest-adapter/db/sql.ts runs it), through postgres.js (another driver: is the driver the
 * bound?) and through pgbench (a C client, the values written in). An answer that needs one of these statements cannot run faster than the
 * statement alone, so its ratio to the floor is a ceiling for the issue-27 floor targets
 * (docs/rest-adapter.md "Cold answers").
 */
import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Pool, type PoolClient } from 'pg';
import postgres from 'postgres';
import { measureHttpFloor } from '../bench/http-floor';
import { prewarmedBenchStore, SCHEMA } from '../bench/store';
import type { Planning, Sql, StatementOptions } from '../rest-adapter/db/sql';
import { txPageRequest } from '../rest-adapter/paging/tx-pages';
import { createRepositories } from '../rest-adapter/repositories';

const CLIENTS = 20;
/** each statement runs in the planning the API gives it (rest-adapter/db/sql.ts PLANNED_ONCE) */
const PLAN_CACHE_MODE: Record<Planning, string> = { custom: 'force_custom_plan', generic: 'force_generic_plan' };
const RUN_MS = 3000;

interface Statement {
  name: string;
  text: string;
  values: unknown[];
  planning: Planning;
  /** the floor to compare with: 75 KB for a page, 300 B for a point read */
  floorBytes: number;
}

/** The statement a repository function sends, recorded instead of run. */
async function recorded(
  read: (sql: Sql) => Promise<unknown>,
): Promise<{ text: string; values: unknown[]; planning: Planning }> {
  let seen: { text: string; values: unknown[]; planning: Planning } | undefined;
  const record = async (text: string, values: readonly unknown[] = [], options?: StatementOptions) => {
    seen = { text, values: [...values], planning: options?.planning ?? 'custom' };
    return [];
  };
  // the read gets no rows back: one that insists on a row throws after its statement is recorded
  await read({
    rows: record,
    one: async (text, values, options) => (await record(text, values, options))[0],
  } as Sql).catch(() => undefined);
  if (!seen) throw new Error('the read sent no statement');
  return seen;
}

/**
 * Statements per second while every runner runs its statement back to back for RUN_MS, after a
 * half-second warm-up (the statement prepared on every connection).
 */
async function backToBack(runners: (() => Promise<unknown>)[]): Promise<number> {
  let done = 0;
  let stop = false;
  const loops = runners.map(async (run) => {
    while (!stop) {
      await run();
      done++;
    }
  });
  await new Promise((r) => setTimeout(r, 500));
  done = 0;
  const started = Date.now();
  await new Promise((r) => setTimeout(r, RUN_MS));
  stop = true;
  await Promise.all(loops);
  return (done * 1000) / (Date.now() - started);
}

/** The statement through node-postgres on every client, as rest-adapter/db/sql.ts runs it. */
async function nodePostgresRate(clients: PoolClient[], s: Statement): Promise<number> {
  for (const c of clients) await c.query(`SET plan_cache_mode = ${PLAN_CACHE_MODE[s.planning]}`);
  return backToBack(clients.map((c) => () => c.query({ name: `bound_${s.name}`, text: s.text, values: s.values })));
}

/** The same through postgres.js (prepared, timestamps kept as text as the API keeps them): is the driver the bound? */
async function postgresJsRate(url: string, s: Statement): Promise<number> {
  const asText = { to: 25, from: [1114, 1184], serialize: (x: unknown) => String(x), parse: (x: string) => x };
  const sql = postgres(url, {
    max: CLIENTS,
    prepare: true,
    types: { asText },
    connection: { plan_cache_mode: PLAN_CACHE_MODE[s.planning] },
  });
  try {
    return await backToBack(
      Array.from({ length: CLIENTS }, () => () => sql.unsafe(s.text, s.values as never[], { prepare: true })),
    );
  } finally {
    await sql.end();
  }
}

/** The same with pgbench, the values written into the text. */
function pgbenchRate(url: string, s: Statement): number {
  const text = s.values.reduce<string>(
    (sql, v, i) => sql.split(`$${i + 1}`).join(typeof v === 'number' ? String(v) : `'${String(v)}'`),
    s.text,
  );
  const file = path.join(os.tmpdir(), `statement-bound-${process.pid}.sql`);
  fs.writeFileSync(file, `${text.replace(/\s+/g, ' ')};\n`);
  try {
    const out = execFileSync(
      'pgbench',
      ['-n', '-M', 'prepared', '-c', String(CLIENTS), '-j', '2', '-T', String(RUN_MS / 1000), '-f', file, url],
      { encoding: 'utf8', env: { ...process.env, PGOPTIONS: `-c plan_cache_mode=${PLAN_CACHE_MODE[s.planning]}` } },
    );
    return Number(/tps = ([0-9.]+)/.exec(out)?.[1] ?? NaN);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

async function main(): Promise<void> {
  const txsAt = process.argv.indexOf('--txs');
  const txs = txsAt > 0 ? Number(process.argv[txsAt + 1]) : 100_000;
  const db = await prewarmedBenchStore(txs);
  const pool = new Pool({ connectionString: db.url, max: CLIENTS });
  pool.on('error', () => undefined);
  const repos = createRepositories(SCHEMA);
  const newest = txPageRequest(null, 20);
  const hash = (await pool.query(`SELECT hash FROM "${SCHEMA}".txes ORDER BY seq DESC LIMIT 1 OFFSET 5000`)).rows[0]
    .hash as string;
  const busy = (
    await pool.query(`SELECT holder FROM "${SCHEMA}".holdings GROUP BY holder ORDER BY count(*) DESC, holder LIMIT 1`)
  ).rows[0].holder as string;
  const assetId = (await pool.query(`SELECT id FROM "${SCHEMA}".assets ORDER BY id LIMIT 1`)).rows[0].id as string;
  const statements: Statement[] = [
    {
      name: 'newest txs page, full',
      floorBytes: 75_000,
      ...(await recorded((sql) => repos.txs.page(sql, undefined, newest))),
    },
    {
      name: 'newest txs page, keys only',
      floorBytes: 75_000,
      ...(await recorded((sql) => repos.txs.pageKeys(sql, undefined, newest))),
    },
    { name: 'tx by hash', floorBytes: 300, ...(await recorded((sql) => repos.txs.byHash(sql, hash))) },
    { name: 'account (busy)', floorBytes: 300, ...(await recorded((sql) => repos.accounts.overview(sql, busy))) },
    { name: 'asset', floorBytes: 300, ...(await recorded((sql) => repos.assets.detail(sql, assetId))) },
  ];
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => pool.connect()));
  try {
    const load = { clients: CLIENTS, durationMs: RUN_MS, warmupMs: 500 };
    const floors = new Map([75_000, 300].map((b) => [b, 0]));
    for (const bytes of floors.keys()) floors.set(bytes, (await measureHttpFloor(bytes, load)).rps);
    console.log(
      `${txs} txs; HTTP floor ${Math.round(floors.get(75_000)!)} req/s (75 KB), ${Math.round(floors.get(300)!)} (300 B)`,
    );
    for (const s of statements) {
      const floor = floors.get(s.floorBytes)!;
      const viaPg = await nodePostgresRate(clients, s);
      const viaPgJs = await postgresJsRate(db.url, s);
      const viaPgbench = pgbenchRate(db.url, s);
      console.log(
        `${s.name.padEnd(28)} node-postgres ${Math.round(viaPg)}/s (${(viaPg / floor).toFixed(2)} of the floor), postgres.js ${Math.round(viaPgJs)}/s (${(viaPgJs / floor).toFixed(2)}), pgbench ${Math.round(viaPgbench)}/s (${(viaPgbench / floor).toFixed(2)})`,
      );
    }
  } finally {
    for (const c of clients) c.release();
    await pool.end();
    await db.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
