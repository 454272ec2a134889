/**
 * `npm run bench:head-stages -- [--block-ms 1000] [--seconds 120] [--history-blocks 200]
 *   [--variants '<json>']`
 *
 * Where the index lag goes at the head of the chain, stage by stage, for several settings of
 * the real subql-node-cosmos side by side against one live chain:
 *
 * 1. a live devnet in this process (seeded history, then a block every `--block-ms` with the
 *    scenario's traffic, ~10 txs a block, as `npm start`); the time each block is committed
 *    is taken as the chain makes it;
 * 2. one node per variant, each on a fresh database and through its own recording proxy to
 *    the chain's RPC (bench/lib/rpc-recorder.ts), with `--debug=StoreCache` so it says when a
 *    store flush starts; `_metadata.lastProcessedHeight` of each read every 10 ms;
 * 3. once every node indexes at the chain's pace, `--seconds` of live blocks measured.
 *
 * Per variant and block (commit → lastProcessedHeight seen), the stages:
 *   head poll   commit → the first `status` answer showing the height (node-cosmos
 *               blockchain.service.js getChainInterval: every 0.9 × the block interval, ≤ 5 s,
 *               fixed when the node starts);
 *   fill loop   → "Enqueueing blocks" logged (node-core fetch.service.js fillNextBlockBuffer
 *               sleeps delay(1) = 1 s while there is no new height);
 *   fetch loop  → the node's `block_results` request (block-dispatcher.js fetchBlocksFromQueue
 *               sleeps delay(1) while its queue is empty; absent with --workers);
 *   fetch       → both `block` and `block_results` answered;
 *   index       → "Flushing cache" logged: the block processed (the mappings, the node's
 *               bookkeeping before and after them);
 *   flush       → the height seen in _metadata: the store flush, one transaction per block near
 *               the target height (storeCache.service.js applyPendingChanges), and the 10 ms read.
 *
 * Variants (default: the launcher's flags with and without `--workers=1`, the one flag that
 * measurably moved the lag): [{"label", "subqlFlags": [...], "afterLiveBlocks"?: N}], where
 * afterLiveBlocks starts that node only once the chain has made N live blocks after the history
 * and its lead-in (devnet/scenario/live-loop.ts: the chain's latest 20 blocks are at the live
 * pace from the first live block on, so every node reads the same head-poll interval).
 *
 * PostgreSQL: DATABASE_URL when set, else an embedded server (tests/harness/postgres.ts).
 */
import { Client } from 'pg';
import type { Devnet } from '../devnet/cli';
import { createDatabase, startPostgres, subqlDbEnv, uniqueName, type TestDatabase } from '../tests/harness/postgres';
import { startNode, type SubqlNode } from '../tests/harness/subql-node';
import { ensureProjectBuilt } from '../tests/harness/indexed-store';
import { busy, machineState } from './lib/machine';
import { cpuMs } from './lib/node-run';
import { dist, indexedHeightWatcher, percentile, type Dist, type HeightWatcher } from './lib/head-watchers';
import { startRpcRecorder, type RpcRecorder } from './lib/rpc-recorder';

interface Variant {
  label: string;
  subqlFlags: string[];
  afterLiveBlocks?: number;
}

interface Args {
  blockMs: number;
  seconds: number;
  historyBlocks: number;
  variants: Variant[];
}

const DEFAULT_VARIANTS: Variant[] = [
  { label: 'no workers', subqlFlags: ['--subscription'] },
  { label: 'workers=1', subqlFlags: ['--subscription', '--workers=1'] },
];

