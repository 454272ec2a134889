/**
 * npm run bench:index [-- options]
 *
 * Indexing throughput of the real @subql/node-cosmos on this project:
 *   1. generates a seeded devnet history (devnet/scenario, default 5,000 blocks x 10 txs,
 *      every module; generated with skipSignatureVerification: CheckTx skips the secp256k1
 *      check for speed, the txs are still signed and the blocks identical in shape),
 *   2. serves it over CometBFT RPC (in this process),
 *   3. indexes it into a fresh database per run with each project at each batch size
 *      (--batch-sizes; interleaved: size by size, project by project, --repeat times): by
 *      default the FULL project (dist/ of this repository) and the FLOOR project, a single
 *      empty cosmos/BlockHandler on the same network, chaintypes and schema
 *      (bench/lib/floor-project.ts),
 *   4. prints per run: blocks/s, txs/s, CPU per block (node, PostgreSQL), peak RSS, the
 *      blocks/s of each --segment of heights with last/first (bench/lib/segments.ts), and the
 *      store's size (pg_total_relation_size over schema svc's tables, as the node left it and
 *      after VACUUM FULL) with its rows and distinct ids (rows - ids: versions kept),
 *   5. prints per project and batch size the median run, per project its best batch size (the
 *      smallest within 5 % of the fastest, bench/lib/batch-summary.ts), then each project
 *      against the floor at their best sizes with the indexing targets (blocks/s >= 0.33 x the
 *      floor's, node CPU per block <= 3 x, peak RSS <= 1.5 x, last/first segment >= 0.9), the
 *      gain of full over every other project, the load before and after, and a final JSON
 *      summary line.
 *
 * Options:
 *   --seed S --blocks N --txs-per-block N     the history (default bench, 5000, 10)
 *   --batch-sizes 50,100,200                  the node's --batch-size values each project runs at
 *                                             (default 50,100,200). A run whose SubQuery flags set
 *                                             --batch-size runs at that size only.
 *   --segment N                               blocks per segment of the per-segment rates (default 1000)
 *   --node-flags "..."                        node/V8 flags (default --max-semi-space-size=64)
 *   --subql-flags "..."                       SubQuery flags besides --batch-size (default none)
 *   --runs '<json>'                           runs instead of full + floor: [{"label", "project",
 *                                             "nodeFlags"?: [...], "subqlFlags"?: [...], "reconciler"?: true,
 *                                             "historical"?: "height" | "timestamp"}]
 *                                             project: "full" (this repository), "floor" (one empty block
 *                                             handler on this manifest), "floor:<dir>" (the same on <dir>'s
 *                                             manifest), "floor-decl" / "floor-decl:<dir>" (the manifest's
 *                                             own handler declarations, every body empty: floor-decl minus
 *                                             floor is the node's dispatch cost), "no-proof" (this repository
 *                                             with the proof of indexing off), or <dir> (another checkout,
 *                                             built). The floor the targets refer to: the run labelled
 *                                             "floor", else the first "floor"/"floor:<dir>" project.
 *                                             historical: the node's historical mode on that project
 *                                             ("full" only; see --historical).
 *                                             reconciler: the reconciler runs beside the node
 *                                             (RECONCILE_* defaults). Today's design in the same run:
 *                                             '[{"label":"full","project":"full"},{"label":"floor","project":"floor"},
 *                                               {"label":"main","project":"/path/to/main-checkout"}]'
 *   --with-reconciler                         runs full and full+reconciler: the reconciler's cost A/B
 *   --with-proof-off                          runs full and no-proof (project "no-proof": this repository
 *                                             with PROOF_OF_INDEXING=false in its .env): the proof of
 *                                             indexing's cost A/B (targets: node CPU per block <= 1.10x,
 *                                             blocks/s >= 0.9x), each store's BlockProof rows counted
 *   --historical MODES                        runs full and, per mode (height,timestamp; default height),
 *                                             full with the node's own historical mode on
 *                                             (bench/lib/historical-project.ts; label historical-<mode>):
 *                                             its cost A/B (issue 45 bounds: node CPU per block <= 1.25x,
 *                                             blocks/s >= 0.8x, per interleaved pair). btree_gist is
 *                                             created in every run's database alike.
 *   --repeat N                                each run N times, interleaved (A B A B…; median reported)
 *   --logs DIR                                write each run's node log there, and its progress trace
 *                                             (<run>.trace.json: [ms since the first block, height done]
 *                                             every ~200 ms)
 *
 * PostgreSQL: DATABASE_URL when set, else an embedded server (tests/harness/postgres.ts).
 */
