/**
 * Rendered JSON text of committed things, made once and reused by every answer that
 * includes them: a committed tx never changes, so its Tx object (decoded events, EVM view,
 * messages) is the same text in a tx-by-hash answer, every /v1/txs page, a block and
 * /v1/stats. Pages are then assembled from the kept fragments (json.ts splices RawJson).
 *
 * Kept per identity key (the tx hash) with a stamp of the row it was rendered from (height,
 * tx_index, block time): a hit needs the same stamp, so a tx re-indexed elsewhere after a
 * rewind is rendered again. A rewind or reindex (the indexed height going down, seen by the
 * app's HeightWatcher) empties it as well. Least recently used first out, bounded by
 * `maxBytes` of UTF-8 text plus ENTRY_OVERHEAD per entry.
 *
 * The text is kept as UTF-8 bytes outside the V8 heap (a Buffer), which answers copy as they
 * are (json.ts toJsonBytes): tens of megabytes of long-lived strings in the heap are copied by
 * every promotion and marked by every full GC, which slowed every answer of the process, not
 * only the ones it served.
 *
 * An entry may carry one alias (a tx's EVM hash), under which `peek` finds it too.
 */

export interface RenderCacheOptions {
  /** bytes of rendered text kept (least recently used go first) */
  maxBytes: number;
}

interface Rendered {
  stamp: string;
  utf8: Buffer;
  alias?: string;
}

/** Bytes counted per entry beside its text and key (Map slot, entry object, stamp). */
export const ENTRY_OVERHEAD = 96;
/** The largest single text kept, as a share of maxBytes (one huge tx must not flush the rest). */
const MAX_ENTRY_SHARE = 8;

/** The UTF-8 bytes of `text` in a Buffer of its own (Buffer.from would slice a shared pool slab and keep all of it alive). */
function unpooledUtf8(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  bytes.write(text, 'utf8');
  return bytes;
}

export class RenderCache {
  private entries = new Map<string, Rendered>();
  /** alias → key of the entry that carries it */
  private aliases = new Map<string, string>();
  private keptBytes = 0;
  private hitCount = 0;
  private missCount = 0;

  constructor(private readonly options: RenderCacheOptions) {}

  /** Bytes counted now. */
  get size(): number {
    return this.keptBytes;
  }

  /** Entries kept now. */
  get count(): number {
    return this.entries.size;
  }

  /** Hits and misses since start (tests, benchmarks). */
  get stats(): { hits: number; misses: number } {
    return { hits: this.hitCount, misses: this.missCount };
  }

  /** Whether a text is kept for `key` or under the alias `key` (of any stamp): the thing was committed when it was rendered. */
  has(key: string): boolean {
    return this.entries.has(key) || this.aliases.has(key);
  }

  /**
   * The UTF-8 text kept for `key` if it was rendered from a row of the same `stamp`; else
   * render, keep (with `alias`, if any) and return it. The bytes are shared: never write to them.
   */
  bytes(key: string, stamp: string, render: () => string, alias?: string): Buffer {
    const kept = this.entries.get(key);
    if (kept !== undefined && kept.stamp === stamp) {
      this.touch(key, kept);
      this.hitCount++;
      return kept.utf8;
    }
    this.missCount++;
    const utf8 = unpooledUtf8(render());
    if (kept !== undefined) this.drop(key, kept);
    this.keep(key, { stamp, utf8, ...(alias ? { alias } : {}) });
    return utf8;
  }

  /**
   * The text kept for `key` or for an entry aliased `key`, of whatever stamp (the thing was
   * committed when it was rendered, and a rewind empties the cache) or only of `stamp` when
   * given: undefined when none is.
   */
  peek(key: string, stamp?: string): Buffer | undefined {
    const entryKey = this.entries.has(key) ? key : this.aliases.get(key);
    const kept = entryKey === undefined ? undefined : this.entries.get(entryKey);
    if (kept === undefined || (stamp !== undefined && kept.stamp !== stamp)) return undefined;
    this.touch(entryKey!, kept);
    this.hitCount++;
    return kept.utf8;
  }

  /** Forgets everything (a rewind). */
  clear(): void {
    this.entries = new Map();
    this.aliases = new Map();
    this.keptBytes = 0;
  }

  private cost(key: string, r: Rendered): number {
    return (
      key.length + r.stamp.length + r.utf8.length + ENTRY_OVERHEAD + (r.alias ? r.alias.length + ENTRY_OVERHEAD : 0)
    );
  }

  /** Most recently used goes last. */
  private touch(key: string, r: Rendered): void {
    this.entries.delete(key);
    this.entries.set(key, r);
  }

  private drop(key: string, r: Rendered): void {
    this.entries.delete(key);
    if (r.alias !== undefined && this.aliases.get(r.alias) === key) this.aliases.delete(r.alias);
    this.keptBytes -= this.cost(key, r);
  }

  private keep(key: string, r: Rendered): void {
    const cost = this.cost(key, r);
    if (cost > this.options.maxBytes / MAX_ENTRY_SHARE) return;
    this.entries.set(key, r);
    if (r.alias !== undefined) this.aliases.set(r.alias, key);
    this.keptBytes += cost;
    for (const [oldest, kept] of this.entries) {
      if (this.keptBytes <= this.options.maxBytes) break;
      this.drop(oldest, kept);
    }
  }
}
