import { decodeCursor, decodeOptionalCursor, encodeCursor, MAX_CURSOR_LENGTH } from '../../../src/lib/cursor';
import { InvalidInputError } from '../../../src/lib/errors';
import { toBech32 } from '../../../src/lib/address';

const ADDR = 'svc13wslzz24r02r9qpszfj94sfkmhtymwnj7qda23';
const ASSET = 'bec4b97ab8f03458fd86f8bb4eee45b87a0854c5ec0d674005d1236c1721c642';

/** Independent encoder (Buffer base64url) for hand-made, possibly hostile payloads. */
const raw = (json: string): string => Buffer.from(json, 'utf8').toString('base64url');

function expectMalformed(f: () => unknown): void {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(InvalidInputError);
  expect((err as Error).message).toBe('malformed cursor');
  expect((err as InvalidInputError).code).toBe('bad_request');
}

describe('encodeCursor', () => {
  it('is base64url of the compact JSON {k, v} (pinned, and equal to a Buffer encoding)', () => {
    const c = encodeCursor('txs', [100, 2]);
    expect(c).toBe('eyJrIjoidHhzIiwidiI6WzEwMCwyXX0');
    expect(c).toBe(raw('{"k":"txs","v":[100,2]}'));
    expect(Buffer.from(c, 'base64url').toString('utf8')).toBe('{"k":"txs","v":[100,2]}');
  });

  it('writes bigints as strings', () => {
    const c = encodeCursor('holders', [10n ** 30n, ADDR]);
    expect(Buffer.from(c, 'base64url').toString('utf8')).toBe(`{"k":"holders","v":["${10n ** 30n}","${ADDR}"]}`);
  });

  it('refuses unsafe numbers, bad kinds and oversize output', () => {
    expect(() => encodeCursor('txs', [1.5])).toThrow();
    expect(() => encodeCursor('txs', [2 ** 53])).toThrow();
    expect(() => encodeCursor('', [1])).toThrow();
    expect(() => encodeCursor('Bad Kind', [1])).toThrow();
    expect(() => encodeCursor('txs', ['x'.repeat(400)])).toThrow(/too long/);
  });
});

describe('decodeCursor round trips', () => {
  it('int pairs', () => {
    const v = decodeCursor('txs', encodeCursor('txs', [123456, 7]), ['int', 'int']);
    expect(v).toEqual([123456, 7]);
    const [h, i] = v; // typed as [number, number]
    expect(h + i).toBe(123463);
  });
  it('hex64', () => {
    expect(decodeCursor('assets', encodeCursor('assets', [ASSET]), ['hex64'])).toEqual([ASSET]);
  });
  it('amount above 2^64 with bech32', () => {
    const units = 2n ** 64n + 99n;
    const v = decodeCursor('holders', encodeCursor('holders', [units, ADDR]), ['amount', 'bech32']);
    expect(v).toEqual([units, ADDR]);
    expect(typeof v[0]).toBe('bigint');
  });
  it('signed ints (block-level tx_index -1)', () => {
    expect(decodeCursor('events', encodeCursor('events', [10, -1, 3]), ['int', 'sint', 'int'])).toEqual([10, -1, 3]);
  });
  it('unicode strings survive (escaped to ASCII)', () => {
    const s = 'route/日本-😀';
    const c = encodeCursor('routes', [s]);
    expect(/^[A-Za-z0-9_-]+$/.test(c)).toBe(true);
    expect(decodeCursor('routes', c, ['string'])).toEqual([s]);
  });
  it('empty schema', () => {
    expect(decodeCursor('x', encodeCursor('x', []), [])).toEqual([]);
  });
  it('decodeOptionalCursor treats an absent cursor as the first page', () => {
    expect(decodeOptionalCursor('txs', undefined, ['int'])).toBeNull();
    expect(decodeOptionalCursor('txs', '', ['int'])).toBeNull();
    expect(decodeOptionalCursor('txs', encodeCursor('txs', [5]), ['int'])).toEqual([5]);
    expectMalformed(() => decodeOptionalCursor('txs', 'zz!', ['int']));
  });
});

