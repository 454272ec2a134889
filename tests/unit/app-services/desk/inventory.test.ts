/** The desk's inventory rule (app-services/desk/inventory.ts): what it sells of an excess, and when it does not. */
import { excessOf, nextSale, type HoldingState } from '../../../../app-services/desk/inventory';

const RULE = { targetBps: 5000, impactBps: 50 };
// a whole bundle is 10^6 base units at 2 stable (2,000,000 base units of the stable denom)
const holding = (over: Partial<HoldingState> = {}): HoldingState => ({
  cost: 0n,
  positionCap: 100_000_000_000n,
  tierCost: 0n,
  tierCap: 10n ** 15n,
  issuerCost: 0n,
  issuerCap: 10n ** 15n,
  movableBundles: 10n ** 15n,
  twap: 2_000_000n,
  spot: 2_000_000n,
  priceDecimals: 6,
  baseReserve: 100_000n * 10n ** 6n,
  quoteReserve: 200_000n * 10n ** 6n,
  maxDivergenceBps: 2000,
  ...over,
});

describe('excessOf', () => {
  test('what it paid, over the target share of the position cap', () => {
    expect(excessOf(holding({ cost: 40_000_000_000n }), RULE)).toBe(0n);
    expect(excessOf(holding({ cost: 60_000_000_000n }), RULE)).toBe(10_000_000_000n);
  });
  test("past the target share of the tier's total cap, each asset its part of the excess, by cost", () => {
    // two assets of 30,000 each against a 50,000 total: 35,000 over its 25,000 target, half each
    const h = holding({ positionCap: 100_000_000_000n, tierCost: 60_000_000_000n, tierCap: 50_000_000_000n });
    expect(excessOf({ ...h, cost: 30_000_000_000n }, RULE)).toBe(17_500_000_000n);
    expect(excessOf({ ...h, cost: 30_000_000_000n, tierCost: 20_000_000_000n }, RULE)).toBe(0n);
  });
  test("past the target share of the issuer's room (shared with the lender), the issuer's assets sell the excess, by cost", () => {
    // the desk holds 25,000 of one issuer's two assets (20,000 + 5,000) against a 30,000 issuer cap: 10,000 over 15,000
    const h = holding({
      tierCost: 25_000_000_000n,
      tierCap: 50_000_000_000n,
      issuerCost: 25_000_000_000n,
      issuerCap: 30_000_000_000n,
    });
    expect(excessOf({ ...h, cost: 20_000_000_000n }, RULE)).toBe(8_000_000_000n);
    expect(excessOf({ ...h, cost: 5_000_000_000n }, RULE)).toBe(2_000_000_000n);
    // within the issuer's target: nothing, whatever the tier holds below its own
    expect(excessOf({ ...h, cost: 10_000_000_000n, issuerCost: 15_000_000_000n }, RULE)).toBe(0n);
  });
});

describe('nextSale', () => {
  test('a slice no bigger than the impact bound moves the price by at most that much', () => {
    const h = holding({ cost: 90_000_000_000n });
    const sale = nextSale(h, RULE)!;
    expect(sale.units).toBe((h.baseReserve * 50n) / 20_000n); // 250,000,000 base units: 0.25 % of the reserve
    const before = (h.quoteReserve * 10n ** 12n) / h.baseReserve;
    const k = h.baseReserve * h.quoteReserve;
    const after = ((k / (h.baseReserve + sale.units)) * 10n ** 12n) / (h.baseReserve + sale.units);
    expect(((before - after) * 10_000n) / before).toBeLessThanOrEqual(50n);
    expect(sale.minOut).toBe((sale.expected * 9900n) / 10_000n);
  });
  test('never more than the excess nor than it may move', () => {
    // 200 stable of excess at 2 stable a bundle: 100 whole bundles
    expect(nextSale(holding({ cost: 50_200_000_000n }), RULE)!.units).toBe(100_000_000n);
    expect(nextSale(holding({ cost: 90_000_000_000n, movableBundles: 7n }), RULE)!.units).toBe(7n);
    expect(nextSale(holding({ cost: 90_000_000_000n, movableBundles: 0n }), RULE)).toBeNull();
  });
  test('nothing within the target, nor into a dump (spot below the twap past the bound)', () => {
    expect(nextSale(holding({ cost: 50_000_000_000n }), RULE)).toBeNull();
    expect(nextSale(holding({ cost: 90_000_000_000n, spot: 1_500_000n }), RULE)).toBeNull();
    expect(nextSale(holding({ cost: 90_000_000_000n, spot: 1_700_000n }), RULE)).not.toBeNull();
  });
});
