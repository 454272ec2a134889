/**
 * JSON serialisation that writes bigint as a bare integer and splices stored JSON text in
 * as it is. `block_time_ns` is an int64 beyond 2^53, which JSON.stringify cannot write
 * exactly (and Node 20 has no JSON.rawJSON); the raw chain payloads are JSON text that
 * parsing and re-serialising would only cost CPU.
 *
 * Native JSON.stringify does the work. RawJson values write themselves as marker strings
 * (toJSON), which are then replaced by their text. Most answers hold no bigint, so they
 * are written without a replacer function (calling one per value costs more than the
 * whole rest); an answer that does is written again with one. The markers carry a
 * per-process random nonce, so no stored string can imitate them.
 *
 * A RawJson may hold its text as UTF-8 bytes (the render cache keeps fragments so): toJsonBytes
 * copies those bytes into the answer as they are, where toJson would decode them to a string
 * only for the answer to be encoded back to the same bytes.
 */
import { randomBytes } from 'crypto';

const NONCE = randomBytes(16).toString('hex');
const BIGINT_MARK = `\u0000bigint:${NONCE}:`;
const RAW_MARK = `\u0000raw:${NONCE}:`;
// JSON.stringify writes the NUL as \u0000 inside the quoted markers
const MARKED = new RegExp(`"\\\\u0000(bigint|raw):${NONCE}:(-?[0-9]+)"`, 'g');

/** Texts of the RawJson values met by the toJson call running now (toJson is synchronous). */
let rawTexts: (string | Buffer)[] = [];

/** JSON text written into an answer as it is stored (see presenters/values.ts passJson), as a string or UTF-8 bytes. */
export class RawJson {
  constructor(readonly text: string | Buffer) {}

  toJSON(): string {
    return RAW_MARK + (rawTexts.push(this.text) - 1);
  }
}

function writeBigint(_key: string, v: unknown): unknown {
  return typeof v === 'bigint' ? BIGINT_MARK + v.toString() : v;
}

function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError && /BigInt/i.test(e.message))) throw e;
    rawTexts = [];
    return JSON.stringify(value, writeBigint);
  }
}

/** JSON of `value`; bigint values as bare integers, RawJson values as their text. */
export function toJson(value: unknown): string {
  rawTexts = [];
  try {
    const text = stringify(value);
    if (text === undefined) return 'null';
    if (!text.includes(NONCE)) return text;
    const raw = rawTexts;
    return text.replace(MARKED, (_m, kind: string, n: string) => (kind === 'raw' ? raw[Number(n)].toString() : n));
  } finally {
    rawTexts = [];
  }
}

/**
 * toJson's text as UTF-8 bytes, written straight into one buffer: RawJson bytes are copied as
 * they are, the text around them is encoded once.
 */
export function toJsonBytes(value: unknown): Buffer {
  rawTexts = [];
  try {
    const text = stringify(value);
    if (text === undefined) return Buffer.from('null');
    if (!text.includes(NONCE)) return Buffer.from(text, 'utf8');
    return spliced(text, rawTexts);
  } finally {
    rawTexts = [];
  }
}

/** `text` with each marker replaced by its raw text or bigint digits, as UTF-8 bytes. */
function spliced(text: string, raw: readonly (string | Buffer)[]): Buffer {
  const parts: (string | Buffer)[] = [];
  let at = 0;
  for (const m of text.matchAll(MARKED)) {
    parts.push(text.slice(at, m.index));
    parts.push(m[1] === 'raw' ? raw[Number(m[2])] : m[2]);
    at = m.index! + m[0].length;
  }
  parts.push(text.slice(at));
  let length = 0;
  for (const p of parts) length += typeof p === 'string' ? Buffer.byteLength(p, 'utf8') : p.length;
  const bytes = Buffer.allocUnsafe(length);
  let offset = 0;
  for (const p of parts) offset += typeof p === 'string' ? bytes.write(p, offset, 'utf8') : p.copy(bytes, offset);
  return bytes;
}
