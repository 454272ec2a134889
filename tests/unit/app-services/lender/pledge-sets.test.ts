/** Which pledges to the lender open a loan: complete sets, refusals, and sets still in their window. */
import { sortPledges, type PledgeSeen } from '../../../../app-services/lender/pledge-sets';
import {
  loanToValueBps,
  mustLiquidate,
  principalFor,
  DEFAULT_LENDER_TERMS,
} from '../../../../app-services/lender/terms';
import { repaymentAmount } from '../../../../app-services/lender/worker';

const T0 = Date.UTC(2030, 0, 1);
const WINDOW = 120_000;
let nextId = 1n;

function pledge(kindId: number, extra: Partial<PledgeSeen> = {}): PledgeSeen {
  const id = nextId++;
  return {
    id,
    assetId: 'a'.repeat(64),
    kindId,
    holder: 'svc1borrower',
    units: 10_000_000n,
    exercisable: true,
    incomeToBeneficiary: true,
    holderReleaseAfter: null,
    expiry: null,
    txHash: `TX${id}`,
    createdMs: T0 + kindId * 1000,
    kindCount: 3,
    ...extra,
  };
}

const ids = (ps: { id: bigint }[]) => ps.map((p) => Number(p.id));

describe('sortPledges', () => {
  test('one pledge per kind, same units, one per tx, within the window: a complete set in kind order', () => {
    const set = [pledge(2), pledge(0), pledge(1)];
    const sorted = sortPledges(set, T0 + 5000, WINDOW);
    expect(sorted.complete).toHaveLength(1);
    expect(sorted.complete[0].pledges.map((p) => p.kindId)).toEqual([0, 1, 2]);
    expect(sorted.complete[0].units).toBe(10_000_000n);
    expect([sorted.refused, sorted.waiting]).toEqual([[], []]);
  });

  test('an incomplete set waits within its window and is refused whole after it', () => {
    const set = [pledge(0), pledge(1)];
    expect(ids(sortPledges(set, T0 + 60_000, WINDOW).waiting)).toEqual(ids(set));
    const late = sortPledges(set, T0 + WINDOW + 1001, WINDOW);
    expect(ids(late.refused.map((r) => r.pledge))).toEqual(ids(set));
    expect(late.refused[0].reason).toMatch(/not complete within 120 s/);
  });

  test('an incomplete set within its window is open, with the kinds it lacks and when its window ends', () => {
    const first = pledge(0);
    const sorted = sortPledges([first, pledge(2)], T0 + 30_000, WINDOW);
    expect(sorted.open.map((o) => [ids(o.pledges), o.missingKinds, o.windowEndsMs])).toEqual([
      [[Number(first.id), Number(first.id) + 1], [1], T0 + WINDOW],
    ]);
    expect(sortPledges([first, pledge(2)], T0 + WINDOW + 1, WINDOW).open).toEqual([]);
  });

  test('a pledge later than the window does not complete the set', () => {
    const set = [pledge(0), pledge(1), pledge(2, { createdMs: T0 + WINDOW + 1 })];
    const sorted = sortPledges(set, T0 + WINDOW + 5000, WINDOW);
    expect(sorted.complete).toEqual([]);
    expect(ids(sorted.refused.map((r) => r.pledge))).toEqual(ids(set.slice(0, 2)));
    expect(ids(sorted.waiting)).toEqual([Number(set[2].id)]); // it starts the next set
  });

  test.each([
    ['not exercisable', { exercisable: false }, /not exercisable/],
    ['income kept by the holder', { incomeToBeneficiary: false }, /income/],
    ['a holder release time', { holderReleaseAfter: '2030-02-01T00:00:00Z' }, /holder may release/],
    ['an expiry', { expiry: '2030-02-01T00:00:00Z' }, /expires/],
  ])('a pledge with %s is refused at once and its set cannot complete', (_what, flags, reason) => {
    const set = [pledge(0), pledge(1, flags), pledge(2)];
    const sorted = sortPledges(set, T0 + 5000, WINDOW);
    expect(sorted.complete).toEqual([]);
    expect(sorted.refused.map((r) => [Number(r.pledge.id), r.reason])).toEqual([
      [Number(set[1].id), expect.stringMatching(reason)],
    ]);
    expect(ids(sorted.waiting)).toEqual(ids([set[0], set[2]]));
  });

  test('two pledges in one tx are both refused', () => {
    const set = [pledge(0, { txHash: 'SAME' }), pledge(1, { txHash: 'SAME' }), pledge(2)];
    const sorted = sortPledges(set, T0 + 5000, WINDOW);
    expect(ids(sorted.refused.map((r) => r.pledge))).toEqual(ids(set.slice(0, 2)));
  });

  test('different units do not make one set; borrowers and assets are kept apart', () => {
    const a = [pledge(0), pledge(1, { units: 5n }), pledge(2)];
    expect(sortPledges(a, T0 + 5000, WINDOW).complete).toEqual([]);
    const b = [pledge(0), pledge(1, { holder: 'svc1other' }), pledge(2)];
    expect(sortPledges(b, T0 + 5000, WINDOW).complete).toEqual([]);
  });

  test('two sets of one borrower back to back open two loans', () => {
    const first = [pledge(0), pledge(1), pledge(2)];
    const second = [
      pledge(0, { createdMs: T0 + 10_000 }),
      pledge(1, { createdMs: T0 + 11_000 }),
      pledge(2, { createdMs: T0 + 12_000 }),
    ];
    const sorted = sortPledges([...second, ...first], T0 + 20_000, WINDOW);
    expect(sorted.complete.map((s) => ids(s.pledges))).toEqual([ids(first), ids(second)]);
  });
});

describe('terms', () => {
  const terms = { ...DEFAULT_LENDER_TERMS };

  test('principal is half the value, capped at 5000 stable units', () => {
    expect(principalFor(25_000_000n, terms)).toBe(12_500_000n);
    expect(principalFor(20_000_000_000n, terms)).toBe(5_000_000_000n);
    expect(principalFor(1n, terms)).toBe(0n);
  });

  test('liquidation at 80 % of the current value, not before', () => {
    expect(mustLiquidate(8000n, 10_001n, terms)).toBe(false);
    expect(mustLiquidate(8000n, 10_000n, terms)).toBe(true);
    expect(mustLiquidate(1n, 0n, terms)).toBe(true);
    expect(loanToValueBps(12_500_000n, 25_000_000n)).toBe(5000);
    expect(loanToValueBps(1n, 0n)).toBeNull();
  });
});

describe('repaymentAmount', () => {
  const give = (amount: string, denom = 'uusdc') => ({ direction: 'LEG_DIRECTION_GIVE', coin: { denom, amount } });
  test('one stable coin given, nothing asked', () => {
    expect(repaymentAmount([give('1000')], 'uusdc')).toBe(1000n);
  });
  test.each([
    ['two legs', [give('1'), give('2')]],
    ['a coin asked', [{ direction: 'LEG_DIRECTION_ASK', coin: { denom: 'uusdc', amount: '5' } }]],
    ['another denom', [give('5', 'usvc')]],
    ['a right leg', [{ direction: 'LEG_DIRECTION_GIVE', right: { asset_id: 'x' } }]],
    ['no legs', []],
  ])('%s is no repayment', (_what, legs) => {
    expect(repaymentAmount(legs, 'uusdc')).toBeNull();
  });
});
