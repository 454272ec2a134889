/**
 * A price one trade cannot move (docs/app-services.md, "Market"): the block-weighted mean of
 * the chain's own pool price (Query/PoolPrice) over the last `windowBlocks` committed heights,
 * read with `abci_query` at each of those heights. A committed height never changes, so each
 * (asset, height) is read once and kept; a pass reads only the heights that are new. After a
 * restart the window is read again from the chain at those heights, so nothing waits for wall
 * time; a height the chain can no longer answer (pruned) leaves the asset without a price.
 */
import type { PoolPriceAt } from '../chain/queries';

export interface MarketPrice {
  assetId: string;
  poolId: number;
  /** the latest height, where spot was read */
  height: number;
  /** price_per_whole now: base units of the stable denom per whole share (Query/PoolPrice) */
  spot: bigint;
  /** mean of the per-height pool price over the last windowBlocks committed heights ending at `height` */
  twap: bigint;
  baseReserve: bigint;
  quoteReserve: bigint;
  /** |spot − twap| × 10000 / twap */
  divergenceBps: number;
}

/** What the oracle reads: the pool price at a committed height (omitted: the latest). */
export interface PoolPriceSource {
  poolPriceAt(assetId: string, denom: string, height?: number): Promise<PoolPriceAt | null>;
}

export interface PriceOracleOptions {
  source: PoolPriceSource;
  /** the stable denom prices are in */
  denom: string;
  /** PRICE_WINDOW_BLOCKS */
  windowBlocks: number;
  /** reads of past heights in flight at once (a rebuild after a restart reads the whole window) */
  concurrency?: number;
}

/** One committed height's end-of-block price; null: no pool (or an empty one) at that height. */
type Sample = { poolId: number; price: bigint } | null;

const BPS = 10_000n;

/** The block-weighted mean: each committed height is one sample. */
export function twapOf(prices: readonly bigint[]): bigint {
  if (!prices.length) throw new Error('a mean of no prices');
  return prices.reduce((a, b) => a + b, 0n) / BigInt(prices.length);
}

/** |spot − twap| × 10000 / twap, rounded up (so a bound is never passed by rounding); a zero twap diverges fully. */
export function divergenceBps(spot: bigint, twap: bigint): number {
  if (twap <= 0n) return spot === twap ? 0 : Number.MAX_SAFE_INTEGER;
  const diff = spot > twap ? spot - twap : twap - spot;
  return Number((diff * BPS + twap - 1n) / twap);
}

/** The heights of a window of `windowBlocks` ending at `height`; empty when the chain is not that tall yet. */
export function windowHeights(height: number, windowBlocks: number): number[] {
  const first = height - windowBlocks + 1;
  if (first < 1) return [];
  return Array.from({ length: windowBlocks }, (_, i) => first + i);
}

export class PriceOracle {
  /** asset id → height → sample (committed heights only) */
  private readonly samples = new Map<string, Map<number, Sample>>();

  constructor(private readonly o: PriceOracleOptions) {
    if (!(o.windowBlocks >= 1)) throw new Error('the price window needs at least one block');
  }

  get windowBlocks(): number {
    return this.o.windowBlocks;
  }

  /** null: no pool against the stable denom, or the window is not filled (a new pool, a pruned history) */
  async price(assetId: string): Promise<MarketPrice | null> {
    const spot = await this.o.source.poolPriceAt(assetId, this.o.denom);
    if (!spot || spot.pricePerWhole <= 0n) return null;
    const heights = windowHeights(spot.height, this.o.windowBlocks);
    if (!heights.length) return null;
    const known = this.knownSamples(assetId, heights[0]);
    known.set(spot.height, { poolId: spot.poolId, price: spot.pricePerWhole });
    if (!(await this.readMissing(assetId, heights, known))) return null;
    const prices: bigint[] = [];
    for (const h of heights) {
      const s = known.get(h);
      if (!s || s.poolId !== spot.poolId) return null; // no pool yet at h, or another pool: not filled
      prices.push(s.price);
    }
    const twap = twapOf(prices);
    return {
      assetId,
      poolId: spot.poolId,
      height: spot.height,
      spot: spot.pricePerWhole,
      twap,
      baseReserve: spot.baseReserve,
      quoteReserve: spot.quoteReserve,
      divergenceBps: divergenceBps(spot.pricePerWhole, twap),
    };
  }

  /** The asset's kept samples, without those below the window. */
  private knownSamples(assetId: string, firstHeight: number): Map<number, Sample> {
    let known = this.samples.get(assetId);
    if (!known) this.samples.set(assetId, (known = new Map()));
    for (const h of known.keys()) if (h < firstHeight) known.delete(h);
    return known;
  }

  /** Reads every height of the window not kept yet; false when one of them cannot be read. */
  private async readMissing(assetId: string, heights: number[], known: Map<number, Sample>): Promise<boolean> {
    const missing = heights.filter((h) => !known.has(h));
    const concurrency = this.o.concurrency ?? 16;
    let ok = true;
    for (let i = 0; i < missing.length && ok; i += concurrency) {
      const batch = missing.slice(i, i + concurrency);
      const read = await Promise.allSettled(batch.map((h) => this.o.source.poolPriceAt(assetId, this.o.denom, h)));
      read.forEach((r, j) => {
        if (r.status === 'rejected' || (r.value && r.value.height !== batch[j])) ok = false;
        else known.set(batch[j], r.value ? { poolId: r.value.poolId, price: r.value.pricePerWhole } : null);
      });
    }
    return ok;
  }
}
