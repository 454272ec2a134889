/**
 * JSON serialisation that writes bigint as a bare integer: `block_time_ns` is an int64
 * beyond 2^53, which JSON.stringify cannot write exactly (and Node 20 has no
 * JSON.rawJSON). Native JSON.stringify does the work (a recursive writer in JS was ~5x
 * slower on a 100-tx page); a bigint becomes a marker string that is then unquoted. The
 * marker carries a per-process random nonce, so no stored string can imitate it.
 */
import { randomBytes } from 'crypto';

const NONCE = randomBytes(16).toString('hex');
const MARK = `\u0000bigint:${NONCE}:`;
// JSON.stringify writes the NUL as \u0000 inside the quoted marker
const MARKED = new RegExp(`"\\\\u0000bigint:${NONCE}:(-?[0-9]+)"`, 'g');

export function toJson(value: unknown): string {
  let hasBigint = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    hasBigint = true;
    return MARK + v.toString();
  });
  if (text === undefined) return 'null';
  return hasBigint ? text.replace(MARKED, '$1') : text;
}
