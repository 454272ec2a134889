/**
 * `npm run bench:reconcile` — the cost of one full reconciliation pass (reconciler/) on the
 * store of ≥ 1M txs bench:api uses, beside the same pass on its unscaled base store.
 *
 *   npm run bench:reconcile -- [--txs 1000000] [--holders 100000] [--base-blocks 300] [--passes 3]
 *
 * 1. The base store: a seeded devnet history indexed by the real node (bench/store.ts); the
 *    devnet keeps serving RPC, so the chain side is real.
 * 2. Per size: a copy of the base store, scaled up with SQL for the large one (the node's rows
 *    replicated at later heights, `--holders` synthetic holders on one kind), VACUUM ANALYZE,
 *    then `--passes` passes, each timed in its three parts: the store snapshot (one REPEATABLE
 *    READ transaction), the chain queries, the write.
 *
 * The scaled rows have no chain behind them: the chain is asked at the base history's height
 * and the synthetic holders make their kind disagree. The figures are the pass's cost; its
 * agreement is tested end to end in tests/integration/reconciler/.
 *
 * PostgreSQL: DATABASE_URL when set, else an embedded server (tests/harness/postgres.ts).
 */
import os from 'os';
import { Client, Pool } from 'pg';
import { tablesIn } from '../src/store';
import { RECONCILER_DEFAULTS } from '../reconciler/config';
import { runPass, type PassResult } from '../reconciler/pass';
import { startPostgres } from '../tests/harness/postgres';
import { buildBaseStore, copyDatabase, scaleStore, SCHEMA } from './store';

interface Options {
  txs: number;
  holders: number;
  baseBlocks: number;
  passes: number;
}

function parseOptions(argv: string[]): Options {
  const o: Options = { txs: 1_000_000, holders: 100_000, baseBlocks: 300, passes: 3 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, raw] = [argv[i], argv[i + 1]];
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${flag} needs a positive integer, got ${raw}`);
    if (flag === '--txs') o.txs = n;
    else if (flag === '--holders') o.holders = n;
    else if (flag === '--base-blocks') o.baseBlocks = n;
    else if (flag === '--passes') o.passes = n;
    else throw new Error(`unknown option ${flag}`);
  }
  return o;
}

function log(line: string): void {
  console.log(`[bench:reconcile] ${line}`);
}

interface SizeFigures {
  txs: number;
  holdings: number;
  result: PassResult;
  totalMs: number;
}

async function vacuum(url: string): Promise<void> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('VACUUM ANALYZE');
  } finally {
    await c.end();
  }
}

/** `passes` passes on a copy of the base store scaled to `txs`; the median pass by total time. */
async function benchSize(
  serverUrl: string,
  template: string,
  rpcUrl: string,
  chainHeight: number,
  txs: number,
  holders: number,
  o: Options,
): Promise<SizeFigures> {
  const db = await copyDatabase(serverUrl, template);
  const pool = new Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => undefined);
  try {
    const baseTxs = Number((await pool.query(`SELECT tx_count FROM "${SCHEMA}".chain_totals`)).rows[0].tx_count);
    const copies = Math.ceil(txs / baseTxs);
    let stored = baseTxs;
    if (copies > 1) stored = (await scaleStore(db.url, copies, holders, log)).txs;
    await vacuum(db.url);
    const holdings = Number((await pool.query(`SELECT count(*) AS n FROM "${SCHEMA}".holdings`)).rows[0].n);
    const runs: { result: PassResult; totalMs: number }[] = [];
    for (let i = 0; i < o.passes; i++) {
      // each pass at a new store height, as beside a running node (a pass at a height already checked keeps its rows)
      await pool.query(
        `UPDATE "${SCHEMA}"._metadata SET value = to_jsonb((value::text)::int + 1) WHERE key = 'lastProcessedHeight'`,
      );
      const t = Date.now();
      const result = await runPass({
        pool,
        tables: tablesIn(SCHEMA),
        rpcUrl,
        queryTimeoutMs: RECONCILER_DEFAULTS.queryTimeoutMs,
        concurrency: RECONCILER_DEFAULTS.concurrency,
        chainHeight,
      });
      const totalMs = Date.now() - t;
      log(
        `${stored} txs, ${holdings} holdings: pass ${i + 1} in ${totalMs} ms (store snapshot ${result!.storeMs} ms, chain ${result!.chainMs} ms for ${result!.queries} queries, write ${result!.writeMs} ms); ` +
          `${result!.invariants} invariant, ${result!.registry} registry, ${result!.routes} route rows, ${result!.disagreements} disagree`,
      );
      runs.push({ result: result!, totalMs });
    }
    const mid = [...runs].sort((a, b) => a.totalMs - b.totalMs)[Math.floor(runs.length / 2)];
    return { txs: stored, holdings, ...mid };
  } finally {
    await pool.end();
    await db.drop().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  log(
    `machine: ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  const pg = await startPostgres({ settings: { shared_buffers: '2048MB', work_mem: '16MB' } });
  try {
    const base = await buildBaseStore(
      pg.url,
      { seed: 'bench-api', blocks: o.baseBlocks, txsPerBlock: 10, keepChain: true },
      log,
    );
    try {
      const rpcUrl = base.devnet!.url;
      const small = await benchSize(pg.url, base.db.name, rpcUrl, base.height, base.txs, 0, o);
      const large = await benchSize(pg.url, base.db.name, rpcUrl, base.height, o.txs, o.holders, o);
      for (const f of [small, large]) {
        log(
          `${String(f.txs).padStart(8)} txs ${String(f.holdings).padStart(7)} holdings: median pass ${f.totalMs} ms = store ${f.result.storeMs} + chain ${f.result.chainMs} + write ${f.result.writeMs} ms (${f.result.queries} queries)`,
        );
      }
      log(
        `large/base pass time = ${(large.totalMs / small.totalMs).toFixed(2)}; the store snapshot ${(large.result.storeMs / Math.max(1, small.result.storeMs)).toFixed(1)}x`,
      );
      console.log(
        JSON.stringify({
          bench: 'reconcile',
          small: { txs: small.txs, holdings: small.holdings, ms: small.totalMs, ...small.result },
          large: { txs: large.txs, holdings: large.holdings, ms: large.totalMs, ...large.result },
        }),
      );
    } finally {
      await base.devnet?.close();
      await base.db.drop().catch(() => undefined);
    }
  } finally {
    await pg.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