import fs from 'fs';
import path from 'path';
import { Client, Pool } from 'pg';
import { createLogger } from '../src/runtime/logger';
import { RECONCILER_DEFAULTS } from '../reconciler/config';
import { Reconciler } from '../reconciler/reconciler';
import { startRpcServer } from '../devnet/chain';
import { generateHistory } from '../devnet/scenario';
import { createDatabase, startPostgres, subqlDbEnv, uniqueName } from '../tests/harness/postgres';
import {
  BEST_WITHIN,
  bestBatch,
  compareWithFloor,
  fixedBatchSize,
  formatVerdict,
  type FloorComparison,
} from './lib/batch-summary';
import { makeFloorProject, type FloorProject } from './lib/floor-project';
import { makeHistoricalProject, type HistoricalMode } from './lib/historical-project';
import { makeNoProofProject, NO_PROOF_PROJECT } from './lib/no-proof-project';
import { busy, machineState, type MachineState } from './lib/machine';
import { REPO_ROOT, runNode, type NodeRunResult } from './lib/node-run';
import { formatSegments, lastFirstRatio, segmentRates, type Segment } from './lib/segments';

interface RunSpec {
  label: string;
  project: string;
  nodeFlags?: string[];
  subqlFlags?: string[];
  /** the reconciler (reconciler/, default settings) runs beside the node against the same chain and store */
  reconciler?: boolean;
  /** the node's own historical mode on this run's project ("full" only) */
  historical?: HistoricalMode;
}

interface Args {
  seed: string;
  blocks: number;
  txsPerBlock: number;
  batchSizes: number[];
  segment: number;
  nodeFlags?: string[];
  subqlFlags?: string[];
  runs?: RunSpec[];
  repeat: number;
  logs?: string;
}

const DEFAULT_BATCH_SIZES = [50, 100, 200];
const DEFAULT_NODE_FLAGS = ['--max-semi-space-size=64'];

function positiveInts(flag: string, v: string): number[] {
  const xs = v.split(',').map((x) => Number(x.trim()));
  if (!xs.length || xs.some((x) => !Number.isSafeInteger(x) || x < 1))
    throw new Error(`${flag} takes positive integers separated by commas`);
  return [...new Set(xs)];
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    seed: 'bench',
    blocks: 5000,
    txsPerBlock: 10,
    batchSizes: DEFAULT_BATCH_SIZES,
    segment: 1000,
    repeat: 1,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const words = (v: string) => v.split(/\s+/).filter(Boolean);
    if (flag === '--seed') a.seed = value();
    else if (flag === '--blocks') a.blocks = Number(value());
    else if (flag === '--txs-per-block') a.txsPerBlock = Number(value());
    else if (flag === '--batch-sizes') a.batchSizes = positiveInts(flag, value());
    else if (flag === '--segment') a.segment = positiveInts(flag, value())[0];
    else if (flag === '--node-flags') a.nodeFlags = words(value());
    else if (flag === '--subql-flags') a.subqlFlags = words(value());
    else if (flag === '--runs') a.runs = JSON.parse(value()) as RunSpec[];
    else if (flag === '--with-reconciler')
      a.runs = [
        { label: 'full', project: 'full' },
        { label: 'full+reconciler', project: 'full', reconciler: true },
      ];
    else if (flag === '--with-proof-off')
      a.runs = [
        { label: 'full', project: 'full' },
        { label: NO_PROOF_PROJECT, project: NO_PROOF_PROJECT },
      ];
    else if (flag === '--historical') {
      const modes = value()
        .split(',')
        .map((m) => m.trim());
      if (!modes.length || modes.some((m) => m !== 'height' && m !== 'timestamp'))
        throw new Error('--historical takes height, timestamp or both separated by commas');
      a.runs = [
        { label: 'full', project: 'full' },
        ...[...new Set(modes as HistoricalMode[])].map((m) => ({
          label: `historical-${m}`,
          project: 'full',
          historical: m,
        })),
      ];
    } else if (flag === '--repeat') a.repeat = Number(value());
    else if (flag === '--logs') a.logs = value();
    else throw new Error(`unknown option ${flag}`);
  }
  if (!Number.isSafeInteger(a.blocks) || a.blocks < 2) throw new Error('--blocks must be an integer >= 2');
  if (!Number.isSafeInteger(a.repeat) || a.repeat < 1) throw new Error('--repeat must be an integer >= 1');
  const labels = (a.runs ?? []).map((r) => r.label);
  if (new Set(labels).size !== labels.length) throw new Error('--runs: labels must be unique');
  for (const r of a.runs ?? []) {
    if (r.historical && r.project !== 'full') throw new Error(`--runs: ${r.label}: historical runs on "full" only`);
    if (r.historical && r.historical !== 'height' && r.historical !== 'timestamp')
      throw new Error(`--runs: ${r.label}: historical is "height" or "timestamp"`);
  }
  return a;
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** Post-value drifts the mappings recorded (0 expected); null when the schema has no drifts table (floor). */
async function driftsOf(url: string): Promise<{ total: number | null; sample: string[] }> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{
      height: number;
      event_type: string;
      entity: string;
      entity_id: string;
      field: string;
      chain_value: string;
      derived_value: string;
    }>('SELECT height, event_type, entity, entity_id, field, chain_value, derived_value FROM svc.drifts ORDER BY seq');
    return {
      total: r.rows.length,
      sample: r.rows
        .slice(0, 5)
        .map(
          (d) =>
            `${d.height} ${d.event_type} ${d.entity} ${d.entity_id} ${d.field}: chain ${d.chain_value} derived ${d.derived_value}`,
        ),
    };
  } catch {
    return { total: null, sample: [] };
  } finally {
    await c.end();
  }
}

