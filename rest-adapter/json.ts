/**
 * JSON serialisation that writes bigint as a bare integer: `block_time_ns` is an int64
 * beyond 2^53, which JSON.stringify cannot write exactly (and Node 20 has no
 * JSON.rawJSON). Everything else is written exactly as JSON.stringify would.
 */
export function toJson(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

function write(value: unknown, out: string[]): void {
  if (value === null || value === undefined) {
    out.push('null');
  } else if (typeof value === 'bigint') {
    out.push(value.toString());
  } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    out.push(JSON.stringify(value));
  } else if (Array.isArray(value)) {
    writeArray(value, out);
  } else if (typeof value === 'object') {
    writeObject(value as Record<string, unknown>, out);
  } else {
    out.push('null'); // functions and symbols have no JSON form
  }
}

function writeArray(items: readonly unknown[], out: string[]): void {
  out.push('[');
  items.forEach((item, i) => {
    if (i > 0) out.push(',');
    write(item, out);
  });
  out.push(']');
}

function writeObject(obj: Record<string, unknown>, out: string[]): void {
  out.push('{');
  let first = true;
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue; // as JSON.stringify
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(key), ':');
    write(v, out);
  }
  out.push('}');
}
