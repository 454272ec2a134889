/** The render cache's rules (rest-adapter/presenters/render-cache.ts): identity + stamp, byte bound, LRU, rewind. */
import { ENTRY_OVERHEAD, RenderCache } from '../../../rest-adapter/presenters/render-cache';

describe('RenderCache', () => {
  /** A render function that counts its calls. */
  function renderer(text: string) {
    const r = { calls: 0, render: () => (r.calls++, text) };
    return r;
  }

  it('renders once per key and stamp, then returns the kept text', () => {
    const cache = new RenderCache({ maxBytes: 10_000 });
    const r = renderer('{"hash":"A"}');
    expect(cache.text('A', '5:0:t', r.render)).toBe('{"hash":"A"}');
    expect(cache.text('A', '5:0:t', r.render)).toBe('{"hash":"A"}');
    expect(r.calls).toBe(1);
    expect(cache.stats).toEqual({ hits: 1, misses: 1 });
    expect(cache.has('A')).toBe(true);
  });

  it('renders again when the row it meets has another stamp (the tx re-indexed elsewhere), and keeps the new text', () => {
    const cache = new RenderCache({ maxBytes: 10_000 });
    cache.text('A', '5:0:t', () => 'old');
    const r = renderer('new');
    expect(cache.text('A', '6:2:u', r.render)).toBe('new');
    expect(cache.text('A', '6:2:u', r.render)).toBe('new');
    expect(r.calls).toBe(1);
    expect(cache.count).toBe(1);
    expect(cache.size).toBe('A'.length + '6:2:u'.length + 'new'.length + ENTRY_OVERHEAD);
  });

  it('stays within maxBytes, least recently used out first', () => {
    const entry = 1 + 1 + 100 + ENTRY_OVERHEAD; // key, stamp, text
    const cache = new RenderCache({ maxBytes: entry * 8 });
    const text = 'x'.repeat(100);
    const keys = [...'abcdefgh'];
    for (const key of keys) cache.text(key, 's', () => text);
    cache.text('a', 's', () => text); // a is now the most recently used
    cache.text('i', 's', () => text);
    expect(cache.size).toBe(entry * 8);
    expect([...keys, 'i'].filter((k) => !cache.has(k))).toEqual(['b']);
  });

  it('does not keep a text larger than an eighth of maxBytes', () => {
    const cache = new RenderCache({ maxBytes: 8_000 });
    const r = renderer('y'.repeat(2_000));
    cache.text('big', 's', r.render);
    cache.text('big', 's', r.render);
    expect(r.calls).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('empties when the indexed height goes down (rewind, reindex), not when it goes up or becomes unknown', () => {
    const cache = new RenderCache({ maxBytes: 10_000 });
    cache.text('A', 's', () => 'a');
    cache.onHeight(10, undefined);
    cache.onHeight(11, 10);
    cache.onHeight(undefined, 11);
    cache.onHeight(11, undefined);
    expect(cache.has('A')).toBe(true);
    cache.onHeight(7, 11);
    expect(cache.has('A')).toBe(false);
    expect(cache.size).toBe(0);
  });
});
