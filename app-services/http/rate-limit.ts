/**
 * A sliding-window rate limit per key (a client address, or an account): at most `limit`
 * hits in any `windowMs`. Kept in this process's memory: behind a load balancer each
 * replica counts on its own (docs/app-services.md). The number of keys is bounded; the
 * least recently seen are forgotten first.
 */
export interface RateDecision {
  allowed: boolean;
  /** whole seconds until the oldest counted hit leaves the window (0 when allowed) */
  retryAfterSeconds: number;
}

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a hit for `key` when it is allowed; a refused hit is not counted. */
  hit(key: string): RateDecision {
    const now = this.now();
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    this.hits.delete(key); // re-inserted below: Map order is recency
    if (recent.length >= this.limit) {
      this.hits.set(key, recent);
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0] + this.windowMs - now) / 1000)) };
    }
    recent.push(now);
    this.hits.set(key, recent);
    this.evict();
    return { allowed: true, retryAfterSeconds: 0 };
  }

  private evict(): void {
    for (const key of this.hits.keys()) {
      if (this.hits.size <= this.maxKeys) return;
      this.hits.delete(key);
    }
  }
}
