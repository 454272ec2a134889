/** Conversions from store values (pg text forms) to the API's JSON forms. */
import { RawJson } from '../json';

const PG_TIMESTAMP_RE = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?$/;

/**
 * `timestamp without time zone` text (UTC by the node's TZ=UTC) -> RFC 3339 with `Z`:
 * seconds precision, or 3/6/9 fractional digits when the value has a fraction
 * (openapi `Timestamp`).
 */
export function formatTimestamp(pgText: string): string {
  const m = PG_TIMESTAMP_RE.exec(pgText);
  if (!m) throw new Error(`unexpected timestamp text from the store: ${pgText}`);
  const [, day, time, fraction] = m;
  const digits = (fraction ?? '').replace(/0+$/, '');
  if (digits === '') return `${day}T${time}Z`;
  const width = digits.length <= 3 ? 3 : digits.length <= 6 ? 6 : 9;
  return `${day}T${time}.${digits.padEnd(width, '0')}Z`;
}

export function formatNullableTimestamp(pgText: string | null | undefined): string | null {
  return pgText === null || pgText === undefined ? null : formatTimestamp(pgText);
}

/** Unix milliseconds of a store timestamp (UTC). */
export function timestampMs(pgText: string): number {
  return Date.parse(formatTimestamp(pgText));
}

/**
 * JSON text written into the answer as it is stored (json.ts splices it in): the raw
 * chain payloads (msgs, fee) are JSON text written by the mappings with JSON.stringify,
 * so parsing and re-serialising them would only cost CPU. (Events are parsed: the API
 * derives fields from them, see events.ts.)
 */
export { RawJson };

/** A JSON-text column passed through untouched; a jsonb column (already parsed) as is. */
export function passJson(v: unknown): unknown {
  return typeof v === 'string' ? new RawJson(v) : v;
}

/**
 * A JSON column: jsonb arrives parsed, JSON text (raw chain payloads, see schema.graphql)
 * arrives as a string. Accepts both so a column moving between the two forms keeps working.
 */
export function jsonValue<T = unknown>(v: unknown): T {
  return (typeof v === 'string' ? JSON.parse(v) : v) as T;
}

/** A small integer stored as numeric or int8 text (gas, nonce, window seconds) as a JSON number. */
export function toInt(v: string | number | bigint): number {
  return typeof v === 'number' ? v : Number(v);
}

/** An amount as its canonical decimal string (numeric text may carry leading zeros only if written so). */
export function amountString(v: string | bigint | number): string {
  return BigInt(v).toString();
}

/** A value that must be a string in the API; '' for null/undefined. */
export function str(v: unknown): string {
  return v === null || v === undefined ? '' : String(v);
}

/** Plain code-point order (lock refs sort as written: "encumbrance/10" before "encumbrance/9"). */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
