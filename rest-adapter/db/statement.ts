/**
 * A repository's statement declared with how PostgreSQL plans it, once, where it is written:
 *
 *   const byId = statement('once', (sql, id: string) => sql.one<Row>(`SELECT … WHERE id = $1`, [id]));
 *
 * The planning applies to every statement the read sends (a repository read sends one).
 */
import type { QueryResultRow } from 'pg';
import { limitLiteral, type SqlParams } from './params';
import { PLANNED_ONCE, type Sql, type StatementOptions } from './sql';
import { DEFAULT_PAGE_LIMIT, DEFAULT_STATS_LIMIT, MAX_LIMIT } from '../paging/limits';

/**
 * How a statement is planned (db/sql.ts `Planning`; docs/rest-adapter.md "Store rules"):
 * - `values`: for its parameters' values on every execution, when its best plan depends on them;
 * - `once`: once per connection, when its best plan cannot depend on them (equality on a unique
 *   key, or one composite index that serves both the filter and the order);
 * - `page`: a list walking one index, planned once when each page size it reads is a planned
 *   size (`PlannedSql.limit`), for its values otherwise. A list whose filter chooses the index
 *   (another index than the filter's also gives the order: only the filter's value says which
 *   to walk, and a rare value must not walk the other and filter) declares `values` when filtered.
 */
export type StatementPlanning = 'values' | 'once' | 'page';

/** What a declared statement's read writes its SQL with: an Sql whose planning is the declaration's. */
export interface PlannedSql {
  rows<R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]): Promise<R[]>;
  one<R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]): Promise<R | undefined>;
  /** The LIMIT text of a page of `n` rows (a client's size, validated): written in when a planned size, bound otherwise. */
  limit(p: SqlParams, n: number): string;
}

/**
 * The page sizes a list statement is planned once with: the defaults, 10, 50 and the maximum
 * (paging/limits.ts), each also with the one row more that a keyset page reads to know whether a
 * further page exists (the routes ask their repositories for limit + 1). A size is written into
 * the statement's text (limitLiteral: PostgreSQL plans an unknown `LIMIT $n` as a tenth of the
 * rows). A cached generic plan of a txs page holds about 0.2 MB of the database server's memory
 * per connection, and every size written into a statement's text is another statement: with the
 * 100 sizes a client may ask for, one client could make each connection hold hundreds of MB.
 * Other sizes are bound and planned for their values.
 */
const PLANNED_PAGE_SIZES: ReadonlySet<number> = new Set(
  [DEFAULT_STATS_LIMIT, 10, DEFAULT_PAGE_LIMIT, 50, MAX_LIMIT].flatMap((n) => [n, n + 1]),
);

/** The read `read` run with the declared `planning`. */
export function statement<A extends unknown[], T>(
  planning: StatementPlanning,
  read: (sql: PlannedSql, ...args: A) => Promise<T>,
): (sql: Sql, ...args: A) => Promise<T>;
/** The read `read` run with the planning its first argument chooses (a filter that chooses the index). */
export function statement<F, A extends unknown[], T>(
  planning: (first: F) => StatementPlanning,
  read: (sql: PlannedSql, first: F, ...args: A) => Promise<T>,
): (sql: Sql, first: F, ...args: A) => Promise<T>;
export function statement(
  planning: StatementPlanning | ((first: unknown) => StatementPlanning),
  read: (sql: PlannedSql, ...args: unknown[]) => Promise<unknown>,
): (sql: Sql, ...args: unknown[]) => Promise<unknown> {
  return (sql, ...args) => {
    const rule = typeof planning === 'function' ? planning(args[0]) : planning;
    let unplannedSize = false;
    const options = (): StatementOptions | undefined =>
      rule === 'once' || (rule === 'page' && !unplannedSize) ? PLANNED_ONCE : undefined;
    return read(
      {
        rows: <R extends QueryResultRow>(text: string, values?: readonly unknown[]) =>
          sql.rows<R>(text, values, options()),
        one: <R extends QueryResultRow>(text: string, values?: readonly unknown[]) =>
          sql.one<R>(text, values, options()),
        limit: (p, n) => {
          if (PLANNED_PAGE_SIZES.has(n)) return limitLiteral(n);
          unplannedSize = true;
          return p.add(n);
        },
      },
      ...args,
    );
  };
}
