/**
 * `npm start` as a test runs it: the command of package.json's "start" script with
 * node_modules/.bin on PATH, but without npm in between (npm dies on SIGTERM at once, before
 * its child has stopped, so its exit code and process tree would say nothing about the
 * launcher's shutdown). Its JSON log lines are collected as they come.
 */
import { spawn, type ChildProcess } from 'child_process';
import fs from 'fs';
import path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');

export interface LauncherProcess {
  child: ChildProcess;
  /** every stdout line, parsed (`{msg}` for a line that is not JSON), and `{stderr}` chunks */
  lines: Record<string, unknown>[];
  /** the exit code (null when a signal ended it) */
  exited: Promise<number | null>;
}

/**
 * Starts the launcher with exactly `env` (PATH gets node_modules/.bin); `detached` makes it a
 * process-group leader; `args` go after `npm start --`; `root` is the checkout whose `npm start` runs (default this one).
 */
export function spawnLauncher(
  env: NodeJS.ProcessEnv,
  o: { detached?: boolean; root?: string; args?: string[] } = {},
): LauncherProcess {
  const root = o.root ?? ROOT;
  const script = (
    JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }
  ).scripts.start;
  const [command, ...args] = script.split(' ');
  const withPath = { ...env, PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${env.PATH ?? ''}` };
  const child = spawn(command, [...args, ...(o.args ?? [])], {
    cwd: root,
    env: withPath,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: o.detached ?? false,
  });
  const lines: Record<string, unknown>[] = [];
  let rest = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop() ?? '';
    for (const l of parts) {
      try {
        lines.push(JSON.parse(l) as Record<string, unknown>);
      } catch {
        lines.push({ msg: l });
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => lines.push({ stderr: chunk.toString('utf8') }));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, exited };
}

/**
 * The environment of `npm start` as a bench runs it: this process's environment without the
 * variables that would point it elsewhere (`unset`, plus chain, schema and log level), on
 * `port`, `dataDir` and the store `databaseUrl`, its embedded devnet on a free port, JSON logs;
 * `extra` last.
 */
export function benchLauncherEnv(
  o: { port: number; dataDir: string; databaseUrl: string; unset?: string[] },
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const v of ['CHAIN_RPC_URL', 'CHAIN_ID', 'DB_SCHEMA', 'LOG_LEVEL', ...(o.unset ?? [])]) delete env[v];
  return {
    ...env,
    PORT: String(o.port),
    HOST: '127.0.0.1',
    DATA_DIR: o.dataDir,
    DATABASE_URL: o.databaseUrl,
    DEVNET_PORT: '0',
    LOG_FORMAT: 'json',
    ...extra,
  };
}

/** Until `base`/ready answers 200; throws when the launcher exits first or after `timeoutMs`. */
export async function waitLauncherReady(base: string, launcher: LauncherProcess, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (launcher.child.exitCode !== null)
      throw new Error(`npm start exited: ${JSON.stringify(launcher.lines.slice(-5))}`);
    try {
      if ((await fetch(`${base}/ready`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('npm start not ready in time');
}

/** SIGTERM, then SIGKILL to its process group after 30 s (it must have been spawned detached). */
export async function stopLauncher(launcher: LauncherProcess): Promise<void> {
  if (launcher.child.exitCode !== null) return;
  launcher.child.kill('SIGTERM');
  const force = setTimeout(() => process.kill(-launcher.child.pid!, 'SIGKILL'), 30_000);
  await launcher.exited;
  clearTimeout(force);
}
