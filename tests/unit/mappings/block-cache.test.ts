/**
 * The mappings' entity cache (src/mappings/infra/block-cache.ts): what is served from
 * memory, what goes back to the store, and when the cache forgets.
 */
import {
  adopt,
  enterBlock,
  flushDirty,
  IDLE_BLOCKS,
  load,
  markDirty,
  put,
  type StoredEntity,
} from '../../../src/mappings/infra/block-cache';

interface Row extends StoredEntity {
  value: number;
}

/** An entity class whose `get` reads from `rows` and counts the reads. */
function fakeClass(rows: Map<string, number>) {
  const cls = {
    reads: 0,
    async get(id: string): Promise<Row | undefined> {
      cls.reads += 1;
      const value = rows.get(id);
      return value === undefined ? undefined : { id, _name: 'Row', value };
    },
  };
  return cls;
}

/** Records what flushDirty hands to the store. */
function fakeStore(): { written: { name: string; rows: unknown[] }[] } {
  const s = {
    written: [] as { name: string; rows: unknown[] }[],
    async bulkUpdate(name: string, rows: unknown[]) {
      s.written.push({ name, rows });
    },
  };
  (globalThis as unknown as { store: unknown }).store = s;
  return s;
}

// Heights are far apart per test so that no test inherits another's cache.
let base = 1_000;
beforeEach(() => {
  base += 10_000;
});

describe('block cache', () => {
  it('reads an id once per block, misses included', async () => {
    const cls = fakeClass(new Map([['a', 1]]));
    enterBlock(base);
    expect((await load(cls, 'a'))?.value).toBe(1);
    expect((await load(cls, 'a'))?.value).toBe(1);
    expect(await load(cls, 'absent')).toBeUndefined();
    expect(await load(cls, 'absent')).toBeUndefined();
    expect(cls.reads).toBe(2);
  });

  it('keeps entries into the next height, and starts empty after any other height change', async () => {
    const rows = new Map([['a', 1]]);
    const cls = fakeClass(rows);
    enterBlock(base);
    await load(cls, 'a');
    enterBlock(base + 1);
    await load(cls, 'a');
    expect(cls.reads).toBe(1);
    rows.set('a', 2); // another writer (e.g. another worker) changed it meanwhile
    enterBlock(base + 5);
    expect((await load(cls, 'a'))?.value).toBe(2);
    expect(cls.reads).toBe(2);
  });

  it(`drops entries nobody touched for ${IDLE_BLOCKS} blocks, keeps the ones in use`, async () => {
    const cls = fakeClass(
      new Map([
        ['idle', 1],
        ['busy', 2],
      ]),
    );
    const start = base - (base % IDLE_BLOCKS);
    enterBlock(start);
    await load(cls, 'idle');
    await load(cls, 'busy');
    for (let h = start + 1; h <= start + 2 * IDLE_BLOCKS; h++) {
      enterBlock(h);
      await load(cls, 'busy');
    }
    expect(cls.reads).toBe(2);
    await load(cls, 'idle');
    expect(cls.reads).toBe(3);
  });

  it('writes each changed entity once, as a plain object without its class, and nothing unchanged', async () => {
    const s = fakeStore();
    class Entity implements StoredEntity {
      readonly _name = 'Thing';
      constructor(
        public id: string,
        public value: number,
      ) {}
    }
    const cls = {
      async get(): Promise<Entity | undefined> {
        return undefined;
      },
    };
    enterBlock(base);
    const created = put(cls, new Entity('n', 1));
    markDirty(created);
    adopt(cls, new Entity('read-only', 5));
    await flushDirty();
    expect(s.written).toHaveLength(1);
    expect(s.written[0].name).toBe('Thing');
    expect(s.written[0].rows).toEqual([{ _name: 'Thing', id: 'n', value: 1 }]);
    // a plain object (of the host realm, here jest's, when util.parseEnv can make one), not a class instance
    expect(Object.getPrototypeOf(s.written[0].rows[0]).constructor.name).toBe('Object');
    await flushDirty();
    expect(s.written).toHaveLength(1);
  });

  it('adopt returns the cached copy (with its pending changes) rather than a staler query result', async () => {
    const cls = fakeClass(new Map([['a', 1]]));
    enterBlock(base);
    const cached = (await load(cls, 'a')) as Row;
    cached.value = 7;
    expect(adopt(cls, { id: 'a', _name: 'Row', value: 1 }).value).toBe(7);
  });
});
