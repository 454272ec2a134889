/** One unit for every value the lender and the desk put on an asset (app-services/market/units.ts). */
import {
  AssetUnits,
  isqrt,
  poolPayout,
  quoteReserveAt,
  sharesValue,
  type AssetKind,
} from '../../../../app-services/market/units';

const kind = (kind_id: number, cls: string, decimals = 6, bundle = true): AssetKind => ({
  kind_id,
  class: cls,
  decimals,
  bundle,
});
const EQUITY = [kind(0, 'ECONOMIC'), kind(1, 'INCOME'), kind(2, 'VOTE')];
const units = (kinds: AssetKind[]) => {
  const u = AssetUnits.of('a', kinds);
  if (typeof u === 'string') throw new Error(u);
  return u;
};

describe('AssetUnits', () => {
  test('a share is priced per 10^D of every kind, D the first bundle kind’s decimals (as PoolPrice is)', () => {
    expect(units(EQUITY).shareValue(10_000_000n, 2_500_000n)).toBe(25_000_000n); // 10 shares at 2.5 stable
    expect(sharesValue(10_000_000n, 2_500_000n, 6)).toBe(25_000_000n);
  });

  test('kinds split a share 60 / 30 / 10, renormalised over the classes an asset has', () => {
    const u = units(EQUITY);
    expect([0, 1, 2].map((k) => u.kindPrice(k, 2_000_000n))).toEqual([1_200_000n, 600_000n, 200_000n]);
    const dividend = units(EQUITY.slice(0, 2));
    expect([0, 1].map((k) => dividend.kindPrice(k, 900n))).toEqual([600n, 300n]);
    expect(units(EQUITY.slice(0, 1)).kindPrice(0, 900n)).toBe(900n);
  });

  test('a kind with other decimals: a base unit of it is a base unit of the bundle, whatever its own decimals', () => {
    // VOTE with 0 decimals: its "whole unit" is one base unit, a millionth of a bundle
    const u = units([kind(0, 'ECONOMIC'), kind(1, 'INCOME'), kind(2, 'VOTE', 0)]);
    expect(u.priceDecimals).toBe(6);
    expect(u.kindPrice(2, 2_000_000n)).toBe(0n); // 10 % of 2 stable per 10^6 base units: 0.2 base units per base unit
    expect(u.kindPrice(2, 2_000_000_000_000n)).toBe(200_000n);
    // a holding of every kind values each base unit alike: n units of each kind are n bundle units
    const held = new Map([
      [0, 1_000_000n],
      [1, 1_000_000n],
      [2, 1_000_000n],
    ]);
    expect(u.holdingValue(held, 2_000_000n)).toBe(u.shareValue(1_000_000n, 2_000_000n));
  });

  test('the first bundle kind sets the price decimals, as the chain’s PoolPrice does', () => {
    const u = units([kind(0, 'ECONOMIC', 2), kind(1, 'INCOME', 6)]);
    expect(u.priceDecimals).toBe(2);
    expect(u.shareValue(100n, 5n)).toBe(5n); // 100 base units = 1 whole bundle at D = 2
  });

  test('an asset with a kind outside the bundle, or no kinds, cannot be valued', () => {
    expect(AssetUnits.of('a', [kind(0, 'ECONOMIC'), kind(1, 'INCOME', 6, false)])).toMatch(
      /kind 1 is not in the bundle/,
    );
    expect(AssetUnits.of('a', [])).toMatch(/no kinds/);
  });
});

describe('pool depth', () => {
  test('what a pool pays for units sold into it (x·y = k, no fee)', () => {
    expect(poolPayout(1000n, 1000n, 2000n)).toBe(1000n); // half the pool's depth in stable for as many units as it holds
    expect(poolPayout(10n ** 12n, 1000n, 2000n)).toBe(1999n); // never more than its reserve
    expect(poolPayout(0n, 1000n, 2000n)).toBe(0n);
  });

  test('a pumped pool is judged by the stable it would hold at the twap (k unchanged)', () => {
    expect(quoteReserveAt(2000n, 4_000_000n, 1_000_000n)).toBe(1000n);
    expect(quoteReserveAt(2000n, 1_000_000n, 4_000_000n)).toBe(2000n); // never above the reserve now
  });

  test('isqrt', () => {
    expect([0n, 1n, 3n, 4n, 99n, 100n, 10n ** 30n].map(isqrt)).toEqual([0n, 1n, 1n, 2n, 9n, 10n, 10n ** 15n]);
  });
});
