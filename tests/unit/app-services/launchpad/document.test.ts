import { createHash } from 'node:crypto';
import {
  canonicalDocumentBytes,
  canonicalDocumentString,
  DOCUMENT_LIMITS,
  documentHash,
  parseMetadataDocument,
  TEMPLATES,
  type MetadataDocument,
} from '../../../../app-services/launchpad/document';
import { crc32 } from '../../../../app-services/launchpad/png';
import { refusalMessage } from '../../../../app-services/launchpad/refusal';
import * as lib from '../../../../src/lib';
import {
  canonicalStringify as devnetCanonicalStringify,
  metadataHash as devnetMetadataHash,
} from '../../../../devnet/scenario';
import { LAUNCH_PLANS, metadataDocument } from '../../../../devnet/scenario/flows/launch';

// A 1x1 RGBA PNG written by another encoder (67 bytes).
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG = Buffer.from(PNG_B64, 'base64');
const GIF_B64 = 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==';

const BASE = {
  name: 'Harbour Commons',
  symbol: 'HBC',
  description: 'A community asset. Testnet only; it has no value.',
  template: 'community',
};

const sha256Hex = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');

function parsed(input: unknown): MetadataDocument {
  const r = parseMetadataDocument(input);
  if (!r.ok) throw new Error(`refused: ${r.field}: ${r.error}`);
  return r.doc;
}

function refused(input: unknown): { field: string; error: string } {
  const r = parseMetadataDocument(input);
  if (r.ok) throw new Error(`accepted: ${JSON.stringify(r.doc)}`);
  return { field: r.field, error: r.error };
}

