/**
 * One snapshot per response (DESIGN "Store rules"): every query of a request runs in
 * one REPEATABLE READ READ ONLY transaction on one connection, so a response never
 * mixes two indexed heights.
 */
import { Pool, PoolClient, QueryResultRow, types as pgTypes } from 'pg';

/** What repositories get: parameterised queries inside the request's snapshot. */
export interface Sql {
  rows<R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]): Promise<R[]>;
  one<R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]): Promise<R | undefined>;
}

/** Runs a unit of reading work in one snapshot. */
export interface Store {
  read<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
}

export interface StoreOptions {
  /** per-statement limit inside a request (ms); 0 = none */
  statementTimeoutMs: number;
}

const TIMESTAMP_OID = 1114;
const TIMESTAMPTZ_OID = 1184;

// Timestamps stay the server's ISO text: node-postgres would read `timestamp without time
// zone` in the process's local zone, and a JS Date also drops microseconds.
// numeric and int8 already arrive as strings (exact amounts); int4 as numbers.
const queryTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMP_OID || oid === TIMESTAMPTZ_OID) return (value: string) => value;
    return format === 'binary' ? pgTypes.getTypeParser(oid, 'binary') : pgTypes.getTypeParser(oid, 'text');
  },
} as unknown as import('pg').CustomTypesConfig;

/**
 * Queries of one request share one connection, which runs one statement at a time:
 * routes may start several at once (Promise.all), so they are queued here in call order.
 */
function sqlOf(client: PoolClient): Sql & { drain(): Promise<unknown> } {
  let tail: Promise<unknown> = Promise.resolve();
  const rows = <R extends QueryResultRow>(text: string, values: readonly unknown[] = []): Promise<R[]> => {
    const run = tail.then(() => client.query<R>({ text, values: values as unknown[], types: queryTypes }));
    tail = run.catch(() => undefined);
    return run.then((result) => result.rows);
  };
  return {
    drain: () => tail,
    rows,
    one: async <R extends QueryResultRow>(text: string, values?: readonly unknown[]): Promise<R | undefined> => (await rows<R>(text, values))[0],
  };
}

function beginStatement(statementTimeoutMs: number): string {
  const timeout = Math.max(0, Math.trunc(statementTimeoutMs));
  // One round trip: the snapshot, a bound on runaway statements, and the text form the
  // timestamp formatter expects whatever the server's DateStyle default is.
  return `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = ${timeout}; SET LOCAL datestyle = 'ISO, YMD'`;
}

export function createStore(pool: Pool, options: StoreOptions): Store {
  const begin = beginStatement(options.statementTimeoutMs);
  return {
    async read<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      const sql = sqlOf(client);
      let broken: Error | undefined;
      try {
        await client.query(begin);
        const result = await work(sql);
        await client.query('COMMIT');
        return result;
      } catch (e) {
        await sql.drain(); // statements still queued behind the failed one
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError; // the connection is unusable: let the pool drop it
        });
        throw e;
      } finally {
        client.release(broken);
      }
    },
  };
}
