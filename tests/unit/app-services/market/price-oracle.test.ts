import type { PoolPriceAt } from '../../../../app-services/chain/queries';
import {
  divergenceBps,
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

  test('a height neither kept nor readable: the window fills again from the heights after it', async () => {
    const chain = new FakeChain(20, () => 100n);
    chain.earliest = 18;
    expect(await oracle(chain).read('a')).toEqual({
      price: null,
      missing: { why: 'window_filling', filled: 3, of: 5 },
    });
  });
});
