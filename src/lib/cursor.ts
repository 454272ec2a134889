/**
 * Opaque keyset cursors.
 *
 * A cursor is base64url (no padding) of the ASCII JSON `{"k":<kind>,"v":[...]}`: `k` names
 * the list it belongs to and `v` holds the keyset values of the last row of the page
 * (bigints as decimal strings, non-ASCII escaped as \uXXXX so the JSON is pure ASCII).
 *
 * Why no HMAC: a cursor only carries keyset values, each validated against the list's
 * schema and then bound as SQL parameters (never spliced into SQL). A forged but
 * well-formed cursor can only position the page at a key of the caller's choosing — the
 * same rows they could page to anyway — so it is harmless. Anything malformed (bad
 * base64url, non-canonical encoding, wrong kind, wrong arity or type, out-of-range
 * integer, over-long input) is rejected with InvalidInputError('malformed cursor'),
 * which the API returns as 400 bad_request.
 */
import { InvalidInputError } from './errors';
import { base64UrlDecode, base64UrlEncode } from './bytes';
import { decodeBech32Address, toBech32 } from './address';

/**
 * Element types of a cursor schema:
 * - `int`    non-negative safe integer (heights, indices, ids)
 * - `sint`   signed safe integer (e.g. tx_index −1 of block-level events)
 * - `hex64`  64 lower-case hex characters (asset id, hash)
 * - `amount` non-negative decimal integer string, returned as bigint
 * - `bech32` lower-case bech32 account address (20 or 32 bytes)
 * - `string` any string
 */
export type CursorFieldType = 'int' | 'sint' | 'hex64' | 'amount' | 'bech32' | 'string';

export type CursorFieldValue<T extends CursorFieldType> = T extends 'int' | 'sint'
  ? number
  : T extends 'amount'
    ? bigint
    : string;

export type CursorValues<S extends readonly CursorFieldType[]> = {
  -readonly [I in keyof S]: CursorFieldValue<S[I]>;
};

export interface DecodeCursorOptions {
  /** when set, `bech32` elements must carry this prefix */
  hrp?: string;
}

/** Longest cursor accepted (and produced). */
export const MAX_CURSOR_LENGTH = 512;

const KIND_RE = /^[a-z][a-z0-9_.:-]{0,63}$/;
const HEX64_RE = /^[0-9a-f]{64}$/;
const CANONICAL_UINT_RE = /^(?:0|[1-9][0-9]*)$/;

function malformed(): InvalidInputError {
  return new InvalidInputError('malformed cursor');
}

// JSON with every non-ASCII UTF-16 unit escaped, so its bytes are its char codes.
function asciiJson(x: unknown): string {
  return JSON.stringify(x).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/**
 * Encodes a cursor. Numbers must be safe integers; bigints are written as strings.
 * Throws (a programming error, not a request error) on a bad kind, a non-integer
 * number, or a cursor longer than MAX_CURSOR_LENGTH.
 */
export function encodeCursor(kind: string, values: readonly (string | number | bigint)[]): string {
  if (typeof kind !== 'string' || !KIND_RE.test(kind)) throw new Error(`invalid cursor kind: ${String(kind)}`);
  const v = values.map((x) => {
    if (typeof x === 'bigint') return x.toString();
    if (typeof x === 'number') {
      if (!Number.isSafeInteger(x)) throw new Error('cursor numbers must be safe integers');
      return x;
    }
    if (typeof x === 'string') return x;
    throw new Error('cursor values must be string, number or bigint');
  });
  const json = asciiJson({ k: kind, v });
  const bytes = new Uint8Array(json.length);
  for (let i = 0; i < json.length; i++) bytes[i] = json.charCodeAt(i);
  const cursor = base64UrlEncode(bytes);
  if (cursor.length > MAX_CURSOR_LENGTH) throw new Error('cursor too long');
  return cursor;
}

function decodeElement(type: CursorFieldType, x: unknown, opts: DecodeCursorOptions): number | bigint | string {
  switch (type) {
    case 'int':
      if (typeof x === 'number' && Number.isSafeInteger(x) && x >= 0) return x;
      break;
    case 'sint':
      if (typeof x === 'number' && Number.isSafeInteger(x)) return x;
      break;
    case 'hex64':
      if (typeof x === 'string' && HEX64_RE.test(x)) return x;
      break;
    case 'amount':
      if (typeof x === 'string' && CANONICAL_UINT_RE.test(x)) return BigInt(x);
      break;
    case 'bech32':
      if (typeof x === 'string') {
        const { hrp, bytes } = decodeBech32Address(x, opts.hrp); // throws on bad input
        if (toBech32(bytes, hrp) === x) return x; // canonical lower-case only
      }
      break;
    case 'string':
      if (typeof x === 'string') return x;
      break;
  }
  throw malformed();
}

/**
 * Decodes and validates a cursor made by `encodeCursor(kind, …)` for a list whose keyset
 * has the element types `schema`. Returns the typed values; throws
 * InvalidInputError('malformed cursor') for anything else.
 */
export function decodeCursor<const S extends readonly CursorFieldType[]>(
  kind: string,
  cursor: string,
  schema: S,
  opts: DecodeCursorOptions = {},
): CursorValues<S> {
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) throw malformed();
  const bytes = base64UrlDecode(cursor);
  if (!bytes) throw malformed();
  let text = '';
  for (const b of bytes) {
    if (b >= 0x80) throw malformed();
    text += String.fromCharCode(b);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw malformed();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw malformed();
  const { k, v } = parsed as { k?: unknown; v?: unknown };
  if (k !== kind || !Array.isArray(v) || v.length !== schema.length) throw malformed();
  let values: (number | bigint | string)[];
  try {
    values = v.map((x, i) => decodeElement(schema[i], x, opts));
  } catch {
    throw malformed();
  }
  // Exactly one spelling per cursor: rejects extra keys, reordered keys, whitespace,
  // "1e2"/-0 style numbers and other encodings that merely parse to the same values.
  let canonical: string;
  try {
    canonical = encodeCursor(kind, values);
  } catch {
    throw malformed();
  }
  if (canonical !== cursor) throw malformed();
  return values as CursorValues<S>;
}

/** Like `decodeCursor`, but an absent cursor (undefined, null or '') gives null: the first page. */
export function decodeOptionalCursor<const S extends readonly CursorFieldType[]>(
  kind: string,
  cursor: string | undefined | null,
  schema: S,
  opts: DecodeCursorOptions = {},
): CursorValues<S> | null {
  if (cursor === undefined || cursor === null || cursor === '') return null;
  return decodeCursor(kind, cursor, schema, opts);
}
