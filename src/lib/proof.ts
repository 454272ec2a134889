/**
 * Proof of indexing: one hash per height that two stores of the same chain share only if
 * that height wrote the same rows, and every height before it did too.
 *
 *   leaf(row)      = sha256("svc-poi/v1\nrow\n" ‖ type ‖ "\n" ‖ recordText(row))        (putField has the encoding)
 *   root(type)     = sha256("svc-poi/v1\ntype\n" ‖ type ‖ "\n" ‖ leaf₁ ‖ … ‖ leafₙ)   rows by id
 *   entities root  = sha256("svc-poi/v1\nentities\n" ‖ (type ‖ " " ‖ root(type) ‖ "\n")…)  types by name
 *   proof(h)       = sha256("svc-poi/v1\nblock\n" ‖ h ‖ "\n" ‖ block hash ‖ "\n" ‖ entities root ‖ "\n" ‖ proof(h-1))
 *
 * (text as UTF-8, hashes as lower-case hex inside the text, leaves as their 32 bytes). The
 * mappings compute it over the entities a block writes (src/mappings/entities/proof.ts); the
 * verify tool recomputes a row's leaf from what a store holds, so `recordText` is defined on the
 * stored value, not on how the mapping happens to hold it: a BigInt field is its decimal digits
 * whether the mapping held a bigint or a number, a Date its ISO instant, a JSON field the
 * canonical JSON (keys sorted) of what JSON.stringify sends to jsonb, a string its text (a lone
 * surrogate as U+FFFD, what PostgreSQL keeps of it), and an unset field (null or undefined) is
 * absent, as it is a NULL column.
 *
 * SHA-256 rather than blake2 (node-core's choice): @noble/hashes computes it about 7× faster
 * here (145 against 20 MB/s for blake2b), and a block's rows are tens of kilobytes.
 *
 * Pure and bundle-safe: it runs in the mapping sandbox and in the verify tool.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from './bytes';
import { ConfigError } from './errors';

/** Names the encoding: a change of any rule above is a new scheme, never a silent one. */
export const PROOF_SCHEME = 'svc-poi/v1';

/** Hex digits of a row's leaf kept in a proof's writes log: 64 bits, enough to tell a row as written from a rewritten one. */
export const WRITE_LEAF_HEX = 16;

/** The setting that turns the proof off (in the SubQuery project's `.env`, which the node gives the mappings as process.env). */
export const PROOF_SETTING = 'PROOF_OF_INDEXING';

/** Whether the mappings keep the proof: `true` (the default, also when unset or empty) or `false`. */
export function proofEnabled(env: Readonly<Record<string, string | undefined>>): boolean {
  const v = env[PROOF_SETTING];
  if (v === undefined || v === '' || v === 'true') return true;
  if (v === 'false') return false;
  throw new ConfigError(PROOF_SETTING, `expected true or false, got "${v}"`);
}

/**
 * Where the encoder writes: a string (recordText) or UTF-8 bytes (rowLeaf, straight into a
 * buffer reused across rows, so a row's text is never built as a string on the hot path).
 */
interface Sink {
  put(s: string): void;
}

/** UTF-8 bytes in a growing buffer. A lone surrogate becomes U+FFFD, as it does on its way into PostgreSQL text. */
class Utf8Sink implements Sink {
  bytes = new Uint8Array(1 << 16);
  n = 0;

  put(s: string): void {
    const len = s.length;
    if (this.bytes.length < this.n + 3 * len) {
      const grown = new Uint8Array(2 * (this.n + 3 * len));
      grown.set(this.bytes.subarray(0, this.n));
      this.bytes = grown;
    }
    const out = this.bytes;
    let n = this.n;
    let i = 0;
    // ASCII, nearly all of what rows hold, in a loop of its own
    for (; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      out[n++] = c;
    }
    this.n = i === len ? n : putNonAscii(s, i, out, n);
  }

  /** The bytes so far, and the sink emptied (the view is valid until the next put). */
  take(): Uint8Array {
    const view = this.bytes.subarray(0, this.n);
    this.n = 0;
    return view;
  }
}

/** UTF-8 of s from index i on into out at n; the new n. */
function putNonAscii(s: string, i: number, out: Uint8Array, n: number): number {
  for (; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
      continue;
    }
    if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 63);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const lo = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
        i++;
        out[n++] = 0xf0 | (c >> 18);
        out[n++] = 0x80 | ((c >> 12) & 63);
        out[n++] = 0x80 | ((c >> 6) & 63);
        out[n++] = 0x80 | (c & 63);
        continue;
      }
      c = 0xfffd;
    }
    out[n++] = 0xe0 | (c >> 12);
    out[n++] = 0x80 | ((c >> 6) & 63);
    out[n++] = 0x80 | (c & 63);
  }
  return n;
}

