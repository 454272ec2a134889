/**
 * Small byte helpers that are safe inside the SubQuery mapping sandbox.
 *
 * The sandbox (vm2 NodeVM) exposes no TextEncoder/TextDecoder, and byte fields
 * coming from the host are Buffers of another realm (not `instanceof Uint8Array`),
 * so everything here is plain TypeScript over local Uint8Arrays.
 */
import { InvalidInputError } from './errors';

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

/** Copies any byte-like value (Buffer from another realm, number[]) into a local Uint8Array. */
export function toUint8Array(data: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const b = data[i];
    if (!Number.isInteger(b) || b < 0 || b > 255) throw new InvalidInputError('not a byte array');
    out[i] = b;
  }
  return out;
}

/** True for a Uint8Array/Buffer of any realm (checked structurally, not with instanceof). */
export function isByteArrayLike(x: unknown): x is ArrayLike<number> {
  return ArrayBuffer.isView(x) || (typeof x === 'object' && x !== null && Array.isArray(x));
}

/** Lower-case hex of bytes, no prefix. */
export function bytesToHex(bytes: ArrayLike<number>): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += (bytes[i] & 0xff).toString(16).padStart(2, '0');
  return s;
}

/**
 * Strict hex decoding: even length, hex digits only, no `0x` prefix, any case.
 * `expectedLength` (in bytes) is checked when given.
 */
export function hexToBytes(hex: string, expectedLength?: number): Uint8Array {
  if (typeof hex !== 'string' || !HEX_RE.test(hex)) throw new InvalidInputError('invalid hex string');
  if (expectedLength !== undefined && hex.length !== expectedLength * 2) {
    throw new InvalidInputError(`expected ${expectedLength} bytes of hex`);
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Concatenation of byte arrays into a fresh Uint8Array. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let len = 0;
  for (const p of parts) len += p.length;
  const out = new Uint8Array(len);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** Byte-wise equality. */
export function bytesEqual(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * UTF-8 encoding of a JS string (what Go's []byte(string) gives for valid text).
 * Lone surrogates are rejected rather than replaced, so two different strings never
 * map to the same bytes.
 */
export function utf8Encode(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let cp = s.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff) {
      const lo = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (lo < 0xdc00 || lo > 0xdfff) throw new InvalidInputError('lone surrogate in string');
      cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
      i++;
    } else if (cp >= 0xdc00 && cp <= 0xdfff) {
      throw new InvalidInputError('lone surrogate in string');
    }
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return Uint8Array.from(out);
}

/** uint32 big-endian (4 bytes). Rejects anything outside [0, 2^32). */
export function uint32BE(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new InvalidInputError('value out of uint32 range');
  return Uint8Array.of((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

const TWO_64 = 1n << 64n;

/** uint64 big-endian (8 bytes). Rejects anything outside [0, 2^64). */
export function uint64BE(n: bigint): Uint8Array {
  if (typeof n !== 'bigint' || n < 0n || n >= TWO_64) throw new InvalidInputError('value out of uint64 range');
  const out = new Uint8Array(8);
  let v = n;
  for (let i = 7; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64URL_RE = /^[A-Za-z0-9_-]*$/;

/** base64url without padding (RFC 4648 section 5). */
export function base64UrlEncode(bytes: ArrayLike<number>): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += B64URL[n >> 18] + B64URL[(n >> 12) & 63] + B64URL[(n >> 6) & 63] + B64URL[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += B64URL[n >> 18] + B64URL[(n >> 12) & 63];
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += B64URL[n >> 18] + B64URL[(n >> 12) & 63] + B64URL[(n >> 6) & 63];
  }
  return out;
}

/**
 * Strict base64url decoding: alphabet `A-Z a-z 0-9 - _`, no padding, no whitespace,
 * and canonical (unused trailing bits must be zero), so each byte string has exactly
 * one accepted encoding. Returns null instead of throwing.
 */
export function base64UrlDecode(s: string): Uint8Array | null {
  if (typeof s !== 'string' || !B64URL_RE.test(s) || s.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    acc = (acc << 6) | B64URL.indexOf(s[i]);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
    acc &= (1 << bits) - 1;
  }
  if (acc !== 0) return null; // non-canonical: leftover bits set
  return out;
}
