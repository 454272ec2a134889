import { deflateSync } from 'node:zlib';
import { checkPng, crc32, PNG_MAX_DIMENSION } from '../../../../app-services/launchpad/png';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

/** length, type, data, CRC-32 over type and data */
function chunk(type: string, data: Uint8Array = new Uint8Array(0)): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([u32(data.length), body, u32(crc32(body))]);
}

function ihdr(width: number, height: number, depth = 8, colourType = 6, interlace = 0): Buffer {
  return Buffer.concat([u32(width), u32(height), Buffer.from([depth, colourType, 0, 0, interlace])]);
}

/** A real RGBA PNG: each row is a filter byte (0) and width x 4 bytes, deflated into one IDAT. */
function rgbaPng(width: number, height: number): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 4, 0x7f)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr(width, height)), chunk('IDAT', pixels), chunk('IEND')]);
}

/** The same layout with any IHDR data (for header errors that need valid CRCs). */
function withHeader(header: Buffer): Buffer {
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 0]))),
    chunk('IEND'),
  ]);
}

// A 1x1 PNG written by another encoder: its CRCs were not computed by this module.
const FOREIGN_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe('crc32', () => {
  it('matches the standard check value and the fixed IEND CRC', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.from('IEND'))).toBe(0xae426082);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it('covers only the given range', () => {
    expect(crc32(Buffer.from('xx123456789yy'), 2, 11)).toBe(0xcbf43926);
  });
});

describe('checkPng accepts', () => {
  it('a PNG written by another encoder', () => {
    expect(checkPng(FOREIGN_1X1)).toEqual({ ok: true, width: 1, height: 1 });
  });

  it.each([
    [1, 1],
    [3, 2],
    [64, 48],
  ])('a %ix%i RGBA PNG deflated by zlib', (w, h) => {
    expect(checkPng(rgbaPng(w, h))).toEqual({ ok: true, width: w, height: h });
  });

  it('the largest dimensions', () => {
    expect(checkPng(withHeader(ihdr(PNG_MAX_DIMENSION, PNG_MAX_DIMENSION)))).toEqual({
      ok: true,
      width: 4096,
      height: 4096,
    });
  });

  it.each([
    [1, 0],
    [16, 0],
    [8, 2],
    [4, 3],
    [16, 4],
    [8, 6],
  ])('bit depth %i with colour type %i', (depth, colourType) => {
    expect(checkPng(withHeader(ihdr(2, 2, depth, colourType))).ok).toBe(true);
  });

  it('an interlaced (Adam7) header and an ancillary chunk between IHDR and IDAT', () => {
    expect(checkPng(withHeader(ihdr(2, 2, 8, 6, 1))).ok).toBe(true);
    const png = rgbaPng(2, 2);
    const withText = Buffer.concat([
      png.subarray(0, 33),
      chunk('tEXt', Buffer.from('Comment\0hi', 'latin1')),
      png.subarray(33),
    ]);
    expect(checkPng(withText)).toEqual({ ok: true, width: 2, height: 2 });
  });
});

