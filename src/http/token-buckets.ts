/**
 * Token buckets, one per client: a bucket holds up to `burst` units and refills at `perSecond`
 * units a second; a request is let through when its bucket holds its cost. The buckets live in
 * this process's memory: behind a load balancer each replica counts on its own, so a client's
 * budget is (replicas x budget) at most. The number of buckets is bounded; the least recently
 * seen client is forgotten first (it comes back with a full bucket, which is what a client
 * idle that long would hold anyway).
 */

export interface Budget {
  /** units added back each second */
  perSecond: number;
  /** units a full bucket holds: the most one client can spend at once */
  burst: number;
}

export interface Take {
  allowed: boolean;
  /** units left after this take (0 when refused) */
  remaining: number;
  /** seconds until the bucket is full again */
  fullInSeconds: number;
  /** when refused: seconds until the bucket holds the cost */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly maxClients = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The bucket of `key` refilled up to now, moved to the most recently seen end. */
  private bucket(key: string, budget: Budget): Bucket {
    const now = this.now();
    const found = this.buckets.get(key);
    const bucket = found ?? { tokens: budget.burst, at: now };
    if (found) {
      this.buckets.delete(key); // re-inserted: Map order is recency
      bucket.tokens = Math.min(budget.burst, bucket.tokens + ((now - bucket.at) / 1000) * budget.perSecond);
      bucket.at = now;
    }
    this.buckets.set(key, bucket);
    if (!found) this.evict();
    return bucket;
  }

  private evict(): void {
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= this.maxClients) return;
      this.buckets.delete(key);
    }
  }

  /** Takes `cost` units when the bucket holds them; a refused take takes nothing. */
  take(key: string, budget: Budget, cost: number): Take {
    const bucket = this.bucket(key, budget);
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return { allowed: true, ...this.state(bucket, budget), retryAfterSeconds: 0 };
    }
    const wait = (cost - bucket.tokens) / budget.perSecond;
    return { allowed: false, ...this.state(bucket, budget), retryAfterSeconds: Math.max(1, Math.ceil(wait)) };
  }

  /**
   * Adds `units` back (a negative number takes more: what an answer cost beyond its estimate).
   * The bucket may go below zero: the client then waits until it has refilled.
   */
  adjust(key: string, budget: Budget, units: number): void {
    const bucket = this.bucket(key, budget);
    bucket.tokens = Math.min(budget.burst, bucket.tokens + units);
  }

  /** Remaining units and seconds until full, without taking anything. */
  peek(key: string, budget: Budget): { remaining: number; fullInSeconds: number } {
    return this.state(this.bucket(key, budget), budget);
  }

  private state(bucket: Bucket, budget: Budget): { remaining: number; fullInSeconds: number } {
    return {
      remaining: Math.max(0, bucket.tokens),
      fullInSeconds: Math.max(0, (budget.burst - bucket.tokens) / budget.perSecond),
    };
  }

  get size(): number {
    return this.buckets.size;
  }
}
