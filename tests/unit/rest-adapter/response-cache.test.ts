/** The response cache's rules (rest-adapter/http/response-cache.ts) with a scripted height. */
import type { HeadReading } from '../../../rest-adapter/db/head';
import { HeightWatcher } from '../../../rest-adapter/http/height-watcher';
import { ResponseCache } from '../../../rest-adapter/http/response-cache';
import { ClientGoneError } from '../../../src/http/cancel-on-disconnect';

/** A height (and reconciler generation) source the test moves by hand; `fail` makes the next reads reject. */
function scriptedHeight(start: number) {
  const source = { height: start, generation: 'g1' as string | undefined, fail: false, reads: 0 };
  const read = async () => {
    source.reads++;
    if (source.fail) throw new Error('database down');
    return { indexedHeight: source.height, blockIntervalMs: null, reconcilerGeneration: source.generation };
  };
  return { source, read };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const body = (text: string) => Buffer.from(text);

describe('ResponseCache', () => {
  let cache: ResponseCache & { poll(): Promise<void> };
  let watcher: HeightWatcher;
  afterEach(() => watcher?.stop());

  /** A cache on its own watcher (polled by hand with `cache.poll()` below). */
  function cacheOn(read: () => Promise<HeadReading>, maxBytes: number) {
    watcher = new HeightWatcher(read, 60_000);
    return Object.assign(new ResponseCache(watcher, { maxBytes }), { poll: () => watcher.poll() });
  }

  async function ready(start = 10, maxBytes = 1000) {
    const h = scriptedHeight(start);
    cache = cacheOn(h.read, maxBytes);
    await cache.poll();
    return h.source;
  }

  it('bypasses until the height is known, then polls on its own', async () => {
    const h = scriptedHeight(7);
    cache = cacheOn(h.read, 1000);
    const first = await cache.answer('/a', async () => body('A'));
    expect(first.outcome).toBe('bypass');
    await new Promise((r) => setImmediate(r));
    expect(h.source.reads).toBe(1); // started by the first answer
    expect(cache.currentHeight).toBe(7);
  });

  it('computes once per key and height, then serves the kept bytes', async () => {
    await ready();
    let computed = 0;
    const compute = async () => body(`answer ${++computed}`);
    const miss = await cache.answer('/a', compute);
    const hit = await cache.answer('/a', compute);
    expect([miss.outcome, hit.outcome]).toEqual(['miss', 'hit']);
    expect(hit.body.toString()).toBe('answer 1');
    expect((await cache.answer('/b', compute)).body.toString()).toBe('answer 2');
    expect(computed).toBe(2);
  });

  it('a new height empties it', async () => {
    const source = await ready();
    await cache.answer('/a', async () => body('old'));
    source.height = 11;
    await cache.poll();
    expect(cache.size).toBe(0);
    const after = await cache.answer('/a', async () => body('new'));
    expect([after.outcome, after.body.toString()]).toEqual(['miss', 'new']);
  });

  it('a lower height (a rewind) empties it too', async () => {
    const source = await ready();
    await cache.answer('/a', async () => body('before rewind'));
    source.height = 9;
    await cache.poll();
    expect((await cache.answer('/a', async () => body('after rewind'))).body.toString()).toBe('after rewind');
  });

  it('does not keep an answer whose height moved while it was computed', async () => {
    const source = await ready();
    const gate = deferred<void>();
    const slow = cache.answer('/a', async () => {
      await gate.promise;
      return body('computed across two heights');
    });
    source.height = 11;
    await cache.poll();
    gate.resolve();
    expect((await slow).outcome).toBe('miss');
    expect(cache.size).toBe(0);
    expect((await cache.answer('/a', async () => body('fresh'))).body.toString()).toBe('fresh');
  });

  it('concurrent misses of one key share one computation', async () => {
    await ready();
    const gate = deferred<void>();
    let computed = 0;
    const compute = async () => {
      computed++;
      await gate.promise;
      return body('shared');
    };
    const all = Promise.all([cache.answer('/a', compute), cache.answer('/a', compute), cache.answer('/a', compute)]);
    gate.resolve();
    const outcomes = (await all).map((a) => a.outcome);
    expect(outcomes).toEqual(['miss', 'collapsed', 'collapsed']);
    expect(computed).toBe(1);
  });

  it('an error is shared by the joined requests and never kept', async () => {
    await ready();
    const gate = deferred<void>();
    const failing = async () => {
      await gate.promise;
      throw new Error('not found');
    };
    const both = Promise.allSettled([cache.answer('/a', failing), cache.answer('/a', failing)]);
    gate.resolve();
    expect((await both).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((await cache.answer('/a', async () => body('later'))).outcome).toBe('miss');
  });

  it('keeps at most maxBytes, dropping the least recently used first', async () => {
    await ready(10, 80);
    await cache.answer('/a', async () => body('a'.repeat(10)));
    await cache.answer('/b', async () => body('b'.repeat(10)));
    await cache.answer('/a', async () => body('unused')); // /a is now the most recent
    for (let i = 0; i < 7; i++) await cache.answer(`/fill${i}`, async () => body('f'.repeat(10)));
    expect(cache.size).toBeLessThanOrEqual(80);
    expect((await cache.answer('/a', async () => body('a again'))).outcome).toBe('hit');
    expect((await cache.answer('/b', async () => body('b again'))).outcome).toBe('miss');
  });

  it('does not keep a body larger than an eighth of maxBytes', async () => {
    await ready(10, 80);
    await cache.answer('/big', async () => body('x'.repeat(11)));
    expect(cache.size).toBe(0);
    expect((await cache.answer('/big', async () => body('x'))).outcome).toBe('miss');
  });

  describe('answers with reconciler rows (perGeneration)', () => {
    const perGeneration = { perGeneration: true };

    it('are kept per height and reconciler generation: a new generation at the same height is a miss', async () => {
      const source = await ready();
      const kept = await cache.answer('/v1/invariants', async () => body('checks of g1'), perGeneration);
      const again = await cache.answer('/v1/invariants', async () => body('unused'), perGeneration);
      expect([kept.outcome, again.outcome, again.body.toString()]).toEqual(['miss', 'hit', 'checks of g1']);
      const nodeOnly = await cache.answer('/v1/blocks', async () => body('blocks'));
      source.generation = 'g2'; // the reconciler wrote a pass; the height did not move
      await cache.poll();
      const fresh = await cache.answer('/v1/invariants', async () => body('checks of g2'), perGeneration);
      expect([fresh.outcome, fresh.body.toString()]).toEqual(['miss', 'checks of g2']);
      // what depends on node rows alone is still kept for the height
      expect((await cache.answer('/v1/blocks', async () => body('unused'))).body).toEqual(nodeOnly.body);
    });

    it('are not kept when the generation moved while they were made', async () => {
      const source = await ready();
      const gate = deferred<void>();
      const slow = cache.answer(
        '/v1/invariants',
        async () => {
          await gate.promise;
          return body('made across two generations');
        },
        perGeneration,
      );
      source.generation = 'g2';
      await cache.poll();
      gate.resolve();
      expect((await slow).outcome).toBe('miss');
      expect(cache.size).toBe(0);
    });

    it('bypass it while the generation is unknown (not read)', async () => {
      const source = await ready();
      source.generation = undefined;
      await cache.poll();
      const r = await cache.answer('/v1/invariants', async () => body('made'), perGeneration);
      expect(r.outcome).toBe('bypass');
      expect((await cache.answer('/v1/blocks', async () => body('blocks'))).outcome).toBe('miss');
    });
  });

  it('when the height cannot be read, serves nothing kept', async () => {
    const source = await ready();
    await cache.answer('/a', async () => body('kept'));
    source.fail = true;
    await cache.poll();
    expect(cache.currentHeight).toBeUndefined();
    const r = await cache.answer('/a', async () => body('computed'));
    expect([r.outcome, r.body.toString()]).toEqual(['bypass', 'computed']);
  });

  it('a request that joined a computation cancelled with its own client computes the answer itself', async () => {
    await ready();
    let cancel!: (e: Error) => void;
    const computing = cache.answer('/a', () => new Promise<Buffer>((_resolve, reject) => (cancel = reject)));
    const joined = cache.answer('/a', async () => body('A'));
    cancel(new ClientGoneError());
    await expect(computing).rejects.toBeInstanceOf(ClientGoneError);
    expect(await joined).toEqual({ body: body('A'), outcome: 'miss' });
  });
});
