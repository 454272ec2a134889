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
 */
import { randomBytes } from 'crypto';

const NONCE = randomBytes(16).toString('hex');
const BIGINT_MARK = `\u0000bigint:${NONCE}:`;
const RAW_MARK = `\u0000raw:${NONCE}:`;
// JSON.stringify writes the NUL as \u0000 inside the quoted markers
const MARKED = new RegExp(`"\\\\u0000(bigint|raw):${NONCE}:(-?[0-9]+)"`, 'g');

/** Texts of the RawJson values met by the toJson call running now (toJson is synchronous). */
let rawTexts: string[] = [];

/** JSON text written into an answer as it is stored (see presenters/values.ts passJson). */
export class RawJson {
  constructor(readonly text: string) {}

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
    return text.replace(MARKED, (_m, kind: string, n: string) => (kind === 'raw' ? raw[Number(n)] : n));
  } finally {
    rawTexts = [];
  }
}