describe('decodeCursor rejects forgeries and garbage', () => {
  const good = encodeCursor('txs', [100, 2]);

  it('tampered base64: bad characters, padding, standard alphabet, truncation, non-canonical tail', () => {
    expectMalformed(() => decodeCursor('txs', good + '=', ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', good.replace(/.$/, '+'), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', good.slice(0, -3), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', good + 'A', ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', 'not a cursor', ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', '%7B%7D', ['int', 'int']));
    // change the last char so the unused low bits of the final group are set
    const tail = good[good.length - 1];
    const nonCanonical = good.slice(0, -1) + (tail === '0' ? '1' : String.fromCharCode(tail.charCodeAt(0) + 1));
    expect(Buffer.from(nonCanonical, 'base64url').equals(Buffer.from(good, 'base64url'))).toBe(true); // Buffer is lenient
    expectMalformed(() => decodeCursor('txs', nonCanonical, ['int', 'int']));
  });

  it('a flipped payload character that breaks the JSON', () => {
    const bytes = Buffer.from(good, 'base64url');
    bytes[0] = '['.charCodeAt(0);
    expectMalformed(() => decodeCursor('txs', bytes.toString('base64url'), ['int', 'int']));
  });

  it('wrong kind (a cursor of another list)', () => {
    expectMalformed(() => decodeCursor('blocks', good, ['int', 'int']));
  });

  it('wrong arity: extra or missing elements', () => {
    expectMalformed(() => decodeCursor('txs', encodeCursor('txs', [100, 2, 3]), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', encodeCursor('txs', [100]), ['int', 'int']));
  });

  it('SQL-ish text in an int slot', () => {
    const forged = encodeCursor('txs', ['1; DROP TABLE txes; --', 2]);
    expectMalformed(() => decodeCursor('txs', forged, ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', raw(`{"k":"txs","v":["1 OR 1=1",2]}`), ['int', 'int']));
    expectMalformed(() => decodeCursor('assets', encodeCursor('assets', ["' OR ''='"]), ['hex64']));
  });

  it('negative, fractional, unsafe and non-canonical numbers', () => {
    expectMalformed(() => decodeCursor('txs', encodeCursor('txs', [-1, 2]), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', raw('{"k":"txs","v":[1.5,2]}'), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', raw('{"k":"txs","v":[9007199254740992,2]}'), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', raw('{"k":"txs","v":[1e2,2]}'), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', raw('{"k":"txs","v":[-0,2]}'), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', raw('{"k":"txs","v":["100",2]}'), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', raw('{"k":"txs","v":[true,2]}'), ['int', 'int']));
    expectMalformed(() => decodeCursor('events', raw('{"k":"events","v":[1.5]}'), ['sint']));
  });

  it('non-canonical JSON that parses to the same values', () => {
    expectMalformed(() => decodeCursor('txs', raw('{"k":"txs", "v":[100,2]}'), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', raw('{"v":[100,2],"k":"txs"}'), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', raw('{"k":"txs","v":[100,2],"x":1}'), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', raw('{"k":"txs","k":"txs","v":[100,2]}'), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', raw('[100,2]'), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', raw('null'), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', raw('{"k":"txs","v":{"0":100,"1":2}}'), ['int', 'int']));
  });

  it('non-ASCII bytes in the payload', () => {
    expectMalformed(() => decodeCursor('routes', raw('{"k":"routes","v":["é"]}'), ['string']));
  });

  it('typed slots: amount, hex64, bech32', () => {
    expectMalformed(() => decodeCursor('h', encodeCursor('h', ['007', ADDR]), ['amount', 'bech32']));
    expectMalformed(() => decodeCursor('h', encodeCursor('h', ['-5', ADDR]), ['amount', 'bech32']));
    expectMalformed(() => decodeCursor('h', raw(`{"k":"h","v":[5,"${ADDR}"]}`), ['amount', 'bech32']));
    expectMalformed(() => decodeCursor('h', encodeCursor('h', [5n, ADDR.toUpperCase()]), ['amount', 'bech32']));
    expectMalformed(() => decodeCursor('h', encodeCursor('h', [5n, 'svc1xyz']), ['amount', 'bech32']));
    expectMalformed(() => decodeCursor('a', encodeCursor('a', [ASSET.toUpperCase()]), ['hex64']));
    expectMalformed(() => decodeCursor('a', encodeCursor('a', [ASSET.slice(1)]), ['hex64']));
    const cosmosAddr = toBech32(Buffer.alloc(20, 3), 'cosmos');
    expect(decodeCursor('h', encodeCursor('h', [1n, cosmosAddr]), ['amount', 'bech32'])).toEqual([1n, cosmosAddr]);
    expectMalformed(() => decodeCursor('h', encodeCursor('h', [1n, cosmosAddr]), ['amount', 'bech32'], { hrp: 'svc' }));
  });

  it('over-long, empty and non-string input', () => {
    expectMalformed(() => decodeCursor('txs', 'A'.repeat(MAX_CURSOR_LENGTH + 4), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', raw(`{"k":"txs","v":[1,2],"pad":"${'x'.repeat(600)}"}`), ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', '', ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', 12 as unknown as string, ['int', 'int']));
    expectMalformed(() => decodeCursor('txs', null as unknown as string, ['int', 'int']));
  });

  it('a forged but well-formed cursor is accepted: it only positions the page', () => {
    const forged = raw('{"k":"txs","v":[999999999,0]}');
    expect(decodeCursor('txs', forged, ['int', 'int'])).toEqual([999999999, 0]);
  });
});
