/**
 * The mappings' entity cache (src/mappings/infra/block-cache.ts): what is served from
 * memory, what goes back to the store, and when the cache forgets.
 */
import {
  adopt,
  enterBlock,
  flushDirty,
  IDLE_BLOCKS,
  keepVersions,
  load,
  markDirty,
  pendingWrites,
  put,
  queryAll,
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

interface Position extends StoredEntity {
  units: bigint;
  locks: { ref: string; units: string }[];
  updatedHeight: number;
}

interface PositionVersion extends StoredEntity {
  of: string;
  units: bigint;
  locks: { ref: string; units: string }[];
  fromHeight: number;
  toHeight: number;
}

/** A versioned entity class over `rows` (what the store holds), queryable for queryAll. */
function versionedClass(rows: Map<string, Omit<Position, 'id' | '_name'>>) {
  const row = (id: string): Position => {
    const r = rows.get(id)!;
    return { id, _name: 'Position', ...r, locks: r.locks.map((l) => ({ ...l })) };
  };
  const cls = {
    async get(id: string): Promise<Position | undefined> {
      return rows.has(id) ? row(id) : undefined;
    },
    async getByFields(): Promise<Position[]> {
      return [...rows.keys()].sort().map(row);
    },
  };
  keepVersions(cls, (p: Position, toHeight): PositionVersion => ({
    id: `${p.id}@${p.updatedHeight}`,
    _name: 'PositionVersion',
    of: p.id,
    units: p.units,
    locks: p.locks,
    fromHeight: p.updatedHeight,
    toHeight,
  }));
  return cls;
}

/** Changes a position as entities/ does: fields, its lock in place, `updatedHeight`, dirty. */
function change(p: Position, height: number, units: bigint): void {
  p.units = units;
  if (p.locks[0]) p.locks[0].units = String(units);
  p.updatedHeight = height;
  markDirty(p);
}

const versionsOf = () => pendingWrites().filter((e) => e._name === 'PositionVersion');

describe('block cache: versions of a versioned entity', () => {
  it('writes one version per stored row a block changes: the row as stored before the block, valid up to this height', async () => {
    fakeStore();
    const cls = versionedClass(
      new Map([['a', { units: 5n, locks: [{ ref: 'r', units: '5' }], updatedHeight: base - 3 }]]),
    );
    enterBlock(base);
    const a = (await load(cls, 'a')) as Position;
    change(a, base, 7n);
    change(a, base, 9n); // twice in the block: still one version
    const created = put(cls, { id: 'b', _name: 'Position', units: 1n, locks: [], updatedHeight: base } as Position);
    markDirty(created);
    expect(versionsOf()).toEqual([
      {
        id: `a@${base - 3}`,
        _name: 'PositionVersion',
        of: 'a',
        units: 5n,
        locks: [{ ref: 'r', units: '5' }], // not the lock changed in place since
        fromHeight: base - 3,
        toHeight: base,
      },
    ]);
    await flushDirty();
  });

  it('writes no version for a row read but not changed, nor for one marked without moving its height', async () => {
    const cls = versionedClass(
      new Map([
        ['a', { units: 5n, locks: [], updatedHeight: base - 3 }],
        ['b', { units: 6n, locks: [], updatedHeight: base - 2 }],
      ]),
    );
    enterBlock(base);
    await load(cls, 'a');
    markDirty((await load(cls, 'b')) as Position);
    expect(versionsOf()).toEqual([]);
  });

  it('writes no version for a position made in memory (never stored) and changed later; one once it was flushed', async () => {
    fakeStore();
    const cls = versionedClass(new Map());
    enterBlock(base);
    const zero = adopt(cls, { id: 'z', _name: 'Position', units: 0n, locks: [], updatedHeight: base } as Position);
    enterBlock(base + 1);
    change((await load(cls, 'z')) as Position, base + 1, 4n);
    expect(versionsOf()).toEqual([]);
    await flushDirty();
    enterBlock(base + 2);
    change((await load(cls, 'z')) as Position, base + 2, 6n);
    expect(versionsOf().map((v) => [v.id, (v as PositionVersion).units])).toEqual([[`z@${base + 1}`, 4n]]);
    expect(zero.units).toBe(6n);
  });

  it('copies a cached row that a query hands out without the store returning it', async () => {
    const cls = versionedClass(new Map([['a', { units: 5n, locks: [], updatedHeight: base - 3 }]]));
    enterBlock(base);
    await load(cls, 'a');
    cls.getByFields = async (): Promise<Position[]> => [];
    enterBlock(base + 1);
    const [a] = await queryAll(cls, [], () => true);
    change(a, base + 1, 8n);
    expect(versionsOf().map((v) => [v.id, (v as PositionVersion).units])).toEqual([[`a@${base - 3}`, 5n]]);
  });

  it('writes the same versions after a restart (an empty cache) as with the cache kept from the last block', async () => {
    const s = fakeStore();
    const rows = new Map([['a', { units: 5n, locks: [{ ref: 'r', units: '5' }], updatedHeight: base }]]);
    const cls = versionedClass(rows);
    const block = async (height: number) => {
      enterBlock(height);
      const [a] = await queryAll(cls, [], () => true);
      change(a, height, a.units + 1n);
      const out = versionsOf();
      await flushDirty();
      const p = a as Position;
      rows.set('a', { units: p.units, locks: p.locks.map((l) => ({ ...l })), updatedHeight: p.updatedHeight });
      return out;
    };
    await block(base + 1);
    const warm = await block(base + 2);
    rows.set('a', { units: 6n, locks: [{ ref: 'r', units: '6' }], updatedHeight: base + 1 }); // the store before base + 2
    enterBlock(base - 50); // a restart: another sandbox, nothing cached
    const replayed = await block(base + 2);
    expect(replayed).toEqual(warm);
    expect(warm).toHaveLength(1);
    expect(s.written.some((w) => w.name === 'PositionVersion')).toBe(true);
  });
});
