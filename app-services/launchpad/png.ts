/**
 * The launchpad's logo check: the bytes must be a PNG whose header a decoder can read.
 * It is not a full decode (no inflating of IDAT); it refuses what is plainly not a PNG,
 * is cut short, is corrupted, or declares an image too large to show.
 *
 * Checked, in order:
 *  - the 8-byte PNG signature (other common formats are named in the error);
 *  - the chunk list from the signature to the end: every chunk's length fits in the file,
 *    its type is four ASCII letters and its CRC-32 is right;
 *  - the first chunk is IHDR with 13 data bytes; width and height 1..PNG_MAX_DIMENSION;
 *    bit depth valid for the colour type; compression 0, filter 0, interlace 0 or 1;
 *  - at least one IDAT chunk (an image without pixel data cannot be shown);
 *  - the last chunk is an empty IEND and no byte follows it.
 */

/** Largest width and height accepted, in pixels. */
export const PNG_MAX_DIMENSION = 4096;

export type PngCheck = { ok: true; width: number; height: number } | { ok: false; error: string };

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** length (4) + type (4) + CRC (4) around each chunk's data */
const CHUNK_OVERHEAD = 12;
const IHDR_LENGTH = 13;

/** PNG spec table 11.1: the bit depths allowed for each colour type. */
const BIT_DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16], // greyscale
  2: [8, 16], // truecolour
  3: [1, 2, 4, 8], // indexed
  4: [8, 16], // greyscale with alpha
  6: [8, 16], // truecolour with alpha
};

/** Magic numbers of formats people send instead of a PNG, for a clearer error. */
const OTHER_FORMATS: ReadonlyArray<{ name: string; magic: string }> = [
  { name: 'GIF', magic: 'GIF8' },
  { name: 'JPEG', magic: '\xff\xd8\xff' },
  { name: 'WebP', magic: 'RIFF' },
  { name: 'SVG/XML', magic: '<' },
];

// CRC-32 (ISO 3309, the one PNG uses). Node 20 has no zlib.crc32 and the project keeps
// no CRC package, so a table over the reflected polynomial 0xEDB88320.
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 of bytes[start, end) as an unsigned 32-bit number. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const fail = (error: string): PngCheck => ({ ok: false, error });

function u32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/** null when the signature is right, else the reason (naming a recognised other format). */
function signatureError(bytes: Uint8Array): string | null {
  const seen = Math.min(bytes.length, SIGNATURE.length);
  const matches = SIGNATURE.slice(0, seen).every((b, i) => bytes[i] === b);
  if (matches && seen === SIGNATURE.length) return null;
  if (matches) return `truncated: ${bytes.length} bytes, shorter than the PNG signature`;
  const start = ascii(bytes, 0, 4);
  const other = OTHER_FORMATS.find((f) => start.startsWith(f.magic));
  return other ? `not a PNG (the bytes look like ${other.name})` : 'not a PNG (wrong signature)';
}

interface Chunk {
  type: string;
  data: Uint8Array;
}

/** The chunks after the signature, up to and including IEND, or why they cannot be read. */
function readChunks(bytes: Uint8Array): { ok: true; chunks: Chunk[]; end: number } | { ok: false; error: string } {
  const chunks: Chunk[] = [];
  let at = SIGNATURE.length;
  while (at < bytes.length && chunks[chunks.length - 1]?.type !== 'IEND') {
    if (at + CHUNK_OVERHEAD > bytes.length)
      return { ok: false, error: `truncated: the chunk at byte ${at} is cut short` };
    const length = u32(bytes, at);
    const dataEnd = at + 8 + length;
    if (dataEnd + 4 > bytes.length)
      return {
        ok: false,
        error: `truncated: the chunk at byte ${at} declares ${length} data bytes past the end of the file`,
      };
    const type = ascii(bytes, at + 4, 4);
    if (!/^[A-Za-z]{4}$/.test(type)) return { ok: false, error: `the chunk at byte ${at} has no valid type` };
    // the CRC covers the type and the data, not the length
    if (crc32(bytes, at + 4, dataEnd) !== u32(bytes, dataEnd))
      return { ok: false, error: `chunk ${type} has a bad CRC` };
    chunks.push({ type, data: bytes.subarray(at + 8, dataEnd) });
    at = dataEnd + 4;
  }
  return { ok: true, chunks, end: at };
}

/** Width and height from an IHDR chunk's data, or why the header is unusable. */
function readIhdr(data: Uint8Array): PngCheck {
  if (data.length !== IHDR_LENGTH) return fail(`IHDR has ${data.length} data bytes, not ${IHDR_LENGTH}`);
  const width = u32(data, 0);
  const height = u32(data, 4);
  const [depth, colourType, compression, filter, interlace] = data.subarray(8);
  if (width < 1 || width > PNG_MAX_DIMENSION) return fail(`width ${width} is outside 1..${PNG_MAX_DIMENSION}`);
  if (height < 1 || height > PNG_MAX_DIMENSION) return fail(`height ${height} is outside 1..${PNG_MAX_DIMENSION}`);
  const depths = BIT_DEPTHS[colourType];
  if (!depths) return fail(`colour type ${colourType} does not exist`);
  if (!depths.includes(depth)) return fail(`bit depth ${depth} is not allowed with colour type ${colourType}`);
  if (compression !== 0 || filter !== 0) return fail('unknown compression or filter method');
  if (interlace > 1) return fail(`unknown interlace method ${interlace}`);
  return { ok: true, width, height };
}

/** Whether `bytes` is a PNG with a readable header and a well-formed chunk list (see the file comment). */
export function checkPng(bytes: Uint8Array): PngCheck {
  const badSignature = signatureError(bytes);
  if (badSignature) return fail(badSignature);
  const read = readChunks(bytes);
  if (!read.ok) return read;
  const { chunks, end } = read;
  if (chunks[0]?.type !== 'IHDR') return fail('the first chunk is not IHDR');
  const header = readIhdr(chunks[0].data);
  if (!header.ok) return header;
  if (!chunks.some((c) => c.type === 'IDAT')) return fail('no IDAT chunk (no image data)');
  const last = chunks[chunks.length - 1];
  if (last.type !== 'IEND') return fail('no IEND chunk at the end (the file is truncated)');
  if (last.data.length !== 0) return fail('IEND is not empty');
  if (end !== bytes.length) return fail(`${bytes.length - end} bytes follow IEND`);
  return header;
}
