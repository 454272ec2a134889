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
 * fixes (not one a client picks: db/statement.ts `PlannedSql.limit`). A statement planned once is
 * planned without its parameters' values, and PostgreSQL plans an unknown `LIMIT $n` as a
 * tenth of the rows, which can turn a short index walk into a scan and sort; a literal keeps
 * the size in the plan.
 */
export function limitLiteral(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`limitLiteral: not a page size: ${n}`);
  return String(n);
}
