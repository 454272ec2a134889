/** The desk's prices, which sides it withholds and why, and which offers it takes. */
import { quotesOf, type AssetState, type Book, type QuoteContext } from '../../../../app-services/desk/book';
import { poolShareReserve } from '../../../../app-services/market/price-oracle';
import { escrowedValue, judgeOffer } from '../../../../app-services/desk/offers';
import { amountFor, askOf, bidOf, instrumentsOf } from '../../../../app-services/desk/pricing';
import { lendablePrice, lowerMedian, twapOf, type MarketPrice } from '../../../../app-services/market/price-oracle';
import { AssetUnits, quoteReserveAt, type AssetKind } from '../../../../app-services/market/units';
import { emptySnapshot, RiskTiers } from '../../../../app-services/risk/exposure';

const EQUITY: AssetKind[] = [
  { kind_id: 0, class: 'ECONOMIC', decimals: 6, bundle: true },
  { kind_id: 1, class: 'INCOME', decimals: 6, bundle: true },
  { kind_id: 2, class: 'VOTE', decimals: 6, bundle: true },
];
const unitsOf = (kinds: AssetKind[], id = 'a'.repeat(64)) => {
  const u = AssetUnits.of(id, kinds);
  if (typeof u === 'string') throw new Error(u);
  return u;
};
const price = (spot: bigint, twap: bigint, divergenceBps = 0, median = twap): MarketPrice => ({
  assetId: 'x',
  poolId: 1,
  height: 100,
  spot,
  twap,
  median,
  baseReserve: 10n ** 12n,
  quoteReserve: 10n ** 16n,
  divergenceBps,
});
const LIMITS = {
  maxPosition: 10n ** 15n,
  maxPoolShareBps: 10_000,
  maxTotal: 10n ** 15n,
  communityMaxPosition: 10n ** 15n,
  communityMaxTotal: 10n ** 15n,
  tiers: new RiskTiers(['c'.repeat(64), 'a'.repeat(64)]),
  maxPerIssuer: 10n ** 15n,
  communityMaxPerIssuer: 10n ** 15n,
  lossCooloffMs: 60_000,
  listedLossCooloffMs: 60_000,
  listedCooloffFullLoss: 1n,
  issuerLossThreshold: 0n,
  maxDivergenceBps: 500,
};

function stateOf(id: string, p: MarketPrice, movable = 10n ** 9n, kinds = EQUITY): AssetState {
  const holding = new Map(kinds.map((k) => [k.kind_id, movable]));
  return {
    asset: { asset_id: id, issuer: 'svc1issuer', name: 'N', symbol: 'S', kinds, look_alike_of: null },
    units: unitsOf(kinds, id),
    price: p,
    held: new Map(holding),
    movable: holding,
    poolQuoteReserve: p.quoteReserve,
  };
}

const ctx = (over: Partial<QuoteContext> = {}): QuoteContext => ({
  cash: 10n ** 12n,
  snapshot: emptySnapshot(),
  nowMs: 1_000_000,
  ...over,
});