class StringSink implements Sink {
  text = '';
  put(s: string): void {
    this.text += s;
  }
}

const bytesSink = new Utf8Sink();

function hashText(text: string): string {
  bytesSink.put(text);
  return bytesToHex(sha256(bytesSink.take()));
}

/**
 * canonicalStringify(JSON.parse(JSON.stringify(v))) in one pass, without the two round trips:
 * what jsonb gives back of what the node sends it (JSON.stringify: toJSON called, undefined
 * members left out of objects and null in arrays, non-finite numbers null), keys sorted.
 * Undefined where JSON.stringify gives undefined; throws where it throws (a bigint; a cycle
 * ends in a RangeError).
 */
function jsonText(v: unknown): string | undefined {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function')
    v = (v as { toJSON: (key: string) => unknown }).toJSON('');
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? JSON.stringify(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('a bigint has no JSON form');
    case 'object': {
      if (v === null) return 'null';
      if (Array.isArray(v)) {
        let out = '[';
        for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + (jsonText(v[i]) ?? 'null');
        return out + ']';
      }
      if (v instanceof Number || v instanceof String || v instanceof Boolean) return jsonText(v.valueOf());
      let out = '{';
      for (const k of Object.keys(v).sort()) {
        const t = jsonText((v as Record<string, unknown>)[k]);
        if (t !== undefined) out += (out.length > 1 ? ',' : '') + JSON.stringify(k) + ':' + t;
      }
      return out + '}';
    }
    default:
      return undefined; // function, symbol, undefined
  }
}

/** A JSON field as jsonb gives it back (see jsonText); a value JSON cannot carry as the text of its String(). */
function storedJson(v: object): string {
  try {
    return jsonText(v) ?? JSON.stringify(String(v));
  } catch {
    return JSON.stringify(String(v)); // the store could not hold it either
  }
}

/** A Date of any realm (a row the node read is a host object behind a sandbox proxy). */
function isDate(v: object): v is Date {
  const d = v as Partial<Date>;
  return typeof d.toISOString === 'function' && typeof d.getTime === 'function';
}

function isoOf(d: Date): string {
  return Number.isNaN(d.getTime()) ? 'Invalid Date' : d.toISOString();
}

/** Strings longer than this are written apart from their prefix (not copied into a concatenation). */
const LONG = 64;

/**
 * One field as the proof encodes it: `name=` ‖ value ‖ `\n`, the value tagged by kind:
 * `s<length>:<text>` a string (its UTF-16 length), `n<digits>` a BigInt, Int or Float (a bigint
 * and a number of one value alike: the column holds the number), `b1`/`b0` a boolean,
 * `d<ISO-8601>` a Date, `j<length>:<canonical JSON>` a JSON field. Length prefixes, not escapes:
 * an event list of kilobytes is written as it is. Nothing for an unset field (NULL).
 */
function putField(sink: Sink, name: string, v: unknown): void {
  switch (typeof v) {
    case 'undefined':
      return;
    case 'string':
      if (v.length > LONG) {
        sink.put(`${name}=s${v.length}:`);
        sink.put(v);
        sink.put('\n');
      } else sink.put(`${name}=s${v.length}:${v}\n`);
      return;
    case 'bigint':
      sink.put(`${name}=n${v}\n`);
      return;
    case 'number':
      sink.put(Number.isFinite(v) ? `${name}=n${JSON.stringify(v)}\n` : `${name}=x${v}\n`);
      return;
    case 'boolean':
      sink.put(`${name}=b${v ? 1 : 0}\n`);
      return;
    case 'object': {
      if (v === null) return;
      if (isDate(v)) {
        sink.put(`${name}=d${isoOf(v)}\n`);
        return;
      }
      const json = storedJson(v);
      sink.put(`${name}=j${json.length}:`);
      sink.put(json);
      sink.put('\n');
      return;
    }
    default:
      sink.put(`${name}=x${String(v)}\n`);
  }
}

/** The last key list seen and its sorted copy: rows of one entity class mostly share their own keys' order. */
let lastKeys: string[] = [];
let lastSorted: string[] = [];

function sortedKeys(fields: object): string[] {
  const keys = Object.keys(fields);
  if (keys.length === lastKeys.length && keys.every((k, i) => k === lastKeys[i])) return lastSorted;
  lastKeys = keys;
  lastSorted = [...keys].sort();
  return lastSorted;
}

function putRecord(sink: Sink, fields: Readonly<Record<string, unknown>>): void {
  for (const k of sortedKeys(fields)) putField(sink, k, fields[k]);
}

