/**
 * A price one trade cannot move (docs/app-services.md, "Market"): the block-weighted mean of
 * the chain's own pool price (Query/PoolPrice) over the last `windowBlocks` committed heights,
 * read with `abci_query` at each of those heights. A committed height never changes, so each
 * (asset, height) is read once and kept: in memory, and in the app schema (`price_samples`),
 * so a restarted service has its window at once instead of reading it again from a chain that
 * may no longer answer those heights (the embedded devnet restored from its files does not).
 * A pass reads only the heights that are new.
 *
 * Besides the mean, the window's lower median (`median`): the price the lender lends at is the
 * lowest of spot, twap and that median (`lendablePrice`). A mean moves with every block of a
 * pump (k blocks at x× lift it by k·(x−1)/window); the median does not move until more than
 * half the window's blocks closed at the higher price, whatever the pump's size.
 *
 * Without a price, `read` says why: no pool now, or a window still filling (a new pool, or
 * heights neither kept nor readable), with how far it has filled.
 */
import type { PoolPriceAt } from '../chain/queries';
import { ChainUnreachable } from '../../src/client/query-errors';
import { quoteReserveAt } from './units';

export interface MarketPrice {
  assetId: string;
  poolId: number;
  /** the latest height, where spot was read */
  height: number;
  /** price_per_whole now: base units of the stable denom per whole share (Query/PoolPrice) */
  spot: bigint;
  /** mean of the per-height pool price over the last windowBlocks committed heights ending at `height` */
  twap: bigint;
  /**
   * the lower median of the same per-height prices: the ⌈window/2⌉-th smallest. It reaches a
   * price L only once more than half the window's heights closed at L or above
   */
  median: bigint;
  baseReserve: bigint;
  quoteReserve: bigint;
  /** |spot − twap| × 10000 / twap */
  divergenceBps: number;
}

/** Why there is no price. */
export type NoPrice =
  | { why: 'no_pool' }
  /** the latest `filled` of the window's `of` heights have a sample of today's pool */
  | { why: 'window_filling'; filled: number; of: number };

export type PriceReading = { price: MarketPrice } | { price: null; missing: NoPrice };

/** What the oracle reads: the pool price at a committed height (omitted: the latest). */
export interface PoolPriceSource {
  poolPriceAt(assetId: string, denom: string, height?: number): Promise<PoolPriceAt | null>;
}

/** One committed height's end-of-block price; null: no pool (or an empty one) at that height. */
export type Sample = { poolId: number; price: bigint } | null;

/** Where samples outlive the process (app-services/store/price-samples.ts). */
export interface SampleStore {
  /** the kept samples of an asset at heights from..to */
  load(assetId: string, from: number, to: number): Promise<Map<number, Sample>>;
  save(assetId: string, samples: ReadonlyMap<number, Sample>): Promise<void>;
  /** forgets the asset's samples below `height` */
  prune(assetId: string, height: number): Promise<void>;
}

export interface PriceOracleOptions {
  source: PoolPriceSource;
  /** the stable denom prices are in */
  denom: string;
  /** PRICE_WINDOW_BLOCKS */
  windowBlocks: number;
  /** reads of past heights in flight at once (a window the store does not hold is read whole) */
  concurrency?: number;
  /** undefined: samples live in memory only */
  store?: SampleStore;
}

const BPS = 10_000n;

/** The block-weighted mean: each committed height is one sample. */
export function twapOf(prices: readonly bigint[]): bigint {
  if (!prices.length) throw new Error('a mean of no prices');
  return prices.reduce((a, b) => a + b, 0n) / BigInt(prices.length);
}

/**
 * The lower median: the ⌈n/2⌉-th smallest of n prices (of two middle ones, the lower). It is at
 * least L only when more than n/2 of the prices are at least L: a pump of any size held for at
 * most half the window's heights leaves it at a price the window had without the pump.
 */
export function lowerMedian(prices: readonly bigint[]): bigint {
  if (!prices.length) throw new Error('a median of no prices');
  const sorted = [...prices].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted[(sorted.length - 1) >> 1];
}

/**
 * What a share is lent against (docs/app-services.md, "Market"): the lowest of spot, twap and
 * the window's lower median. A pump held for k ≤ window/2 heights moves it by 0 over a steady
 * window (the median stays); held longer, it is at most the twap, lifted by k·(x−1)/window of a
 * pump of x×, and it reaches L only once more than half the window closed at L or above.
 */
export function lendablePrice(p: Pick<MarketPrice, 'spot' | 'twap' | 'median'>): bigint {
  let low = p.spot < p.twap ? p.spot : p.twap;
  if (p.median < low) low = p.median;
  return low;
}

/**
 * What both services' pool-share caps are a share of: the pool's stable reserve at the lower
 * of now and the lendable price (x·y = k: quote × √(price/spot)), so a pump held a few blocks
 * (which lifts the twap, not the median) buys no room.
 */
