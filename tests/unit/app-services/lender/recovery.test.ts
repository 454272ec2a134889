/** The recovery of a liquidated loan: what the lender sells of its seized units, when it waits, and when it ends. */
import { nextRecoveryStep, type RecoveryState } from '../../../../app-services/lender/recovery';
import { inDump, poolSlice } from '../../../../app-services/market/pool-sale';

const WHOLE = 1_000_000n;
// 10,000 shares against 20,000 stable: 2 stable a share, steady
const steady = { twap: 2n * WHOLE, spot: 2n * WHOLE, baseReserve: 10_000n * WHOLE, quoteReserve: 20_000n * WHOLE };
const RULE = { impactBps: 50, maxDivergenceBps: 1000, everyBlocks: 5, dust: WHOLE };
const state = (o: Partial<RecoveryState> = {}): RecoveryState => ({
  remaining: 250n * WHOLE,
  pool: { ...steady, height: 100 },
  held: 250n * WHOLE,
  lastSaleHeight: null,
  ...o,
});

describe('poolSlice', () => {
  test('moves the price by at most the impact bound: Δ = B × bps / 20,000', () => {
    const sale = poolSlice(1000n * WHOLE, steady, RULE)!;
    expect(sale.units).toBe(25n * WHOLE); // 10,000 × 50 / 20,000
    expect(sale.expected).toBe((20_000n * WHOLE * sale.units) / (10_000n * WHOLE + sale.units));
    const after = ((20_000n * WHOLE - sale.expected) * WHOLE) / (10_000n * WHOLE + sale.units);
    expect(((2n * WHOLE - after) * 10_000n) / (2n * WHOLE)).toBeLessThanOrEqual(50n);
    expect(sale.minOut).toBe((sale.expected * 9_900n) / 10_000n);
  });
  test('sells no more than wanted, and nothing into a dump or an empty side', () => {
    expect(poolSlice(3n, steady, RULE)!.units).toBe(3n);
    const dumped = { ...steady, spot: (2n * WHOLE * 89n) / 100n }; // 11 % below the twap
    expect(inDump(dumped, 1000)).toBe(true);
    expect(poolSlice(WHOLE, dumped, RULE)).toBeNull();
    expect(inDump({ ...steady, spot: (2n * WHOLE * 91n) / 100n }, 1000)).toBe(false);
    expect(poolSlice(WHOLE, { ...steady, spot: 3n * WHOLE }, RULE)).not.toBeNull(); // above the twap: a pump is sold into
    expect(poolSlice(WHOLE, { ...steady, quoteReserve: 0n }, RULE)).toBeNull();
    expect(poolSlice(0n, steady, RULE)).toBeNull();
  });
});

describe('nextRecoveryStep', () => {
  test('sells a slice of what is left, at most what the lender holds', () => {
    expect(nextRecoveryStep(state(), RULE)).toMatchObject({ do: 'sell', sale: { units: 25n * WHOLE } });
    expect(nextRecoveryStep(state({ held: 7n * WHOLE }), RULE)).toMatchObject({
      do: 'sell',
      sale: { units: 7n * WHOLE },
    });
  });
  test('waits while the pool is being dumped, and between slices', () => {
    const dumped = { ...steady, spot: WHOLE / 10n, height: 100 };
    expect(nextRecoveryStep(state({ pool: dumped }), RULE).do).toBe('wait');
    expect(nextRecoveryStep(state({ lastSaleHeight: 96 }), RULE).do).toBe('wait');
    expect(nextRecoveryStep(state({ lastSaleHeight: 95 }), RULE).do).toBe('sell');
  });
  test('ends when nothing is left, no pool is left, the lender holds none, or a slice fetches only dust', () => {
    expect(nextRecoveryStep(state({ remaining: 0n }), RULE)).toEqual({ do: 'close', why: 'every seized unit sold' });
    expect(nextRecoveryStep(state({ pool: 'no_pool' }), RULE).do).toBe('close');
    expect(nextRecoveryStep(state({ held: 0n }), RULE).do).toBe('close');
    // a pool drained to 20 stable against 1,000,000 shares: a slice of 2,500 fetches 0.05 stable
    const drained = { twap: 20n, spot: 20n, baseReserve: 1_000_000n * WHOLE, quoteReserve: 20n * WHOLE, height: 100 };
    expect(nextRecoveryStep(state({ pool: drained, remaining: 10_000n * WHOLE, held: 10_000n * WHOLE }), RULE)).toEqual(
      {
        do: 'close',
        why: 'the pool pays no more than dust for the rest',
      },
    );
  });
});
