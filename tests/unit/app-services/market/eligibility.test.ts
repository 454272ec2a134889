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
  const reads = (releaser: string | null, created: number | null): MarketReads => ({
    poolCreatedHeight: async () => created,
    assetReleaser: async () => releaser,
  });
  const oracle = (p: MarketPrice | null) => ({ price: async () => p }) as unknown as PriceOracle;

  test('no robust price: not eligible, whatever the rest', async () => {
    const m = new Market(oracle(null), reads('', 0), { ...SETTINGS, allowlist: ['a'] });
    expect(await m.assess('a', 'quote')).toEqual({
      ok: false,
      reason: expect.stringMatching(/no robust price/),
      lasting: false,
    });
  });

  test('eligible: the price comes with it', async () => {
    const m = new Market(oracle(price()), reads('', 10), SETTINGS);
    expect(await m.assess('a', 'collateral', 'svc1b')).toEqual({ ok: true, price: price() });
  });

  test('a borrower who is his asset’s releaser is refused as collateral', async () => {
    const m = new Market(oracle(price()), reads('svc1b', 10), SETTINGS);
    expect(await m.assess('a', 'collateral', 'svc1b')).toEqual({
      ok: false,
      reason: 'the borrower is the releaser of the asset',
      lasting: true,
    });
  });

  test('a pool the index has not seen yet is refused for now, not for good', async () => {
    const m = new Market(oracle(price()), reads('', null), SETTINGS);
    expect(await m.assess('a', 'quote')).toEqual({
      ok: false,
      reason: expect.stringMatching(/younger/),
      lasting: false,
    });
  });
});
