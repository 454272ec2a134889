/**
 * Bytes to text inside the sandbox. The sandbox's Buffer is the host's: `Buffer.from(bytes)`
 * of a sandbox Uint8Array reads it element by element through a vm2 proxy. These stay in the
 * sandbox realm (native string builtins only).
 */

const CHUNK = 0x2000; // String.fromCharCode arguments per call, well under any engine's limit

/** Each byte as one char code (a "binary" string). */
export function binaryString(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    out += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return out;
}

/** UTF-8 text of `bytes`; invalid sequences become U+FFFD, as Buffer#toString('utf8') does. */
export function utf8String(bytes: Uint8Array): string {
  const binary = binaryString(bytes);
  // eslint-disable-next-line no-control-regex -- ASCII check
  if (/^[\x00-\x7f]*$/.test(binary)) return binary;
  try {
    return decodeURIComponent(escape(binary));
  } catch {
    return Buffer.from(bytes).toString('utf8'); // not valid UTF-8: the host decoder's replacement characters
  }
}
