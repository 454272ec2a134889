/**
 * Where the embedded server keeps its data: a throw-away cluster in a fresh temp dir (tests),
 * or a persistent one in a data dir (npm start) whose password lives beside it; and initdb.
 */
import { spawnSync } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import type { RunAs } from './binaries';
import { runToEnd } from './processes';

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

/** Where a cluster lives and what stop() removes. */
export interface Cluster {
  dataDir: string;
  password: string;
  /** true when initdb must run first */
  fresh: boolean;
  /** removed on stop (the temp base dir; nothing of a persistent cluster) */
  removeOnStop: string[];
  /** settings for this kind of cluster */
  settings: Record<string, string | number>;
}

export const PG_USER = 'postgres';

function chownTo(p: string, as: RunAs): void {
  if (as.uid !== undefined) fs.chownSync(p, as.uid, as.gid ?? as.uid);
}

/** A throw-away cluster in a fresh temp dir: durability is not needed, speed is. */
export function throwAwayCluster(as: RunAs): Cluster {
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
export function persistentCluster(dataDir: string, as: RunAs, binariesVersion: string): Cluster {
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

export async function initCluster(
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
