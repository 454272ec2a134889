/**
 * Isolated schemas and databases for tests and benchmarks, on the PostgreSQL that
 * src/runtime/postgres starts (re-exported here with the connection helpers, so tests and
 * bench import one module).
 */
import crypto from 'crypto';
import { Pool, PoolConfig } from 'pg';
import { buildDatabaseUrl, parseDatabaseUrl, type PgConnection } from '../../src/runtime/database-url';
import { isIdentifier, quoteIdent, withConnection } from '../../src/store';

export * from '../../src/runtime/database-url';
export * from '../../src/runtime/postgres';

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

/** A lower-case identifier-safe name: `<prefix>_<12 hex>`. */
export function uniqueName(prefix: string): string {
  const clean = prefix
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  return `${clean || 'x'}_${crypto.randomBytes(6).toString('hex')}`;
}

/** Creates a fresh schema `t_<prefix>_<random>` and a pool bound to it. */
export async function createSchema(url: string, prefix: string, poolConfig: PoolConfig = {}): Promise<TestSchema> {
  const schema = uniqueName(`t_${prefix}`);
  await withConnection(url, (c) => c.query(`CREATE SCHEMA ${quoteIdent(schema)}`));
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
      await withConnection(url, (c) => c.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`));
    },
  };
}

/** Creates a database named exactly `name` on the server of `url` (use uniqueName() for a fresh one). */
export async function createDatabase(url: string, name: string): Promise<TestDatabase> {
  if (!isIdentifier(name)) throw new Error(`invalid database name: ${name}`);
  await withConnection(url, (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
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
      await withConnection(url, async (c) => {
        await c.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)}`);
      });
    },
  };
}
