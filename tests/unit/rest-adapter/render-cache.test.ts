/** The render cache's rules (rest-adapter/presenters/render-cache.ts): identity + stamp, byte bound, LRU, rewind. */
import { HeightWatcher } from '../../../rest-adapter/http/height-watcher';
import { ENTRY_OVERHEAD, RenderCache } from '../../../rest-adapter/presenters/render-cache';

/** The kept (or just rendered) text of `key` as a string. */
function text(cache: RenderCache, key: string, stamp: string, render: () => string, alias?: string): string {
  return cache.bytes(key, stamp, render, alias).toString('utf8');
}

describe('RenderCache', () => {
  /** A render function that counts its calls. */
  function renderer(text: string) {
    const r = { calls: 0, render: () => (r.calls++, text) };
    return r;
  }

  it('renders once per key and stamp, then returns the kept text', () => {
    const cache = new RenderCache({ maxBytes: 10_000 });
    const r = renderer('{"hash":"A"}');
    expect(text(cache, 'A', '5:0:t', r.render)).toBe('{"hash":"A"}');
    expect(text(cache, 'A', '5:0:t', r.render)).toBe('{"hash":"A"}');
    expect(r.calls).toBe(1);
    expect(cache.stats).toEqual({ hits: 1, misses: 1 });
    expect(cache.has('A')).toBe(true);
  });

  it('renders again when the row it meets has another stamp (the tx re-indexed elsewhere), and keeps the new text', () => {
    const cache = new RenderCache({ maxBytes: 10_000 });
    text(cache, 'A', '5:0:t', () => 'old');
    const r = renderer('new');
    expect(text(cache, 'A', '6:2:u', r.render)).toBe('new');
    expect(text(cache, 'A', '6:2:u', r.render)).toBe('new');
    expect(r.calls).toBe(1);
    expect(cache.count).toBe(1);
    expect(cache.size).toBe('A'.length + '6:2:u'.length + 'new'.length + ENTRY_OVERHEAD);
  });

  it('stays within maxBytes, least recently used out first', () => {
    const entry = 1 + 1 + 100 + ENTRY_OVERHEAD; // key, stamp, text
    const cache = new RenderCache({ maxBytes: entry * 8 });
    const body = 'x'.repeat(100);
    const keys = [...'abcdefgh'];
    for (const key of keys) text(cache, key, 's', () => body);
    text(cache, 'a', 's', () => body); // a is now the most recently used
    text(cache, 'i', 's', () => body);
    expect(cache.size).toBe(entry * 8);
    expect([...keys, 'i'].filter((k) => !cache.has(k))).toEqual(['b']);
  });

  it('does not keep a text larger than an eighth of maxBytes', () => {
    const cache = new RenderCache({ maxBytes: 8_000 });
    const r = renderer('y'.repeat(2_000));
    text(cache, 'big', 's', r.render);
    text(cache, 'big', 's', r.render);
    expect(r.calls).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('empties when the watcher sees the indexed height go down (rewind, reindex), not when it goes up or becomes unknown', async () => {
    const cache = new RenderCache({ maxBytes: 10_000 });
    const heights: (number | undefined)[] = [10, 11, undefined, 11, 7];
    const watcher = new HeightWatcher(async () => {
      const height = heights.shift();
      if (height === undefined) throw new Error('store unreachable');
      return { indexedHeight: height, blockIntervalMs: null };
    }, false);
    watcher.onRewind(() => cache.clear()); // as createRestApp wires it
    text(cache, 'A', 's', () => 'a');
    for (let i = 0; i < 4; i++) await watcher.poll(); // 10, 11, unknown, 11
    expect(cache.has('A')).toBe(true);
    await watcher.poll(); // 7
    expect(cache.has('A')).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('returns the kept bytes themselves on a hit (answers copy them, nothing re-encodes)', () => {
    const cache = new RenderCache({ maxBytes: 10_000 });
    const first = cache.bytes('A', 's', () => '{"é":1}');
    expect(cache.bytes('A', 's', () => 'other')).toBe(first);
    expect(first.toString('utf8')).toBe('{"é":1}');
  });

  it('peek finds an entry by its key or its alias, whatever its stamp, and nothing else', () => {
    const cache = new RenderCache({ maxBytes: 10_000 });
    text(cache, 'A', '5:0:t', () => 'a', '0xaa');
    expect(cache.peek('A')?.toString()).toBe('a');
    expect(cache.peek('0xaa')?.toString()).toBe('a');
    expect(cache.has('0xaa')).toBe(true);
    expect(cache.peek('B')).toBeUndefined();
    expect(cache.peek('0xbb')).toBeUndefined();
  });

  it('forgets an alias with its entry (evicted, re-rendered without it, or a rewind)', () => {
    const entry = 1 + 1 + 100 + ENTRY_OVERHEAD + 4 + ENTRY_OVERHEAD; // key, stamp, text, alias
    const cache = new RenderCache({ maxBytes: entry * 8 });
    const t = 'x'.repeat(100);
    for (const key of 'abcdefgh') text(cache, key, 's', () => t, `0x${key}${key}`);
    expect(cache.size).toBe(entry * 8);
    text(cache, 'i', 's', () => t, '0xii'); // a goes
    expect(cache.peek('0xaa')).toBeUndefined();
    expect(cache.peek('0xbb')?.toString()).toBe(t);
    text(cache, 'b', 'moved', () => 'y'); // re-rendered from another row, without an EVM view
    expect(cache.peek('0xbb')).toBeUndefined();
    expect(cache.peek('b')?.toString()).toBe('y');
    cache.clear(); // a rewind
    expect(cache.peek('0xii')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
