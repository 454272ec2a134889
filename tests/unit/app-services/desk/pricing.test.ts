/** The desk's prices and which offers it takes. */
import { quotesOf, type Book } from '../../../../app-services/desk/book';
import { escrowedValue, judgeOffer } from '../../../../app-services/desk/offers';
import { amountFor, askOf, bidOf, kindMids } from '../../../../app-services/desk/pricing';

const EQUITY = [
  { kind_id: 0, class: 'ECONOMIC', decimals: 6 },
  { kind_id: 1, class: 'INCOME', decimals: 6 },
  { kind_id: 2, class: 'VOTE', decimals: 6 },
];

describe('pricing', () => {
  test('an equity share splits 60 / 30 / 10', () => {
    expect([...kindMids(2_000_000n, EQUITY).values()]).toEqual([1_200_000n, 600_000n, 200_000n]);
  });
  test('fractions renormalise over the classes an asset has', () => {
    expect([...kindMids(900n, EQUITY.slice(0, 2)).values()]).toEqual([600n, 300n]); // dividend: 2/3, 1/3
    expect([...kindMids(900n, EQUITY.slice(0, 1)).values()]).toEqual([900n]); // community: all of it
  });
  test('bid 2 % under the mid rounded down, ask 2 % over rounded up', () => {
    expect([bidOf(1_000_000n), askOf(1_000_000n)]).toEqual([980_000n, 1_020_000n]);
    expect([bidOf(101n), askOf(101n)]).toEqual([98n, 104n]);
  });
  test('amounts round for the desk: down when it pays, up when it is paid', () => {
    expect(amountFor(1_960_000n, 1_500_001n, 6, true)).toBe(2_940_001n);
    expect(amountFor(1_960_000n, 1_500_001n, 6, false)).toBe(2_940_002n);
  });
});

