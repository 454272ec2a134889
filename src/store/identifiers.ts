/**
 * PostgreSQL identifiers, quoted in one place. A name this code creates or that configuration
 * has checked (DB_SCHEMA and APP_SCHEMA in src/runtime/config.ts, the app services' schema, test
 * schemas and databases) goes through quoteIdent, which refuses a name outside IDENTIFIER_RE
 * instead of escaping it into shape. The rest-adapter alone accepts any DB_SCHEMA of at most
 * 63 characters (rest-adapter/config.ts), so the names built from it use escapeIdent.
 */
import { escapeIdentifier } from 'pg';

/** A lower-case PostgreSQL identifier that needs no escaping: [a-z_][a-z0-9_]*, at most 63. */
export const IDENTIFIER_RE = /^[a-z_][a-z0-9_]{0,62}$/;

export function isIdentifier(name: string): boolean {
  return IDENTIFIER_RE.test(name);
}

/** A checked name as a quoted identifier; throws on a name outside IDENTIFIER_RE. */
export function quoteIdent(name: string): string {
  if (!isIdentifier(name))
    throw new TypeError(`invalid schema name "${name}" (lower-case letters, digits, _; at most 63)`);
  return `"${name}"`;
}

/** Any name as a quoted identifier, embedded quotes doubled (pg's escapeIdentifier). */
export function escapeIdent(name: string): string {
  return escapeIdentifier(name);
}
