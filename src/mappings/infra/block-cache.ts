/**
 * The block's entity store: reads through a cache, writes once per block.
 *
 * Why: every `store.get` crosses the sandbox boundary, and one block touches
 * the same rows (kinds, holdings, accruals, totals) from many handlers. The
 * first read of an id goes to the store; later reads get the cached object.
 * Handlers mutate cached objects and `markDirty` them; `flushDirty`, called
 * once at the end of the block handler, writes every changed entity with one
 * `store.bulkUpdate` per entity type. Writing there is safe: the node marks a
 * block processed only after its handlers return, and a crash replays the
 * block in a fresh sandbox (docs/indexer.md, "Crash consistency").
 *
 * The cache is kept from one block to the next one (height + 1) of the same
 * sandbox: this mapping is the only writer of its entities and every write goes
 * through `put`/`markDirty` here, so a cached entity (or a cached miss) is what
 * the store holds. Any other height change (node restart: new sandbox; --workers:
 * another worker processed blocks in between; a rewind) starts empty, and so
 * does a cache above MAX_CACHED entities. Entries nobody touched for
 * IDLE_BLOCKS blocks are dropped. Rows written once and never read again
 * (activity entries) are `append`ed: written with the block, never cached.
 *
 * A versioned entity (`keepVersions`) also keeps its history: at a stored row's first touch in a
 * block the cache copies it as the store holds it, and when the block changed the row (its
 * `updatedHeight` moved to this height) the block also writes that copy as a version, valid from
 * its `updatedHeight` up to this height (docs/indexer.md, "State at a past height: mechanism").
 * A row created in the block has no version; a row changed several times in the block gets one.
 * The versions are rows the block writes (`pendingWrites`), so the proof of indexing covers them
 * and a crash replay writes them again from the same stored rows.
 *
 * Writes cross the sandbox boundary as objects of the host realm when the host
 * offers an empty one (`util.parseEnv('')`, Node >= 20.12), else as plain sandbox
 * objects. The node deep-clones every entity it is given (lodash cloneDeep); a
 * sandbox object reaches it as a vm2 proxy, so that clone pays several proxy traps
 * per field, while a host object's fields are copied natively (measured in
 * docs/indexer.md, "Throughput"). Own fields only either way: a class instance
 * would drag its sandbox prototype along.
 */

import * as util from 'util';

/** What the generated entity classes provide. */
export interface StoredEntity {
  id: string;
  readonly _name: string;
}

export interface EntityClass<T extends StoredEntity> {
  get(id: string): Promise<T | undefined>;
}

/** A generated entity class with the store's field query (F: its typed filter expression). */
export interface QueryableClass<T extends StoredEntity, F> extends EntityClass<T> {
  getByFields(filter: F[], options: { limit: number; offset: number }): Promise<T[]>;
}

/** Rows per store query page: the node's default --query-limit. */
const PAGE = 100;

/** A cached entity (undefined: a cached miss) and the last height that read or wrote it. */
interface Slot {
  entity: StoredEntity | undefined;
  touched: number;
}

let cachedHeight = -1;
const byClass = new Map<unknown, Map<string, Slot>>();
const dirty = new Set<StoredEntity>();
const appended: StoredEntity[] = [];

/** Makes the version of a row from its pre-block copy: valid from its `updatedHeight` to `toHeight`. */
export type VersionMaker<T extends StoredEntity> = (before: T, toHeight: number) => StoredEntity;

const versioners = new Map<unknown, VersionMaker<StoredEntity>>();
/** The cached objects whose fields are what the store holds or will hold after this block's flush (not a zero position made in memory). */
let stored = new WeakSet<StoredEntity>();
/** A versioned row's copy as the store held it before this block touched it. */
const before = new Map<StoredEntity, { copy: StoredEntity; make: VersionMaker<StoredEntity> }>();

/** Keeps the history of `cls`'s rows (see the header); called once per entity, where it is created (entities/). */
export function keepVersions<T extends StoredEntity>(cls: EntityClass<T>, make: VersionMaker<T>): void {
  versioners.set(cls, make as VersionMaker<StoredEntity>);
}

