/** rest-adapter/json.ts: exact bigints, stored JSON text spliced in, on both of its paths. */
import { RawJson, toJson, toJsonBytes } from '../../../rest-adapter/json';

describe('toJson', () => {
  it('writes plain values as JSON.stringify does', () => {
    const value = { a: 1, b: 'x"y', c: [true, null, undefined], d: undefined, e: { f: 'é\u0000' }, g: 1.5 };
    expect(toJson(value)).toBe(JSON.stringify(value));
    expect(toJson(undefined)).toBe('null');
  });

  it('writes bigint exactly (2^64 + 1)', () => {
    expect(toJson({ a: 1, e: { f: 2n ** 64n + 1n } })).toBe('{"a":1,"e":{"f":18446744073709551617}}');
  });

  it('splices RawJson text in as it is stored', () => {
    const text = toJson({
      msgs: new RawJson('[{"@type":"/x","amount":"12345678901234567890"}]'),
      fee: [new RawJson('{"b":2,"a":1}')],
    });
    expect(text).toBe('{"msgs":[{"@type":"/x","amount":"12345678901234567890"}],"fee":[{"b":2,"a":1}]}');
  });

  it('writes a bigint beyond 2^53 exactly, with RawJson beside it', () => {
    const text = toJson({
      block_time_ns: 1763800000123456789n,
      n: -5n,
      raw: new RawJson('{"k":[1]}'),
      list: [new RawJson('2'), 3n],
    });
    expect(text).toBe('{"block_time_ns":1763800000123456789,"n":-5,"raw":{"k":[1]},"list":[2,3]}');
  });

  it('leaves stored strings that look like markers alone', () => {
    const value = { s: '\u0000raw:0:1', t: '"\\u0000bigint:abc:5"' };
    expect(JSON.parse(toJson(value))).toEqual(value);
    expect(JSON.parse(toJson({ ...value, n: 5n }))).toEqual({ ...value, n: 5 }); // on the bigint path too
  });

  it('each call sees only its own RawJson values', () => {
    expect(toJson([new RawJson('1'), new RawJson('2')])).toBe('[1,2]');
    expect(toJson([new RawJson('3')])).toBe('[3]');
    expect(toJson({ x: 1n, y: new RawJson('"z"') })).toBe('{"x":1,"y":"z"}');
    expect(toJson([new RawJson('4')])).toBe('[4]');
  });
});

describe('toJsonBytes', () => {
  /** Values covering each path of toJson: plain, bigint, RawJson text and bytes, non-ASCII around and inside them. */
  const values: unknown[] = [
    undefined,
    { a: 1, b: 'x"y', e: { f: 'é\u0000😀' } },
    { block_time_ns: 1763800000123456789n, raw: new RawJson('{"k":["ü"]}') },
    [new RawJson(Buffer.from('{"h":"Ä€"}', 'utf8')), 'ö', new RawJson('7'), new RawJson(Buffer.from('[]'))],
    { s: '\u0000raw:0:1', n: 5n, last: new RawJson(Buffer.from('"ß"')) },
  ];

  it('gives the UTF-8 bytes of toJson, with RawJson bytes copied as they are', () => {
    for (const value of values) expect(toJsonBytes(value).toString('utf8')).toBe(toJson(value));
  });

  it('decodes RawJson bytes in toJson (the string path)', () => {
    expect(toJson({ t: new RawJson(Buffer.from('{"é":1}', 'utf8')) })).toBe('{"t":{"é":1}}');
  });

  it('does not share its answer with the RawJson bytes it copied', () => {
    const kept = Buffer.from('{"a":1}');
    const answer = toJsonBytes([new RawJson(kept)]);
    answer.fill(0);
    expect(kept.toString()).toBe('{"a":1}');
  });
});