describe('pricing', () => {
  test('bid 2 % under rounded down, ask 2 % over rounded up', () => {
    expect([bidOf(1_000_000n), askOf(1_000_000n)]).toEqual([980_000n, 1_020_000n]);
    expect([bidOf(101n), askOf(101n)]).toEqual([98n, 104n]);
  });
  test('amounts round for the desk: down when it pays, up when it is paid', () => {
    expect(amountFor(1_960_000n, 1_500_001n, 6, true)).toBe(2_940_001n);
    expect(amountFor(1_960_000n, 1_500_001n, 6, false)).toBe(2_940_002n);
  });
  test('a steady pool: the twap is the mid, 60/30/10 per kind, 2 % either side', () => {
    expect(
      instrumentsOf(unitsOf(EQUITY), price(2_000_000n, 2_000_000n)).map((i) => [i.kind, i.mid, i.bid, i.ask]),
    ).toEqual([
      [-1, 2_000_000n, 1_960_000n, 2_040_000n],
      [0, 1_200_000n, 1_176_000n, 1_224_000n],
      [1, 600_000n, 588_000n, 612_000n],
      [2, 200_000n, 196_000n, 204_000n],
    ]);
  });
  test('never more than the pool would pay: the bid under the lower of spot and twap, the ask over the higher', () => {
    // after a pump has ended the twap stays above the pool for a while: the bid follows the pool down
    const [whole] = instrumentsOf(unitsOf(EQUITY), price(3_230_000n, 3_830_000n));
    expect(whole.mid).toBe(3_830_000n);
    expect(whole.bid).toBe(bidOf(3_230_000n));
    expect(whole.bid).toBeLessThan(3_230_000n);
    const [pumped] = instrumentsOf(unitsOf(EQUITY), price(2_400_000n, 2_000_000n));
    expect(pumped.ask).toBe(askOf(2_400_000n));
    expect(pumped.ask).toBeGreaterThan(2_400_000n);
  });
  test('a pump held for a few blocks: spot and twap lifted, the bid follows the lower median (the lendable price)', () => {
    // a 30-block window at 2.00, then ×1.3 held for 10 blocks: the twap +10 %, spot +30 %, the median still 2.00
    const window = [...Array(20).fill(2_000_000n), ...Array(10).fill(2_600_000n)] as bigint[];
    const p = price(2_600_000n, twapOf(window), 2308, lowerMedian(window));
    expect([p.twap, p.median]).toEqual([2_200_000n, 2_000_000n]);
    expect(lendablePrice(p)).toBe(2_000_000n);
    const [whole, economic] = instrumentsOf(unitsOf(EQUITY), p);
    expect(whole.bid).toBe(bidOf(2_000_000n)); // 1.96, not 98 % of the pumped twap (2.156)
    expect(economic.bid).toBe(bidOf(1_200_000n)); // a kind at its share of the same price
    expect(whole.mid).toBe(2_200_000n); // the mid stays the twap, the ask over the higher of spot and twap
    expect(whole.ask).toBe(askOf(2_600_000n));
  });
  test('the pool-share cap is a share of the reserve at the lendable price, not at the pumped twap', () => {
    const pumped = price(2_600_000n, 2_200_000n, 2308, 2_000_000n);
    const atTwap = quoteReserveAt(pumped.quoteReserve, pumped.spot, pumped.twap);
    expect(poolShareReserve(pumped)).toBe(quoteReserveAt(pumped.quoteReserve, pumped.spot, 2_000_000n));
    expect(poolShareReserve(pumped)).toBeLessThan(atTwap);
  });
  test('a kind with 0 decimals is priced per base unit as a base unit of the bundle', () => {
    const kinds = [EQUITY[0], EQUITY[1], { ...EQUITY[2], decimals: 0 }];
    const vote = instrumentsOf(unitsOf(kinds), price(2_000_000_000_000n, 2_000_000_000_000n)).find(
      (i) => i.kind === 2,
    )!;
    expect([vote.decimals, vote.mid]).toEqual([0, 200_000n]); // a tenth of a bundle per 10^6 base units, per base unit
  });
});

