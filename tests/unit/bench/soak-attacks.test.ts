/** soak:services' attack list and the pump-hold attack's pool arithmetic (bench/lib/soak-attacks.ts). */
import { mustLiquidate } from '../../../app-services/lender/terms';
import { poolPayout } from '../../../app-services/market/units';
import {
  ATTACKS,
  dumpReaches,
  liquidationPrice,
  parseAttacks,
  pumpBoundBps,
  sharesToSellFor,
  spotAfterSale,
} from '../../../bench/lib/soak-attacks';

const WHOLE = 1_000_000n;

describe('--attacks', () => {
  it('lists pump-hold among the attacks the soak repeats by default', () => {
    expect(ATTACKS).toEqual(['squat', 'junk', 'pump', 'pump-hold', 'sybil', 'look-alike']);
  });

  it('parses names in the order given, pump-hold apart from pump', () => {
    expect(parseAttacks('pump-hold')).toEqual(['pump-hold']);
    expect(parseAttacks('pump-hold,pump,,squat')).toEqual(['pump-hold', 'pump', 'squat']);
    expect(parseAttacks('')).toEqual([]);
  });

  it('refuses a name it does not know, naming the ones it does', () => {
    expect(() => parseAttacks('pump,pumphold')).toThrow(/unknown attack pumphold: squat, junk, pump, pump-hold/);
  });
});

describe('pump-hold arithmetic', () => {
  // a pool of 60,000 shares against 200,000 stable: 3.33 a share
  const base = 60_000n * WHOLE;
  const quote = 200_000n * WHOLE;

  it('the liquidation price is where the lender starts liquidating', () => {
    const principal = 5_000n * WHOLE;
    const units = 1_900n * WHOLE;
    const p = liquidationPrice(principal, units, 8000n);
    const value = (price: bigint) => (units * price) / WHOLE;
    expect(mustLiquidate(principal, value(p), { liquidationLtvBps: 8000 })).toBe(true);
    expect(mustLiquidate(principal, value(p + 1n), { liquidationLtvBps: 8000 })).toBe(false);
  });

  it('a sale moves spot as x·y = k does', () => {
    expect(spotAfterSale(base, quote, 0n)).toBe((quote * WHOLE) / base);
    // doubling the shares quarters the price
    expect(spotAfterSale(base, quote, base)).toBe((quote * WHOLE) / base / 4n);
    expect(quote - poolPayout(base, base, quote)).toBe(quote / 2n);
  });

  it('sells the fewest shares that bring spot to the target', () => {
    for (const target of [3_000_000n, 2_000_000n, 1_234_567n, 10n]) {
      const s = sharesToSellFor(base, quote, target);
      expect(spotAfterSale(base, quote, s)).toBeLessThanOrEqual(target);
      expect(spotAfterSale(base, quote, s - 1n)).toBeGreaterThan(target);
    }
    expect(sharesToSellFor(base, quote, 4_000_000n)).toBe(0n);
  });

  it('dumps only when one block of the dump takes the twap to the liquidation price', () => {
    // a 100-block twap at 1.70 whose oldest sample (3.00) drops next block: the dump's 1.00 lowers it by 0.02
    expect(dumpReaches(1_700_000n, 3_000_000n, 1_000_000n, 100, 1_680_000n)).toBe(true);
    expect(dumpReaches(1_700_000n, 3_000_000n, 1_000_000n, 100, 1_679_999n)).toBe(false);
  });
});

describe("the pump round's bound", () => {
  const W = 100;
  const x = (n: number) => BigInt(Math.round(n * 1_000_000));
  test('a pump that stood at most half the window: the terms, whatever its size', () => {
    expect(pumpBoundBps(5000n, 7, W, x(3), x(1))).toBe(5000n);
    expect(pumpBoundBps(5000n, 50, W, x(1.5), x(1))).toBe(5000n);
  });
  test("longer: the terms lifted by the twap's k·(x−1)/W (docs/app-services.md, the bounds table)", () => {
    // 60 blocks of ×1.5 over a 100-block window: +30 %
    expect(pumpBoundBps(5000n, 60, W, x(1.5), x(1))).toBe(6500n);
    // never more than the whole window's lift
    expect(pumpBoundBps(5000n, 300, W, x(1.5), x(1))).toBe(7500n);
  });
});
