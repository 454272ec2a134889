/**
 * When each height was first seen: committed by the chain (its RPC `status`), indexed (the
 * store's `_metadata.lastProcessedHeight`), each read by a tight poll on its own connection.
 * A height the poll skipped over (two committed between reads) gets the time of the read that
 * showed it. And the percentiles the head-of-chain benches print.
 */
import type { Client } from 'pg';

export interface Dist {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function dist(values: number[]): Dist {
  const s = values.filter((x) => Number.isFinite(x)).sort((x, y) => x - y);
  return {
    n: s.length,
    p50: percentile(s, 50),
    p90: percentile(s, 90),
    p99: percentile(s, 99),
    max: s[s.length - 1] ?? NaN,
  };
}

/** Polls `read` every `pollMs` and notes when each height first showed. */
export class HeightWatcher {
  readonly seenAt = new Map<number, number>();
  /** the highest height seen (-1 before the first) */
  height = -1;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly read: () => Promise<number>,
    private readonly pollMs: number,
  ) {}

  start(): void {
    this.loop ??= (async () => {
      while (!this.stopped) {
        try {
          const h = await this.read();
          const now = Date.now();
          if (this.height >= 0) for (let x = this.height + 1; x <= h; x++) this.seenAt.set(x, now);
          if (h > this.height) {
            this.height = h;
            for (const w of this.waiters.splice(0)) w();
          }
        } catch {
          /* not there yet (no schema, the server starting): the next read */
        }
        await new Promise((r) => setTimeout(r, this.pollMs));
      }
    })();
  }

  /** Resolves when a height above the current one shows. */
  next(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const w of this.waiters.splice(0)) w();
    await this.loop;
  }
}

/** `_metadata.lastProcessedHeight` of `schema` (the node writes it in the flush that commits the height). */
export function indexedHeightWatcher(db: Client, schema: string, pollMs = 10): HeightWatcher {
  return new HeightWatcher(async () => {
    const r = await db.query(`SELECT value FROM "${schema}"._metadata WHERE key = 'lastProcessedHeight'`);
    return Number(r.rows[0]?.value ?? -1);
  }, pollMs);
}

/** The chain's latest height from its RPC `status` (CometBFT: latest_block_height, set when the block is committed). */
export function chainHeightWatcher(rpcUrl: string, pollMs = 20): HeightWatcher {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'status', params: {} });
  return new HeightWatcher(async () => {
    const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await res.text();
    const m = /"latest_block_height":"(\d+)"/.exec(text);
    if (!m) throw new Error('status without a height');
    return Number(m[1]);
  }, pollMs);
}
