/** Builds positional parameters while writing SQL: `$${bind(p, value)}`-style placeholders. */
export class SqlParams {
  readonly values: unknown[] = [];

  /** Adds a value and returns its placeholder (`$1`, `$2`…). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
