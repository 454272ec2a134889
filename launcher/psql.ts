/**
 * `npm run psql`: a psql session on the store of a running `npm start` (its embedded PostgreSQL
 * in DATA_DIR), or on DATABASE_URL when it is set. Extra arguments go to psql
 * (`npm run psql -- -c 'SELECT count(*) FROM svc.txes'`). Needs a psql client on PATH (Debian:
 * postgresql-client); without one it prints how to connect with any other client.
 */
import { spawnSync } from 'child_process';
import path from 'path';
import { parseDatabaseUrl } from '../src/runtime/database-url';
import { runningEmbeddedDatabase } from '../src/runtime/postgres/running';

function main(): number {
  const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');
  const conn = process.env.DATABASE_URL ? parseDatabaseUrl(process.env.DATABASE_URL) : runningEmbeddedDatabase(dataDir);
  if (!conn) {
    process.stderr.write(`no DATABASE_URL, and no npm start running on ${dataDir} (DATA_DIR): start it first\n`);
    return 2;
  }
  const where = `host ${conn.host}, port ${conn.port}, user ${conn.user}, database ${conn.database}`;
  const env = { ...process.env, PGPASSWORD: conn.password };
  const args = ['-h', conn.host, '-p', String(conn.port), '-U', conn.user, conn.database, ...process.argv.slice(2)];
  const r = spawnSync('psql', args, { stdio: 'inherit', env });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    const secret = process.env.DATABASE_URL
      ? 'the password of DATABASE_URL'
      : `the password in ${dataDir}/postgres.password`;
    process.stderr.write(
      `psql is not installed (Debian: apt-get install postgresql-client). Connect any client to ${where} with ${secret}.\n`,
    );
    return 2;
  }
  return r.status ?? 1;
}

process.exit(main());
