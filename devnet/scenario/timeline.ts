/**
 * Block times of a history: a fixed interval with a little seeded jitter and
 * a few big jumps (half a day to a day and a half), so a history spans
 * enough UTC days for daily series and lets expiries and coupon terms pass.
 */
import type { Prng } from './prng';

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** An interval that makes `blocks` blocks span about 14 days, kept between 5 s and 6 h. */
export function autoIntervalMs(blocks: number): number {
  const ideal = Math.round((14 * DAY_MS) / Math.max(1, blocks));
  return Math.min(6 * HOUR_MS, Math.max(5_000, ideal));
}

export class Timeline {
  /** times[h - 1] is the time of height h */
  readonly times: number[] = [];
  readonly maxJumpMs: number;

  constructor(startMs: number, intervalMs: number, blocks: number, rng: Prng) {
    const jumps = this.jumpHeights(blocks, intervalMs, rng);
    this.maxJumpMs = Math.max(0, ...jumps.values());
    // jitter below a fifth of the interval keeps times strictly increasing
    const jitter = Math.floor(intervalMs / 5);
    let shift = 0;
    for (let h = 1; h <= blocks; h++) {
      shift += jumps.get(h) ?? 0;
      const wobble = jitter > 0 && h > 1 ? rng.int(-jitter, jitter) : 0;
      this.times.push(startMs + (h - 1) * intervalMs + shift + wobble);
    }
  }

  private jumpHeights(blocks: number, intervalMs: number, rng: Prng): Map<number, number> {
    const out = new Map<number, number>();
    const count = blocks >= 40 ? Math.min(4, Math.floor(blocks / 40)) : 0;
    const from = Math.max(2, Math.floor(blocks * 0.15));
    const to = Math.max(from, Math.floor(blocks * 0.95));
    for (let i = 0; i < count; i++) {
      const size = Math.max(intervalMs, rng.int(12, 36) * HOUR_MS);
      out.set(rng.int(from, to), size);
    }
    return out;
  }

  timeOf(height: number): number {
    return this.times[height - 1];
  }

  /** Time from the first block to the last. */
  get spanMs(): number {
    return this.times.length ? this.times[this.times.length - 1] - this.times[0] : 0;
  }
}
