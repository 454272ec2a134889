/**
 * Versioned key-value store of the devnet application.
 *
 * - Committed state keeps, per key, its versions (height, value), so a read
 *   at a past height is a binary search (abci_query at a height). With a
 *   retention window (`keepRecent`), versions only a height older than the
 *   window could read are dropped every `pruneEvery` commits, as a pruned
 *   Cosmos SDK node does; reads below `earliestHeight` are refused.
 * - Writes of a block go to a branch (CacheKv over the committed store);
 *   `commit(height)` makes them visible and extends the app hash:
 *     app_hash = sha256(previous app hash ‖ canonical encoding of the block's
 *     write set sorted by key).
 * - A tx runs in a CacheKv over the block branch: a failed tx's writes are
 *   dropped by not calling `write()`. Caches nest (EVM reverts use one more).
 *
 * Values are plain data (objects, arrays, strings, numbers, booleans, bigint,
 * null) and are deep-frozen on `set`, so a stored version can never be mutated
 * behind the history's back: modules copy, then set.
 *
 * Keys are '/'-separated; the part up to and including the last '/' is the
 * key's parent. `keys(parent, range)` lists the existing keys directly under a
 * parent in sorted order, which is how modules iterate (holders of a kind,
 * expiry queues from a cursor). User-controlled key segments must go through
 * `keySegment` so they never contain '/'.
 */
import { createHash } from 'crypto';

/** Inclusive/exclusive bounds of a key range (full keys). */
export interface KeyRange {
  /** only keys strictly greater than this */
  gt?: string;
  /** only keys less than or equal to this */
  lte?: string;
}

export interface KvReader {
  get<T>(key: string): T | undefined;
  has(key: string): boolean;
  /** existing keys directly under `parent` (which ends with '/'), sorted, within `range` */
  keys(parent: string, range?: KeyRange): string[];
}

export interface KvWriter extends KvReader {
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

const TOMBSTONE: unique symbol = Symbol('deleted');
type Slot = unknown | typeof TOMBSTONE;

/** Upper bound for range queries: sorts after every printable key character. */
export const KEY_MAX = '\uffff';

/** The parent of a key: everything up to and including its last '/'. */
export function parentOf(key: string): string {
  return key.slice(0, key.lastIndexOf('/') + 1);
}

/** Escapes a user-controlled string for use inside a key segment ('/' and '|' are separators). */
export function keySegment(s: string): string {
  return s.replace(/%/g, '%25').replace(/\//g, '%2F').replace(/\|/g, '%7C');
}

/** Inverse of keySegment. */
export function unKeySegment(s: string): string {
  return s.replace(/%7C/g, '|').replace(/%2F/g, '/').replace(/%25/g, '%');
}

/** Zero-padded decimal, so numeric order equals key order. */
export function padNumber(n: number | bigint, width = 16): string {
  return n.toString().padStart(width, '0');
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}

// ------------------------------------------------------------------ sorted key lists

function lowerBound(sorted: string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBound(sorted: string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertSorted(sorted: string[], key: string): void {
  const i = lowerBound(sorted, key);
  if (sorted[i] !== key) sorted.splice(i, 0, key);
}

function sliceRange(sorted: string[], range: KeyRange = {}): string[] {
  const from = range.gt === undefined ? 0 : upperBound(sorted, range.gt);
  const to = range.lte === undefined ? sorted.length : upperBound(sorted, range.lte);
  return from < to ? sorted.slice(from, to) : [];
}

function inRange(key: string, range: KeyRange = {}): boolean {
  return (range.gt === undefined || key > range.gt) && (range.lte === undefined || key <= range.lte);
}

// ------------------------------------------------------------------ canonical encoding

/** Deterministic text of a stored value: object keys sorted, bigint tagged. */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'bigint':
      return `{"$n":"${value}"}`;
    case 'string':
      return JSON.stringify(value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      if (value === null) return 'null';
      return Array.isArray(value) ? canonicalArray(value) : canonicalObject(value as Record<string, unknown>);
    default:
      return 'null';
  }
}

function canonicalArray(list: unknown[]): string {
  let out = '[';
  for (let i = 0; i < list.length; i++) out += (i ? ',' : '') + canonicalJson(list[i]);
  return out + ']';
}

function canonicalObject(obj: Record<string, unknown>): string {
  const keys = Object.keys(obj).sort();
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = obj[k];
    if (v === undefined) continue;
    out += (first ? '' : ',') + JSON.stringify(k) + ':' + canonicalJson(v);
    first = false;
  }
  return out + '}';
}

/** sha256(previous ‖ utf8 of: for each write sorted by key, key NUL (value text | DEL for a delete) NUL). */
export function nextAppHash(previous: Uint8Array, writes: Map<string, Slot>): Uint8Array {
  let text = '';
  for (const key of [...writes.keys()].sort()) {
    const slot = writes.get(key);
    text += key + '\u0000' + (slot === TOMBSTONE ? '\u007f' : canonicalJson(slot)) + '\u0000';
  }
  // node's native sha256: the devnet runs in Node, and hashing is the commit's main cost
  return new Uint8Array(createHash('sha256').update(previous).update(text, 'utf8').digest());
}

// ------------------------------------------------------------------ committed store

interface History {
  heights: number[];
  values: Slot[];
}

/** Index of the last version at or below `height`, or -1. */
function versionAt(history: History, height: number): number {
  const hs = history.heights;
  if (hs[hs.length - 1] <= height) return hs.length - 1;
  let lo = 0;
  let hi = hs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (hs[mid] <= height) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** How long committed versions are kept (a pruned node's `pruning-keep-recent`). */
export interface Retention {
  /** heights kept readable: the latest and the `keepRecent - 1` before it (0: every height, no pruning) */
  keepRecent: number;
  /** prune once every this many commits (amortises the work; default keepRecent / 10, at least 1) */
  pruneEvery?: number;
}

/** A stored value in a form JSON can carry (bigint tagged as canonicalJson does), for snapshots. */
export type SnapshotEntry = [key: string, canonicalValue: string];

/** Parses canonicalJson text back to the stored value (bigint from its {"$n"} tag). */
export function parseCanonical(text: string): unknown {
  return JSON.parse(text, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === '$n') return BigInt((v as { $n: string }).$n);
    }
    return v;
  });
}

/** Committed, versioned state. Heights only grow. */
export class VersionedStore {
  private readonly histories = new Map<string, History>();
  /** every key with a version still kept, per parent, sorted (a deleted key stays while an older height can read it) */
  private readonly children = new Map<string, string[]>();
  private height = -1;
  private hash: Uint8Array = new Uint8Array(32);
  private versions = 0;
  /** lowest height reads are answered for (raised by pruning and by a restore) */
  private earliest = 0;
  /** keys that got a new version, per height: the only keys whose older versions pruning can drop */
  private overwritten: { height: number; keys: string[] }[] = [];
  private commitsSincePrune = 0;