/** BlockProof rows of a store (one per height with the proof on, none with it off); null without the table (floor). */
async function proofsOf(url: string): Promise<number | null> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM svc.block_proofs')).rows[0].n);
  } catch {
    return null;
  } finally {
    await c.end();
  }
}

interface StoreFigures {
  /** sum of pg_total_relation_size over schema svc's tables, as the node left it and after VACUUM FULL */
  bytes: number;
  vacuumedBytes: number;
  /** rows and distinct ids over the tables with an id column (historical mode: rows - ids versions kept) */
  rows: number;
  ids: number;
  /** _metadata.historicalStateEnabled as the node recorded it (false, "height", "timestamp"): the mode that took */
  historicalStateEnabled: unknown;
}

async function storeSize(c: Client): Promise<number> {
  const r = await c.query<{ bytes: string }>(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::text AS bytes FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'svc' AND c.relkind = 'r'`,
  );
  return Number(r.rows[0].bytes);
}

/** The store a run left behind; null when it has no svc schema. Outside the timed window. */
async function storeOf(url: string): Promise<StoreFigures | null> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const tables = await c.query<{ table: string }>(
      `SELECT table_name AS table FROM information_schema.columns WHERE table_schema = 'svc' AND column_name = 'id'`,
    );
    if (!tables.rows.length) return null;
    const mode = await c.query<{ value: unknown }>(
      `SELECT value FROM svc._metadata WHERE key = 'historicalStateEnabled'`,
    );
    const bytes = await storeSize(c);
    let rows = 0;
    let ids = 0;
    for (const { table } of tables.rows) {
      const q = await c.query<{ rows: string; ids: string }>(
        `SELECT count(*)::text AS rows, count(DISTINCT id)::text AS ids FROM svc."${table}"`,
      );
      rows += Number(q.rows[0].rows);
      ids += Number(q.rows[0].ids);
    }
    // the node leaves dead tuples (historical mode: one per closing UPDATE); VACUUM FULL shows the live size
    const names = (await c.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'svc'`)).rows;
    for (const { t } of names) await c.query(`VACUUM FULL svc."${t}"`);
    return { bytes, vacuumedBytes: await storeSize(c), rows, ids, historicalStateEnabled: mode.rows[0]?.value };
  } finally {
    await c.end();
  }
}

function log(line: string): void {
  console.log(`[bench:index] ${line}`);
}

interface RunFigures {
  label: string;
  project: string;
  batchSize: number;
  nodeFlags: string[];
  subqlFlags: string[];
  blocksPerSec: number;
  txsPerSec: number;
  eventsPerSec: number;
  indexSeconds: number;
  startupSeconds: number;
  peakRssMb: number;
  hwmRssMb: number;
  /** CPU ms per block while indexing: node process, PostgreSQL server */
  nodeCpuMsPerBlock: number;
  pgCpuMsPerBlock: number | null;
  repeats: number[];
  /** node CPU ms per block of each repeat, in run order (repeats has their blocks/s) */
  cpuRepeats: number[];
  /** blocks/s per segment of heights, and last/first (null: too few segments), of the median run */
  segments: Segment[];
  segmentRatio: number | null;
  /** svc.drifts rows after the (last) run; null when the project has no such table (floor) */
  driftTotal: number | null;
  /** svc.block_proofs rows after the (last) run; null when the project has no such table (floor) */
  proofRows: number | null;
  /** the store after the (last) run; null without an svc schema */
  store: StoreFigures | null;
  historical: HistoricalMode | null;
  loadBefore: MachineState['load'];
  loadAfter: MachineState['load'];
  progress: [number, number][];
}

