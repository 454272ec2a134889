/** The lender's caps and the arithmetic of its batches: pure parts of docs/app-services.md, "Lender". */
import { fitToCaps, isqrt, quoteReserveAt, DEFAULT_LENDER_CAPS } from '../../../../app-services/lender/terms';
import { intentIds, stableValue } from '../../../../app-services/lender/worker';

const NONE = { borrower: 0n, asset: 0n, total: 0n };

describe('fitToCaps', () => {
  test('a principal under every cap is kept', () => {
    expect(fitToCaps(100n, DEFAULT_LENDER_CAPS, NONE, 10_000n)).toEqual({ principal: 100n, boundBy: null });
  });

  test('the pool share of the stable reserve, less what the asset already has out', () => {
    const caps = { ...DEFAULT_LENDER_CAPS, maxPoolShareBps: 1000 };
    expect(fitToCaps(5000n, caps, NONE, 10_000n)).toEqual({ principal: 1000n, boundBy: 'LENDER_MAX_POOL_SHARE_BPS' });
    expect(fitToCaps(5000n, caps, { ...NONE, asset: 400n }, 10_000n)).toEqual({
      principal: 600n,
      boundBy: 'LENDER_MAX_POOL_SHARE_BPS',
    });
  });

  test('per borrower, per asset, in all; 0 when a cap is full (or passed)', () => {
    const caps = { maxPoolShareBps: 10_000, maxPerBorrower: 300n, maxPerAsset: 500n, maxTotal: 700n };
    expect(fitToCaps(1000n, caps, NONE, 10n ** 9n)).toEqual({ principal: 300n, boundBy: 'LENDER_MAX_PER_BORROWER' });
    expect(fitToCaps(1000n, caps, { borrower: 0n, asset: 450n, total: 450n }, 10n ** 9n)).toEqual({
      principal: 50n,
      boundBy: 'LENDER_MAX_PER_ASSET',
    });
    expect(fitToCaps(1000n, caps, { borrower: 0n, asset: 0n, total: 650n }, 10n ** 9n)).toEqual({
      principal: 50n,
      boundBy: 'LENDER_MAX_TOTAL',
    });
    expect(fitToCaps(1000n, caps, { borrower: 301n, asset: 0n, total: 0n }, 10n ** 9n).principal).toBe(0n);
  });
});

describe('quoteReserveAt', () => {
  test('a pumped pool is judged by the stable it would hold at the twap (k unchanged)', () => {
    // price ×4 by buying: the stable side doubled; at the twap it holds half of it again
    expect(quoteReserveAt(2000n, 4_000_000n, 1_000_000n)).toBe(1000n);
    expect(quoteReserveAt(2000n, 1_000_000n, 4_000_000n)).toBe(2000n); // never above the reserve now
  });

  test('isqrt', () => {
    expect([0n, 1n, 3n, 4n, 99n, 100n, 10n ** 30n].map(isqrt)).toEqual([0n, 1n, 1n, 2n, 9n, 10n, 10n ** 15n]);
  });
});

describe('batches', () => {
  test('a release or cancel tx is named by its set, whatever the order', () => {
    expect(intentIds.release([12n, 3n, 7n])).toBe('lender/release/3+7+12');
    expect(intentIds.release([7n, 12n, 3n])).toBe(intentIds.release([3n, 7n, 12n]));
    expect(intentIds.cancel([5n])).toBe('lender/cancel/5');
  });

  test('a proposal is worth the stable it moves, both ways', () => {
    const legs = [
      { direction: 'LEG_DIRECTION_ASK', coin: { denom: 'uusdc', amount: '5' } },
      { direction: 'LEG_DIRECTION_GIVE', coin: { denom: 'uusdc', amount: '7' } },
      { direction: 'LEG_DIRECTION_GIVE', coin: { denom: 'uother', amount: '1000' } },
      { direction: 'LEG_DIRECTION_ASK', right: { asset_id: 'a', kind_id: 0, units: '9' } },
    ];
    expect(stableValue(legs, 'uusdc')).toBe(12n);
    expect(stableValue([], 'uusdc')).toBe(0n);
  });
});
