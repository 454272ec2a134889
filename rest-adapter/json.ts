/**
 * JSON serialisation that writes bigint as a bare integer: `block_time_ns` is an int64
 * beyond 2^53, which JSON.stringify cannot write exactly (and Node 20 has no
 * JSON.rawJSON). Native JSON.stringify does the work (a recursive writer in JS was ~5x
 * slower on a 100-tx page); a bigint becomes a marker string that is then unquoted. The
 * marker carries a per-process random nonce, so no stored string can imitate it.
 */
import { randomBytes } from 'crypto';
import { RawJson } from './presenters/values';

const NONCE = randomBytes(16).toString('hex');
const BIGINT_MARK = `\u0000bigint:${NONCE}:`;
const RAW_MARK = `\u0000raw:${NONCE}:`;
// JSON.stringify writes the NUL as \u0000 inside the quoted markers
const MARKED = new RegExp(`"\\\\u0000(bigint|raw):${NONCE}:(-?[0-9]+)"`, 'g');

/**
 * JSON of `value`; bigint values as bare integers, RawJson values spliced in as their
 * stored text (also used for the raw chain payloads, see presenters/values.ts).
 */
export function toJson(value: unknown): string {
  const raw: string[] = [];
  let marked = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') {
      marked = true;
      return BIGINT_MARK + v.toString();
    }
    if (v instanceof RawJson) {
      marked = true;
      return RAW_MARK + (raw.push(v.text) - 1);
    }
    return v;
  });
  if (text === undefined) return 'null';
  return marked ? text.replace(MARKED, (_m, kind: string, n: string) => (kind === 'raw' ? raw[Number(n)] : n)) : text;
}
