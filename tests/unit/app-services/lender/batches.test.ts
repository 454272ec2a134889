/** The lender's batched releases and cancels: pure parts of docs/app-services.md, "Lender". */
import { intentIds, stableValue } from '../../../../app-services/lender/worker';
import {
  gasMessagesMax,
  planReleases,
  type Releasable,
  type ReleaseRule,
} from '../../../../app-services/lender/release-batches';

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

describe('release plan (release-batches.ts)', () => {
  const MIN = 1_000_000n;
  const rule = (extra: Partial<ReleaseRule> = {}): ReleaseRule => ({
    minValue: MIN,
    batchMax: 30,
    dustTxsTaken: new Set(),
    ...extra,
  });
  const junk = (n: number, from = 100n): Releasable[] =>
    Array.from({ length: n }, (_, i) => ({ id: from + BigInt(i), set: from, txHash: 'JUNK', value: 2n }));

  test('250 junk pledges of one tx: one is released, the rest left; an honest pledge goes first, alone', () => {
    const honest: Releasable = { id: 900n, set: 900n, txHash: 'HONEST', value: 20n * MIN };
    const plan = planReleases([...junk(250), honest], rule());
    expect(plan.valued).toEqual([900n]);
    expect(plan.dust).toEqual([100n]);
    expect(plan.left).toHaveLength(249);
    expect(plan.left).not.toContain(100n);
  });

  test('a creating tx whose dust release is taken gets no other; unpriceable is dust; unindexed dust waits', () => {
    const queue: Releasable[] = [
      { id: 1n, set: 1n, txHash: 'A', value: null },
      { id: 2n, set: 1n, txHash: 'A', value: 0n },
      { id: 3n, set: 3n, txHash: 'B', value: MIN - 1n },
      { id: 4n, set: 4n, txHash: null, value: 1n },
    ];
    expect(planReleases(queue, rule())).toEqual({ valued: [], dust: [1n, 3n], left: [2n] });
    expect(planReleases(queue, rule({ dustTxsTaken: new Set(['A']) }))).toEqual({
      valued: [],
      dust: [3n],
      left: [1n, 2n],
    });
  });

  test('a set of value larger than a batch is split over batches; sets of more value per message first', () => {
    const big: Releasable[] = Array.from({ length: 70 }, (_, i) => ({
      id: 10n + BigInt(i),
      set: 10n,
      txHash: `T${i}`,
      value: MIN,
    }));
    const small: Releasable[] = [
      { id: 500n, set: 500n, txHash: 'S1', value: 3n * MIN },
      { id: 501n, set: 500n, txHash: 'S2', value: 3n * MIN },
    ];
    const plan = planReleases([...big, ...small], rule());
    expect(plan.valued).toHaveLength(30);
    expect(plan.valued.slice(0, 2)).toEqual([500n, 501n]);
    expect(plan.valued.slice(2)).toEqual(big.slice(0, 28).map((p) => p.id));
    const next = planReleases(
      big.filter((p) => !plan.valued.includes(p.id)),
      rule(),
    );
    expect(next.valued).toEqual(big.slice(28, 58).map((p) => p.id));
  });

  test('the batch fits APP_TX_GAS at APP_TX_GAS_PER_MSG', () => {
    expect(gasMessagesMax({ txGas: 2_000_000n, txGasBase: 100_000n, txGasPerMsg: 40_000n })).toBe(47);
    expect(gasMessagesMax({ txGas: 100_000n, txGasBase: 100_000n, txGasPerMsg: 40_000n })).toBe(1);
    expect(gasMessagesMax({ txGas: 2_000_000n, txGasBase: 100_000n, txGasPerMsg: 0n })).toBeUndefined();
  });

  test('dust batches and releases of value are named apart', () => {
    expect(intentIds.releaseDust([9n, 2n])).toBe('lender/release-dust/2+9');
  });
});