export function poolShareReserve(p: Pick<MarketPrice, 'quoteReserve' | 'spot' | 'twap' | 'median'>): bigint {
  return quoteReserveAt(p.quoteReserve, p.spot, lendablePrice(p));
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

/** How many of the window's latest heights hold a sample of `poolId` in a row. */
function filledFor(heights: readonly number[], known: ReadonlyMap<number, Sample>, poolId: number): number {
  let n = 0;
  for (let i = heights.length - 1; i >= 0 && known.get(heights[i])?.poolId === poolId; i--) n++;
  return n;
}

/**
 * How long a height the chain answered it cannot serve (pruned, another height) is left alone
 * before it is asked again. A read that got no answer at all (ChainUnreachable) is not held
 * against its height: on a 100-block window at 1 s blocks it would leave no price for 100 s.
 */
const UNREADABLE_RETRY_MS = 30_000;

export class PriceOracle {
  /** asset id → height → sample (committed heights only) */
  private readonly samples = new Map<string, Map<number, Sample>>();
  /** asset id → the highest height the chain could not answer, and when it was asked */
  private readonly unreadable = new Map<string, { height: number; atMs: number }>();

  constructor(private readonly o: PriceOracleOptions) {
    if (!(o.windowBlocks >= 1)) throw new Error('the price window needs at least one block');
  }

  get windowBlocks(): number {
    return this.o.windowBlocks;
  }

  /** The robust price, or null (no pool against the stable denom, or the window is not filled). */
  async price(assetId: string): Promise<MarketPrice | null> {
    return (await this.read(assetId)).price;
  }

  /** The robust price, or why there is none. */
  async read(assetId: string): Promise<PriceReading> {
    const spot = await this.o.source.poolPriceAt(assetId, this.o.denom);
    if (!spot || spot.pricePerWhole <= 0n) return { price: null, missing: { why: 'no_pool' } };
    const heights = windowHeights(spot.height, this.o.windowBlocks);
    if (!heights.length) return { price: null, missing: { why: 'window_filling', filled: 0, of: this.o.windowBlocks } };
    const known = await this.knownSamples(assetId, heights);
    const fresh = new Map<number, Sample>([[spot.height, { poolId: spot.poolId, price: spot.pricePerWhole }]]);
    for (const [h, s] of await this.readMissing(assetId, heights, known, spot.height)) fresh.set(h, s);
    for (const [h, s] of fresh) known.set(h, s);
    await this.o.store?.save(assetId, fresh);
    const filled = filledFor(heights, known, spot.poolId);
    if (filled < heights.length)
      return { price: null, missing: { why: 'window_filling', filled, of: this.o.windowBlocks } };
    const prices = heights.map((h) => known.get(h)!.price);
    const twap = twapOf(prices);
    return {
      price: {
        assetId,
        poolId: spot.poolId,
        height: spot.height,
        spot: spot.pricePerWhole,
        twap,
        median: lowerMedian(prices),
        baseReserve: spot.baseReserve,
        quoteReserve: spot.quoteReserve,
        divergenceBps: divergenceBps(spot.pricePerWhole, twap),
      },
    };
  }

  /** The asset's kept samples within the window (from the store the first time), those below it forgotten. */
  private async knownSamples(assetId: string, heights: number[]): Promise<Map<number, Sample>> {
    const first = heights[0];
    let known = this.samples.get(assetId);
    if (!known) {
      known = (await this.o.store?.load(assetId, first, heights[heights.length - 1])) ?? new Map();
      this.samples.set(assetId, known);
    }
    let forgot = false;
    for (const h of known.keys())
      if (h < first) {
        known.delete(h);
        forgot = true;
      }
    if (forgot && first % this.o.windowBlocks === 0) await this.o.store?.prune(assetId, first);
    return known;
  }

  /**
   * Reads the heights of the window neither kept nor `latest` (read as spot already). A height
   * the chain cannot answer (pruned, or a restored devnet) stays missing: the window then
   * fills again from the heights after it.
   */
  private async readMissing(
    assetId: string,
    heights: number[],
    known: ReadonlyMap<number, Sample>,
    latest: number,
  ): Promise<Map<number, Sample>> {
    const gap = this.unreadable.get(assetId);
    const skipBelow = gap && Date.now() - gap.atMs < UNREADABLE_RETRY_MS ? gap.height : 0;
    const missing = heights.filter((h) => h !== latest && h > skipBelow && !known.has(h));
    const read = new Map<number, Sample>();
    const concurrency = this.o.concurrency ?? 16;
    // newest first: the window fills from its end, so the heights nearest now matter most
    missing.reverse();
    for (let i = 0; i < missing.length; i += concurrency) {
      const batch = missing.slice(i, i + concurrency);
      const answers = await Promise.allSettled(batch.map((h) => this.o.source.poolPriceAt(assetId, this.o.denom, h)));
      let unreadable = 0;
      let unanswered = false;
      answers.forEach((r, j) => {
        // no answer at all (a busy RPC): asked again on the next pass, not taken for a height the chain lacks
        if (r.status === 'rejected' && r.reason instanceof ChainUnreachable) unanswered = true;
        else if (r.status === 'rejected' || (r.value && r.value.height !== batch[j]))
          unreadable = Math.max(unreadable, batch[j]);
        else read.set(batch[j], r.value ? { poolId: r.value.poolId, price: r.value.pricePerWhole } : null);
      });
      if (unreadable) {
        // older heights are no more readable than these; not asked again for a while
        this.unreadable.set(assetId, { height: unreadable, atMs: Date.now() });
        break;
      }
      if (unanswered) break; // the chain is busy: the rest of the window waits for the next pass
    }
    return read;
  }
}
