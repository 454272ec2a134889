/**
 * The embedded PostgreSQL `npm start` keeps in DATA_DIR, found while it runs: its port from
 * the server's own postmaster.pid (line 4), its password from the file beside the data dir.
 * For the operator tools that reach the store of a running `npm start` (npm run risk).
 */
import fs from 'fs';
import path from 'path';
import { buildDatabaseUrl, type PgConnection } from '../database-url';
import { PG_USER } from './cluster';

/** The connection of the embedded server running on `dataDir` (DATA_DIR), or undefined when none runs there. */
export function runningEmbeddedDatabase(dataDir: string): PgConnection | undefined {
  const pgData = path.join(dataDir, 'postgres');
  let pid: string[];
  try {
    pid = fs.readFileSync(path.join(pgData, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const port = Number(pid[3]);
  if (!Number.isInteger(port) || port <= 0) return undefined;
  const password = fs.readFileSync(`${pgData}.password`, 'utf8').trim();
  const c = { host: '127.0.0.1', port, user: PG_USER, password, database: 'postgres' };
  return { ...c, url: buildDatabaseUrl(c) };
}
