/**
 * Per-block entity cache with dirty tracking.
 *
 * Why: every `store.get` crosses the sandbox boundary, and one block touches
 * the same rows (kinds, holdings, accruals, totals) from many handlers. The
 * first read of an id in a block goes to the store; later reads in the same
 * block get the cached object. Handlers mutate cached objects, `markDirty`
 * them, and `flushDirty` writes them with one `store.bulkUpdate` per entity
 * type at the end of the handler, so every handler leaves the store complete.
 *
 * The cache is kept from one block to the next one (height + 1) of the same
 * sandbox: this mapping is the only writer of its entities and every write goes
 * through `put`/`markDirty` here, so a cached entity (or a cached miss) is what
 * the store holds. Any other height change (node restart: new sandbox; --workers:
 * another worker processed blocks in between; a rewind) starts empty, and so
 * does a cache above MAX_CACHED entities. Entries nobody touched for
 * IDLE_BLOCKS blocks are dropped (rows written once, like txs and timeline
 * entries, would otherwise fill the heap and slow every GC).
 *
 * Writes cross the sandbox boundary as plain objects (own fields only): the node
 * deep-clones every entity it is given, and a class instance drags its sandbox
 * prototype along (every later property lookup on the copy then crosses vm2
 * proxies); a plain object's prototype maps to the host's Object.prototype.
 */

/** What the generated entity classes provide. */
export interface StoredEntity {
  id: string;
  readonly _name: string;
}

export interface EntityClass<T extends StoredEntity> {
  get(id: string): Promise<T | undefined>;
}

/** A cached entity (undefined: a cached miss) and the last height that read or wrote it. */
interface Slot {
  entity: StoredEntity | undefined;
  touched: number;
}

let cachedHeight = -1;
const byClass = new Map<unknown, Map<string, Slot>>();
const dirty = new Set<StoredEntity>();

/** Entities cached across consecutive blocks before the cache starts again empty. */
export const MAX_CACHED = 100_000;
/** Blocks without a touch after which an entry is dropped (checked every IDLE_BLOCKS blocks). */
export const IDLE_BLOCKS = 32;

function cachedCount(): number {
  let n = 0;
  for (const m of byClass.values()) n += m.size;
  return n;
}

function dropIdle(height: number): void {
  for (const m of byClass.values()) {
    for (const [id, slot] of m) if (slot.touched < height - IDLE_BLOCKS) m.delete(id);
  }
}

/** Enters `height`: the cache survives only the step to the next height (see the header). */
export function enterBlock(height: number): void {
  if (height === cachedHeight) return;
  if (height !== cachedHeight + 1) byClass.clear();
  else if (height % IDLE_BLOCKS === 0) {
    dropIdle(height);
    if (cachedCount() > MAX_CACHED) byClass.clear();
  }
  cachedHeight = height;
  dirty.clear();
}

/** A plain copy of an entity's own fields (what the node stores), without its class prototype. */
export function plain<T extends object>(entity: T): T {
  return { ...entity };
}

function mapOf(cls: unknown): Map<string, Slot> {
  let m = byClass.get(cls);
  if (!m) {
    m = new Map();
    byClass.set(cls, m);
  }
  return m;
}

/** The entity with that id (cached for the rest of the block; misses are cached too). */
export async function load<T extends StoredEntity>(cls: EntityClass<T>, id: string): Promise<T | undefined> {
  const m = mapOf(cls);
  const slot = m.get(id);
  if (slot) {
    slot.touched = cachedHeight;
    return slot.entity as T | undefined;
  }
  const found = await cls.get(id);
  m.set(id, { entity: found, touched: cachedHeight });
  return found;
}

/** Caches a new entity (or one read by a query) and marks it for writing. */
export function put<T extends StoredEntity>(cls: EntityClass<T>, entity: T): T {
  mapOf(cls).set(entity.id, { entity, touched: cachedHeight });
  dirty.add(entity);
  return entity;
}

/** Marks a cached entity changed. */
export function markDirty(entity: StoredEntity): void {
  dirty.add(entity);
}

/** Caches an entity read through a query without marking it changed; returns the cached copy if there is one. */
export function adopt<T extends StoredEntity>(cls: EntityClass<T>, entity: T): T {
  const m = mapOf(cls);
  const slot = m.get(entity.id);
  if (slot?.entity) {
    slot.touched = cachedHeight;
    return slot.entity as T;
  }
  m.set(entity.id, { entity, touched: cachedHeight });
  return entity;
}

/** Writes every changed entity: one bulkUpdate (upsert) per entity type. */
export async function flushDirty(): Promise<void> {
  if (dirty.size === 0) return;
  const byName = new Map<string, StoredEntity[]>();
  for (const e of dirty) {
    const list = byName.get(e._name);
    if (list) list.push(e);
    else byName.set(e._name, [e]);
  }
  dirty.clear();
  for (const [name, list] of byName) await store.bulkUpdate(name, list.map(plain));
}
