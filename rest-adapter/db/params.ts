/** Builds positional parameters while writing SQL: `$${bind(p, value)}`-style placeholders. */
export class SqlParams {
  readonly values: unknown[] = [];

  /** Adds a value and returns its placeholder (`$1`, `$2`…). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /**
   * A word of a small closed set (a status the route validated) written into the text as a
   * quoted literal instead of a parameter: each value is then a statement of its own, with a
   * plan of its own in PostgreSQL's plan cache (db/sql.ts). A generic plan is made for the
   * average value, and a status filter's values are far from average (a few pending among many
   * settled). Anything but letters and underscores throws.
   */
  word(value: string): string {
    if (!/^[A-Za-z_]+$/.test(value)) throw new TypeError(`SqlParams.word: not a word: ${JSON.stringify(value)}`);
    return `'${value}'`;
  }
}