/** A copy that later changes of the row cannot reach: its JSON fields (locks) are changed in place. */
function snapshot<T extends StoredEntity>(entity: T): T {
  const copy = { ...entity } as Record<string, unknown>;
  for (const key of Object.keys(copy)) {
    const v = copy[key];
    if (v !== null && typeof v === 'object')
      copy[key] = v instanceof Date ? new Date(v.getTime()) : JSON.parse(JSON.stringify(v));
  }
  return copy as T;
}

/** Copies a stored row of a versioned class at its first touch in the block. */
function remember(cls: unknown, entity: StoredEntity | undefined): void {
  if (!entity || before.has(entity) || !stored.has(entity)) return;
  const make = versioners.get(cls);
  if (make) before.set(entity, { copy: snapshot(entity), make });
}

/** The versions this block writes: one per stored row of a versioned class that the block changed. */
function versions(): StoredEntity[] {
  const out: StoredEntity[] = [];
  for (const e of dirty) {
    const b = before.get(e);
    if (!b) continue;
    const fromHeight = (b.copy as unknown as { updatedHeight: number }).updatedHeight;
    const toHeight = (e as unknown as { updatedHeight: number }).updatedHeight;
    if (toHeight === cachedHeight && fromHeight < cachedHeight) out.push(b.make(b.copy, cachedHeight));
  }
  return out;
}

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
  if (height !== cachedHeight + 1) {
    byClass.clear();
    stored = new WeakSet();
  } else if (height % IDLE_BLOCKS === 0) {
    dropIdle(height);
    if (cachedCount() > MAX_CACHED) byClass.clear();
  }
  cachedHeight = height;
  dirty.clear();
  appended.length = 0;
  before.clear();
}

const hostUtil = util as unknown as { parseEnv?: (content: string) => Record<string, unknown> };

/** An empty object made by the host realm, or null when the host has no way to make one. */
function emptyHostObject(): Record<string, unknown> | null {
  try {
    const made = hostUtil.parseEnv?.('');
    return made && typeof made === 'object' && Object.keys(made).length === 0 ? made : null;
  } catch {
    return null;
  }
}

const hostObjects = emptyHostObject() !== null;

/** A copy of an entity's own fields (what the node stores) without its class prototype, in the host realm when it can be. */
export function plain<T extends object>(entity: T): T {
  if (!hostObjects) return { ...entity };
  const out = emptyHostObject()!;
  for (const key of Object.keys(entity)) out[key] = (entity as Record<string, unknown>)[key];
  return out as T;
}

function mapOf(cls: unknown): Map<string, Slot> {
  let m = byClass.get(cls);
  if (!m) {
    m = new Map();
    byClass.set(cls, m);
  }
  return m;
}

/**
 * An entity the store gave holds the host's objects (a Date, a JSON field) behind vm2 proxies,
 * so every later read of them is a trap: the handlers' and, each block it is written, the proof
 * of indexing's walk over its fields. They are copied into the sandbox once, as the entity enters
 * the cache: a Date by its time, a JSON value through one host-side JSON.stringify (as infra/host
 * reads events). The values are the same; only where they live changes.
 */
function ownFields<T extends StoredEntity>(entity: T): T {
  const fields = entity as unknown as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    const v = fields[key];
    if (v === null || typeof v !== 'object') continue;
    const d = v as Partial<Date>;
    fields[key] =
      typeof d.getTime === 'function' && typeof d.toISOString === 'function'
        ? new Date(Number(d.getTime()))
        : JSON.parse(util.format('%j', v));
  }
  return entity;
}

/** The entity with that id (cached for the rest of the block; misses are cached too). */
export async function load<T extends StoredEntity>(cls: EntityClass<T>, id: string): Promise<T | undefined> {
  const m = mapOf(cls);
  const slot = m.get(id);
  if (slot) {
    slot.touched = cachedHeight;
    remember(cls, slot.entity);
    return slot.entity as T | undefined;
  }
  const row = await cls.get(id);
  const found = row && ownFields(row);
  m.set(id, { entity: found, touched: cachedHeight });
  if (found) {
    stored.add(found);
    remember(cls, found);
  }
  return found;
}