const FLOOR_PROJECT = /^(floor|floor-decl)(?::(.+))?$/;

/** The directory a run's project names; floor and no-proof projects are generated (and pushed on `floors` for removal). */
function projectDirOf(spec: RunSpec, floors: Pick<FloorProject, 'remove'>[]): string {
  if (spec.historical) {
    const project = makeHistoricalProject(spec.historical);
    floors.push(project);
    return project.dir;
  }
  if (spec.project === NO_PROOF_PROJECT) {
    const project = makeNoProofProject();
    floors.push(project);
    return project.dir;
  }
  const m = FLOOR_PROJECT.exec(spec.project);
  if (m) {
    const floor = makeFloorProject(m[2] ? path.resolve(m[2]) : REPO_ROOT, m[1] === 'floor' ? 'block' : 'decl');
    floors.push(floor);
    return floor.dir;
  }
  return spec.project === 'full' ? REPO_ROOT : path.resolve(spec.project);
}

/** The floor the targets refer to: the run labelled "floor", else the first "floor" / "floor:<dir>" project. */
function floorSpecIndex(specs: RunSpec[]): number {
  const labelled = specs.findIndex((s) => s.label === 'floor');
  if (labelled >= 0) return labelled;
  return specs.findIndex((s) => FLOOR_PROJECT.exec(s.project)?.[1] === 'floor');
}

