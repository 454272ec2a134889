import {
  diverges,
  eligibilityProblem,
  Market,
  releaserProblem,
  type MarketReads,
  type MarketSettings,
} from '../../../../app-services/market/eligibility';
import type { MarketPrice, PriceOracle } from '../../../../app-services/market/price-oracle';

const SETTINGS: MarketSettings = {
  windowBlocks: 10,
  maxDivergenceBps: 500,
  minPoolAgeBlocks: 20,
  minPoolReserve: 1000n,
  trustedReleasers: ['svc1trusted'],
  allowlist: ['allowed'],
};

const price = (over: Partial<MarketPrice> = {}): MarketPrice => ({
  assetId: 'a',
  poolId: 3,
  height: 100,
  spot: 100n,
  twap: 100n,
  median: 100n,
  baseReserve: 10n,
  quoteReserve: 5000n,
  divergenceBps: 0,
  ...over,
});

const facts = (over: Partial<Parameters<typeof eligibilityProblem>[0]> = {}) => ({
  assetId: 'a',
  price: price(),
  poolCreatedHeight: 50,
  releaser: '',
  ...over,
});

describe('eligibility rules', () => {
  test('an old, deep pool of an asset without a releaser is collateral and quoted', () => {
    expect(eligibilityProblem(facts(), 'collateral', SETTINGS, 'svc1borrower')).toBeNull();
    expect(eligibilityProblem(facts(), 'quote', SETTINGS)).toBeNull();
  });

  test('a pool younger than the minimum age, or not indexed yet, is refused', () => {
    expect(eligibilityProblem(facts({ poolCreatedHeight: 81 }), 'quote', SETTINGS)).toMatch(/younger than 20 blocks/);
    expect(eligibilityProblem(facts({ poolCreatedHeight: 80 }), 'quote', SETTINGS)).toBeNull();
    expect(eligibilityProblem(facts({ poolCreatedHeight: null }), 'quote', SETTINGS)).toMatch(/younger/);
  });

  test('a pool with less stable than the minimum reserve is refused', () => {
    expect(eligibilityProblem(facts({ price: price({ quoteReserve: 999n }) }), 'quote', SETTINGS)).toMatch(
      /below 1000/,
    );
  });

  test('the releaser: empty or trusted passes; the borrower or an untrusted account does not', () => {
    expect(releaserProblem('', [], 'svc1b')).toBeNull();
    expect(releaserProblem('svc1trusted', ['svc1trusted'], 'svc1b')).toBeNull();
    expect(releaserProblem('svc1b', ['svc1b'], 'svc1b')).toMatch(/borrower is the releaser/);
    expect(releaserProblem('svc1other', ['svc1trusted'], 'svc1b')).toMatch(/not trusted/);
    expect(releaserProblem(null, [], 'svc1b')).toMatch(/not indexed/);
  });

  test('the releaser rule applies to collateral only', () => {
    const f = facts({ releaser: 'svc1other' });
    expect(eligibilityProblem(f, 'collateral', SETTINGS, 'svc1b')).toMatch(/not trusted/);
    expect(eligibilityProblem(f, 'quote', SETTINGS)).toBeNull();
  });

  test('the allowlist overrides age, depth and releaser', () => {
    const f = facts({
      assetId: 'allowed',
      poolCreatedHeight: 99,
      releaser: 'svc1b',
      price: price({ quoteReserve: 1n }),
    });
    expect(eligibilityProblem(f, 'collateral', SETTINGS, 'svc1b')).toBeNull();
  });

  test('divergence beyond the bound', () => {
    expect(diverges(price({ divergenceBps: 500 }), SETTINGS)).toBe(false);
    expect(diverges(price({ divergenceBps: 501 }), SETTINGS)).toBe(true);
  });
});

describe('Market.assess', () => {
  const KINDS = [0, 1, 2].map((k) => ({
    kind_id: k,
    class: ['ECONOMIC', 'INCOME', 'VOTE'][k],
    decimals: 6,
    bundle: true,
  }));
  const reads = (releaser: string | null, created: number | null, kinds = KINDS): MarketReads => ({
    poolCreatedHeight: async () => created,
    asset: async () => (releaser === null ? null : { issuer: 'svc1issuer', releaser, kinds }),
  });
  const oracle = (p: MarketPrice | null) =>
    ({
      read: async () => (p ? { price: p } : { price: null, missing: { why: 'window_filling', filled: 3, of: 10 } }),
    }) as unknown as PriceOracle;

  test('no robust price: not eligible for now, and says how far the window has filled', async () => {
    const m = new Market(oracle(null), reads('', 0), { ...SETTINGS, allowlist: ['a'] });
    expect(await m.assess('a', 'quote')).toEqual({
      ok: false,
      refusal: { reason: 'price_window_filling', detail: expect.stringMatching(/3 of 10 blocks/) },
      lasting: false,
    });
  });

  test('eligible: the price, the one unit and the issuer come with it', async () => {
    const m = new Market(oracle(price()), reads('', 10), SETTINGS);
    const a = await m.assess('a', 'collateral', 'svc1b');
    expect(a).toMatchObject({ ok: true, price: price(), issuer: 'svc1issuer' });
    expect(a.ok && a.units.priceDecimals).toBe(6);
  });

  test('a borrower who is his asset’s releaser is refused as collateral, for good', async () => {
    const m = new Market(oracle(price()), reads('svc1b', 10), SETTINGS);
    expect(await m.assess('a', 'collateral', 'svc1b')).toEqual({
      ok: false,
      refusal: { reason: 'asset_not_eligible', detail: 'the borrower is the releaser of the asset' },
      lasting: true,
    });
  });

  test('a kind outside the bundle the pool trades: not eligible, even allowlisted', async () => {
    const kinds = [KINDS[0], { ...KINDS[1], bundle: false }];
    const m = new Market(oracle(price()), reads('', 10, kinds), { ...SETTINGS, allowlist: ['a'] });
    expect(await m.assess('a', 'quote')).toMatchObject({
      ok: false,
      refusal: { reason: 'asset_not_eligible', detail: expect.stringMatching(/not in the bundle/) },
      lasting: true,
    });
  });

  test('a pool or an asset the index has not seen yet is refused for now, not for good', async () => {
    const m = new Market(oracle(price()), reads('', null), SETTINGS);
    expect(await m.assess('a', 'quote')).toEqual({
      ok: false,
      refusal: { reason: 'asset_not_eligible', detail: expect.stringMatching(/younger/) },
      lasting: false,
    });
    const unseen = new Market(oracle(price()), reads(null, 10), SETTINGS);
    expect(await unseen.assess('a', 'quote')).toMatchObject({ ok: false, lasting: false });
  });
});
