import type { PoolPriceAt } from '../../../../app-services/chain/queries';
import { ChainUnreachable } from '../../../../src/client/query-errors';
import {
  divergenceBps,
  lendablePrice,
  lowerMedian,
  PriceOracle,
  twapOf,
  windowHeights,
  type PoolPriceSource,
  type Sample,
  type SampleStore,
} from '../../../../app-services/market/price-oracle';

/** The app schema's price_samples, in memory. */
class MemoryStore implements SampleStore {
  readonly rows = new Map<string, Map<number, Sample>>();
  async load(assetId: string, from: number, to: number): Promise<Map<number, Sample>> {
    return new Map([...(this.rows.get(assetId) ?? new Map())].filter(([h]) => h >= from && h <= to));
  }
  async save(assetId: string, samples: ReadonlyMap<number, Sample>): Promise<void> {
    const kept = this.rows.get(assetId) ?? new Map<number, Sample>();
    for (const [h, v] of samples) if (!kept.has(h)) kept.set(h, v);
    this.rows.set(assetId, kept);
  }
  async prune(assetId: string, height: number): Promise<void> {
    for (const h of this.rows.get(assetId)?.keys() ?? []) if (h < height) this.rows.get(assetId)!.delete(h);
  }
}

/** A chain of committed heights: each height's pool price (undefined: no pool), pruned below `earliest`. */
class FakeChain implements PoolPriceSource {
  readonly reads: number[] = [];
  earliest = 1;
  constructor(
    public latest: number,
    public priceAt: (h: number) => bigint | undefined,
    public poolAt: (h: number) => number = () => 7,
  ) {}
  async poolPriceAt(_assetId: string, _denom: string, height?: number): Promise<PoolPriceAt | null> {
    const h = height ?? this.latest;
    if (height !== undefined) this.reads.push(height);
    if (h > this.latest || h < this.earliest) throw new Error(`height ${h} cannot be read`);
    const price = this.priceAt(h);
    if (price === undefined) return null;
    return { height: h, poolId: this.poolAt(h), pricePerWhole: price, baseReserve: 1000n, quoteReserve: 5000n };
  }
}

const oracle = (chain: FakeChain, windowBlocks = 5) =>
  new PriceOracle({ source: chain, denom: 'uusdc', windowBlocks, concurrency: 3 });

describe('twap math', () => {
  test('the block-weighted mean of the samples, rounded down', () => {
    expect(twapOf([100n, 100n, 101n])).toBe(100n);
    expect(twapOf([1n, 2n, 3n, 4n])).toBe(2n);
  });

  test('divergence in basis points, rounded up, both ways', () => {
    expect(divergenceBps(110n, 100n)).toBe(1000);
    expect(divergenceBps(90n, 100n)).toBe(1000);
    expect(divergenceBps(100n, 100n)).toBe(0);
    expect(divergenceBps(1_000_001n, 1_000_000n)).toBe(1); // 0.01 bps counts as 1
    expect(divergenceBps(5n, 0n)).toBe(Number.MAX_SAFE_INTEGER);
  });

  test('the window ends at the height; none while the chain is shorter than it', () => {
    expect(windowHeights(10, 3)).toEqual([8, 9, 10]);
    expect(windowHeights(3, 3)).toEqual([1, 2, 3]);
    expect(windowHeights(2, 3)).toEqual([]);
  });
});

/** A deterministic stream of pseudo-random integers in [0, n) (a linear congruential generator). */
function prng(seed: number): (n: number) => number {
  let x = seed >>> 0;
  return (n) => {
    x = (Math.imul(x, 1_664_525) + 1_013_904_223) >>> 0;
    return x % n;
  };
}

/** A steady window of `w` heights at `p`, its latest `k` pumped to `x`× (spot among them). */
function pumped(w: number, k: number, p: bigint, x: bigint): bigint[] {
  return Array.from({ length: w }, (_, i) => (i >= w - k ? p * x : p));
}

