/**
 * npm run bench:index [-- options]
 *
 * Indexing throughput of the real @subql/node-cosmos on this project:
 *   1. generates a seeded devnet history (devnet/scenario, default 5,000 blocks x 10 txs,
 *      every module; generated with skipSignatureVerification: CheckTx skips the secp256k1
 *      check for speed, the txs are still signed and the blocks identical in shape),
 *   2. serves it over CometBFT RPC (in this process),
 *   3. indexes it into a fresh database with the FULL project (dist/ of this repository),
 *   4. indexes the same history into another fresh database with the FLOOR project: the
 *      same project.yaml (same handler declarations) on a bundle of empty handlers
 *      (bench/lib/floor-project.ts),
 *   5. prints blocks/s, txs/s, events/s, peak RSS of the node process, full/floor, the load
 *      before and after, and a final JSON summary line.
 *
 * Options:
 *   --seed S --blocks N --txs-per-block N     the history (default bench, 5000, 10)
 *   --node-flags "..."                        node/V8 flags (default --max-semi-space-size=64)
 *   --subql-flags "..."                       SubQuery flags (default --batch-size=20)
 *   --runs '<json>'                           runs instead of full + floor: [{"label", "project":
 *                                             "full"|"floor"|<dir>|"floor:<dir>", "nodeFlags"?: [...],
 *                                             (floor:<dir> = the floor of <dir>'s manifest)
 *                                             "subqlFlags"?: [...], "reconciler"?: true}] (reconciler: the
 *                                             reconciler runs beside the node, RECONCILE_* defaults)
 *   --with-reconciler                         runs full and full+reconciler: the reconciler's cost A/B
 *   --repeat N                                each run N times, interleaved (A B A B…; median reported)
 *   --logs DIR                                write each run's node log there
 *
 * PostgreSQL: DATABASE_URL when set, else an embedded server (tests/harness/postgres.ts).
 */
import fs from 'fs';
import path from 'path';
import { Client, Pool } from 'pg';
import { createLogger } from '../launcher/logger';
import { RECONCILER_DEFAULTS } from '../reconciler/config';
import { Reconciler } from '../reconciler/reconciler';
import { startRpcServer } from '../devnet/chain';
import { generateHistory } from '../devnet/scenario';
import { createDatabase, startPostgres, subqlDbEnv, uniqueName } from '../tests/harness/postgres';
import { makeFloorProject } from './lib/floor-project';
import { busy, machineState, type MachineState } from './lib/machine';
import { REPO_ROOT, runNode, type NodeRunResult } from './lib/node-run';

interface RunSpec {
  label: string;
  project: string;
  nodeFlags?: string[];
  subqlFlags?: string[];
  /** the reconciler (reconciler/, default settings) runs beside the node against the same chain and store */
  reconciler?: boolean;
}

interface Args {
  seed: string;
  blocks: number;
  txsPerBlock: number;
  nodeFlags?: string[];
  subqlFlags?: string[];
  runs?: RunSpec[];
  repeat: number;
  logs?: string;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { seed: 'bench', blocks: 5000, txsPerBlock: 10, repeat: 1 };
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
    else if (flag === '--node-flags') a.nodeFlags = words(value());
    else if (flag === '--subql-flags') a.subqlFlags = words(value());
    else if (flag === '--runs') a.runs = JSON.parse(value()) as RunSpec[];
    else if (flag === '--with-reconciler')
      a.runs = [
        { label: 'full', project: 'full' },
        { label: 'full+reconciler', project: 'full', reconciler: true },
      ];
    else if (flag === '--repeat') a.repeat = Number(value());
    else if (flag === '--logs') a.logs = value();
    else throw new Error(`unknown option ${flag}`);
  }
  if (!Number.isSafeInteger(a.blocks) || a.blocks < 2) throw new Error('--blocks must be an integer >= 2');
  return a;
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
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

function log(line: string): void {
  console.log(`[bench:index] ${line}`);
}

