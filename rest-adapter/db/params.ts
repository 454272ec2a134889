import { DEFAULT_PAGE_LIMIT, DEFAULT_STATS_LIMIT, MAX_LIMIT } from '../paging/limits';
import { PLANNED_ONCE, type StatementOptions } from './sql';

/** Builds positional parameters while writing SQL: `$${bind(p, value)}`-style placeholders. */
export class SqlParams {
  readonly values: unknown[] = [];

  /** Adds a value and returns its placeholder (`$1`, `$2`…). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * A page size written into the statement's text rather than bound: for a size the server
 * fixes (not one a client picks, see `pageSize`). A statement planned once (PLANNED_ONCE) is
 * planned without its parameters' values, and PostgreSQL plans an unknown `LIMIT $n` as a
 * tenth of the rows, which can turn a short index walk into a scan and sort; a literal keeps
 * the size in the plan.
 */
export function limitLiteral(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`limitLiteral: not a page size: ${n}`);
  return String(n);
}

/**
 * The page sizes a list statement is planned once with: the defaults, 10, 50 and the maximum
 * (paging/limits.ts), each also with the one row more that a keyset page reads to know whether a
 * further page exists (the routes ask their repositories for limit + 1). A cached generic plan of a txs page holds about 0.2 MB of the database
 * server's memory per connection, and every size written into a statement's text is another
 * statement: with the 100 sizes a client may ask for, one client could make each connection
 * hold hundreds of MB. Other sizes are bound and planned for their values.
 */
const PLANNED_PAGE_SIZES: ReadonlySet<number> = new Set(
  [DEFAULT_STATS_LIMIT, 10, DEFAULT_PAGE_LIMIT, 50, MAX_LIMIT].flatMap((n) => [n, n + 1]),
);

/** A list statement's page size: its LIMIT text, and how the statement may be planned with it. */
export interface PageSize {
  /** the size written in (a planned size) or its placeholder */
  limit: string;
  /** PLANNED_ONCE for a planned size; undefined (planned for its values) otherwise */
  planning: StatementOptions | undefined;
}

/**
 * The page size `n` (a client's, validated) of a list statement walking one index, and how the
 * statement is planned: once, at a planned size. `filterChoosesIndex` when another index than
 * the filter's also gives the list's order: only the filter's value says which one to walk
 * (a rare value must not walk the other and filter), so it is planned for its values.
 */
export function pageSize(p: SqlParams, n: number, { filterChoosesIndex = false } = {}): PageSize {
  if (!PLANNED_PAGE_SIZES.has(n)) return { limit: p.add(n), planning: undefined };
  return { limit: limitLiteral(n), planning: filterChoosesIndex ? undefined : PLANNED_ONCE };
}
