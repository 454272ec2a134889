/** One identity per name and symbol (app-services/desk/identity.ts). */
import { lookAlikes, skeleton } from '../../../../app-services/desk/identity';

describe('skeleton', () => {
  test.each([
    ['LNW', 'LNVV'],
    ['LNW', 'lnw'],
    ['Lantern Works', 'LANTERN  WORKS'],
    ['Lantern Works', 'Lantern-Works'],
    ['Lantern Works', 'Ｌａｎｔｅｒｎ Ｗｏｒｋｓ'], // full width
    ['Lantern Works', 'Lаntern Wоrks'], // Cyrillic а and о
    ['HBC', 'H8C'],
    ['OMW', '0MW'],
    ['Old Mill', 'Oid Mi1l'],
    ['Harbour Commons', 'Harbour Cornrnons'],
    ['Café', 'Cafe'],
  ])('%s reads as %s', (a, b) => expect(skeleton(a)).toBe(skeleton(b)));

  test.each([
    ['LNW', 'LNX'],
    ['HBC', 'QSR'],
    ['Lantern Works', 'Lantern Worlds'],
    ['TWN27', 'TWN28'],
  ])('%s does not read as %s', (a, b) => expect(skeleton(a)).not.toBe(skeleton(b)));
});

describe('lookAlikes', () => {
  const asset = (id: string, over: object) => ({
    id,
    meta_hash: `doc-${id}`,
    name: `Name ${id}`,
    symbol: `S${id}`,
    created_height: 10,
    tx_index: 0,
    ...over,
  });
  test('the first by height, then tx index, then id keeps the name, the symbol and the document', () => {
    const found = lookAlikes([
      asset('b', { name: 'Lantern Works', symbol: 'LNVV', created_height: 20 }),
      asset('a', { name: 'Lantern Works', symbol: 'LNW', created_height: 10 }),
      asset('c', { symbol: 'LNW ', created_height: 10, tx_index: 1 }),
      asset('d', { meta_hash: 'doc-a', created_height: 30 }),
      asset('e', { name: 'Harbour Commons', symbol: 'HBC', created_height: 5 }),
    ]);
    expect(Object.fromEntries(found)).toEqual({ a: null, b: 'a', c: 'a', d: 'a', e: null });
  });
  test('a name alone is enough: the same name under a new symbol is a look-alike', () => {
    const found = lookAlikes([
      asset('a', { name: 'Lantern Works' }),
      asset('b', { name: 'Lantern Works', created_height: 11 }),
    ]);
    expect(found.get('b')).toBe('a');
  });
});