interface RunFigures {
  label: string;
  project: string;
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
  /** svc.drifts rows after the (last) run; null when the project has no such table (floor) */
  driftTotal: number | null;
  loadBefore: MachineState['load'];
  loadAfter: MachineState['load'];
  progress: [number, number][];
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
  const floor = makeFloorProject();
  const extraFloors: ReturnType<typeof makeFloorProject>[] = [];
  const specs: RunSpec[] = args.runs ?? [
    { label: 'full', project: 'full' },
    { label: 'floor', project: 'floor' },
  ];
  const results: RunFigures[] = [];
  try {
    const projectDirs = specs.map((spec) => {
      if (spec.project.startsWith('floor:')) {
        // the floor of another project's manifest (e.g. a prototype declaring fewer handlers)
        const other = makeFloorProject(path.resolve(spec.project.slice('floor:'.length)));
        extraFloors.push(other);
        return other.dir;
      }
      return spec.project === 'full' ? REPO_ROOT : spec.project === 'floor' ? floor.dir : path.resolve(spec.project);
    });
    const perSpec = specs.map(() => ({
      runs: [] as NodeRunResult[],
      drifts: { total: null as number | null, sample: [] as string[] },
      loadBefore: machineState().load,
    }));
    // interleaved (A B A B…), so a drift of the machine's speed falls on every run alike
    for (let i = 0; i < args.repeat; i++) {
      for (const [k, spec] of specs.entries()) {
        const acc = perSpec[k];
        const db = await createDatabase(pg.url, uniqueName(`bench_${spec.label.replace(/[^a-z0-9_]/gi, '_')}`));
        const reconciler = spec.reconciler ? startReconciler(db.url, rpc.url) : undefined;
        try {
          const logFile = args.logs ? path.join(args.logs, `${spec.label}-${i + 1}.log`) : undefined;
          if (logFile) fs.mkdirSync(args.logs!, { recursive: true });
          const stream = logFile ? fs.createWriteStream(logFile) : undefined;
          const r = await runNode({
            dbEnv: subqlDbEnv(db),
            endpoint: rpc.url,
            projectDir: projectDirs[k],
            targetHeight: chain.height,
            nodeFlags: spec.nodeFlags ?? args.nodeFlags,
            subqlFlags: spec.subqlFlags ?? args.subqlFlags,
            onLog: stream ? (line) => stream.write(line + '\n') : undefined,
          });
          stream?.end();
          const passes = reconciler ? await reconciler.stop() : undefined;
          acc.runs.push(r);
          acc.drifts = await driftsOf(db.url);
          if (acc.drifts.total)
            log(`${spec.label} #${i + 1}: drift_total ${acc.drifts.total}: ${acc.drifts.sample.join(' | ')}`);
          log(
            `${spec.label} #${i + 1}: ${round(r.blocksPerSec)} blocks/s, ${round((r.blocksPerSec * txs) / chain.height)} txs/s (${round(r.indexMs / 1000)} s + ${round(r.startupMs / 1000)} s start-up), ` +
              `CPU/block node ${r.nodeCpuMsPerBlock} ms + postgres ${r.pgCpuMsPerBlock ?? '?'} ms, peak RSS ${r.hwmRssMb} MB, load ${machineState().load[0]}` +
              (passes
                ? `; reconciler: ${passes.recorded} passes recorded (${passes.failed} failed) in ${round(passes.seconds)} s, at heights ${passes.heights.join(', ')}`
                : ''),
          );
        } finally {
          await reconciler?.stop();
          await db.drop().catch(() => undefined);
        }
      }
    }
    for (const [k, spec] of specs.entries()) {
      const { runs, drifts, loadBefore } = perSpec[k];
      const rates = runs.map((r) => r.blocksPerSec);
      const mid = runs[rates.indexOf(median(rates))];
      const loadAfter = machineState().load;
      results.push({
        label: spec.label,
        project: spec.project,
        nodeFlags: spec.nodeFlags ?? args.nodeFlags ?? ['--max-semi-space-size=64'],
        subqlFlags: spec.subqlFlags ?? args.subqlFlags ?? ['--batch-size=20'],
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
        driftTotal: drifts.total,
        loadBefore,
        loadAfter,
        progress: mid.progress,
      });
    }
  } finally {
    floor.remove();
    extraFloors.forEach((f) => f.remove());
    await rpc.close();
    await pg.stop();
  }

  const after = machineState();
  const full = results.find((r) => r.label === 'full');
  const fl = results.find((r) => r.label === 'floor');
  for (const r of results) {
    log(
      `${r.label.padEnd(8)} ${String(r.blocksPerSec).padStart(6)} blocks/s  ${String(r.txsPerSec).padStart(7)} txs/s  ${String(r.eventsPerSec).padStart(7)} events/s  ` +
        `CPU/block ${r.nodeCpuMsPerBlock} + ${r.pgCpuMsPerBlock ?? '?'} ms  peak RSS ${r.hwmRssMb} MB  (${r.indexSeconds} s; load ${r.loadBefore[0]} -> ${r.loadAfter[0]})`,
    );
  }
  const ratio = full && fl ? round(full.blocksPerSec / fl.blocksPerSec, 2) : null;
  const cpu = (r: RunFigures) => r.nodeCpuMsPerBlock + (r.pgCpuMsPerBlock ?? 0);
  // the same ratio in CPU terms (floor CPU per block / full CPU per block): what it would be on an idle machine if both were CPU-bound
  const cpuRatio = full && fl ? round(cpu(fl) / cpu(full), 2) : null;
  const withReconciler = results.find((r) => r.label === 'full+reconciler');
  if (full && withReconciler) {
    log(
      `full+reconciler/full = ${round(withReconciler.blocksPerSec / full.blocksPerSec, 3)} in blocks/s (median of ${args.repeat}; target >= 0.95): the reconciler's cost during a catch-up`,
    );
  }
  if (ratio !== null)
    log(
      `full/floor = ${ratio} wall-clock, ${cpuRatio} by CPU per block (target >= 0.67); full ${full!.blocksPerSec} blocks/s (target >= 60)`,
    );
  log(
    `load before ${before.load.join(' ')}, after ${after.load.join(' ')}${busy(before) || busy(after) ? ' — the machine was busy: repeat on a quiet machine before quoting' : ''}`,
  );
  console.log(
    JSON.stringify({
      bench: 'index-throughput',
      seed: args.seed,
      generation,
      runs: results.map(({ progress: _p, ...r }) => r),
      ratioFullFloor: ratio,
      ratioFullFloorByCpu: cpuRatio,
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
