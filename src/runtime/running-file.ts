/**
 * DATA_DIR/npm-start.json: where a running `npm start` serves (its HTTP base URL) and which
 * chain it indexes (the RPC URL), written when it listens and when its chain is up, removed
 * when it stops. The operator tools and the examples find the deployment of their DATA_DIR by
 * it (as `npm run psql` finds the embedded PostgreSQL by its postmaster.pid), so nothing is
 * tied to the default ports.
 */
import fs from 'fs';
import path from 'path';

export const RUNNING_FILE = 'npm-start.json';

export interface RunningStart {
  pid: number;
  /** the HTTP server's base URL (http://127.0.0.1:3000) */
  url: string;
  /** the chain's CometBFT RPC, once known */
  rpc?: string;
  chain_id?: string;
}

/** Written atomically (a reader sees the old or the new file). */
export function writeRunningStart(dataDir: string, running: RunningStart): void {
  const file = path.join(dataDir, RUNNING_FILE);
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(running, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
}

/** Removed by the process that wrote it (a later start on the same DATA_DIR writes its own). */
export function removeRunningStart(dataDir: string, pid = process.pid): void {
  const found = readFile(dataDir);
  if (found?.pid === pid) fs.rmSync(path.join(dataDir, RUNNING_FILE), { force: true });
}

function readFile(dataDir: string): RunningStart | undefined {
  try {
    const r = JSON.parse(fs.readFileSync(path.join(dataDir, RUNNING_FILE), 'utf8')) as RunningStart;
    return Number.isInteger(r.pid) && typeof r.url === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

/** The npm start running on `dataDir`, or undefined (none, or a file a killed one left). */
export function runningStart(dataDir: string): RunningStart | undefined {
  const r = readFile(dataDir);
  return r && alive(r.pid) ? r : undefined;
}