function parseArgs(argv: string[]): Args {
  const a: Args = { blockMs: 1000, seconds: 120, historyBlocks: 200, variants: DEFAULT_VARIANTS };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, v] = [argv[i], argv[i + 1]];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--variants') a.variants = JSON.parse(v) as Variant[];
    else {
      const n = Number(v);
      if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${flag} needs a positive integer`);
      if (flag === '--block-ms') a.blockMs = n;
      else if (flag === '--seconds') a.seconds = n;
      else if (flag === '--history-blocks') a.historyBlocks = n;
      else throw new Error(`unknown option ${flag}`);
    }
  }
  return a;
}

const log = (line: string) => console.log(`[bench:head-stages] ${line}`);

/** What one node printed, with the time each line arrived. */
interface NodeLines {
  enqueued: { at: number; from: number; to: number }[];
  /** "Flushing cache" (debug, category StoreCache): a store flush began */
  flushes: number[];
}

const ENQUEUE = /Enqueu(?:e)?ing blocks (\d+)\.\.\.(\d+)/;
const FLUSHING = /Flushing cache/;

interface Running {
  variant: Variant;
  db: TestDatabase;
  rpc: RpcRecorder;
  node: SubqlNode;
  lines: NodeLines;
  watcher: HeightWatcher;
  watcherDb: Client;
  /** the chain's height when the node was started */
  startedAtHeight: number;
}

function option(flags: string[], name: string): number | undefined {
  const f = flags.find((x) => x.startsWith(`--${name}=`));
  return f === undefined ? undefined : Number(f.split('=')[1]);
}

async function startVariant(variant: Variant, serverUrl: string, devnet: Devnet): Promise<Running> {
  const db = await createDatabase(serverUrl, uniqueName(`head_${variant.label.replace(/[^a-z0-9]/gi, '_')}`));
  const rpc = await startRpcRecorder(devnet.url);
  const lines: NodeLines = { enqueued: [], flushes: [] };
  const rest = variant.subqlFlags.filter((x) => !/^--(batch-size|workers)=/.test(x));
  const node = await startNode({
    dbEnv: subqlDbEnv(db),
    endpoint: rpc.url,
    schema: 'svc',
    batchSize: option(variant.subqlFlags, 'batch-size'),
    workers: option(variant.subqlFlags, 'workers'),
    // debug lines of the store cache only: its "Flushing cache" marks when a flush starts
    extraArgs: [...rest, '--debug=StoreCache'],
    onLog: (line) => {
      const at = Date.now();
      const e = ENQUEUE.exec(line);
      if (e) lines.enqueued.push({ at, from: Number(e[1]), to: Number(e[2]) });
      if (FLUSHING.test(line)) lines.flushes.push(at);
    },
  });
  const watcherDb = new Client({ connectionString: db.url });
  watcherDb.on('error', () => undefined);
  await watcherDb.connect();
  const watcher = indexedHeightWatcher(watcherDb, 'svc');
  watcher.start();
  return { variant, db, rpc, node, lines, watcher, watcherDb, startedAtHeight: devnet.chain.height };
}

async function stopVariant(r: Running): Promise<void> {
  await r.watcher.stop();
  await r.watcherDb.end().catch(() => undefined);
  await r.node.stop();
  await r.rpc.close();
  await r.db.drop().catch(() => undefined);
}

/** The node's head-poll period: the median gap between its `status` calls, in pairs (it polls twice per period). */
function headPollMs(r: Running, from: number): number {
  const times = r.rpc.calls.filter((c) => c.method === 'status' && c.at >= from).map((c) => c.at);
  const gaps: number[] = [];
  for (let i = 2; i < times.length; i++) gaps.push(times[i] - times[i - 2]);
  return percentile(
    gaps.sort((x, y) => x - y),
    50,
  );
}

const STAGES = ['head poll', 'fill loop', 'fetch loop', 'fetch', 'index', 'flush', 'lag'] as const;
type Stage = (typeof STAGES)[number];

/** Per height in [from, to]: each stage's milliseconds for this node. */
function stagesOf(r: Running, commits: Map<number, number>, from: number, to: number): Record<Stage, number[]> {
  const out = Object.fromEntries(STAGES.map((s) => [s, [] as number[]])) as Record<Stage, number[]>;
  const status = r.rpc.calls.filter((c) => c.method === 'status' && c.reported !== undefined);
  for (let h = from; h <= to; h++) {
    const commit = commits.get(h);
    const indexed = r.watcher.seenAt.get(h);
    if (commit === undefined || indexed === undefined) continue;
    const head = status.find((c) => c.reported! >= h && c.answeredAt >= commit)?.answeredAt;
    const enqueued = r.lines.enqueued.find((e) => e.from <= h && h <= e.to && e.at >= commit)?.at;
    const fetches = r.rpc.calls.filter((c) => (c.method === 'block_results' || c.method === 'block') && c.height === h);
    const fetchStart = fetches.find((c) => c.method === 'block_results')?.at;
    // the head poll's own `block` call for the height comes before the fetch's: the fetch's are those from block_results on
    const fetchEnd =
      fetchStart === undefined
        ? undefined
        : Math.max(...fetches.filter((c) => c.at >= fetchStart - 5).map((c) => c.answeredAt));
    // the flush that wrote the height: the last one to start before it was seen
    const flushStart =
      fetchEnd === undefined ? undefined : r.lines.flushes.filter((t) => t >= fetchEnd && t <= indexed).pop();
    out.lag.push(indexed - commit);
    if ([head, enqueued, fetchStart, fetchEnd, flushStart].includes(undefined)) continue;
    out['head poll'].push(head! - commit);
    out['fill loop'].push(Math.max(0, enqueued! - head!));
    out['fetch loop'].push(Math.max(0, fetchStart! - Math.max(enqueued!, head!)));
    out.fetch.push(fetchEnd! - fetchStart!);
    out.index.push(flushStart! - fetchEnd!);
    out.flush.push(indexed - flushStart!);
  }
  return out;
}

async function untilAllAtPace(all: Running[], devnet: Devnet, blockMs: number): Promise<void> {
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    if (all.every((r) => r.watcher.height >= devnet.chain.height - Math.max(2, Math.ceil(6000 / blockMs)))) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the nodes did not reach the chain head within 10 minutes');
}

async function run(a: Args, serverUrl: string): Promise<void> {
  ensureProjectBuilt();
  const { startDevnet } = await import('../devnet/cli');
  const devnet: Devnet = await startDevnet({
    seed: 'bench-head',
    blocks: a.historyBlocks,
    txsPerBlock: 10,
    live: true,
    blockMs: a.blockMs,
  });
  const commits = new Map<number, number>();
  const produce = devnet.chain.produceBlock.bind(devnet.chain);
  devnet.chain.produceBlock = (timeMs: number) => {
    const block = produce(timeMs);
    commits.set(block.height, Date.now());
    return block;
  };
  const running: Running[] = [];
  try {
    const order = [...a.variants].sort((x, y) => (x.afterLiveBlocks ?? 0) - (y.afterLiveBlocks ?? 0));
    for (const v of order) {
      while (devnet.chain.height < a.historyBlocks + (v.afterLiveBlocks ?? 0))
        await new Promise((r) => setTimeout(r, 100));
      running.push(await startVariant(v, serverUrl, devnet));
      log(
        `${v.label}: node started at chain height ${devnet.chain.height} (${v.subqlFlags.join(' ') || 'no extra flags'})`,
      );
    }
    await untilAllAtPace(running, devnet, a.blockMs);
    const from = devnet.chain.height + 1;
    const t0 = Date.now();
    const cpu0 = running.map((r) => cpuMs(r.node.pid));
    const load0 = machineState();
    log(`measuring ${a.seconds} s from height ${from} (block every ${a.blockMs} ms; load ${load0.load.join(' ')})`);
    await new Promise((r) => setTimeout(r, a.seconds * 1000));
    const to = devnet.chain.height;
    // the last heights need their time to be indexed
    await new Promise((r) => setTimeout(r, Math.max(8000, 2 * a.blockMs)));
    const elapsed = Date.now() - t0;
    const load1 = machineState();
    const results = running.map((r, k) => {
      const stages = stagesOf(r, commits, from, to);
      return {
        label: r.variant.label,
        flags: r.variant.subqlFlags,
        startedAtHeight: r.startedAtHeight,
        headPollMs: headPollMs(r, t0),
        heights: to - from + 1,
        nodeCpuMsPerHeight: Math.round((cpuMs(r.node.pid) - cpu0[k]) / (to - from + 1)),
        stages: Object.fromEntries(STAGES.map((s) => [s, dist(stages[s])])) as Record<Stage, Dist>,
      };
    });
    log(
      `heights ${from}..${to} (${to - from + 1}), ${Math.round(elapsed / 1000)} s; load before ${load0.load.join(' ')}, after ${load1.load.join(' ')}`,
    );
    for (const r of results) {
      log(
        `${r.label}: head poll every ${r.headPollMs} ms (started at height ${r.startedAtHeight}), node CPU ${r.nodeCpuMsPerHeight} ms/height; ` +
          `lag p50 ${r.stages.lag.p50} ms, p99 ${r.stages.lag.p99} ms, max ${r.stages.lag.max} ms over ${r.stages.lag.n} heights`,
      );
      for (const s of STAGES.filter((x) => x !== 'lag')) {
        const d = r.stages[s];
        log(
          `  ${s.padEnd(10)} p50 ${String(d.p50).padStart(5)}  p90 ${String(d.p90).padStart(5)}  p99 ${String(d.p99).padStart(5)}  max ${String(d.max).padStart(5)} ms  (n ${d.n})`,
        );
      }
    }
    if (busy(load0) || busy(load1)) log('the machine was busy: repeat before quoting');
    console.log(
      JSON.stringify({ bench: 'head-stages', args: a, from, to, results, machine: { before: load0, after: load1 } }),
    );
  } finally {
    for (const r of running) await stopVariant(r);
    await devnet.close();
  }
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  if (process.env.DATABASE_URL) return run(a, process.env.DATABASE_URL);
  const pg = await startPostgres({ settings: { max_connections: 100 } });
  try {
    await run(a, pg.url);
  } finally {
    await pg.stop();
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