  constructor(private readonly retention: Retention = { keepRecent: 0 }) {
    if (!Number.isInteger(retention.keepRecent) || retention.keepRecent < 0)
      throw new RangeError(`keepRecent must be a non-negative integer, got ${retention.keepRecent}`);
  }

  get latestHeight(): number {
    return this.height;
  }

  get appHash(): Uint8Array {
    return this.hash;
  }

  /** Lowest height whose state can still be read (0 when nothing was pruned). */
  get earliestHeight(): number {
    return this.earliest;
  }

  /** Keys with a kept version and the versions kept, for tests and measurements. */
  stats(): { keys: number; versions: number } {
    return { keys: this.histories.size, versions: this.versions };
  }

  /** Reader of the state as committed at `height` (the latest version at or below it). */
  readerAt(height: number): KvReader {
    if (height < this.earliest)
      throw new RangeError(`state at height ${height} was pruned (earliest kept height ${this.earliest})`);
    return new CommittedReader(this, height);
  }

  /** Reader that always sees the latest committed state. */
  latest(): KvReader {
    return new CommittedReader(this, Number.MAX_SAFE_INTEGER);
  }

  /** Applies a block's write set at `height` and returns the new app hash. */
  commit(height: number, writes: Map<string, Slot>): Uint8Array {
    if (height <= this.height) throw new Error(`commit height ${height} not above ${this.height}`);
    const overwritten: string[] = [];
    for (const [key, slot] of writes) if (this.record(key, height, slot)) overwritten.push(key);
    if (overwritten.length > 0) this.overwritten.push({ height, keys: overwritten });
    this.height = height;
    this.hash = nextAppHash(this.hash, writes);
    this.pruneWhenDue();
    return this.hash;
  }

