/**
 * `npm run psql`: a psql session on the store of a running `npm start` (its embedded PostgreSQL
 * in DATA_DIR), or on DATABASE_URL when it is set. Extra arguments go to psql
 * (`npm run psql -- -c 'SELECT count(*) FROM txes'`). Needs a psql client on PATH (Debian:
 * postgresql-client); without one it prints how to connect with any other client.
 *
 * The session's search_path is the serving index's schema, then APP_SCHEMA, then public: after
 * a reindex the index lives in `<DB_SCHEMA>_<8 hex>` (DATA_DIR/store.json says which), and an
 * unqualified `txes` follows it (docs/running.md, "The store of npm start").
 */
import { spawnSync } from 'child_process';
import path from 'path';
import { schemasOf } from '../src/runtime/config';
import { parseDatabaseUrl, type PgConnection } from '../src/runtime/database-url';
import { servingSchemaOf } from '../src/runtime/index-version';
import { runningEmbeddedDatabase } from '../src/runtime/postgres/running';

export interface PsqlInvocation {
  conn: PgConnection;
  /** the schema the API serves from: DB_SCHEMA, or on the embedded store the one a reindex switched to */
  schema: string;
  searchPath: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** where the password is, for the message without a psql client */
  secret: string;
}

/** What `npm run psql` runs, or the one line it prints and exits 2 with. */
export function psqlInvocation(env: NodeJS.ProcessEnv, extraArgs: string[]): PsqlInvocation | { error: string } {
  const dataDir = path.resolve(env.DATA_DIR ?? '.data');
  let schemas: { schema: string; appSchema: string };
  try {
    schemas = schemasOf(env);
  } catch (e) {
    return { error: `npm run psql: ${e instanceof Error ? e.message : String(e)}` };
  }
  const conn = env.DATABASE_URL ? parseDatabaseUrl(env.DATABASE_URL) : runningEmbeddedDatabase(dataDir);
  if (!conn)
    return {
      error:
        `no npm start is running on DATA_DIR ${dataDir} (no ${path.join(dataDir, 'postgres', 'postmaster.pid')}): ` +
        'start it there first, set DATA_DIR to the directory it runs on, or set DATABASE_URL',
    };
  const schema = env.DATABASE_URL ? schemas.schema : servingSchemaOf(dataDir, schemas.schema);
  const searchPath = `${schema},${schemas.appSchema},public`;
  const options = [env.PGOPTIONS, `-c search_path=${searchPath}`].filter(Boolean).join(' ');
  return {
    conn,
    schema,
    searchPath,
    args: ['-h', conn.host, '-p', String(conn.port), '-U', conn.user, conn.database, ...extraArgs],
    env: { ...env, PGPASSWORD: conn.password, PGOPTIONS: options },
    secret: env.DATABASE_URL ? 'the password of DATABASE_URL' : `the password in ${dataDir}/postgres.password`,
  };
}

function main(): number {
  const run = psqlInvocation(process.env, process.argv.slice(2));
  if ('error' in run) {
    process.stderr.write(`${run.error}\n`);
    return 2;
  }
  const { conn } = run;
  if (process.stdin.isTTY)
    process.stderr.write(`search_path ${run.searchPath} (the index is in schema ${run.schema})\n`);
  const where = `host ${conn.host}, port ${conn.port}, user ${conn.user}, database ${conn.database}`;
  const r = spawnSync('psql', run.args, { stdio: 'inherit', env: run.env });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    process.stderr.write(
      `psql is not installed (Debian: apt-get install postgresql-client). Connect any client to ${where} with ${run.secret}, ` +
        `and SET search_path = ${run.searchPath} (the index is in schema ${run.schema}).\n`,
    );
    return 2;
  }
  return r.status ?? 1;
}

if (require.main === module) process.exit(main());
