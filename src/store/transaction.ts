/** One transaction on one connection, in the modes the store's writers and readers use. */
import { Client, type Pool, type PoolClient } from 'pg';

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

/** Runs `work` on a one-off connection to `url` (no pool), closed afterwards whatever happens. */
export async function withConnection<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** PostgreSQL's undefined_table: the SubQuery node has not created its tables yet (a fresh store). */
export function isUndefinedTable(e: unknown): boolean {
  return (e as { code?: string } | null)?.code === '42P01';
}
