import { CacheKv, VersionedStore, canonicalJson, keySegment, unKeySegment } from '../../../devnet/app/store';

function commitBlock(store: VersionedStore, height: number, write: (kv: CacheKv) => void): Uint8Array {
  const block = new CacheKv(store.latest());
  write(block);
  return store.commit(height, block.writeSet());
}

describe('VersionedStore', () => {
  it('reads every key as of a past height (binary search over versions)', () => {
    const store = new VersionedStore();
    commitBlock(store, 1, (kv) => kv.set('a/x', 1n));
    commitBlock(store, 2, (kv) => kv.set('a/y', 'y'));
    commitBlock(store, 5, (kv) => kv.set('a/x', 5n));
    commitBlock(store, 7, (kv) => kv.delete('a/x'));
    expect(store.readerAt(0).get('a/x')).toBeUndefined();
    expect(store.readerAt(1).get('a/x')).toBe(1n);
    expect(store.readerAt(4).get('a/x')).toBe(1n);
    expect(store.readerAt(5).get('a/x')).toBe(5n);
    expect(store.readerAt(6).get('a/x')).toBe(5n);
    expect(store.readerAt(7).get('a/x')).toBeUndefined();
    expect(store.readerAt(6).keys('a/')).toEqual(['a/x', 'a/y']);
    expect(store.readerAt(7).keys('a/')).toEqual(['a/y']);
    expect(store.latest().get('a/y')).toBe('y');
  });

  it('keeps block writes invisible until commit', () => {
    const store = new VersionedStore();
    const block = new CacheKv(store.latest());
    block.set('k/1', 1);
    expect(block.get('k/1')).toBe(1);
    expect(store.latest().get('k/1')).toBeUndefined();
    store.commit(1, block.writeSet());
    expect(store.latest().get('k/1')).toBe(1);
  });

  it('drops a tx branch that is not written, keeps one that is', () => {
    const store = new VersionedStore();
    const block = new CacheKv(store.latest());
    const failed = new CacheKv(block);
    failed.set('k/a', 1);
    const ok = new CacheKv(block);
    ok.set('k/b', 2);
    ok.writeTo(block);
    expect(block.get('k/a')).toBeUndefined();
    expect(block.get('k/b')).toBe(2);
  });

  it('freezes stored values so history cannot be mutated', () => {
    const store = new VersionedStore();
    const block = new CacheKv(store.latest());
    const value = { list: [1, 2] };
    block.set('k/v', value);
    expect(() => (value.list as number[]).push(3)).toThrow();
  });

  it('lists keys of a parent in order within a range, overlaying branch writes', () => {
    const store = new VersionedStore();
    commitBlock(store, 1, (kv) => ['q/003', 'q/001', 'q/002', 'q/sub/x'].forEach((k) => kv.set(k, k)));
    const block = new CacheKv(store.latest());
    block.delete('q/002');
    block.set('q/004', 'q/004');
    expect(block.keys('q/')).toEqual(['q/001', 'q/003', 'q/004']);
    expect(block.keys('q/', { gt: 'q/001', lte: 'q/003' })).toEqual(['q/003']);
    expect(block.keys('q/sub/')).toEqual(['q/sub/x']);
  });

  it('derives the app hash from the previous hash and the sorted write set, deterministically', () => {
    const run = (order: string[]) => {
      const store = new VersionedStore();
      commitBlock(store, 1, (kv) => order.forEach((k, i) => kv.set(k, { n: BigInt(i === 0 ? 1 : 2), k })));
      return Buffer.from(commitBlock(store, 2, (kv) => kv.set('z/z', true))).toString('hex');
    };
    expect(run(['a/1', 'b/2'])).toHaveLength(64);
    const s1 = new VersionedStore();
    const s2 = new VersionedStore();
    const h1 = commitBlock(s1, 1, (kv) => {
      kv.set('a/1', { x: 1, y: 2n });
      kv.set('b/1', 'v');
    });
    const h2 = commitBlock(s2, 1, (kv) => {
      kv.set('b/1', 'v');
      kv.set('a/1', { y: 2n, x: 1 });
    });
    expect(Buffer.from(h1)).toEqual(Buffer.from(h2));
    const h3 = commitBlock(s2, 2, () => undefined);
    expect(Buffer.from(h3)).not.toEqual(Buffer.from(h2));
  });

  it('encodes values canonically and escapes key segments', () => {
    expect(canonicalJson({ b: 1, a: [2n, null] })).toBe('{"a":[{"$n":"2"},null],"b":1}');
    expect(keySegment('ibc/AB|C%')).toBe('ibc%2FAB%7CC%25');
    expect(unKeySegment(keySegment('ibc/AB|C%'))).toBe('ibc/AB|C%');
  });
});