describe('judgeOffer', () => {
  const A = 'a'.repeat(64);
  const book: Book = {
    cash: 10_000_000_000n,
    units: new Map([0, 1, 2].map((k) => [`${A}/${k}`, 1_000_000_000n])),
    positions: new Map([[A, 2_000_000_000n]]),
    quotes: [
      {
        asset_id: A,
        name: 'N',
        symbol: 'S',
        kind: -1,
        decimals: 6,
        kinds: [0, 1, 2],
        mid: 2_000_000n,
        bid: 1_960_000n,
        ask: 2_040_000n,
      },
      {
        asset_id: A,
        name: 'N',
        symbol: 'S',
        kind: 0,
        decimals: 6,
        kinds: [0],
        mid: 1_200_000n,
        bid: 1_176_000n,
        ask: 1_224_000n,
      },
    ],
  };
  const opts = { denom: 'uusdc', maxTrade: 5_000_000_000n, maxPosition: 100_000_000_000n };
  const rights = (dir: string, units: string, kinds = [0, 1, 2]) =>
    kinds.map((k) => ({ direction: dir, right: { asset_id: A, kind_id: k, units } }));
  const coin = (dir: string, amount: string, denom = 'uusdc') => ({ direction: dir, coin: { denom, amount } });

  test('a whole share sold to the desk at its bid is accepted; one base unit more is not', () => {
    expect(
      judgeOffer([...rights('LEG_DIRECTION_GIVE', '10000000'), coin('LEG_DIRECTION_ASK', '19600000')], book, opts),
    ).toMatchObject({ accept: true, deskBuys: true, amount: 19_600_000n });
    expect(
      judgeOffer([...rights('LEG_DIRECTION_GIVE', '10000000'), coin('LEG_DIRECTION_ASK', '19600001')], book, opts),
    ).toEqual({ accept: false, reason: 'asks more than the desk bids' });
  });

  test('a kind bought from the desk at its ask is accepted; below it is not', () => {
    expect(
      judgeOffer([coin('LEG_DIRECTION_GIVE', '1224000'), ...rights('LEG_DIRECTION_ASK', '1000000', [0])], book, opts),
    ).toMatchObject({ accept: true, deskBuys: false });
    expect(
      judgeOffer([coin('LEG_DIRECTION_GIVE', '1223999'), ...rights('LEG_DIRECTION_ASK', '1000000', [0])], book, opts),
    ).toMatchObject({ accept: false });
  });

  test.each([
    [
      'unequal units',
      [
        ...rights('LEG_DIRECTION_GIVE', '10').slice(0, 2),
        { direction: 'LEG_DIRECTION_GIVE', right: { asset_id: A, kind_id: 2, units: '11' } },
        coin('LEG_DIRECTION_ASK', '1'),
      ],
    ],
    [
      'two kinds of three (no such instrument)',
      [...rights('LEG_DIRECTION_GIVE', '10', [0, 1]), coin('LEG_DIRECTION_ASK', '1')],
    ],
    ['another denom', [...rights('LEG_DIRECTION_GIVE', '10'), coin('LEG_DIRECTION_ASK', '1', 'usvc')]],
    [
      'two coin legs',
      [...rights('LEG_DIRECTION_GIVE', '10'), coin('LEG_DIRECTION_ASK', '1'), coin('LEG_DIRECTION_ASK', '1')],
    ],
    ['a gift (both given)', [...rights('LEG_DIRECTION_GIVE', '10'), coin('LEG_DIRECTION_GIVE', '1')]],
    [
      'an unknown asset',
      [
        { direction: 'LEG_DIRECTION_GIVE', right: { asset_id: 'b'.repeat(64), kind_id: 0, units: '1' } },
        coin('LEG_DIRECTION_ASK', '1'),
      ],
    ],
    ['above the trade cap', [...rights('LEG_DIRECTION_GIVE', '5000000000'), coin('LEG_DIRECTION_ASK', '5000000001')]],
    [
      "beyond the desk's units",
      [coin('LEG_DIRECTION_GIVE', '5000000000'), ...rights('LEG_DIRECTION_ASK', '1000000001', [0])],
    ],
  ])('%s is not accepted', (_what, legs) => {
    expect(judgeOffer(legs, book, opts).accept).toBe(false);
  });

  test('a purchase that takes the position beyond its limit is not accepted; one up to it is', () => {
    const legs = [...rights('LEG_DIRECTION_GIVE', '10000000'), coin('LEG_DIRECTION_ASK', '19600000')]; // 20 stable at mid
    expect(judgeOffer(legs, book, { ...opts, maxPosition: 2_020_000_000n }).accept).toBe(true);
    expect(judgeOffer(legs, book, { ...opts, maxPosition: 2_019_999_999n })).toEqual({
      accept: false,
      reason: "beyond the desk's position limit",
    });
  });

  test("escrowedValue: the proposer's stable, or its rights at the desk's mid; nothing for what the desk does not quote", () => {
    expect(
      escrowedValue([coin('LEG_DIRECTION_GIVE', '1224000'), ...rights('LEG_DIRECTION_ASK', '1', [0])], book, 'uusdc'),
    ).toBe(1_224_000n);
    expect(
      escrowedValue([...rights('LEG_DIRECTION_GIVE', '10', [0]), coin('LEG_DIRECTION_ASK', '99999999')], book, 'uusdc'),
    ).toBe(
      12n, // 10 base units of kind 0 at 1.2 stable per whole unit
    );
    const junk = {
      direction: 'LEG_DIRECTION_GIVE',
      right: { asset_id: 'b'.repeat(64), kind_id: 0, units: '1000000000' },
    };
    expect(escrowedValue([junk, coin('LEG_DIRECTION_ASK', '99999999')], book, 'uusdc')).toBe(0n);
    expect(
      escrowedValue([coin('LEG_DIRECTION_GIVE', '5', 'usvc'), coin('LEG_DIRECTION_ASK', '1')], book, 'uusdc'),
    ).toBe(0n);
  });
});

