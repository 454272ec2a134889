/**
 * One snapshot per response (docs/rest-adapter.md "Store rules"): a response that reads several
 * statements runs them in one REPEATABLE READ READ ONLY transaction on one connection,
 * so it never mixes two indexed heights; a response that reads one statement runs it
 * alone (a statement is its own snapshot), without the BEGIN and COMMIT round trips.
 */
import { Pool, PoolClient, QueryResultRow, types as pgTypes } from 'pg';
import { HttpError } from '../../src/http/http-errors';
import {
  ClientGoneError,
  isCancelledForGoneClient,
  isStatementTimeout,
  type StatementCanceller,
} from '../../src/http/cancel-on-disconnect';

/**
 * How PostgreSQL plans a statement. `custom` (the default) plans it for its parameters on
 * every execution. `generic` plans it once per connection and reuses that plan: only for a
 * statement whose best plan cannot depend on its parameters (docs/rest-adapter.md "Store
 * rules": equality on a unique key, or one composite index that serves both the filter and
 * the order), where planning is most of the statement's cost.
 */
export type Planning = 'custom' | 'generic';

export interface StatementOptions {
  planning?: Planning;
}

/** What repositories get: parameterised queries inside the request's snapshot. */
export interface Sql {
  rows<R extends QueryResultRow = QueryResultRow>(
    text: string,
    values?: readonly unknown[],
    options?: StatementOptions,
  ): Promise<R[]>;
  one<R extends QueryResultRow = QueryResultRow>(
    text: string,
    values?: readonly unknown[],
    options?: StatementOptions,
  ): Promise<R | undefined>;
}

/** A statement planned once per connection (see `Planning`). */
export const PLANNED_ONCE: StatementOptions = Object.freeze({ planning: 'generic' });

/** Runs a unit of reading work in one snapshot. */
export interface Store {
  /** Work of several statements, in one REPEATABLE READ READ ONLY transaction. */
  read<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /** Work of exactly one statement (a second one is a programming error and throws). */
  readOne<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
}

export interface StoreOptions {
  /** per-statement limit inside a request (ms); 0 = none */
  statementTimeoutMs: number;
  /**
   * How long a request waits for a connection (ms; DB_WAIT_MS) before it is answered 503. When
   * set, the pool's own connectionTimeoutMillis bounds only the setup of a new connection
   * (defaults.ts STORE_CONNECT_TIMEOUT_MS), which a request that gives up leaves running (`checkout`).
   * Unset: the pool's connectionTimeoutMillis is both.
   */
  connectionWaitMs?: number;
  /** cancels the statement of a request whose client went away (src/http/cancel-on-disconnect.ts) */
  canceller?: StatementCanceller;
}

/** pg-pool's errors when no connection came free, or none could be set up, within its connectionTimeoutMillis. */
const POOL_TIMEOUTS = new Set([
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
]);

/** A deadline the request missed: 503 with Retry-After, never an internal error. */
const missedDeadline = (message: string) => new HttpError('unavailable', message, { 'Retry-After': '1' });

const noConnectionInTime = () => missedDeadline('no store connection came free in time; retry later');

/**
 * A pooled connection within `waitMs`, else 503. A request that gives up does not abort the
 * connection being set up for it: pg-pool would destroy it at its own deadline, and under load
 * every later request would set one up and destroy it again, none ever completing. Here the late
 * connection goes idle into the pool, where the next request finds it ready.
 */
