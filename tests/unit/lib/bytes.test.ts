import { createHash } from 'node:crypto';
import {
  base64UrlDecode,
  base64UrlEncode,
  bytesEqual,
  bytesToHex,
  concatBytes,
  hexToBytes,
  toUint8Array,
  uint32BE,
  uint64BE,
  utf8Encode,
} from '../../../src/lib/bytes';
import { InvalidInputError } from '../../../src/lib/errors';

/** deterministic pseudo-random bytes (sha256 chain) so failures reproduce */
function detBytes(seed: string, n: number): Uint8Array {
  const out = new Uint8Array(n);
  let block = createHash('sha256').update(seed).digest();
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % 32 === 0) block = createHash('sha256').update(block).digest();
    out[i] = block[i % 32];
  }
  return out;
}

describe('hex', () => {
  it('round-trips and matches Buffer hex', () => {
    const b = detBytes('hex', 33);
    expect(bytesToHex(b)).toBe(Buffer.from(b).toString('hex'));
    expect(bytesEqual(hexToBytes(bytesToHex(b)), b)).toBe(true);
  });
  it('accepts upper case, rejects odd length, 0x prefix and non-hex', () => {
    expect(Array.from(hexToBytes('ABcd'))).toEqual([0xab, 0xcd]);
    expect(() => hexToBytes('abc')).toThrow(InvalidInputError);
    expect(() => hexToBytes('0xab')).toThrow(InvalidInputError);
    expect(() => hexToBytes('zz')).toThrow(InvalidInputError);
    expect(() => hexToBytes(' ab')).toThrow(InvalidInputError);
  });
  it('checks the expected length', () => {
    expect(() => hexToBytes('abcd', 3)).toThrow(/3 bytes/);
    expect(hexToBytes('abcdef', 3)).toHaveLength(3);
  });
});

describe('integers', () => {
  it('uint64BE matches Buffer.writeBigUInt64BE, including the extremes', () => {
    for (const n of [0n, 1n, 255n, 256n, 2n ** 32n, 2n ** 63n, 2n ** 64n - 1n, 0x0102030405060708n]) {
      const buf = Buffer.alloc(8);
      buf.writeBigUInt64BE(n);
      expect(bytesToHex(uint64BE(n))).toBe(buf.toString('hex'));
    }
  });
  it('uint64BE rejects out-of-range and non-bigint', () => {
    expect(() => uint64BE(-1n)).toThrow(InvalidInputError);
    expect(() => uint64BE(2n ** 64n)).toThrow(InvalidInputError);
    expect(() => uint64BE(1 as unknown as bigint)).toThrow(InvalidInputError);
  });
  it('uint32BE matches Buffer.writeUInt32BE and rejects out-of-range', () => {
    for (const n of [0, 1, 0x01020304, 0xffffffff]) {
      const buf = Buffer.alloc(4);
      buf.writeUInt32BE(n);
      expect(bytesToHex(uint32BE(n))).toBe(buf.toString('hex'));
    }
    expect(() => uint32BE(-1)).toThrow(InvalidInputError);
    expect(() => uint32BE(2 ** 32)).toThrow(InvalidInputError);
    expect(() => uint32BE(1.5)).toThrow(InvalidInputError);
  });
});

describe('utf8Encode', () => {
  it('matches Buffer utf8 for ASCII, 2-, 3- and 4-byte sequences', () => {
    for (const s of ['', 'svc/asset/v1', 'fee_collector', 'é', 'ünïcødé', '€', '日本語', '😀 x 𝄞']) {
      expect(bytesToHex(utf8Encode(s))).toBe(Buffer.from(s, 'utf8').toString('hex'));
    }
  });
  it('rejects lone surrogates instead of replacing them', () => {
    expect(() => utf8Encode('a\ud800')).toThrow(InvalidInputError);
    expect(() => utf8Encode('\udc00b')).toThrow(InvalidInputError);
  });
});

describe('base64url', () => {
  it('matches Buffer base64url for lengths 0..70 and round-trips', () => {
    for (let n = 0; n <= 70; n++) {
      const b = detBytes(`b64-${n}`, n);
      const enc = base64UrlEncode(b);
      expect(enc).toBe(Buffer.from(b).toString('base64url'));
      const dec = base64UrlDecode(enc);
      expect(dec).not.toBeNull();
      expect(bytesEqual(dec!, b)).toBe(true);
    }
  });
  it('pins a literal vector (RFC 4648 "foobar")', () => {
    expect(base64UrlEncode(utf8Encode('foobar'))).toBe('Zm9vYmFy');
    expect(base64UrlEncode(utf8Encode('fooba'))).toBe('Zm9vYmE');
    expect(base64UrlEncode(Uint8Array.of(0xfb, 0xff))).toBe('-_8');
  });
  it('rejects padding, standard-alphabet chars, whitespace, impossible lengths and non-canonical tails', () => {
    expect(base64UrlDecode('Zm9vYmE=')).toBeNull();
    expect(base64UrlDecode('+/8')).toBeNull();
    expect(base64UrlDecode('Zm9v YmE')).toBeNull();
    expect(base64UrlDecode('Zm9vY')).toBeNull(); // length % 4 == 1
    expect(base64UrlDecode('Zh')).toBeNull(); // 'h' leaves non-zero unused bits ('Zg' is canonical)
    expect(base64UrlDecode('Zg')).not.toBeNull();
  });
});

describe('toUint8Array / concatBytes', () => {
  it('copies Buffers and arrays, rejecting non-bytes', () => {
    expect(Array.from(toUint8Array(Buffer.from([1, 2, 3])))).toEqual([1, 2, 3]);
    expect(Array.from(toUint8Array([4, 5]))).toEqual([4, 5]);
    expect(() => toUint8Array([256])).toThrow(InvalidInputError);
    expect(() => toUint8Array([1.5])).toThrow(InvalidInputError);
  });
  it('concatenates in order', () => {
    expect(bytesToHex(concatBytes(Uint8Array.of(1), Uint8Array.of(), Uint8Array.of(2, 3)))).toBe('010203');
  });
});