describe('quotesOf: withheld sides and why', () => {
  const A = 'c'.repeat(64);
  const steady = stateOf(A, price(2_000_000n, 2_000_000n));
  const sides = (a: AssetState, c = ctx(), limits = LIMITS) =>
    quotesOf(a, c, limits).map((q) => [
      q.kind,
      q.bid === null ? q.bidWithheld : 'bid',
      q.ask === null ? q.askWithheld : 'ask',
    ]);

  test('enough of everything: both sides of every instrument', () => {
    expect(sides(steady)).toEqual([
      [-1, 'bid', 'ask'],
      [0, 'bid', 'ask'],
      [1, 'bid', 'ask'],
      [2, 'bid', 'ask'],
    ]);
  });
  test('stable balance under one whole unit at the bid: inventory', () => {
    expect(sides(steady, ctx({ cash: 1_000_000n })).map((s) => s[1])).toEqual(['inventory', 'inventory', 'bid', 'bid']);
  });
  test('under one whole unit of a kind it may move: no ask for that kind nor the whole share', () => {
    const short = stateOf(A, price(2_000_000n, 2_000_000n));
    short.movable.set(1, 999_999n);
    expect(sides(short).map((s) => s[2])).toEqual(['inventory', 'ask', 'inventory', 'ask']);
  });
  test('spot above the twap beyond the bound: no ask; below: no bid', () => {
    expect(sides(stateOf(A, price(5_400_000n, 2_000_000n, 17_000))).map((s) => [s[1], s[2]])[0]).toEqual([
      'bid',
      'price_diverged',
    ]);
    expect(sides(stateOf(A, price(1_000_000n, 2_000_000n, 5000))).map((s) => [s[1], s[2]])[0]).toEqual([
      'price_diverged',
      'ask',
    ]);
  });
  test('exposure at a cap: the bid names the cap', () => {
    const snapshot = emptySnapshot();
    snapshot.desk.add(10n ** 15n - 1_500_000n, { assetId: A, issuer: 'svc1issuer' });
    expect(sides(steady, ctx({ snapshot })).map((s) => s[1])).toEqual(['position_limit', 'bid', 'bid', 'bid']);
    const shallow = { ...steady, poolQuoteReserve: 10_000_000n }; // 10 % of 10 stable: one whole share does not fit
    expect(sides(shallow, ctx(), { ...LIMITS, maxPoolShareBps: 1000 })[0][1]).toBe('pool_share_cap');
  });
  test('a loss of the asset within its cool-off: no bid at all', () => {
    const snapshot = emptySnapshot();
    snapshot.lastLossMs.set(A, 999_000);
    snapshot.lastLoss.set(A, 1n);
    expect(sides(steady, ctx({ snapshot })).map((s) => s[1])).toEqual([
      'loss_cooloff',
      'loss_cooloff',
      'loss_cooloff',
      'loss_cooloff',
    ]);
  });
});