describe('the lendable price: a pump held for up to half the window lifts it by nothing', () => {
  test('the lower median: the ⌈n/2⌉-th smallest, whatever the order', () => {
    expect(lowerMedian([5n])).toBe(5n);
    expect(lowerMedian([3n, 1n, 2n])).toBe(2n);
    expect(lowerMedian([4n, 1n, 3n, 2n])).toBe(2n); // of two middle ones, the lower
    expect(lowerMedian([10n, 10n, 10n, 1_000n, 1_000n])).toBe(10n);
    expect(() => lowerMedian([])).toThrow();
  });

  test('the lowest of spot, twap and median', () => {
    expect(lendablePrice({ spot: 3n, twap: 2n, median: 1n })).toBe(1n);
    expect(lendablePrice({ spot: 1n, twap: 2n, median: 3n })).toBe(1n);
    expect(lendablePrice({ spot: 3n, twap: 1n, median: 2n })).toBe(1n);
  });

  test('the stated bound: k blocks of an x× pump over a steady window move it by 0 until k > window/2; past that, by at most the twap’s k·(x−1)/window', () => {
    const p = 1_000_000n;
    for (const w of [5, 20, 21, 100, 101])
      for (const x of [2n, 4n, 1_000n])
        for (let k = 0; k <= w; k++) {
          const prices = pumped(w, k, p, x);
          const twap = twapOf(prices);
          const median = lowerMedian(prices);
          const lendable = lendablePrice({ spot: prices[w - 1], twap, median });
          if (2 * k <= w) {
            expect([w, k, median, lendable]).toEqual([w, k, p, p]);
          } else {
            expect(median).toBe(p * x); // more than half the window closed at the pump: the median follows it
            expect(lendable).toBe(twap);
            expect(lendable).toBeLessThanOrEqual(p + (p * BigInt(k) * (x - 1n)) / BigInt(w));
          }
          // the twap alone moves with every pumped block: the rule the median replaces
          expect(twap).toBe(p + (p * BigInt(k) * (x - 1n)) / BigInt(w));
        }
  });

  test('the probe’s figure: 7 blocks of a ×2.57 pump lift a 100-block twap by 11 %, the lendable price by 0; 51 blocks are needed to move it', () => {
    const p = 100_000n;
    const window = (k: number) => Array.from({ length: 100 }, (_, i) => (i >= 100 - k ? 257_000n : p));
    const seven = window(7);
    expect(twapOf(seven)).toBe(110_990n); // +11 %
    expect(lendablePrice({ spot: seven[99], twap: twapOf(seven), median: lowerMedian(seven) })).toBe(p);
    expect(lowerMedian(window(50))).toBe(p);
    expect(lowerMedian(window(51))).toBe(257_000n);
  });

  test('any window: the median is at L only when more than half the heights closed at L or above, and k pumped heights lift it at most k ranks of the unpumped window', () => {
    const rand = prng(43);
    for (let round = 0; round < 300; round++) {
      const w = 1 + rand(120);
      const honest = Array.from({ length: w }, () => BigInt(900 + rand(200)));
      const median = lowerMedian(honest);
      expect(honest.filter((v) => v >= median).length * 2).toBeGreaterThan(w);
      // k heights, anywhere in the window, pumped by any size
      const k = rand(w + 1);
      const attacked = [...honest];
      const positions = new Set<number>();
      while (positions.size < k) positions.add(rand(w));
      for (const i of positions) attacked[i] = honest[i] * BigInt(2 + rand(1000));
      const sorted = [...honest].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const m = (w - 1) >> 1;
      const lifted = lowerMedian(attacked);
      expect(lifted).toBeGreaterThanOrEqual(median);
      if (m + k < w) expect(lifted).toBeLessThanOrEqual(sorted[m + k]); // a price the unpumped window printed
    }
  });
});

