/** SQL helpers of the app services' store. */
import type { Pool, PoolClient } from 'pg';

const SCHEMA_RE = /^[a-z_][a-z0-9_]{0,62}$/;

/** A schema name as a quoted identifier; the name is checked, never escaped into shape. */
export function quoteIdent(name: string): string {
  if (!SCHEMA_RE.test(name))
    throw new TypeError(`invalid schema name "${name}" (lower-case letters, digits, _; at most 63)`);
  return `"${name}"`;
}

/** BEGIN's modes: '' (READ COMMITTED) or one consistent read-only snapshot. */
export type TransactionMode = '' | 'ISOLATION LEVEL REPEATABLE READ READ ONLY';

/** Runs `run` in one transaction on one connection: committed when it returns, rolled back when it throws. */
export async function withTransaction<T>(
  pool: Pool,
  run: (client: PoolClient) => Promise<T>,
  mode: TransactionMode = '',
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(mode ? `BEGIN ${mode}` : 'BEGIN');
    const result = await run(client);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}