describe('judgeOffer', () => {
  const A = 'a'.repeat(64);
  const state = stateOf(A, price(2_000_000n, 2_000_000n), 1_000_000_000n);
  const book: Book = {
    height: 100,
    costs: new Map(),
    cash: 10_000_000_000n,
    assets: new Map([[A, state]]),
    quotes: quotesOf(state, ctx(), LIMITS),
    notQuoted: [],
  };
  const opts = { denom: 'uusdc', maxTrade: 5_000_000_000n };
  const rights = (dir: string, units: string, kinds = [0, 1, 2]) =>
    kinds.map((k) => ({ direction: dir, right: { asset_id: A, kind_id: k, units } }));
  const coin = (dir: string, amount: string, denom = 'uusdc') => ({ direction: dir, coin: { denom, amount } });

  test('a whole share sold to the desk at its bid is accepted, worth its units at mid; one base unit more is not', () => {
    expect(
      judgeOffer([...rights('LEG_DIRECTION_GIVE', '10000000'), coin('LEG_DIRECTION_ASK', '19600000')], book, opts),
    ).toMatchObject({ accept: true, deskBuys: true, amount: 19_600_000n, buysValue: 20_000_000n });
    expect(
      judgeOffer([...rights('LEG_DIRECTION_GIVE', '10000000'), coin('LEG_DIRECTION_ASK', '19600001')], book, opts),
    ).toMatchObject({ accept: false, reason: 'worse_than_quote' });
  });

  test('a refused offer says the figures: what it asks, the bid per whole unit, the mid, the most the desk pays', () => {
    const v = judgeOffer(
      [...rights('LEG_DIRECTION_GIVE', '10000000'), coin('LEG_DIRECTION_ASK', '19600001')],
      book,
      opts,
    );
    expect(v).toMatchObject({
      accept: false,
      detail:
        'the offer asks 19600001 for 10000000 base units of S; the desk bids 1960000 per whole unit (mid 2000000), so it pays at most 19600000',
    });
  });

  test('a bid withheld at a cap names the cap with its figures (position X of cap Y)', () => {
    const snapshot = emptySnapshot();
    snapshot.desk.add(10n ** 15n - 1_500_000n, { assetId: A, issuer: 'svc1issuer' });
    const capped = { ...book, quotes: quotesOf(state, ctx({ snapshot }), LIMITS) };
    const v = judgeOffer([...rights('LEG_DIRECTION_GIVE', '1000000'), coin('LEG_DIRECTION_ASK', '1')], capped, opts);
    expect(v).toMatchObject({ accept: false, reason: 'position_limit' });
    expect(!v.accept && v.detail).toMatch(
      /not bidding for S now \(mid 2000000 per whole unit\): one whole unit at mid \(2000000\) does not fit: the desk's position in this asset 999999998500000 of its cap 1000000000000000 \(DESK_MAX_POSITION\), 1500000 left/,
    );
  });

  test('a kind bought from the desk at its ask is accepted; below it is not', () => {
    expect(
      judgeOffer([coin('LEG_DIRECTION_GIVE', '1224000'), ...rights('LEG_DIRECTION_ASK', '1000000', [0])], book, opts),
    ).toMatchObject({ accept: true, deskBuys: false, buysValue: 0n });
    expect(
      judgeOffer([coin('LEG_DIRECTION_GIVE', '1223999'), ...rights('LEG_DIRECTION_ASK', '1000000', [0])], book, opts),
    ).toMatchObject({ accept: false, reason: 'worse_than_quote' });
  });

  test.each([
    [
      'unequal units',
      'not_an_offer',
      [
        ...rights('LEG_DIRECTION_GIVE', '10').slice(0, 2),
        { direction: 'LEG_DIRECTION_GIVE', right: { asset_id: A, kind_id: 2, units: '11' } },
        coin('LEG_DIRECTION_ASK', '1'),
      ],
    ],
    [
      'two kinds of three (no such instrument)',
      'not_quoted',
      [...rights('LEG_DIRECTION_GIVE', '10', [0, 1]), coin('LEG_DIRECTION_ASK', '1')],
    ],
    ['another denom', 'not_an_offer', [...rights('LEG_DIRECTION_GIVE', '10'), coin('LEG_DIRECTION_ASK', '1', 'usvc')]],
    [
      'two coin legs',
      'not_an_offer',
      [...rights('LEG_DIRECTION_GIVE', '10'), coin('LEG_DIRECTION_ASK', '1'), coin('LEG_DIRECTION_ASK', '1')],
    ],
    ['a gift (both given)', 'not_an_offer', [...rights('LEG_DIRECTION_GIVE', '10'), coin('LEG_DIRECTION_GIVE', '1')]],
    [
      'an unknown asset',
      'not_quoted',
      [
        { direction: 'LEG_DIRECTION_GIVE', right: { asset_id: 'b'.repeat(64), kind_id: 0, units: '1' } },
        coin('LEG_DIRECTION_ASK', '1'),
      ],
    ],
    [
      'above the trade cap',
      'trade_cap',
      [...rights('LEG_DIRECTION_GIVE', '5000000000'), coin('LEG_DIRECTION_ASK', '5000000001')],
    ],
    [
      "beyond the desk's units",
      'inventory',
      [coin('LEG_DIRECTION_GIVE', '5000000000'), ...rights('LEG_DIRECTION_ASK', '1000000001', [0])],
    ],
  ])('%s is not accepted (%s)', (_what, reason, legs) => {
    expect(judgeOffer(legs, book, opts)).toMatchObject({ accept: false, reason });
  });

  test('a side the book withholds is refused with the side’s reason', () => {
    const capped = {
      ...book,
      quotes: book.quotes.map((q) => ({ ...q, bid: null, bidWithheld: 'position_limit' as const })),
    };
    expect(
      judgeOffer([...rights('LEG_DIRECTION_GIVE', '10000000'), coin('LEG_DIRECTION_ASK', '1')], capped, opts),
    ).toMatchObject({ accept: false, reason: 'position_limit' });
  });

  test("escrowedValue: the proposer's stable, or its rights at the desk's mid; nothing for what the desk does not quote", () => {
    expect(
      escrowedValue([coin('LEG_DIRECTION_GIVE', '1224000'), ...rights('LEG_DIRECTION_ASK', '1', [0])], book, 'uusdc'),
    ).toBe(1_224_000n);
    expect(
      escrowedValue([...rights('LEG_DIRECTION_GIVE', '10', [0]), coin('LEG_DIRECTION_ASK', '99999999')], book, 'uusdc'),
    ).toBe(12n); // 10 base units of kind 0 at 1.2 stable per whole unit
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
