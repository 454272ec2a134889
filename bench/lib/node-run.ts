/**
 * One measured run of the real @subql/node-cosmos: spawned exactly as
 * tests/harness/subql-node.ts does (TZ=UTC, --historical=false,
 * --kyve-endpoint=false, DB_* env) but with the node's V8 flags and the
 * SubQuery flags under the caller's control, so settings can be compared.
 *
 * While it runs: /meta (currentProcessingHeight) and _metadata.lastProcessedHeight
 * are polled every 200 ms, the process RSS is sampled from /proc/<pid>/status
 * (VmRSS; worker threads share the pid), and VmHWM (the kernel's peak RSS) is
 * read just before the node is stopped.
 *
 * Every poll also adds (ms since the first block, height done) to `trace`, the
 * input of the per-segment rates (bench/lib/segments.ts). The height comes from
 * /meta, not _metadata: the node sets currentProcessingHeight in memory as each
 * block starts (height done = currentProcessingHeight - 1), while
 * _metadata.lastProcessedHeight is written only when the store cache flushes
 * (every --store-flush-interval = 5 s, or 1,000 cached records), which would
 * quantise a 1,000-block segment of a fast project into one or two flushes.
 * The time of a sample is the middle of its /meta request; the last sample is
 * (end of the run, targetHeight), taken when _metadata shows the last block flushed.
 *
 * Rate = blocks / (time the last block was flushed - time the first block
 * was seen processing): node start-up (Nest, schema sync, first fetch) is
 * reported separately. The blocks counted are those after that first poll
 * (the node may have done a few dozen by then: a batch arrives at once), the
 * same blocks the CPU per block is divided by. CPU per block (node process, all threads; the local
 * PostgreSQL server, reaped backends included) over the same window is the
 * figure that survives a busy machine: wall-clock rates move with other jobs'
 * load, CPU milliseconds per block much less.
 */
import { spawn } from 'child_process';
import fs from 'fs';
import path from 'path';
import { Client } from 'pg';
import { freePort } from '../../src/runtime/ports';
import { type SubqlDbEnv } from '../../tests/harness/subql-node';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface NodeRunOptions {
  dbEnv: SubqlDbEnv;
  endpoint: string;
  /** project directory (-f); default the repository */
  projectDir?: string;
  schema?: string;
  /** index until lastProcessedHeight reaches this height */
  targetHeight: number;
  /** V8/node flags before the script (default: --max-semi-space-size=64, as the test harness) */
  nodeFlags?: string[];
  /** SubQuery flags after the fixed ones (default: --batch-size=100, as the launcher and the test harness) */
  subqlFlags?: string[];
  timeoutMs?: number;
  /** every line the node prints */
  onLog?: (line: string) => void;
  /** directory the node process runs in (where --cpu-prof writes) */
  cwd?: string;
  /**
   * the node's historical mode (true or 'height': `--historical=height`; 'timestamp':
   * `--historical=timestamp`; default off, `--historical=false`, as the product runs it). The
   * manifest's runner.node.options.historical wins over the flag (node-core
   * rebaseArgsWithManifest), so the project must say so too or drop the option
   * (bench/lib/historical-project.ts), and the database needs btree_gist.
   */
  historical?: boolean | 'height' | 'timestamp';
}

export interface NodeRunResult {
  blocks: number;
  /** blocks indexed inside the timed window (blocks minus those done before the first poll saw one) */
  blocksTimed: number;
  /** CPU time (user + system, all threads) of the node process while indexing, ms per block */
  nodeCpuMsPerBlock: number;
  /** CPU time of the PostgreSQL server (postmaster, backends, reaped backends) while indexing, ms per block; null when not local */
  pgCpuMsPerBlock: number | null;
  /** spawn -> first block processing (ms) */
  startupMs: number;
  /** first block processing -> last block flushed (ms) */
  indexMs: number;
  blocksPerSec: number;
  /** largest VmRSS sample and the kernel's VmHWM (MB) */
  peakRssMb: number;
  hwmRssMb: number;
  /** (seconds since first block, height) every ~5 s: shows warm-up and GC plateaus */
  progress: [number, number][];
  /** (ms since first block, height done) at every poll (~200 ms), ending with (indexMs, blocks) */
  trace: [number, number][];
  logs: string[];
}

const DEFAULT_NODE_FLAGS = ['--max-semi-space-size=64'];
const DEFAULT_SUBQL_FLAGS = ['--batch-size=100'];

function procStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime (+ cutime + cstime of reaped children) of a process, ms; 0 when gone. */
export function cpuMs(pid: number, withChildren = false): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from 3 (state) on
    const [utime, stime, cutime, cstime] = [f[11], f[12], f[13], f[14]].map(Number);
    return (utime + stime + (withChildren ? cutime + cstime : 0)) * TICK_MS;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server listening on `port` on this machine: CPU of the postmaster, its live children and the reaped ones. */
export function pgServerCpuMs(port: number): number | null {
  let postmaster = 0;
  const parents = new Map<number, number>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      parents.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (!postmaster) {
        const args = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
        if (/postgres$/.test(args[0]) && args.includes('-p') && args[args.indexOf('-p') + 1] === String(port))
          postmaster = Number(d);
      }
    } catch {
      /* gone */
    }
  }
  if (!postmaster) return null;
  let total = cpuMs(postmaster, true);
  for (const [pid, ppid] of parents) if (ppid === postmaster) total += cpuMs(pid);
  return total;
}

