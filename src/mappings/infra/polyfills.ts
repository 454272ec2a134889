/**
 * The mapping sandbox (vm2, non-unsafe) has no TextEncoder/TextDecoder, and
 * @noble/curves (secp256k1 sender recovery of EVM txs) uses TextEncoder when
 * it loads. Minimal UTF-8 versions over Buffer, returning Uint8Arrays of the
 * sandbox realm. Imported first by src/index.ts.
 */
const g = globalThis as unknown as Record<string, unknown>;

class Utf8Encoder {
  readonly encoding = 'utf-8';
  encode(input = ''): Uint8Array {
    return Uint8Array.from(Buffer.from(input, 'utf8'));
  }
}

class Utf8Decoder {
  readonly encoding = 'utf-8';
  decode(input?: ArrayLike<number> | ArrayBuffer): string {
    if (input === undefined) return '';
    return Buffer.from(
      input instanceof ArrayBuffer ? new Uint8Array(input) : Uint8Array.from(input as ArrayLike<number>),
    ).toString('utf8');
  }
}

if (typeof g.TextEncoder === 'undefined') g.TextEncoder = Utf8Encoder;
if (typeof g.TextDecoder === 'undefined') g.TextDecoder = Utf8Decoder;

export {};