/** The PNG above with a tEXt chunk grown so the file is exactly `size` bytes. */
function pngOfSize(size: number): Buffer {
  const text = Buffer.alloc(size - PNG.length - 12, 0x61);
  const body = Buffer.concat([Buffer.from('tEXt', 'latin1'), text]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(text.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([PNG.subarray(0, 33), len, body, crc, PNG.subarray(33)]);
}

describe('the canonical form (the documented contract)', () => {
  it('is the known vector: keys sorted, no white space, SHA-256 of the UTF-8 bytes', () => {
    const doc = parsed({
      template: 'equity',
      symbol: 'LNW',
      name: 'Lantern Works',
      description: 'Line one\nLine "two" \\ café',
    });
    const expected =
      '{"description":"Line one\\nLine \\"two\\" \\\\ café","name":"Lantern Works","symbol":"LNW","template":"equity"}';
    expect(canonicalDocumentString(doc)).toBe(expected);
    expect(Buffer.from(canonicalDocumentBytes(doc)).toString('utf8')).toBe(expected);
    expect(documentHash(doc)).toBe(sha256Hex(Buffer.from(expected, 'utf8')));
    expect(documentHash(doc)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the example of the file comment', () => {
    const doc = parsed({ name: 'N', symbol: 'S', description: 'd', template: 'community' });
    expect(canonicalDocumentString(doc)).toBe('{"description":"d","name":"N","symbol":"S","template":"community"}');
    expect(documentHash(doc)).toBe('5197c2f957f6376c1c6867b172a9e523b7631970b133f6ff269d94a9889e145b');
  });

  it('writes non-ASCII, U+2028 and "/" as themselves in UTF-8', () => {
    const doc = parsed({ ...BASE, description: 'a/b\u2028c \u{1f30a} \u00e9' });
    expect(canonicalDocumentString(doc)).toContain('"description":"a/b\u2028c \u{1f30a} \u00e9"');
    expect(Buffer.from(canonicalDocumentBytes(doc))).toEqual(Buffer.from(canonicalDocumentString(doc), 'utf8'));
  });

  it('puts logo between description and name, in standard padded base64', () => {
    const doc = parsed({ ...BASE, logo: PNG_B64 });
    const expected = `{"description":"${BASE.description}","logo":"${PNG_B64}","name":"Harbour Commons","symbol":"HBC","template":"community"}`;
    expect(canonicalDocumentString(doc)).toBe(expected);
    expect(documentHash(doc)).toBe(sha256Hex(expected));
  });

  it('has no logo key without a logo (absent, null, or undefined in a typed document)', () => {
    const withoutLogo = canonicalDocumentString(parsed(BASE));
    expect(withoutLogo).not.toContain('logo');
    expect(canonicalDocumentString(parsed({ ...BASE, logo: null }))).toBe(withoutLogo);
    expect(canonicalDocumentString({ ...parsed(BASE), logo: undefined })).toBe(withoutLogo);
  });

  it('is the same whatever the key order', () => {
    const reversed = Object.fromEntries(Object.entries({ ...BASE, logo: PNG_B64 }).reverse());
    expect(documentHash(parsed(reversed))).toBe(documentHash(parsed({ ...BASE, logo: PNG_B64 })));
  });

  it('is the same for NFC and NFD spellings, and stores NFC', () => {
    const composed = parsed({ ...BASE, name: 'Caf\u00e9 Commons', description: 'Cr\u00e8me. No value.' });
    const decomposed = parsed({ ...BASE, name: 'Cafe\u0301 Commons', description: 'Cre\u0300me. No value.' });
    expect(decomposed.name).toBe('Caf\u00e9 Commons');
    expect(documentHash(decomposed)).toBe(documentHash(composed));
  });

  it('is the same with surrounding white space trimmed, inner white space kept', () => {
    const padded = parsed({
      ...BASE,
      name: ' \t Harbour Commons\u00a0\n',
      symbol: ' HBC ',
      description: `\r\n  ${BASE.description}  \n`,
    });
    expect(padded).toEqual(parsed(BASE));
    expect(documentHash(padded)).toBe(documentHash(parsed(BASE)));
    expect(parsed({ ...BASE, name: 'Harbour  Commons' }).name).toBe('Harbour  Commons');
  });

  it('turns CRLF line breaks of the description into LF', () => {
    expect(parsed({ ...BASE, description: 'one\r\ntwo\r\n\r\nthree' }).description).toBe('one\ntwo\n\nthree');
    expect(documentHash(parsed({ ...BASE, description: 'a\r\nb' }))).toBe(
      documentHash(parsed({ ...BASE, description: 'a\nb' })),
    );
  });

  it('is the same for every base64 spelling of the same logo', () => {
    const urlSafeUnpadded = PNG_B64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const wrapped = PNG_B64.replace(/(.{20})/g, '$1\n');
    const spellings = [
      PNG_B64,
      PNG_B64.replace(/=+$/, ''),
      urlSafeUnpadded,
      `${urlSafeUnpadded}==`,
      wrapped,
      `${wrapped}\r\n`,
    ];
    for (const logo of spellings) expect(parsed({ ...BASE, logo }).logo).toBe(PNG_B64);
  });

  it('is computed by the shared src/lib helper (the devnet and src/lib export the same one)', () => {
    expect(lib.canonicalStringify).toBe(devnetCanonicalStringify);
    expect(lib.metadataHash).toBe(devnetMetadataHash);
    const doc = parsed(BASE);
    expect(documentHash(doc)).toBe(lib.metadataHash({ ...doc }));
  });
});

describe('the devnet launch documents', () => {
  it.each(LAUNCH_PLANS.map((p) => [p.key, p] as const))(
    '%s parses unchanged and hashes to its meta_hash',
    (_key, plan) => {
      const { doc, hash } = metadataDocument(plan);
      const r = parseMetadataDocument(doc);
      expect(r).toEqual({ ok: true, doc });
      if (r.ok) expect(documentHash(r.doc)).toBe(hash);
    },
  );
});

describe('limits (code points after NFC and trimming)', () => {
  const { name, symbol, description, logo } = DOCUMENT_LIMITS;

  it('are the documented numbers', () => {
    expect(DOCUMENT_LIMITS).toEqual({
      name: { min: 1, max: 64 },
      symbol: { min: 1, max: 12 },
      description: { min: 1, max: 2000 },
      logo: { maxBytes: 262144, maxDimension: 4096 },
    });
    expect(TEMPLATES).toEqual(['community', 'dividend', 'equity', 'bond']);
  });

  it('name: 1 and 64 characters pass, 65 is refused', () => {
    expect(parsed({ ...BASE, name: 'H' }).name).toBe('H');
    expect(parsed({ ...BASE, name: 'H'.repeat(name.max) }).name).toHaveLength(64);
    expect(refused({ ...BASE, name: 'H'.repeat(name.max + 1) })).toEqual({
      field: 'name',
      error: expect.stringMatching(/65 characters long; the limit is 64/),
    });
  });

  it('counts code points, not UTF-16 units: 64 astral letters pass', () => {
    const astral = '\u{1d538}'.repeat(64); // MATHEMATICAL DOUBLE-STRUCK CAPITAL A, two UTF-16 units each
    expect(astral).toHaveLength(128);
    expect(parsed({ ...BASE, name: astral }).name).toBe(astral);
    expect(refused({ ...BASE, name: `${astral}\u{1d538}` }).error).toMatch(/65 characters long/);
  });

  it('counts after NFC: 64 composed letters sent decomposed (128 code points) pass', () => {
    expect(parsed({ ...BASE, name: 'e\u0301'.repeat(64) }).name).toBe('\u00e9'.repeat(64));
  });

  it('symbol: 12 characters pass, 13 are refused', () => {
    expect(parsed({ ...BASE, symbol: 'A1'.repeat(6) }).symbol).toBe('A1A1A1A1A1A1');
    expect(parsed({ ...BASE, symbol: 'X' }).symbol).toBe('X');
    expect(refused({ ...BASE, symbol: 'A'.repeat(symbol.max + 1) })).toEqual({
      field: 'symbol',
      error: expect.stringMatching(/13 characters long; the limit is 12/),
    });
  });

  it('description: 2000 characters pass, 2001 are refused', () => {
    const text = 'Harbour Commons, testnet only. '.repeat(70).slice(0, description.max);
    expect(parsed({ ...BASE, description: `${text.slice(0, -1)}.` }).description).toHaveLength(2000);
    expect(refused({ ...BASE, description: `${text}.` })).toEqual({
      field: 'description',
      error: expect.stringMatching(/2001 characters long; the limit is 2000/),
    });
  });

  it('logo: exactly 256 KiB of PNG passes, one byte more is refused before decoding the PNG', () => {
    const atLimit = pngOfSize(logo.maxBytes);
    expect(atLimit).toHaveLength(262144);
    expect(parsed({ ...BASE, logo: atLimit.toString('base64') }).logo).toBe(atLimit.toString('base64'));
    const over = pngOfSize(logo.maxBytes + 1).toString('base64');
    expect(refused({ ...BASE, logo: over })).toEqual({
      field: 'logo',
      error: 'logo is over 262144 bytes (256 KiB) of PNG',
    });
  });
});

describe('every refusal names its field', () => {
  test.each<[string, unknown, string, RegExp]>([
    // shape
    ['null', null, 'document', /must be a JSON object, not null/],
    ['an array', [BASE], 'document', /must be a JSON object, not an array/],
    ['a string', JSON.stringify(BASE), 'document', /must be a JSON object, not a string/],
    ['a class instance', new (class Doc {})(), 'document', /must be a JSON object/],
    [
      'an unknown key',
      { ...BASE, decimals: 6 },
      'decimals',
      /unknown key "decimals": a metadata document has only name, symbol, description, template, logo/,
    ],
    [
      'a __proto__ key from JSON.parse',
      JSON.parse(`{"__proto__":{"x":1},${JSON.stringify(BASE).slice(1)}`),
      '__proto__',
      /unknown key "__proto__"/,
    ],
    // missing and mistyped
    ['no name', { ...BASE, name: undefined }, 'name', /^name is required: a string of 1 to 64 characters$/],
    ['no symbol', { name: 'N', description: 'd', template: 'bond' }, 'symbol', /^symbol is required/],
    ['no description', { ...BASE, description: undefined }, 'description', /^description is required/],
    [
      'no template',
      { ...BASE, template: undefined },
      'template',
      /^template is required: one of community, dividend, equity, bond$/,
    ],
    ['a numeric name', { ...BASE, name: 42 }, 'name', /^name must be a string, not a number$/],
    ['a null symbol', { ...BASE, symbol: null }, 'symbol', /^symbol must be a string, not null$/],
    [
      'an array description',
      { ...BASE, description: ['d'] },
      'description',
      /^description must be a string, not an array$/,
    ],
    ['a boolean template', { ...BASE, template: true }, 'template', /^template must be a string, not a boolean$/],
    [
      'an object logo',
      { ...BASE, logo: { png: PNG_B64 } },
      'logo',
      /^logo must be a string \(base64 of a PNG\), not an object$/,
    ],
    // empty
    ['an empty name', { ...BASE, name: '' }, 'name', /^name is empty$/],
    ['a blank symbol', { ...BASE, symbol: ' \t ' }, 'symbol', /^symbol is empty$/],
    ['a blank description', { ...BASE, description: '\r\n\n' }, 'description', /^description is empty$/],
    ['an empty logo', { ...BASE, logo: '' }, 'logo', /^logo is empty: leave the key out/],
    // characters
    ['a lone surrogate', { ...BASE, name: 'Harbour \ud800 Commons' }, 'name', /not valid Unicode/],
    ['a lone low surrogate', { ...BASE, description: 'x\udc00' }, 'description', /not valid Unicode/],
    [
      'a tab inside the name',
      { ...BASE, name: 'Harbour\tCommons' },
      'name',
      /^name holds the control character U\+0009$/,
    ],
    ['a line break inside the name', { ...BASE, name: 'Harbour\nCommons' }, 'name', /control character U\+000A/],
    [
      'a NUL in the description',
      { ...BASE, description: 'a\u0000b' },
      'description',
      /control character U\+0000 \(only line breaks are allowed\)/,
    ],
    ['a lone CR in the description', { ...BASE, description: 'a\rb' }, 'description', /control character U\+000D/],
    ['a C1 control', { ...BASE, description: 'a\u0085b' }, 'description', /control character U\+0085/],
    ['a right-to-left override', { ...BASE, name: 'Harbour \u202eCommons' }, 'name', /control character U\+202E/],
    ['a first-strong isolate', { ...BASE, symbol: 'HB\u2068C' }, 'symbol', /control character U\+2068/],
    // symbol
    ['a lower-case symbol', { ...BASE, symbol: 'hbc' }, 'symbol', /^symbol must be upper case: send "HBC", not "hbc"/],
    ['a mixed-case symbol', { ...BASE, symbol: 'Tw27' }, 'symbol', /send "TW27"/],
    ['a symbol with a dash', { ...BASE, symbol: 'HB-C' }, 'symbol', /^symbol may hold only A-Z and 0-9, not "HB-C"$/],
    ['a symbol with a space', { ...BASE, symbol: 'H BC' }, 'symbol', /only A-Z and 0-9/],
    ['a full-width symbol', { ...BASE, symbol: '\uff28\uff22\uff23' }, 'symbol', /only A-Z and 0-9/],
    // template
    [
      'an unknown template',
      { ...BASE, template: 'fund' },
      'template',
      /^template must be one of community, dividend, equity, bond, not "fund"$/,
    ],
    ['a capitalised template', { ...BASE, template: 'Community' }, 'template', /not "Community"/],
    ['a padded template', { ...BASE, template: ' bond' }, 'template', /not " bond"/],
    // logo
    ['a logo that is not base64', { ...BASE, logo: 'not base64!' }, 'logo', /^logo is not base64/],
    ['a logo mixing both alphabets', { ...BASE, logo: 'ab+_' }, 'logo', /^logo is not base64/],
    ['a logo with wrong padding', { ...BASE, logo: `${PNG_B64}=` }, 'logo', /^logo is not base64/],
    ['a logo of impossible length', { ...BASE, logo: 'abcde' }, 'logo', /^logo is not base64/],
    ['a data: URL', { ...BASE, logo: `data:image/png;base64,${PNG_B64}` }, 'logo', /without a data: URL prefix/],
    [
      'a GIF logo',
      { ...BASE, logo: GIF_B64 },
      'logo',
      /^logo is not an acceptable PNG: not a PNG \(the bytes look like GIF\)$/,
    ],
    [
      'a truncated PNG logo',
      { ...BASE, logo: PNG.subarray(0, 50).toString('base64') },
      'logo',
      /^logo is not an acceptable PNG: truncated/,
    ],
  ])('%s', (_case, input, field, error) => {
    const r = refused(input);
    expect(r.field).toBe(field);
    expect(r.error).toMatch(error);
    expect(r.error).toContain(field === 'document' ? 'document' : field);
  });

  it('checks the fields in a fixed order: shape, keys, name, symbol, description, template, logo', () => {
    expect(refused({ extra: 1, name: 1 }).field).toBe('extra');
    expect(refused({ name: 1, symbol: 1 }).field).toBe('name');
    expect(refused({ name: 'N', symbol: 'hbc', template: 'x' }).field).toBe('symbol');
    expect(refused({ ...BASE, template: 'x', logo: 'x' }).field).toBe('template');
  });
});

describe('the refusal rule on name, symbol and description', () => {
  test.each<[string, Record<string, string>, string, string, string]>([
    ['name', { name: 'Guaranteed Returns Club' }, 'name', 'promises returns', 'Guaranteed Returns'],
    ['symbol', { symbol: 'APY' }, 'symbol', 'promises yield', 'APY'],
    ['description', { description: 'Stake and earn 5% every month.' }, 'description', 'promises earnings', 'earn 5%'],
    [
      'description after a disclaimer',
      { description: 'It has no value. To the moon!' },
      'description',
      'promises value',
      'To the moon',
    ],
  ])('a promising %s is refused with the route message', (_case, change, field, rule, phrase) => {
    expect(refused({ ...BASE, ...change })).toEqual({ field, error: refusalMessage(field, { rule, phrase }) });
  });

  it('runs after the format checks (a refused phrase in a bad document reports the format first)', () => {
    expect(refused({ ...BASE, name: 'Airdrop Club', template: 'fund' }).field).toBe('template');
  });

  it('sees the normalised text (a decomposed or padded promise is still refused)', () => {
    expect(refused({ ...BASE, description: '  guaranteed\r\nreturns  ' }).error).toMatch(
      /^description promises returns/,
    );
  });

  it('lets disclaimers and every template name through', () => {
    for (const template of TEMPLATES) {
      const description = `A ${template} asset with an INCOME kind and coupon dates. Not an investment: no rewards, airdrops, returns, yield or profit; it has no monetary value.`;
      expect(parsed({ ...BASE, template, description }).template).toBe(template);
    }
  });
});

describe('the input is not changed', () => {
  it('parses a frozen object and an object without a prototype', () => {
    const frozen = Object.freeze({ ...BASE, name: ' Harbour Commons ' });
    expect(parsed(frozen).name).toBe('Harbour Commons');
    expect(frozen.name).toBe(' Harbour Commons ');
    expect(parsed(Object.assign(Object.create(null), BASE))).toEqual(parsed(BASE));
  });
});