/** Caches a new entity (or one read by a query) and marks it for writing. */
export function put<T extends StoredEntity>(cls: EntityClass<T>, entity: T): T {
  const m = mapOf(cls);
  const previous = m.get(entity.id)?.entity;
  if (previous && previous !== entity && stored.has(previous)) {
    // a stored row replaced by a new object: its history continues from the stored one
    remember(cls, previous);
    const b = before.get(previous);
    if (b) before.set(entity, b);
  }
  m.set(entity.id, { entity, touched: cachedHeight });
  dirty.add(entity);
  return entity;
}

/** Marks a cached entity changed. */
export function markDirty(entity: StoredEntity): void {
  dirty.add(entity);
}

/** Caches an entity read through a query without marking it changed; returns the cached copy if there is one. */
export function adopt<T extends StoredEntity>(cls: EntityClass<T>, entity: T): T {
  return adoptRow(cls, entity, false);
}

/** `adopt`; `fromStore`: the entity is a row the store returned (else one made in memory, not stored yet). */
function adoptRow<T extends StoredEntity>(cls: EntityClass<T>, entity: T, fromStore: boolean): T {
  const m = mapOf(cls);
  const slot = m.get(entity.id);
  if (slot?.entity) {
    slot.touched = cachedHeight;
    remember(cls, slot.entity);
    return slot.entity as T;
  }
  m.set(entity.id, { entity: ownFields(entity), touched: cachedHeight });
  if (fromStore) {
    stored.add(entity);
    remember(cls, entity);
  }
  return entity;
}

/**
 * Every entity matching a store query, as this block sees it. The store holds what earlier
 * blocks wrote; this block's changes are still in the cache (written at the end of the block).
 * So each row the store returns is replaced by its cached copy, cached entities the store lacks
 * or holds with other values are added, and all are kept only if `matches` holds on their
 * current values. Sorted by id, as the store orders them, so the result does not depend on
 * what the cache held before the block.
 */
export async function queryAll<T extends StoredEntity, F>(
  cls: QueryableClass<T, F>,
  filter: F[],
  matches: (entity: T) => boolean,
): Promise<T[]> {
  const found = new Map<string, T>();
  for (let offset = 0; ; offset += PAGE) {
    const page = await cls.getByFields(filter, { limit: PAGE, offset });
    for (const row of page) found.set(row.id, adoptRow(cls, row, true));
    if (page.length < PAGE) break;
  }
  for (const [id, slot] of mapOf(cls)) if (slot.entity && !found.has(id)) found.set(id, slot.entity as T);
  const out = [...found.values()].filter(matches).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const e of out) remember(cls, e); // the cached rows the store did not return are touched too
  return out;
}

/** Queues a new entity that nobody reads in this block or later: written by `flushDirty`, never cached. */
export function append(entity: StoredEntity): void {
  appended.push(entity);
}

/**
 * Every entity the block writes so far, in the order `flushDirty` hands them to the store (the
 * last write of an id is the one kept): what the block's proof of indexing covers.
 */
export function pendingWrites(): StoredEntity[] {
  return [...dirty, ...appended, ...versions()];
}

/** Writes every changed and appended entity: one bulkUpdate (upsert) per entity type. */
export async function flushDirty(): Promise<void> {
  if (dirty.size === 0 && appended.length === 0) return;
  const byName = new Map<string, StoredEntity[]>();
  for (const e of pendingWrites()) {
    const list = byName.get(e._name);
    if (list) list.push(e);
    else byName.set(e._name, [e]);
  }
  for (const e of dirty) stored.add(e);
  dirty.clear();
  appended.length = 0;
  before.clear();
  for (const [name, list] of byName) await store.bulkUpdate(name, list.map(plain));
}
