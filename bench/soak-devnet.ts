/**
 * `npm run soak:devnet -- [--blocks 10000] [--block-ms 10] [--txs-per-block 5] [--state-window 1000]
 *   [--snapshot-blocks 500] [--every 250] [--kill-at 5250,10250] [--data-dir DIR]`
 *
 * The embedded devnet of `npm start` over a long live run with a short block interval, in its
 * own process (bench/lib/soak-devnet-child.ts) on a data directory: it prints RSS, heap, state
 * keys and versions every `--every` blocks (flat once the state window and the block window are
 * full), and at each `--kill-at` height kills the process with SIGKILL and starts it again from
 * its data directory, printing how long the restart took and how many journaled blocks it
 * replayed (bounded by the snapshot interval, whatever the chain's length).
 *
 * CPU-heavy: run it on a quiet machine (figures are compared within one run).
 */
import { spawn, type ChildProcess } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import readline from 'readline';
import type { SoakChildOptions } from './lib/soak-devnet-child';

interface SoakOptions extends SoakChildOptions {
  blocks: number;
  killAt: number[];
  keepDataDir: boolean;
}

function parseArgs(argv: string[]): SoakOptions {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const int = (name: string, fallback: number): number => {
    const raw = value(name);
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`--${name} must be a non-negative integer, got ${raw}`);
    return n;
  };
  const blocks = int('blocks', 10_000);
  const given = value('data-dir');
  return {
    blocks,
    blockMs: int('block-ms', 10),
    txsPerBlock: int('txs-per-block', 5),
    stateWindow: int('state-window', 1000),
    snapshotBlocks: int('snapshot-blocks', 500),
    every: int('every', 250),
    historyBlocks: int('history-blocks', 200),
    seed: value('seed') ?? 'soak',
    // half-way between snapshots by default, so a restart has a journal tail to replay
    killAt: (value('kill-at') ?? `${Math.floor(blocks / 2) + 250},${blocks + 250}`).split(',').map(Number),
    dataDir: given ?? fs.mkdtempSync(path.join(os.tmpdir(), 'svc-soak-')),
    keepDataDir: given !== undefined,
  };
}

interface ChildLine {
  event: string;
  height: number;
  [k: string]: unknown;
}

/** Starts the devnet process; `onLine` hears each JSON line it prints. */
function startChild(o: SoakOptions, onLine: (line: ChildLine) => void): ChildProcess {
  const script = path.join(__dirname, 'lib', 'soak-devnet-child.ts');
  const child = spawn(
    process.execPath,
    ['--expose-gc', '-r', 'ts-node/register/transpile-only', script, JSON.stringify(o)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  readline.createInterface({ input: child.stdout! }).on('line', (text) => onLine(JSON.parse(text) as ChildLine));
  return child;
}

/** Runs the devnet until it reports `untilHeight`, then kills it with SIGKILL. */
function runUntil(o: SoakOptions, untilHeight: number, report: (line: ChildLine) => void): Promise<ChildLine> {
  return new Promise((resolve, reject) => {
    const spawnedAt = Date.now();
    let ready: ChildLine | undefined;
    const child = startChild(o, (line) => {
      if (line.event === 'ready') ready = { ...line, wall_ms: Date.now() - spawnedAt };
      report(line.event === 'ready' ? ready! : line);
      if (line.event === 'memory' && line.height >= untilHeight) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' && ready ? resolve(ready) : reject(new Error(`devnet process exited (${code ?? signal})`)),
    );
  });
}

function describe(line: ChildLine): string {
  if (line.event === 'ready')
    return `ready at height ${line.height} in ${line.wall_ms} ms (devnet start ${line.ms} ms; resumed from ${line.resumed_from ?? 'genesis'}, replayed ${line.replayed} blocks)`;
  return `height ${line.height}: RSS ${line.rss_mb} MB, heap ${line.heap_mb} MB, state ${line.keys} keys / ${line.versions} versions, ${line.blocks_in_memory} blocks in memory, data dir ${line.disk_mb} MB`;
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  console.log(JSON.stringify({ soak: { ...o, dataDir: o.dataDir } }));
  const restarts: ChildLine[] = [];
  try {
    for (const height of o.killAt) {
      const ready = await runUntil(o, height, (line) => console.log(describe(line)));
      restarts.push(ready);
      console.log(`killed with SIGKILL at height ≥ ${height}`);
    }
    const last = await runUntil(o, 0, (line) => console.log(describe(line)));
    restarts.push(last);
    console.log(
      JSON.stringify({
        starts: restarts.map((r) => ({ height: r.height, wall_ms: r.wall_ms, replayed: r.replayed })),
      }),
    );
  } finally {
    if (!o.keepDataDir) fs.rmSync(o.dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