/**
 * The canonical text of a row, what its leaf hashes: each set field, sorted by name (UTF-16
 * code units), as putField writes it. Never throws: the indexer must not stop on the proof of
 * a value the store accepted.
 */
export function recordText(fields: Readonly<Record<string, unknown>>): string {
  const sink = new StringSink();
  putRecord(sink, fields);
  return sink.text;
}

/** Each set field's encoding (what the leaf hashes of it), by field name: to tell which fields of two rows differ. */
export function fieldCodes(fields: Readonly<Record<string, unknown>>): Map<string, string> {
  const out = new Map<string, string>();
  for (const k of sortedKeys(fields)) {
    const sink = new StringSink();
    putField(sink, k, fields[k]);
    if (sink.text) out.set(k, sink.text);
  }
  return out;
}

/** A field's value for people: JSON of what the store holds (strings quoted, BigInts as digits, Dates as ISO strings). */
export function displayValue(v: unknown): string | undefined {
  switch (typeof v) {
    case 'undefined':
      return undefined;
    case 'bigint':
      return v.toString();
    case 'object':
      if (v === null) return undefined;
      return isDate(v) ? JSON.stringify(isoOf(v)) : storedJson(v);
    default:
      return JSON.stringify(v) ?? String(v);
  }
}

/** The leaf of one row of entity `type` (its 32 bytes). */
export function rowLeaf(type: string, fields: Readonly<Record<string, unknown>>): Uint8Array {
  bytesSink.put(`${PROOF_SCHEME}\nrow\n${type}\n`);
  putRecord(bytesSink, fields);
  return sha256(bytesSink.take());
}

/** What a writes log keeps of a leaf. */
export function leafPrefix(leaf: Uint8Array): string {
  return bytesToHex(leaf.subarray(0, WRITE_LEAF_HEX / 2));
}

/** The root of one entity type's rows at a height, their leaves in id order. */
export function typeRoot(type: string, leavesById: readonly Uint8Array[]): string {
  const h = sha256.create();
  bytesSink.put(`${PROOF_SCHEME}\ntype\n${type}\n`);
  h.update(bytesSink.take());
  for (const leaf of leavesById) h.update(leaf);
  return bytesToHex(h.digest());
}

/** The root over every type's root, types in name order. */
export function entitiesRoot(roots: Readonly<Record<string, string>>): string {
  let text = `${PROOF_SCHEME}\nentities\n`;
  for (const type of Object.keys(roots).sort()) text += `${type} ${roots[type]}\n`;
  return hashText(text);
}

export interface ProofParts {
  height: number;
  /** the chain's block hash as the node gives it (CometBFT: upper-case hex) */
  blockHash: string;
  entitiesRoot: string;
  /** the proof of height - 1; '' where the store has none (the first height it proved) */
  previous: string;
}

/** proof(h): the height's own parts chained to the proof before it. */
export function blockProofHash(p: ProofParts): string {
  return hashText(`${PROOF_SCHEME}\nblock\n${p.height}\n${p.blockHash}\n${p.entitiesRoot}\n${p.previous}`);
}

/** A row a block writes: its entity type, id and fields as the store will hold them. */
export interface RowWrite {
  type: string;
  id: string;
  fields: Readonly<Record<string, unknown>>;
}

export interface WritesProof {
  /** type -> root, types in name order */
  roots: Record<string, string>;
  entitiesRoot: string;
  /** JSON text {type: {id: leaf prefix}}, types and ids in order: which rows the height wrote, and how */
  writesLog: string;
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The roots of what a block writes. A row written twice in the block counts once, as its last
 * write (the node's store keeps the last write of an id within a flush).
 */
export function proveWrites(rows: Iterable<RowWrite>): WritesProof {
  const byType = new Map<string, Map<string, Readonly<Record<string, unknown>>>>();
  for (const r of rows) {
    let m = byType.get(r.type);
    if (!m) byType.set(r.type, (m = new Map()));
    m.set(r.id, r.fields);
  }
  const roots: Record<string, string> = {};
  let log = '{';
  for (const type of [...byType.keys()].sort(byCodeUnit)) {
    const m = byType.get(type)!;
    const ids = [...m.keys()].sort(byCodeUnit);
    const leaves = ids.map((id) => rowLeaf(type, m.get(id)!));
    roots[type] = typeRoot(type, leaves);
    log += `${log.length > 1 ? ',' : ''}${JSON.stringify(type)}:{`;
    log += ids.map((id, i) => `${JSON.stringify(id)}:"${leafPrefix(leaves[i])}"`).join(',');
    log += '}';
  }
  return { roots, entitiesRoot: entitiesRoot(roots), writesLog: log + '}' };
}
