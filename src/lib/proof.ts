/**
 * Proof of indexing: one hash per height that two stores of the same chain share only if
 * that height wrote the same rows, and every height before it did too.
 *
 *   leaf(row)      = sha256("svc-poi/v1\nrow\n" ‖ type ‖ "\n" ‖ recordText(row))
 *   root(type)     = sha256("svc-poi/v1\ntype\n" ‖ type ‖ "\n" ‖ leaf₁ ‖ … ‖ leafₙ)   rows by id
 *   entities root  = sha256("svc-poi/v1\nentities\n" ‖ (type ‖ " " ‖ root(type) ‖ "\n")…)  types by name
 *   proof(h)       = sha256("svc-poi/v1\nblock\n" ‖ h ‖ "\n" ‖ block hash ‖ "\n" ‖ entities root ‖ "\n" ‖ proof(h-1))
 *
 * (text as UTF-8, hashes as lower-case hex inside the text, leaves as their 32 bytes). The
 * mappings compute it over the entities a block writes (src/mappings/entities/proof.ts); the
 * verify tool recomputes a row's leaf from what a store holds, so `recordText` is defined on the
 * stored value, not on how the mapping happens to hold it: a BigInt field is its decimal digits
 * whether the mapping held a bigint or a number, a Date its ISO instant, a JSON field the
 * canonical JSON of what JSON.stringify sends to jsonb, and an unset field (null or undefined)
 * is absent, as it is a NULL column.
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

let scratch = new Uint8Array(1 << 16);

/**
 * UTF-8 of a string into a shared scratch buffer (valid until the next call). A lone surrogate
 * becomes U+FFFD, as it does on its way into PostgreSQL text, so the bytes are what the store holds.
 */
function utf8(s: string): Uint8Array {
  if (scratch.length < s.length * 3) scratch = new Uint8Array(s.length * 3 + 1024);
  const out = scratch;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
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
  return out.subarray(0, n);
}

function hashText(text: string): string {
  return bytesToHex(sha256(utf8(text)));
}

/** A string as the store holds it: lone surrogates replaced (see utf8). */
function storedString(s: string): string {
  const t = s as string & { isWellFormed?: () => boolean; toWellFormed?: () => string };
  return t.isWellFormed && !t.isWellFormed() && t.toWellFormed ? t.toWellFormed() : s;
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

/** One field's canonical text, or undefined for an unset field (NULL). */
function valueText(v: unknown): string | undefined {
  switch (typeof v) {
    case 'undefined':
      return undefined;
    case 'string':
      return JSON.stringify(storedString(v));
    case 'bigint':
      return v.toString();
    case 'number':
      return Number.isFinite(v) ? JSON.stringify(v) : JSON.stringify(String(v));
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      if (v === null) return undefined;
      if (isDate(v)) {
        const t = v.getTime();
        return JSON.stringify(Number.isNaN(t) ? 'Invalid Date' : v.toISOString());
      }
      return storedJson(v);
    default:
      return JSON.stringify(String(v));
  }
}

/** Each set field of a row with its canonical text (see recordText), by field name. */
export function fieldTexts(fields: Readonly<Record<string, unknown>>): [name: string, text: string][] {
  const out: [string, string][] = [];
  for (const k of Object.keys(fields).sort()) {
    const t = valueText(fields[k]);
    if (t !== undefined) out.push([k, t]);
  }
  return out;
}

/**
 * The canonical text of a row: `{"field":value,…}` over its set fields, sorted by name (UTF-16
 * code units). Strings and JSON fields as JSON, BigInt and Int fields as digits, Dates as
 * ISO-8601 strings in UTC, booleans as true/false. Never throws: the indexer must not stop on
 * the proof of a value the store accepted. (fieldTexts, written out: this runs for every row.)
 */
export function recordText(fields: Readonly<Record<string, unknown>>): string {
  let out = '{';
  for (const k of Object.keys(fields).sort()) {
    const t = valueText(fields[k]);
    if (t !== undefined) out += (out.length > 1 ? ',' : '') + JSON.stringify(k) + ':' + t;
  }
  return out + '}';
}

/** The leaf of one row of entity `type` (its 32 bytes). */
export function rowLeaf(type: string, fields: Readonly<Record<string, unknown>>): Uint8Array {
  return sha256(utf8(`${PROOF_SCHEME}\nrow\n${type}\n${recordText(fields)}`));
}

/** What a writes log keeps of a leaf. */
export function leafPrefix(leaf: Uint8Array): string {
  return bytesToHex(leaf.subarray(0, WRITE_LEAF_HEX / 2));
}

/** The root of one entity type's rows at a height, their leaves in id order. */
export function typeRoot(type: string, leavesById: readonly Uint8Array[]): string {
  const h = sha256.create();
  h.update(utf8(`${PROOF_SCHEME}\ntype\n${type}\n`));
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