describe('checkPng refuses', () => {
  const good = rgbaPng(4, 4);

  function refusal(bytes: Uint8Array): string {
    const r = checkPng(bytes);
    if (r.ok) throw new Error('accepted');
    return r.error;
  }

  it('nothing, or fewer bytes than the signature', () => {
    expect(refusal(new Uint8Array(0))).toMatch(/truncated/);
    expect(refusal(good.subarray(0, 5))).toMatch(/truncated/);
  });

  it.each([
    ['inside IHDR', 20],
    ['inside IDAT', 50],
    ['inside IEND', good.length - 5],
  ])('a file cut %s', (_where, length) => {
    expect(refusal(good.subarray(0, length))).toMatch(/truncated/);
  });

  it('a file cut just before IEND', () => {
    expect(refusal(good.subarray(0, good.length - 12))).toMatch(/no IEND/);
  });

  it('a bad signature', () => {
    const bad = Buffer.from(good);
    bad[1] = 0x51; // "QNG"
    expect(refusal(bad)).toBe('not a PNG (wrong signature)');
  });

  it('GIF, JPEG and SVG bytes, naming the format', () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
    expect(refusal(gif)).toBe('not a PNG (the bytes look like GIF)');
    expect(refusal(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]))).toBe(
      'not a PNG (the bytes look like JPEG)',
    );
    expect(refusal(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe(
      'not a PNG (the bytes look like SVG/XML)',
    );
  });

  it('a bad IHDR CRC', () => {
    const bad = Buffer.from(good);
    bad[29] ^= 0xff; // IHDR's CRC is bytes 29..32 (signature 8, length 4, type 4, data 13)
    expect(refusal(bad)).toBe('chunk IHDR has a bad CRC');
  });

  it('a changed byte in the IHDR data (the CRC no longer matches)', () => {
    const bad = Buffer.from(good);
    bad[19] = 9; // width 4 -> 9
    expect(refusal(bad)).toBe('chunk IHDR has a bad CRC');
  });

  it('a corrupted IDAT', () => {
    const bad = Buffer.from(good);
    bad[45] ^= 0x01;
    expect(refusal(bad)).toBe('chunk IDAT has a bad CRC');
  });

  it('zero width or height, and more than the limit', () => {
    expect(refusal(withHeader(ihdr(0, 1)))).toBe('width 0 is outside 1..4096');
    expect(refusal(withHeader(ihdr(1, 0)))).toBe('height 0 is outside 1..4096');
    expect(refusal(withHeader(ihdr(4097, 1)))).toBe('width 4097 is outside 1..4096');
    expect(refusal(withHeader(ihdr(1, 0xffffffff)))).toBe('height 4294967295 is outside 1..4096');
  });

  it.each([
    [3, 0],
    [4, 2],
    [16, 3],
    [1, 6],
    [8, 1],
    [8, 5],
    [8, 7],
  ])('bit depth %i with colour type %i', (depth, colourType) => {
    expect(refusal(withHeader(ihdr(2, 2, depth, colourType)))).toMatch(/bit depth|colour type/);
  });

  it('unknown compression, filter or interlace methods', () => {
    const header = ihdr(2, 2);
    expect(refusal(withHeader(Buffer.concat([header.subarray(0, 10), Buffer.from([1, 0, 0])])))).toMatch(
      /compression or filter/,
    );
    expect(refusal(withHeader(Buffer.concat([header.subarray(0, 10), Buffer.from([0, 1, 0])])))).toMatch(
      /compression or filter/,
    );
    expect(refusal(withHeader(ihdr(2, 2, 8, 6, 2)))).toBe('unknown interlace method 2');
  });

  it('an IHDR of the wrong length, or a first chunk that is not IHDR', () => {
    expect(refusal(withHeader(Buffer.concat([ihdr(2, 2), Buffer.from([0])])))).toBe('IHDR has 14 data bytes, not 13');
    const idatFirst = Buffer.concat([
      SIGNATURE,
      chunk('IDAT', Buffer.from([1])),
      chunk('IHDR', ihdr(1, 1)),
      chunk('IEND'),
    ]);
    expect(refusal(idatFirst)).toBe('the first chunk is not IHDR');
  });

  it('no IDAT', () => {
    expect(refusal(Buffer.concat([SIGNATURE, chunk('IHDR', ihdr(1, 1)), chunk('IEND')]))).toBe(
      'no IDAT chunk (no image data)',
    );
  });

  it('a missing IEND, a non-empty IEND and bytes after IEND', () => {
    const noEnd = good.subarray(0, good.length - 12);
    expect(refusal(noEnd)).toBe('no IEND chunk at the end (the file is truncated)');
    expect(refusal(Buffer.concat([noEnd, chunk('IEND', Buffer.from([0]))]))).toBe('IEND is not empty');
    expect(refusal(Buffer.concat([good, Buffer.from('trailing')]))).toBe('8 bytes follow IEND');
  });

  it('a chunk whose declared length runs past the end', () => {
    const bad = Buffer.from(good);
    bad.writeUInt32BE(0x7fffffff, 33); // IDAT's length
    expect(refusal(bad)).toMatch(/^truncated: the chunk at byte 33 declares 2147483647 data bytes/);
  });

  it('a chunk type that is not four letters', () => {
    const bad = Buffer.concat([SIGNATURE, chunk('IHDR', ihdr(1, 1)), chunk('ID4T', Buffer.from([1])), chunk('IEND')]);
    expect(refusal(bad)).toBe('the chunk at byte 33 has no valid type');
  });
});