describe('quotesOf: low inventory withholds a side', () => {
  const A = 'c'.repeat(64);
  const asset = { asset_id: A, name: 'N', symbol: 'S', kinds: EQUITY };
  const holding = (units: bigint, kinds = [0, 1, 2]) => new Map(kinds.map((k) => [`${A}/${k}`, units]));
  const steady = (mid: bigint) => ({ spot: mid, twap: mid, divergenceBps: 0 });
  const LIMITS = { maxPosition: 10n ** 15n, maxDivergenceBps: 500 };
  const quotesOfOld = (a: typeof asset, mid: bigint, cash: bigint, units: Map<string, bigint>) =>
    quotesOf(a, steady(mid), { cash, units, positions: new Map() }, LIMITS);

  test('enough of everything: both sides of every instrument', () => {
    const quotes = quotesOfOld(asset, 2_000_000n, 10n ** 12n, holding(10n ** 9n));
    expect(quotes.map((q) => [q.kind, q.bid !== null, q.ask !== null])).toEqual([
      [-1, true, true],
      [0, true, true],
      [1, true, true],
      [2, true, true],
    ]);
  });

  test('stable balance under one whole unit at the bid: no bid where it falls short', () => {
    const quotes = quotesOfOld(asset, 2_000_000n, 1_000_000n, holding(10n ** 9n)); // covers the kinds' bids, not the whole share's
    expect(quotes.map((q) => [q.kind, q.bid])).toEqual([
      [-1, null],
      [0, null],
      [1, 588_000n],
      [2, 196_000n],
    ]);
  });

  test('under one whole unit of a kind: no ask for that kind nor for the whole share', () => {
    const units = holding(10n ** 9n);
    units.set(`${A}/1`, 999_999n);
    const quotes = quotesOfOld(asset, 2_000_000n, 10n ** 12n, units);
    expect(quotes.map((q) => [q.kind, q.ask === null])).toEqual([
      [-1, true],
      [0, false],
      [1, true],
      [2, false],
    ]);
  });
});

describe('quotesOf: the twap is the mid; a moving pool withholds the side that hurts the desk', () => {
  const A = 'd'.repeat(64);
  const asset = { asset_id: A, name: 'N', symbol: 'S', kinds: EQUITY };
  const inventory = {
    cash: 10n ** 12n,
    units: new Map([0, 1, 2].map((k) => [`${A}/${k}`, 10n ** 9n])),
    positions: new Map(),
  };
  const LIMITS = { maxPosition: 10n ** 15n, maxDivergenceBps: 500 };
  const sides = (spot: bigint, divergenceBps: number) =>
    quotesOf(asset, { spot, twap: 2_000_000n, divergenceBps }, inventory, LIMITS).map((q) => [
      q.kind,
      q.mid,
      q.bid !== null,
      q.ask !== null,
    ]);

  test('within the bound: both sides around the twap, whatever the spot', () => {
    expect(sides(2_090_000n, 450)[0]).toEqual([-1, 2_000_000n, true, true]);
  });
  test('spot above the twap beyond the bound (a pump): no ask on any instrument', () => {
    expect(sides(5_400_000n, 17_000).map((s) => s[3])).toEqual([false, false, false, false]);
    expect(sides(5_400_000n, 17_000).map((s) => s[2])).toEqual([true, true, true, true]);
  });
  test('spot below the twap beyond the bound (a dump): no bid', () => {
    expect(sides(1_000_000n, 5000).map((s) => [s[2], s[3]])).toEqual([
      [false, true],
      [false, true],
      [false, true],
      [false, true],
    ]);
  });
  test('a holding at the position limit: no bid', () => {
    const full = { ...inventory, positions: new Map([[A, 10n ** 15n - 1_500_000n]]) };
    const q = quotesOf(asset, { spot: 2_000_000n, twap: 2_000_000n, divergenceBps: 0 }, full, LIMITS);
    expect(q.map((x) => [x.kind, x.bid !== null])).toEqual([
      [-1, false],
      [0, true],
      [1, true],
      [2, true],
    ]);
  });
});
