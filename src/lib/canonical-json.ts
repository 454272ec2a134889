/**
 * Canonical JSON (object keys sorted by UTF-16 code unit, no whitespace) and the
 * asset metadata hash: SHA-256 of the UTF-8 bytes of the canonical document, so the
 * same document always yields the same meta_hash (README, "Derived identifiers").
 *
 * Strings and numbers are written as ECMAScript's JSON.stringify writes them, which
 * is also what RFC 8785 (JCS) prescribes; for documents of strings with ASCII keys
 * (the launchpad's) this form is byte-for-byte JCS, so any JCS library reproduces it.
 *
 * Pure and bundle-safe (used by the devnet and the app services, exported with src/lib).
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8Encode } from './bytes';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export function canonicalStringify(value: JsonValue): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    // NaN and Infinity have no JSON form; refusing beats writing "null"
    if (!Number.isFinite(value)) throw new TypeError(`canonical JSON has no form for ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalStringify).join(',')}]`;
  if (typeof value === 'object') {
    // Array.prototype.sort without a comparator orders by UTF-16 code unit
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalStringify(value[k])}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
}

/** Lower-case hex SHA-256 of the UTF-8 canonical form of a metadata document. */
export function metadataHash(doc: JsonValue): string {
  return bytesToHex(sha256(utf8Encode(canonicalStringify(doc))));
}