describe('PriceOracle', () => {
  test('spot is the latest height, twap the mean of the window ending there', async () => {
    const chain = new FakeChain(20, (h) => (h === 20 ? 200n : 100n));
    const p = await oracle(chain).price('a');
    expect(p).toEqual({
      assetId: 'a',
      poolId: 7,
      height: 20,
      spot: 200n,
      twap: 120n, // (4 × 100 + 200) / 5
      median: 100n,
      baseReserve: 1000n,
      quoteReserve: 5000n,
      divergenceBps: 6667,
    });
  });

  test('a committed height is read once: the next pass reads only the new heights', async () => {
    const chain = new FakeChain(20, () => 100n);
    const o = oracle(chain);
    await o.price('a');
    expect(chain.reads.sort((a, b) => a - b)).toEqual([16, 17, 18, 19]);
    chain.reads.length = 0;
    chain.latest = 22;
    await o.price('a');
    expect(chain.reads.sort((a, b) => a - b)).toEqual([21]); // 20 was the spot of the first pass, 22 is this one's
  });

  test('a pool younger than the window has no price', async () => {
    const chain = new FakeChain(20, (h) => (h >= 18 ? 100n : undefined));
    expect(await oracle(chain).price('a')).toBeNull();
  });

  test('a window that crosses another pool of the asset has no price', async () => {
    const chain = new FakeChain(
      20,
      () => 100n,
      (h) => (h >= 18 ? 8 : 7),
    );
    expect(await oracle(chain).price('a')).toBeNull();
  });

  test('a height of the window the chain cannot answer (pruned) leaves no price', async () => {
    const chain = new FakeChain(20, () => 100n);
    chain.earliest = 17;
    expect(await oracle(chain).price('a')).toBeNull();
  });

  test('no pool now: no price; a chain shorter than the window: no price', async () => {
    expect(await oracle(new FakeChain(20, () => undefined)).price('a')).toBeNull();
    expect(await oracle(new FakeChain(3, () => 100n)).price('a')).toBeNull();
  });

  test('a one-block pump moves spot, not the twap of a long window', async () => {
    const chain = new FakeChain(100, (h) => (h === 100 ? 1_000n : 100n));
    const p = (await oracle(chain, 50).price('a'))!;
    expect(p.spot).toBe(1_000n);
    expect(p.twap).toBe(118n); // (49 × 100 + 1000) / 50
    expect(p.median).toBe(100n);
  });

  test('a pump held for 25 of a 50-block window lifts the twap by half the move, the median and the lendable price not at all; held for 26, the median follows', async () => {
    const pumpedFrom = (first: number) => new FakeChain(100, (h) => (h >= first ? 300n : 100n));
    const held = (await oracle(pumpedFrom(76), 50).price('a'))!; // heights 76..100: 25 of 51..100
    expect([held.spot, held.twap, held.median, lendablePrice(held)]).toEqual([300n, 200n, 100n, 100n]);
    const longer = (await oracle(pumpedFrom(75), 50).price('a'))!; // 26 of 50
    expect([longer.twap, longer.median, lendablePrice(longer)]).toEqual([204n, 300n, 204n]);
  });

  test('without a price, it says why: no pool, or a window filling and how far', async () => {
    expect(await oracle(new FakeChain(20, () => undefined)).read('a')).toEqual({
      price: null,
      missing: { why: 'no_pool' },
    });
    const young = new FakeChain(20, (h) => (h >= 18 ? 100n : undefined));
    expect(await oracle(young).read('a')).toEqual({
      price: null,
      missing: { why: 'window_filling', filled: 3, of: 5 },
    });
  });

  test('kept samples outlive the process: a restarted oracle prices at once though the chain no longer answers past heights', async () => {
    const store = new MemoryStore();
    const chain = new FakeChain(20, (h) => 100n + BigInt(h));
    const first = await new PriceOracle({ source: chain, denom: 'uusdc', windowBlocks: 5, store }).price('a');
    expect(first?.twap).toBe(118n); // (116 + … + 120) / 5
    // a restored devnet: the heights before the restart cannot be read any more
    chain.earliest = 21;
    chain.latest = 21;
    chain.reads.length = 0;
    const restarted = new PriceOracle({ source: chain, denom: 'uusdc', windowBlocks: 5, store });
    expect((await restarted.price('a'))?.twap).toBe(119n); // (117 + … + 121) / 5, read from the store
    expect(chain.reads).toEqual([]);
  });

  test('a read that got no answer (a busy RPC) is asked again on the next pass: the window is not held open', async () => {
    const chain = new FakeChain(20, () => 100n);
    const busy = new Set([18]);
    const read = chain.poolPriceAt.bind(chain);
    chain.poolPriceAt = async (assetId, denom, height) => {
      if (height !== undefined && busy.delete(height)) throw new ChainUnreachable('abci_query: no answer within 5000 ms');
      return read(assetId, denom, height);
    };
    const o = oracle(chain);
    expect((await o.read('a')).price).toBeNull(); // this pass lacks height 18
    expect((await o.read('a')).price?.twap).toBe(100n); // the next has it
  });

  test('a height neither kept nor readable: the window fills again from the heights after it', async () => {
    const chain = new FakeChain(20, () => 100n);
    chain.earliest = 18;
    expect(await oracle(chain).read('a')).toEqual({
      price: null,
      missing: { why: 'window_filling', filled: 3, of: 5 },
    });
  });
});
