/**
 * The devnet CLI (devnet/cli.ts) in its own process, for benches that measure something else on
 * the same machine: the chain's block production then neither stalls the load generator's event
 * loop nor hides in its CPU time, and it can be paused (SIGSTOP) like a node.
 */
import { spawn, type ChildProcess } from 'child_process';
import path from 'path';
import readline from 'readline';

const ROOT = path.resolve(__dirname, '..', '..');
const START_TIMEOUT_MS = 600_000;

export interface DevnetProcessOptions {
  seed: string;
  historyBlocks: number;
  txsPerBlock: number;
  blockMs: number;
}

export interface DevnetProcess {
  url: string;
  pid: number;
  /** the chain's tip (RPC status) */
  height(): Promise<number>;
  stop(): Promise<void>;
}

function cliArgs(o: DevnetProcessOptions): string[] {
  return [
    '-r',
    'ts-node/register/transpile-only',
    path.join(ROOT, 'devnet', 'cli.ts'),
    `--seed=${o.seed}`,
    `--blocks=${o.historyBlocks}`,
    `--txs-per-block=${o.txsPerBlock}`,
    '--port=0',
    '--live',
    `--block-ms=${o.blockMs}`,
    // a stand-in for a chain on other machines: its signature checks are not this machine's work
    '--skip-signature-verification',
  ];
}

/** Resolves with the RPC URL once the CLI prints its `listening` line. */
function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('devnet did not start in time')), START_TIMEOUT_MS);
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      let event: { event?: string; url?: string };
      try {
        event = JSON.parse(line) as typeof event;
      } catch {
        return;
      }
      if (event.event === 'listening' && event.url) {
        clearTimeout(timer);
        resolve(event.url);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`devnet exited before listening (${code ?? signal})`));
    });
  });
}

export async function startDevnetProcess(o: DevnetProcessOptions): Promise<DevnetProcess> {
  const child = spawn(process.execPath, cliArgs(o), { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT'); // a paused process would not handle SIGTERM
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    }
  };
  try {
    const url = await listeningUrl(child);
    return {
      url,
      pid: child.pid!,
      height: async () => {
        const status = (await (await fetch(`${url}/status`)).json()) as {
          result: { sync_info: { latest_block_height: string } };
        };
        return Number(status.result.sync_info.latest_block_height);
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
