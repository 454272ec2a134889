/**
 * The indexed height as the process knows it, read every `pollMs` in the background so a
 * request never pays a round trip for it. The response cache keeps answers per height, the
 * validators (http/validators.ts) derive head answers' ETags from it, and the render cache
 * (presenters/render-cache.ts) drops what it holds when it goes down (a rewind or reindex).
 * The same read gives the reconciler's generation (repositories/status.ts), for answers that
 * also read the reconciler's check rows: they are fixed per (height, generation).
 *
 * Polling starts with the first request that reached the store (`start`), so an app that is
 * built but never asked costs no query. A failed read makes the height unknown until the next.
 */

import { detached } from '../../src/http/cancel-on-disconnect';
import type { HeadReading } from '../db/head';

export type HeightListener = (height: number | undefined, previous: number | undefined) => void;

export class HeightWatcher {
  private height: number | undefined;
  private reconcilerGeneration: string | undefined;
  private interval: number | null = null;
  private listeners: HeightListener[] = [];
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  constructor(
    private readonly read: () => Promise<HeadReading>,
    /** false: never reads (tools that record every statement); the height then stays unknown */
    private readonly pollMs: number | false,
  ) {}

  /** The indexed height; undefined before the first poll or after a failed one. */
  get current(): number | undefined {
    return this.height;
  }

  /** The reconciler's generation read with the height (undefined when the height is, or when not read). */
  get generation(): string | undefined {
    return this.reconcilerGeneration;
  }

  /** Median of the latest block intervals (ms) at the last poll; null when unknown. */
  get blockIntervalMs(): number | null {
    return this.interval;
  }

  /** Called on every change of the height (after the first poll too), before anything reads it. */
  onChange(listener: HeightListener): void {
    this.listeners.push(listener);
  }

  /**
   * Called when the height goes down from one known height to a lower one: a rewind or a
   * reindex, after which what was kept from the old rows must go (not when it becomes unknown:
   * a failed poll says nothing about the rows).
   */
  onRewind(listener: () => void): void {
    this.onChange((height, previous) => {
      if (height !== undefined && previous !== undefined && height < previous) listener();
    });
  }

  /** Starts the background polls (once). */
  start(): void {
    if (this.timer || this.pollMs === false) return;
    const pollMs = this.pollMs;
    // started by a request, but never its own: a client going away must not cancel the polls
    detached(() => {
      this.timer = setInterval(() => void this.poll(), pollMs);
      this.timer.unref(); // never what keeps a process alive
      void this.poll();
    });
  }

  /** Reads the height now (tests, and the first request); later reads run every pollMs. */
  async poll(): Promise<void> {
    // shared by every request that waits for it: run outside any of them (cancel-on-disconnect.ts)
    this.polling ??= detached(() => this.read())
      .then(
        (r) => this.moveTo(r.indexedHeight, r.blockIntervalMs, r.reconcilerGeneration),
        () => this.moveTo(undefined, null, undefined), // cannot tell the height: nothing may rely on it
      )
      .finally(() => {
        this.polling = undefined;
      });
    return this.polling;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private moveTo(height: number | undefined, intervalMs: number | null, generation: string | undefined): void {
    this.interval = intervalMs;
    this.reconcilerGeneration = generation; // no listener: what is kept per generation says which one in its key
    if (height === this.height) return;
    const previous = this.height;
    this.height = height;
    for (const listener of this.listeners) listener(height, previous);
  }
}
