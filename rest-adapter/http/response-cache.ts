/**
 * Answers kept per indexed height. Everything the node writes changes only when it commits
 * a flush, and it commits `_metadata.lastProcessedHeight` in the same transaction, so an
 * answer computed from node-written rows stays the answer until that height moves. Only
 * routes whose answer depends on node-written rows alone use it, and routes that also read
 * the reconciler's check rows (written independently of heights) `perGeneration`: their
 * answers are kept under the reconciler's generation too (the watcher reads it with the
 * height), so a new generation is a new key. Never an answer with the wall clock in it.
 *
 * The height comes from the app's HeightWatcher (polled every `pollMs`), not read per
 * request, so a request served from here costs no database round trip. The rule that keeps answers exact:
 * - an answer is stored under the height (and generation) the poller showed when its request
 *   started, and only if the poller still shows them when it is done; its snapshot was taken
 *   after the poll, so it is of that height or newer, never older;
 * - a new height (or a lower one, after a rewind) empties the cache; answers of an older
 *   generation at the same height are never asked for again and go as the least recently used.
 * So an answer from here is at most `pollMs` (plus one poll query) behind the store.
 *
 * Concurrent misses of one key share one computation ("collapsed", RFC 9211 wording).
 */

import { ClientGoneError, sharedWork } from '../../src/http/cancel-on-disconnect';
import type { HeightWatcher } from './height-watcher';

export interface ResponseCacheOptions {
  /** total body bytes kept (least recently used go first) */
  maxBytes: number;
  /** how often the indexed height is read (ms; the app's HeightWatcher) */
  pollMs: number;
}

/** Where the answer came from, for the `Cache-Status` header (RFC 9211). */
export type CacheOutcome = 'hit' | 'miss' | 'collapsed' | 'bypass';

export interface CachedAnswer {
  body: Buffer;
  outcome: CacheOutcome;
}

/** The largest single body kept, as a share of maxBytes (one huge page must not flush the rest). */
const MAX_ENTRY_SHARE = 8;

export class ResponseCache {
  private entries = new Map<string, Buffer>();
  /** answers being computed, and how to keep a computation from being cancelled once another request waits for it */
  private inflight = new Map<string, { body: Promise<Buffer>; share: () => void }>();
  private bytes = 0;

  constructor(
    private readonly watcher: HeightWatcher,
    private readonly options: Pick<ResponseCacheOptions, 'maxBytes'>,
  ) {
    watcher.onChange(() => this.empty()); // a new height, a lower one after a rewind, or unknown
  }

  /** The indexed height answers are kept for; undefined before the first poll or after a failed one. */
  get currentHeight(): number | undefined {
    return this.watcher.current;
  }

  /** Bytes of bodies kept now. */
  get size(): number {
    return this.bytes;
  }

  /**
   * The answer for `key` at the current height (and reconciler generation, `perGeneration`):
   * kept, joined, or computed by `compute`.
   */
  async answer(
    key: string,
    compute: () => Promise<Buffer>,
    o: { perGeneration?: boolean } = {},
  ): Promise<CachedAnswer> {
    const height = this.watcher.current;
    const generation = o.perGeneration ? this.watcher.generation : undefined;
    if (height === undefined || (o.perGeneration && generation === undefined)) {
      const body = await compute();
      this.watcher.start(); // after a request that reached the store: a refused one (400) starts nothing
      return { body, outcome: 'bypass' };
    }
    // a URL has no space: a generation's keys are apart from other keys
    if (o.perGeneration) key = `${generation} ${key}`;
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.entries.delete(key); // most recently used goes last
      this.entries.set(key, kept);
      return { body: kept, outcome: 'hit' };
    }
    const running = this.inflight.get(key);
    if (running !== undefined) {
      running.share(); // its client going away must not cancel what this request waits for
      try {
        return { body: await running.body, outcome: 'collapsed' };
      } catch (e) {
        if (!(e instanceof ClientGoneError)) throw e;
        // cancelled before this request joined: computed again below, for this client
      }
    }

    const inflight = this.inflight;
    const computing = { body: compute(), share: sharedWork() };
    inflight.set(key, computing);
    try {
      const body = await computing.body;
      const unmoved = this.watcher.current === height && (!o.perGeneration || this.watcher.generation === generation);
      if (unmoved && this.inflight === inflight) this.keep(key, body);
      return { body, outcome: 'miss' };
    } finally {
      if (inflight.get(key) === computing) inflight.delete(key);
    }
  }

  private empty(): void {
    this.entries = new Map();
    this.inflight = new Map(); // computations of the old height finish but are not kept
    this.bytes = 0;
  }

  private keep(key: string, body: Buffer): void {
    if (body.length > this.options.maxBytes / MAX_ENTRY_SHARE) return;
    this.entries.set(key, body);
    this.bytes += body.length;
    for (const [oldest, b] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= b.length;
    }
  }
}