async function checkout(pool: Pool, waitMs: number | undefined): Promise<PoolClient> {
  const connecting = pool.connect().catch((e: Error) => {
    throw POOL_TIMEOUTS.has(e.message) ? noConnectionInTime() : e;
  });
  if (!waitMs) return connecting;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(noConnectionInTime()), waitMs);
  });
  try {
    return await Promise.race([connecting, late]);
  } catch (e) {
    connecting.then(
      (client) => client.release(),
      () => undefined,
    ); // handed back whenever it comes
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** What a request is answered when its work failed for reasons of time or of its client, not of the server. */
function requestError(e: unknown): unknown {
  if (isCancelledForGoneClient(e)) return new ClientGoneError();
  if (isStatementTimeout(e)) return missedDeadline('the query ran past its time limit; retry later');
  return e;
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

const statementNames = new Map<string, string>();

/** Every statement text is prepared once per connection and then only bound and executed. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `rest_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

const PLAN_CACHE_MODE: Record<Planning, string> = {
  custom: 'SET plan_cache_mode = force_custom_plan',
  generic: 'SET plan_cache_mode = force_generic_plan',
};

/**
 * The planning each connection is set to (PostgreSQL reads `plan_cache_mode` when it runs a
 * prepared statement). Absent = not known (after a rolled-back transaction, whose SET went
 * back): the next statement sets it.
 */
const planningOf = new WeakMap<PoolClient, Planning>();

/**
 * Queries of one request share one connection, which runs one statement at a time:
 * routes may start several at once (Promise.all), so they are queued here in call order.
 */
function sqlOf(client: PoolClient): Sql & { drain(): Promise<unknown> } {
  let tail: Promise<unknown> = Promise.resolve();
  const rows = <R extends QueryResultRow>(
    text: string,
    values: readonly unknown[] = [],
    options?: StatementOptions,
  ): Promise<R[]> => {
    const planning = options?.planning ?? 'custom';
    const run = tail.then(async () => {
      if (planningOf.get(client) !== planning) {
        await client.query(PLAN_CACHE_MODE[planning]);
        planningOf.set(client, planning);
      }
      return client.query<R>({ name: statementName(text), text, values: values as unknown[], types: queryTypes });
    });
    tail = run.catch(() => undefined);
    return run.then((result) => result.rows);
  };
  return {
    drain: () => tail,
    rows,
    one: async <R extends QueryResultRow>(
      text: string,
      values?: readonly unknown[],
      options?: StatementOptions,
    ): Promise<R | undefined> => (await rows<R>(text, values, options))[0],
  };
}

/** The statement only: one statement may run, a second throws before reaching the server. */
function singleStatement(sql: Sql): Sql {
  let used = false;
  const claim = () => {
    if (used) throw new Error('store.readOne: the work ran more than one statement (use store.read)');
    used = true;
  };
  return {
    rows: (text, values, options) => {
      claim();
      return sql.rows(text, values, options);
    },
    one: (text, values, options) => {
      claim();
      return sql.one(text, values, options);
    },
  };
}

function sessionStatement(statementTimeoutMs: number): string {
  const timeout = Math.max(0, Math.trunc(statementTimeoutMs));
  // A bound on runaway statements, and the text form the timestamp formatter expects
  // whatever the server's DateStyle default is. Session-wide (once per connection) so a
  // single statement needs no transaction to carry them. Statements are prepared once
  // per connection (statementName); each connection starts planning them for their values, and
  // changes that only for a statement planned once (Planning).
  return `SET statement_timeout = ${timeout}; SET datestyle = 'ISO, YMD'; ${PLAN_CACHE_MODE.custom}`;
}

const BEGIN = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/**
 * The store over `pool`, which should be the adapter's own: each of its connections gets
 * the session settings above on first use.
 */
export function createStore(pool: Pool, options: StoreOptions): Store {
  const session = sessionStatement(options.statementTimeoutMs);
  const configured = new WeakSet<PoolClient>();

  async function withClient<T>(
    run: (client: PoolClient, sql: Sql & { drain(): Promise<unknown> }) => Promise<T>,
    inTransaction: boolean,
  ): Promise<T> {
    const client = await checkout(pool, options.connectionWaitMs);
    const unwatch = options.canceller?.watch(client);
    const sql = sqlOf(client);
    let broken: Error | undefined;
    try {
      if (!configured.has(client)) {
        await client.query(session);
        configured.add(client);
        planningOf.set(client, 'custom');
      }
      return await run(client, sql);
    } catch (e) {
      await sql.drain(); // statements still queued behind the failed one
      if (inTransaction) {
        planningOf.delete(client); // a SET inside the transaction goes back with it
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError; // the connection is unusable: let the pool drop it
        });
      }
      throw requestError(e);
    } finally {
      await unwatch?.();
      client.release(broken);
    }
  }

  return {
    read: (work) =>
      withClient(async (client, sql) => {
        await client.query(BEGIN);
        const result = await work(sql);
        await client.query('COMMIT');
        return result;
      }, true),
    readOne: (work) => withClient((_client, sql) => work(singleStatement(sql)), false),
  };
}