/** The reconciler beside a run, as npm start runs it (default settings); stop() reports its passes. */
function startReconciler(
  databaseUrl: string,
  rpcUrl: string,
): { stop(): Promise<{ recorded: number; failed: number; seconds: number; heights: number[] }> } {
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  pool.on('error', () => undefined);
  const passes = { recorded: 0, failed: 0, seconds: 0, heights: [] as number[] };
  const reconciler = new Reconciler({
    pool,
    schema: 'svc',
    rpcUrl,
    settings: RECONCILER_DEFAULTS,
    log: createLogger({ format: 'json', level: 'error', write: () => undefined }),
    onPass: (o) => {
      passes.seconds += o.seconds;
      if (o.result) {
        passes.recorded += 1;
        passes.heights.push(o.result.height);
      } else passes.failed += 1;
    },
  });
  reconciler.start();
  let stopped: Promise<typeof passes> | undefined;
  return {
    stop: () =>
      (stopped ??= reconciler
        .stop()
        .then(() => pool.end())
        .then(() => passes)),
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const before = machineState();
  log(
    `machine: ${before.cores} cores, load ${before.load.join(' ')}${busy(before) ? ' (BUSY: figures below are disturbed)' : ''}; busiest: ${before.busiest.join(' | ')}`,
  );

  const dist = path.join(REPO_ROOT, 'dist', 'index.js');
  if (!fs.existsSync(dist)) throw new Error('dist/index.js missing: npm run build first');

  const t = Date.now();
  const history = await generateHistory({
    seed: args.seed,
    blocks: args.blocks,
    txsPerBlock: args.txsPerBlock,
    skipSignatureVerification: true, // generation speed only; see the header comment
    onBlock: (h) => {
      if (h % 1000 === 0) log(`generated ${h}/${args.blocks} blocks (${round((Date.now() - t) / 1000)} s)`);
    },
  });
  const chain = history.chain;
  let events = 0;
  for (let h = 1; h <= chain.height; h++) {
    const r = JSON.parse(chain.block(h)!.resultsJson) as {
      txs_results: { events: unknown[] }[] | null;
      finalize_block_events: unknown[] | null;
    };
    events += (r.txs_results ?? []).reduce((n, x) => n + x.events.length, 0) + (r.finalize_block_events ?? []).length;
  }
  const txs = history.summary.txs.total;
  const generation = {
    seconds: round((Date.now() - t) / 1000),
    blocks: chain.height,
    txs,
    failedTxs: history.summary.txs.failed,
    events,
  };
  log(
    `history: seed ${args.seed}, ${chain.height} blocks, ${txs} txs (${history.summary.txs.failed} failed), ${events} events, generated in ${generation.seconds} s (skipSignatureVerification)`,
  );

  const rpc = await startRpcServer(chain);
  const pg = await startPostgres();
  const floors: Pick<FloorProject, 'remove'>[] = [];
  const specs: RunSpec[] = args.runs ?? [
    { label: 'full', project: 'full' },
    { label: 'floor', project: 'floor' },
  ];
  const anyHistorical = specs.some((s) => s.historical);
  // each run at each batch size, unless its SubQuery flags fix one
  const subqlFlagsOf = (spec: RunSpec) => spec.subqlFlags ?? args.subqlFlags ?? [];
  const sizesOf = specs.map((spec) => {
    const fixed = fixedBatchSize(subqlFlagsOf(spec));
    return fixed ? [fixed] : args.batchSizes;
  });
  const allSizes = [...new Set([...args.batchSizes, ...sizesOf.flat()])];
  const results: RunFigures[] = [];
  try {
    const projectDirs = specs.map((spec) => projectDirOf(spec, floors));
    const acc = new Map<
      string,
      {
        runs: NodeRunResult[];
        drifts: { total: number | null; sample: string[] };
        proofRows: number | null;
        store: StoreFigures | null;
        loadBefore: MachineState['load'];
        loadAfter: MachineState['load'];
      }
    >();
    // interleaved (batch size by batch size, A B A B…), so a drift of the machine's speed falls on every run alike
    for (let i = 0; i < args.repeat; i++) {
      for (const size of allSizes) {
        for (const [k, spec] of specs.entries()) {
          if (!sizesOf[k].includes(size)) continue;
          const key = `${k}@${size}`;
          const name = `${spec.label} @${size} #${i + 1}`;
          if (!acc.has(key))
            acc.set(key, {
              runs: [],
              drifts: { total: null, sample: [] },
              proofRows: null,
              store: null,
              loadBefore: machineState().load,
              loadAfter: machineState().load,
            });
          const a = acc.get(key)!;
          const fixed = fixedBatchSize(subqlFlagsOf(spec)) !== undefined;
          const db = await createDatabase(pg.url, uniqueName(`bench_${spec.label.replace(/[^a-z0-9_]/gi, '_')}`));
          if (anyHistorical) {
            const c = new Client({ connectionString: db.url });
            await c.connect();
            await c.query('CREATE EXTENSION IF NOT EXISTS btree_gist').finally(() => c.end());
          }
          const reconciler = spec.reconciler ? startReconciler(db.url, rpc.url) : undefined;
          try {
            const logFile = args.logs
              ? path.join(args.logs, `${spec.label.replace(/[^a-z0-9_+.-]/gi, '_')}-b${size}-${i + 1}.log`)
              : undefined;
            if (logFile) fs.mkdirSync(args.logs!, { recursive: true });
            const stream = logFile ? fs.createWriteStream(logFile) : undefined;
            const r = await runNode({
              dbEnv: subqlDbEnv(db),
              endpoint: rpc.url,
              projectDir: projectDirs[k],
              targetHeight: chain.height,
              nodeFlags: spec.nodeFlags ?? args.nodeFlags,
              subqlFlags: fixed ? subqlFlagsOf(spec) : [...subqlFlagsOf(spec), `--batch-size=${size}`],
              historical: spec.historical,
              onLog: stream ? (line) => stream.write(line + '\n') : undefined,
            });
            stream?.end();
            if (logFile) fs.writeFileSync(logFile.replace(/\.log$/, '.trace.json'), JSON.stringify(r.trace));
            const passes = reconciler ? await reconciler.stop() : undefined;
            a.runs.push(r);
            a.drifts = await driftsOf(db.url);
            a.proofRows = await proofsOf(db.url);
            a.store = await storeOf(db.url);
            a.loadAfter = machineState().load;
            if (a.drifts.total) log(`${name}: drift_total ${a.drifts.total}: ${a.drifts.sample.join(' | ')}`);
            log(
              `${name}: ${round(r.blocksPerSec)} blocks/s, ${round((r.blocksPerSec * txs) / chain.height)} txs/s (${round(r.indexMs / 1000)} s + ${round(r.startupMs / 1000)} s start-up), ` +
                `CPU/block node ${r.nodeCpuMsPerBlock} ms + postgres ${r.pgCpuMsPerBlock ?? '?'} ms, peak RSS ${r.hwmRssMb} MB, load ${a.loadAfter[0]}` +
                (a.proofRows !== null ? `, ${a.proofRows} proofs kept` : '') +
                (a.store
                  ? `, store ${mb(a.store.bytes)} MB (${mb(a.store.vacuumedBytes)} MB after VACUUM FULL), ${a.store.rows} rows of ${a.store.ids} ids, historicalStateEnabled ${JSON.stringify(a.store.historicalStateEnabled)}`
                  : '') +
                (passes
                  ? `; reconciler: ${passes.recorded} passes recorded (${passes.failed} failed) in ${round(passes.seconds)} s, at heights ${passes.heights.join(', ')}`
                  : ''),
            );
            log(`${name}: ${formatSegments(segmentRates(r.trace, args.segment), args.segment)}`);
          } finally {
            await reconciler?.stop();
            await db.drop().catch(() => undefined);
          }
        }
      }
    }
    for (const [k, spec] of specs.entries()) {
      for (const size of sizesOf[k]) {
        const { runs, drifts, proofRows, store, loadBefore, loadAfter } = acc.get(`${k}@${size}`)!;
        const rates = runs.map((r) => r.blocksPerSec);
        const mid = runs[rates.indexOf(median(rates))];
        const segments = segmentRates(mid.trace, args.segment);
        const fixed = fixedBatchSize(subqlFlagsOf(spec)) !== undefined;
        results.push({
          label: spec.label,
          project: spec.project,
          batchSize: size,
          nodeFlags: spec.nodeFlags ?? args.nodeFlags ?? DEFAULT_NODE_FLAGS,
          subqlFlags: fixed ? subqlFlagsOf(spec) : [...subqlFlagsOf(spec), `--batch-size=${size}`],
          blocksPerSec: round(mid.blocksPerSec),
          txsPerSec: round((mid.blocksPerSec * txs) / chain.height),
          eventsPerSec: Math.round((mid.blocksPerSec * events) / chain.height),
          indexSeconds: round(mid.indexMs / 1000),
          startupSeconds: round(mid.startupMs / 1000),
          peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)),
          hwmRssMb: Math.max(...runs.map((r) => r.hwmRssMb)),
          nodeCpuMsPerBlock: mid.nodeCpuMsPerBlock,
          pgCpuMsPerBlock: mid.pgCpuMsPerBlock,
          repeats: rates.map((x) => round(x)),
          cpuRepeats: runs.map((r) => r.nodeCpuMsPerBlock),
          segments,
          segmentRatio: lastFirstRatio(segments),
          driftTotal: drifts.total,
          proofRows,
          store,
          historical: spec.historical ?? null,
          loadBefore,
          loadAfter,
          progress: mid.progress,
        });
      }
    }
  } finally {
    floors.forEach((f) => f.remove());
    await rpc.close();
    await pg.stop();
  }

  const after = machineState();
  const r2 = (x: number | null) => (x === null ? null : round(x, 2));
  const labelWidth = Math.max(8, ...specs.map((s) => s.label.length));
  log(`per project and batch size (median of ${args.repeat}; CPU per block: node + postgres):`);
  for (const r of results) {
    log(
      `${r.label.padEnd(labelWidth)} @${String(r.batchSize).padEnd(4)} ${String(r.blocksPerSec).padStart(6)} blocks/s  ${String(r.txsPerSec).padStart(7)} txs/s  ${String(r.eventsPerSec).padStart(7)} events/s  ` +
        `CPU/block ${r.nodeCpuMsPerBlock} + ${r.pgCpuMsPerBlock ?? '?'} ms  peak RSS ${r.hwmRssMb} MB  last/first ${r2(r.segmentRatio) ?? 'n/a'}  (${r.indexSeconds} s; load ${r.loadBefore[0]} -> ${r.loadAfter[0]})`,
    );
  }
  const best = specs.map((spec) => bestBatch(results.filter((r) => r.label === spec.label)));
  log(`best batch size per project (the smallest within ${BEST_WITHIN * 100} % of the fastest's blocks/s):`);
  for (const [k, spec] of specs.entries()) {
    const { best: b, fastest: f } = best[k];
    log(
      `${spec.label.padEnd(labelWidth)} @${String(b.batchSize).padEnd(4)} ${b.blocksPerSec} blocks/s, CPU/block node ${b.nodeCpuMsPerBlock} ms + postgres ${b.pgCpuMsPerBlock ?? '?'} ms, ` +
        `peak RSS ${b.hwmRssMb} MB, last/first segment ${r2(b.segmentRatio) ?? 'n/a (too few segments)'}` +
        (sizesOf[k].length === 1
          ? ' (the only size it ran at)'
          : f !== b
            ? ` (fastest @${f.batchSize}: ${f.blocksPerSec} blocks/s)`
            : ''),
    );
  }
  const fk = floorSpecIndex(specs);
  const floorBest = fk >= 0 ? best[fk].best : undefined;
  const vsFloor: (FloorComparison & { label: string; batchSize: number })[] = [];
  if (floorBest) {
    log(
      `against the floor (${specs[fk].label} @${floorBest.batchSize}), each at its best batch size (indexing targets):`,
    );
    for (const [k, spec] of specs.entries()) {
      if (k === fk) continue;
      const b = best[k].best;
      const c = compareWithFloor(b, floorBest);
      vsFloor.push({ label: spec.label, batchSize: b.batchSize, ...c });
      const met = c.verdicts.filter((v) => v.met).length;
      log(
        `${spec.label} @${b.batchSize}: ${c.verdicts.map((v) => `${v.name} ${formatVerdict(v)}`).join(', ')}; ${met} of ${c.verdicts.length} targets met`,
      );
    }
  } else log('no floor project among the runs: no ratios to the floor');
  // the gain of full over the other projects (e.g. today's main via --runs), each at its best batch size
  const fullK = specs.findIndex((s) => s.label === 'full');
  const gains: { label: string; blocksPerSec: number; nodeCpu: number; peakRss: number }[] = [];
  if (fullK >= 0) {
    const full = best[fullK].best;
    for (const [k, spec] of specs.entries()) {
      if (k === fullK || FLOOR_PROJECT.test(spec.project) || spec.reconciler) continue;
      const o = best[k].best;
      const g = {
        label: spec.label,
        blocksPerSec: round(full.blocksPerSec / o.blocksPerSec, 2),
        nodeCpu: round(full.nodeCpuMsPerBlock / o.nodeCpuMsPerBlock, 2),
        peakRss: round(full.hwmRssMb / o.hwmRssMb, 2),
      };
      gains.push(g);
      log(
        `full @${full.batchSize} / ${spec.label} @${o.batchSize}: blocks/s x${g.blocksPerSec}, node CPU/block x${g.nodeCpu}, peak RSS x${g.peakRss}`,
      );
    }
  }
  const fullBest = fullK >= 0 ? best[fullK].best : undefined;
  const withReconciler = fullBest
    ? results.find((r) => r.label === 'full+reconciler' && r.batchSize === fullBest.batchSize)
    : undefined;
  if (fullBest && withReconciler) {
    log(
      `full+reconciler/full = ${round(withReconciler.blocksPerSec / fullBest.blocksPerSec, 3)} in blocks/s at @${fullBest.batchSize} (median of ${args.repeat}; target >= 0.95): the reconciler's cost during a catch-up`,
    );
  }
  const withoutProof = fullBest
    ? results.find((r) => r.label === NO_PROOF_PROJECT && r.batchSize === fullBest.batchSize)
    : undefined;
  // run i of full and run i of no-proof ran one after the other (interleaved): each pair's ratio
  // cancels most of the machine's drift, and the median of the pairs is the figure
  const pairs =
    fullBest && withoutProof
      ? fullBest.repeats.map((rate, i) => ({
          nodeCpu: round(fullBest.cpuRepeats[i] / withoutProof.cpuRepeats[i], 3),
          blocksPerSec: round(rate / withoutProof.repeats[i], 3),
        }))
      : [];
  const proofCost =
    fullBest && withoutProof
      ? {
          batchSize: fullBest.batchSize,
          nodeCpuRatio: median(pairs.map((p) => p.nodeCpu)),
          blocksPerSecRatio: median(pairs.map((p) => p.blocksPerSec)),
          pairs,
          pgCpuRatio:
            fullBest.pgCpuMsPerBlock && withoutProof.pgCpuMsPerBlock
              ? round(fullBest.pgCpuMsPerBlock / withoutProof.pgCpuMsPerBlock, 3)
              : null,
          proofRows: { full: fullBest.proofRows, noProof: withoutProof.proofRows },
        }
      : undefined;
  if (proofCost) {
    const ok = (met: boolean) => (met ? 'met' : 'NOT met');
    log(
      `full/no-proof per interleaved pair: ${proofCost.pairs.map((p) => `CPU x${p.nodeCpu} rate x${p.blocksPerSec}`).join('; ')}`,
    );
    log(
      `full/no-proof at @${proofCost.batchSize} (median of ${args.repeat} pairs): node CPU per block x${proofCost.nodeCpuRatio} ` +
        `(target <= 1.10: ${ok(proofCost.nodeCpuRatio <= 1.1)}), blocks/s x${proofCost.blocksPerSecRatio} ` +
        `(target >= 0.9: ${ok(proofCost.blocksPerSecRatio >= 0.9)}), postgres CPU per block x${proofCost.pgCpuRatio ?? '?'}; ` +
        `proofs kept: full ${proofCost.proofRows.full}, no-proof ${proofCost.proofRows.noProof}: the proof of indexing's cost`,
    );
  }
  // the node's historical mode against full at full's best batch size, per interleaved pair as the proof's cost
  const historicalCost = fullBest
    ? results
        .filter((r) => r.historical && r.batchSize === fullBest.batchSize)
        .map((h) => {
          const hPairs = fullBest.repeats.map((rate, i) => ({
            nodeCpu: round(h.cpuRepeats[i] / fullBest.cpuRepeats[i], 3),
            blocksPerSec: round(h.repeats[i] / rate, 3),
          }));
          const ratio = (x: number | null | undefined, y: number | null | undefined) =>
            x && y ? round(x / y, 3) : null;
          return {
            label: h.label,
            mode: h.historical,
            batchSize: h.batchSize,
            nodeCpuRatio: median(hPairs.map((p) => p.nodeCpu)),
            blocksPerSecRatio: median(hPairs.map((p) => p.blocksPerSec)),
            pairs: hPairs,
            pgCpuRatio: ratio(h.pgCpuMsPerBlock, fullBest.pgCpuMsPerBlock),
            peakRssRatio: ratio(h.hwmRssMb, fullBest.hwmRssMb),
            storeRatio: ratio(h.store?.bytes, fullBest.store?.bytes),
            vacuumedStoreRatio: ratio(h.store?.vacuumedBytes, fullBest.store?.vacuumedBytes),
            store: { full: fullBest.store, historical: h.store },
          };
        })
    : [];
  for (const hc of historicalCost) {
    const ok = (met: boolean) => (met ? 'met' : 'NOT met');
    log(
      `${hc.label}/full per interleaved pair: ${hc.pairs.map((p) => `CPU x${p.nodeCpu} rate x${p.blocksPerSec}`).join('; ')}`,
    );
    log(
      `${hc.label}/full at @${hc.batchSize} (median of ${args.repeat} pairs): node CPU per block x${hc.nodeCpuRatio} ` +
        `(bound <= 1.25: ${ok(hc.nodeCpuRatio <= 1.25)}), blocks/s x${hc.blocksPerSecRatio} ` +
        `(bound >= 0.8: ${ok(hc.blocksPerSecRatio >= 0.8)}), postgres CPU per block x${hc.pgCpuRatio ?? '?'}, ` +
        `peak RSS x${hc.peakRssRatio ?? '?'}, store x${hc.storeRatio ?? '?'} as left, x${hc.vacuumedStoreRatio ?? '?'} after VACUUM FULL`,
    );
  }
  const cpu = (r: RunFigures) => r.nodeCpuMsPerBlock + (r.pgCpuMsPerBlock ?? 0);
  log(
    `load before ${before.load.join(' ')}, after ${after.load.join(' ')}${busy(before) || busy(after) ? ' — the machine was busy: repeat on a quiet machine before quoting' : ''}`,
  );
  console.log(
    JSON.stringify({
      bench: 'index-throughput',
      seed: args.seed,
      generation,
      batchSizes: args.batchSizes,
      segmentSize: args.segment,
      repeat: args.repeat,
      runs: results.map(({ progress: _p, segments, segmentRatio, ...r }) => ({
        ...r,
        segmentRatio: r2(segmentRatio),
        segments: segments.map((x) => [x.from, x.to, round(x.blocksPerSec)]),
      })),
      best: specs.map((spec, k) => ({
        label: spec.label,
        batchSize: best[k].best.batchSize,
        fastestBatchSize: best[k].fastest.batchSize,
        blocksPerSec: best[k].best.blocksPerSec,
        nodeCpuMsPerBlock: best[k].best.nodeCpuMsPerBlock,
        pgCpuMsPerBlock: best[k].best.pgCpuMsPerBlock,
        hwmRssMb: best[k].best.hwmRssMb,
        segmentRatio: r2(best[k].best.segmentRatio),
      })),
      floor: fk >= 0 ? specs[fk].label : null,
      vsFloor: vsFloor.map((c) => ({
        label: c.label,
        batchSize: c.batchSize,
        floorBatchSize: floorBest!.batchSize,
        blocksPerSecRatio: r2(c.blocksPerSecRatio),
        nodeCpuRatio: r2(c.nodeCpuRatio),
        peakRssRatio: r2(c.peakRssRatio),
        targets: Object.fromEntries(c.verdicts.map((v) => [v.name, v.met])),
      })),
      gains,
      proofCost: proofCost ?? null,
      historicalCost,
      // at the best batch sizes; ByCpu: floor CPU per block (node + postgres) / full's, as before
      ratioFullFloor: fullBest && floorBest ? round(fullBest.blocksPerSec / floorBest.blocksPerSec, 2) : null,
      ratioFullFloorByCpu: fullBest && floorBest ? round(cpu(floorBest) / cpu(fullBest), 2) : null,
      machine: {
        cores: before.cores,
        loadBefore: before.load,
        loadAfter: after.load,
        busiestBefore: before.busiest,
        busiestAfter: after.busiest,
      },
    }),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