  /** The latest committed value of every key, sorted by key (a snapshot of the state). */
  exportLatest(): SnapshotEntry[] {
    const entries: SnapshotEntry[] = [];
    for (const [key, history] of this.histories) {
      const slot = history.values[history.values.length - 1];
      if (slot !== TOMBSTONE) entries.push([key, canonicalJson(slot)]);
    }
    return entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  /**
   * Replaces the state with a snapshot taken at `height` (exportLatest) whose app hash was
   * `appHash`. Only that height and later ones are readable afterwards.
   */
  restore(height: number, appHash: Uint8Array, entries: SnapshotEntry[]): void {
    this.histories.clear();
    this.children.clear();
    this.overwritten = [];
    this.versions = 0;
    for (const [key, text] of entries) this.record(key, height, deepFreeze(parseCanonical(text)));
    this.height = height;
    this.hash = Uint8Array.from(appHash);
    this.earliest = height;
  }

  /** @returns whether the key already had versions (so an older one may become prunable) */
  private record(key: string, height: number, slot: Slot): boolean {
    let history = this.histories.get(key);
    const existed = history !== undefined;
    if (!history) {
      if (slot === TOMBSTONE) return false; // deleting a key that never existed changes nothing
      history = { heights: [], values: [] };
      this.histories.set(key, history);
      const parent = parentOf(key);
      let list = this.children.get(parent);
      if (!list) this.children.set(parent, (list = []));
      insertSorted(list, key);
    }
    history.heights.push(height);
    history.values.push(slot);
    this.versions += 1;
    return existed;
  }

  /** Every `pruneEvery` commits: cost proportional to the keys overwritten since, never to all keys. */
  private pruneWhenDue(): void {
    const { keepRecent } = this.retention;
    if (keepRecent === 0) return;
    this.commitsSincePrune += 1;
    if (this.commitsSincePrune < (this.retention.pruneEvery ?? Math.max(1, Math.floor(keepRecent / 10)))) return;
    this.commitsSincePrune = 0;
    this.pruneBelow(this.height - keepRecent + 1);
  }

  /** Drops the versions no height ≥ `keepFrom` reads; heights below it are refused from now on. */
  private pruneBelow(keepFrom: number): void {
    if (keepFrom <= this.earliest) return;
    let done = 0;
    const due = new Set<string>();
    // a version written at height h hides the previous one from every height ≥ h
    while (done < this.overwritten.length && this.overwritten[done].height <= keepFrom) {
      for (const key of this.overwritten[done].keys) due.add(key);
      done += 1;
    }
    this.overwritten = this.overwritten.slice(done);
    for (const key of due) this.pruneKey(key, keepFrom);
    this.earliest = keepFrom;
  }

  private pruneKey(key: string, keepFrom: number): void {
    const history = this.histories.get(key);
    if (!history) return;
    const first = versionAt(history, keepFrom); // the version height keepFrom reads: kept
    if (first > 0) {
      history.heights.splice(0, first);
      history.values.splice(0, first);
      this.versions -= first;
    }
    if (history.values.length === 1 && history.values[0] === TOMBSTONE) this.forget(key);
  }

  /** A key deleted at or before the earliest readable height no longer exists for any reader. */
  private forget(key: string): void {
    this.histories.delete(key);
    this.versions -= 1;
    const list = this.children.get(parentOf(key))!;
    list.splice(lowerBound(list, key), 1);
    if (list.length === 0) this.children.delete(parentOf(key));
  }

  /** @internal */
  slotAt(key: string, height: number): Slot {
    const history = this.histories.get(key);
    if (!history) return TOMBSTONE;
    const i = versionAt(history, height);
    return i < 0 ? TOMBSTONE : history.values[i];
  }

  /** @internal */
  childKeys(parent: string, range?: KeyRange): string[] {
    const list = this.children.get(parent);
    return list ? sliceRange(list, range) : [];
  }
}

class CommittedReader implements KvReader {
  constructor(
    private readonly store: VersionedStore,
    private readonly height: number,
  ) {}

  get<T>(key: string): T | undefined {
    const slot = this.store.slotAt(key, this.height);
    return slot === TOMBSTONE ? undefined : (slot as T);
  }

  has(key: string): boolean {
    return this.store.slotAt(key, this.height) !== TOMBSTONE;
  }

  keys(parent: string, range?: KeyRange): string[] {
    return this.store.childKeys(parent, range).filter((k) => this.has(k));
  }
}

// ------------------------------------------------------------------ cache (branch)

/** A write branch over a parent reader; `write()` flushes into a parent writer. */
export class CacheKv implements KvWriter {
  private readonly writes = new Map<string, Slot>();
  private readonly written = new Map<string, Set<string>>();

  constructor(private readonly parent: KvReader) {}

  get<T>(key: string): T | undefined {
    if (this.writes.has(key)) {
      const slot = this.writes.get(key);
      return slot === TOMBSTONE ? undefined : (slot as T);
    }
    return this.parent.get<T>(key);
  }

  has(key: string): boolean {
    if (this.writes.has(key)) return this.writes.get(key) !== TOMBSTONE;
    return this.parent.has(key);
  }

  set(key: string, value: unknown): void {
    if (value === undefined) throw new Error(`set ${key}: undefined value (use delete)`);
    this.put(key, deepFreeze(value));
  }

  delete(key: string): void {
    this.put(key, TOMBSTONE);
  }

  keys(parent: string, range?: KeyRange): string[] {
    const own = this.written.get(parent);
    const base = this.parent.keys(parent, range);
    if (!own) return base;
    const result = new Set(base);
    for (const key of own) {
      if (!inRange(key, range)) continue;
      if (this.writes.get(key) === TOMBSTONE) result.delete(key);
      else result.add(key);
    }
    return [...result].sort();
  }

  /** The pending write set (key → value or tombstone). */
  writeSet(): Map<string, Slot> {
    return this.writes;
  }

  get size(): number {
    return this.writes.size;
  }

  /** Flushes this branch into a parent writer. */
  writeTo(target: KvWriter): void {
    for (const [key, slot] of this.writes) {
      if (slot === TOMBSTONE) target.delete(key);
      else target.set(key, slot);
    }
  }

  private put(key: string, slot: Slot): void {
    this.writes.set(key, slot);
    const parent = parentOf(key);
    let set = this.written.get(parent);
    if (!set) this.written.set(parent, (set = new Set()));
    set.add(key);
  }
}
