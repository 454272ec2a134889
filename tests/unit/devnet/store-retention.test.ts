/**
 * The versioned store's retention window: versions older than the window are dropped every
 * `pruneEvery` commits, reads inside the window still see each height's values, reads below
 * it are refused, and a snapshot restores the latest state with the same app hash.
 */
import { CacheKv, VersionedStore } from '../../../devnet/app/store';

function commitBlock(store: VersionedStore, height: number, write: (kv: CacheKv) => void): void {
  const kv = new CacheKv(store.latest());
  write(kv);
  store.commit(height, kv.writeSet());
}

/** a/x written at every height, a/y once, a/z created at 3 and deleted at 20 */
function fill(store: VersionedStore, heights: number): void {
  for (let h = 1; h <= heights; h++)
    commitBlock(store, h, (kv) => {
      kv.set('a/x', BigInt(h));
      if (h === 1) kv.set('a/y', { n: 1n, s: 'y' });
      if (h === 3) kv.set('a/z', 'z');
      if (h === 20) kv.delete('a/z');
    });
}

describe('versioned store retention', () => {
  it('keeps a bounded number of versions and answers every height of the window', () => {
    const store = new VersionedStore({ keepRecent: 10, pruneEvery: 5 });
    fill(store, 100);
    // a/x: at most the window plus the commits since the last prune; a/y: its one version
    expect(store.stats().keys).toBe(2);
    expect(store.stats().versions).toBeLessThanOrEqual(10 + 5 + 1);
    expect(store.earliestHeight).toBe(91);
    for (let h = 91; h <= 100; h++) expect(store.readerAt(h).get('a/x')).toBe(BigInt(h));
    expect(store.readerAt(91).get('a/y')).toEqual({ n: 1n, s: 'y' });
    expect(store.readerAt(91).keys('a/')).toEqual(['a/x', 'a/y']);
    expect(() => store.readerAt(90)).toThrow(/pruned \(earliest kept height 91\)/);
  });

  it('keeps every version without a window', () => {
    const store = new VersionedStore();
    fill(store, 100);
    expect(store.stats().versions).toBe(100 + 1 + 2);
    expect(store.readerAt(10).get('a/z')).toBe('z');
  });

  it('a restored snapshot has the same latest state and app hash, and goes on hashing the same', () => {
    const kept = new VersionedStore({ keepRecent: 10 });
    fill(kept, 30);
    const restored = new VersionedStore({ keepRecent: 10 });
    restored.restore(30, kept.appHash, kept.exportLatest());
    expect(restored.earliestHeight).toBe(30);
    expect(restored.readerAt(30).keys('a/')).toEqual(['a/x', 'a/y']);
    expect(restored.readerAt(30).get('a/y')).toEqual({ n: 1n, s: 'y' });
    const next = (s: VersionedStore) => commitBlock(s, 31, (kv) => kv.set('a/w', [1n, 'w']));
    next(kept);
    next(restored);
    expect(Buffer.from(restored.appHash)).toEqual(Buffer.from(kept.appHash));
  });
});