async function metaHeight(port: number): Promise<number> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/meta`);
    if (!res.ok) return -1;
    const meta = (await res.json()) as { currentProcessingHeight?: number };
    return meta.currentProcessingHeight ?? -1;
  } catch {
    return -1;
  }
}

async function flushedHeight(db: Client, schema: string): Promise<number> {
  try {
    const r = await db.query(`SELECT value FROM "${schema}"._metadata WHERE key = 'lastProcessedHeight'`);
    return r.rows.length ? Number(r.rows[0].value) : -1;
  } catch {
    return -1;
  }
}

export async function runNode(o: NodeRunOptions): Promise<NodeRunResult> {
  const schema = o.schema ?? 'svc';
  const port = await freePort();
  const args = [
    ...(o.nodeFlags ?? DEFAULT_NODE_FLAGS),
    path.join(REPO_ROOT, 'node_modules', '@subql', 'node-cosmos', 'bin', 'run'),
    `-f=${o.projectDir ?? REPO_ROOT}`,
    `--db-schema=${schema}`,
    `--historical=${o.historical === true ? 'height' : o.historical || 'false'}`,
    '--kyve-endpoint=false',
    `--port=${port}`,
    `--network-endpoint=${o.endpoint}`,
    ...(o.subqlFlags ?? DEFAULT_SUBQL_FLAGS),
  ];
  const spawned = Date.now();
  const child = spawn(process.execPath, args, {
    cwd: o.cwd ?? o.projectDir ?? REPO_ROOT,
    env: { ...process.env, ...o.dbEnv, TZ: 'UTC' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      logs.push(line);
      if (logs.length > 2000) logs.shift();
      o.onLog?.(line);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pid = child.pid!;
  const killOnExit = () => child.kill('SIGKILL'); // never leave a node behind when the bench dies
  process.once('exit', killOnExit);

  const db = new Client({
    host: o.dbEnv.DB_HOST,
    port: Number(o.dbEnv.DB_PORT),
    user: o.dbEnv.DB_USER,
    password: o.dbEnv.DB_PASS,
    database: o.dbEnv.DB_DATABASE,
  });
  db.on('error', () => undefined);
  await db.connect();

  let peakKb = 0;
  let firstBlockAt = 0;
  let doneAtFirst = 0;
  let cpuAtFirst = 0;
  let pgAtFirst: number | null = null;
  let hwmKb = 0;
  const progress: [number, number][] = [];
  const trace: [number, number][] = [];
  let lastProgressAt = 0;
  const deadline = Date.now() + (o.timeoutMs ?? 3_600_000);
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `subql node exited (${child.exitCode ?? child.signalCode}) before height ${o.targetHeight}:\n${logs.slice(-40).join('\n')}`,
        );
      }
      peakKb = Math.max(peakKb, procStatusKb(pid, 'VmRSS'));
      const now = Date.now();
      const processing = await metaHeight(port);
      const answeredAt = (now + Date.now()) / 2;
      if (!firstBlockAt && processing >= 1) {
        firstBlockAt = now;
        doneAtFirst = processing - 1;
        cpuAtFirst = cpuMs(pid);
        pgAtFirst = pgServerCpuMs(Number(o.dbEnv.DB_PORT));
      }
      if (firstBlockAt && processing >= 1) trace.push([Math.round(answeredAt - firstBlockAt), processing - 1]);
      if (firstBlockAt && now - lastProgressAt >= 5000) {
        progress.push([Math.round((now - firstBlockAt) / 100) / 10, processing]);
        lastProgressAt = now;
      }
      if ((await flushedHeight(db, schema)) >= o.targetHeight) {
        if (!firstBlockAt) firstBlockAt = now; // a very short run: started and finished between two polls
        hwmKb = procStatusKb(pid, 'VmHWM');
        const nodeCpu = cpuMs(pid) - cpuAtFirst;
        const pgNow = pgServerCpuMs(Number(o.dbEnv.DB_PORT));
        const done = Date.now();
        const indexMs = done - firstBlockAt;
        trace.push([indexMs, o.targetHeight]);
        const timed = Math.max(1, o.targetHeight - doneAtFirst);
        return {
          blocks: o.targetHeight,
          blocksTimed: timed,
          nodeCpuMsPerBlock: Math.round((nodeCpu / timed) * 10) / 10,
          pgCpuMsPerBlock:
            pgNow !== null && pgAtFirst !== null ? Math.round(((pgNow - pgAtFirst) / timed) * 10) / 10 : null,
          startupMs: firstBlockAt - spawned,
          indexMs,
          blocksPerSec: timed / (indexMs / 1000),
          peakRssMb: Math.round(peakKb / 1024),
          hwmRssMb: Math.round(Math.max(hwmKb, peakKb) / 1024),
          progress,
          trace,
          logs,
        };
      }
      if (Date.now() > deadline)
        throw new Error(`subql node not at ${o.targetHeight} after ${o.timeoutMs} ms:\n${logs.slice(-40).join('\n')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM'); // SIGTERM lets --cpu-prof write its profile
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    process.removeListener('exit', killOnExit);
    await db.end().catch(() => undefined);
  }
}
