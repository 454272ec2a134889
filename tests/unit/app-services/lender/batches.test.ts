/** The lender's batched releases and cancels: pure parts of docs/app-services.md, "Lender". */
import { intentIds, stableValue } from '../../../../app-services/lender/worker';

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
