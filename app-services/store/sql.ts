/** SQL helpers of the app services' store. */

const SCHEMA_RE = /^[a-z_][a-z0-9_]{0,62}$/;

/** A schema name as a quoted identifier; the name is checked, never escaped into shape. */
export function quoteIdent(name: string): string {
  if (!SCHEMA_RE.test(name)) throw new TypeError(`invalid schema name "${name}" (lower-case letters, digits, _; at most 63)`);
  return `"${name}"`;
}
