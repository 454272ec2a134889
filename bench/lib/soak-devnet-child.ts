/**
 * The process `npm run soak:devnet` starts, kills and starts again: the embedded devnet of
 * `npm start` (src/runtime/devnet.ts) on a data directory, printing JSON lines on stdout:
 * `ready` once it serves (with what the start replayed), then `memory` every `every` blocks
 * (RSS and heap after a GC, state keys and versions, blocks held in memory).
 *
 * Arguments: a JSON object of SoakChildOptions. Run with --expose-gc so the heap figures are live data.
 */
import fs from 'fs';
import path from 'path';
import { startEmbeddedDevnet } from '../../src/runtime/devnet';
import { DevnetJournal } from '../../src/runtime/devnet-journal';
import { createLogger } from '../../src/runtime/logger';

export interface SoakChildOptions {
  dataDir: string;
  seed: string;
  historyBlocks: number;
  txsPerBlock: number;
  blockMs: number;
  stateWindow: number;
  snapshotBlocks: number;
  /** a memory line every this many blocks */
  every: number;
}

function print(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** Bytes of the files under `dir` (journal, block archive, snapshot). */
function diskBytes(dir: string): number {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .reduce(
      (n, e) => n + (e.isDirectory() ? diskBytes(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).size),
      0,
    );
}

function memoryLine(
  height: number,
  app: { stateStats(): { keys: number; versions: number } },
  blocks: number,
  dataDir: string,
) {
  (global as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const { keys, versions } = app.stateStats();
  return {
    event: 'memory',
    height,
    rss_mb: Math.round(m.rss / 1e6),
    heap_mb: Math.round(m.heapUsed / 1e6),
    keys,
    versions,
    blocks_in_memory: blocks,
    disk_mb: Math.round(diskBytes(dataDir) / 1e6),
  };
}

async function main(): Promise<void> {
  const o = JSON.parse(process.argv[2]) as SoakChildOptions;
  const started = Date.now();
  const log = createLogger({ format: 'json', level: 'warn', write: (line) => process.stderr.write(line) });
  const devnet = await startEmbeddedDevnet({
    config: {
      seed: o.seed,
      historyBlocks: o.historyBlocks,
      txsPerBlock: o.txsPerBlock,
      blockMs: o.blockMs,
      port: 0,
      stateWindow: o.stateWindow,
      snapshotBlocks: o.snapshotBlocks,
    },
    journal: DevnetJournal.open(o.dataDir),
    dataDir: o.dataDir,
    log,
  });
  print({
    event: 'ready',
    ms: Date.now() - started,
    height: devnet.chain.height,
    resumed_from: devnet.resumedFrom ?? null,
    replayed: devnet.replayedBlocks,
  });
  let next = Math.ceil((devnet.chain.height + 1) / o.every) * o.every;
  setInterval(() => {
    if (devnet.chain.height < next) return;
    next += o.every;
    print(memoryLine(devnet.chain.height, devnet.engine.app, devnet.chain.memoryStats().blocks, o.dataDir));
  }, 50);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
