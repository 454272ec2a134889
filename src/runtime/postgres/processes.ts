/** The embedded server's programs as child processes: their output, their readiness, their end. */
import { spawn, ChildProcess } from 'child_process';
import path from 'path';
import type { RunAs } from './binaries';

const READY_MARKER = 'database system is ready to accept connections';

export class LogTail {
  private lines: string[] = [];
  constructor(private readonly onLine?: (line: string) => void) {}
  add(chunk: Buffer | string): void {
    for (const l of chunk.toString('utf8').split('\n')) {
      if (!l.trim()) continue;
      this.lines.push(l);
      this.onLine?.(l);
    }
    if (this.lines.length > 200) this.lines.splice(0, this.lines.length - 200);
  }
  text(): string {
    return this.lines.join('\n');
  }
}

export function runToEnd(bin: string, args: string[], as: RunAs, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const log = new LogTail();
    const child = spawn(bin, args, { ...as, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (c: Buffer) => log.add(c));
    child.stderr?.on('data', (c: Buffer) => log.add(c));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(bin)} failed (code ${code}, signal ${signal}):\n${log.text()}`)),
    );
  });
}

export function waitReady(child: ChildProcess, log: LogTail, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(
      () => done(new Error(`postgres not ready after ${timeoutMs} ms:\n${log.text()}`)),
      timeoutMs,
    );
    const onData = (c: Buffer) => {
      buf = (buf + c.toString('utf8')).slice(-4096);
      if (buf.includes(READY_MARKER)) done();
    };
    const onExit = (code: number | null, signal: string | null) =>
      done(new Error(`postgres exited during start (code ${code}, signal ${signal}):\n${log.text()}`));
    function done(err?: Error) {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve();
    }
    child.stderr?.on('data', onData);
    child.on('exit', onExit);
  });
}

const WATCHDOG = `
parent=$1; pg=$2; shift 2
while kill -0 "$parent" 2>/dev/null; do
  kill -0 "$pg" 2>/dev/null || exit 0
  sleep 1
done
kill -INT "$pg" 2>/dev/null
i=0; while kill -0 "$pg" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
kill -KILL "$pg" 2>/dev/null
rm -rf -- "$@"
`;

/** A detached shell that stops the server and removes its files if `parent` dies first. */
export function startWatchdog(parent: number, pgPid: number, paths: string[]): void {
  try {
    const w = spawn('sh', ['-c', WATCHDOG, 'svc-pg-watchdog', String(parent), String(pgPid), ...paths], {
      detached: true,
      stdio: 'ignore',
    });
    w.on('error', () => undefined);
    w.unref();
  } catch {
    /* best effort */
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    /* gone */
  }
}
