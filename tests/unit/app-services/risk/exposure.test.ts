/** The risk account both services share (app-services/risk/exposure.ts): one unit, losses kept, the issuer counted across both. */
import {
  cooloffUntil,
  listedCooloffMs,
  deskBuyLimits,
  emptySnapshot,
  fitToLimits,
  lenderLimits,
  RiskTiers,
  type ExposureSnapshot,
} from '../../../../app-services/risk/exposure';

const LENDER = {
  maxPoolShareBps: 1000,
  maxPerBorrower: 300n,
  maxPerAsset: 500n,
  maxTotal: 700n,
  communityMaxPerAsset: 50n,
  communityMaxTotal: 120n,
};
const DESK = {
  maxPosition: 400n,
  maxPoolShareBps: 1000,
  maxTotal: 900n,
  communityMaxPosition: 40n,
  communityMaxTotal: 90n,
};
// every asset of these tests is listed but those named C…
const LISTED = ['A', 'A2', 'A3', 'B', 'X', 'Z'];
const SHARED = {
  tiers: new RiskTiers(LISTED),
  maxPerIssuer: 1000n,
  communityMaxPerIssuer: 70n,
  lossCooloffMs: 60_000,
  listedLossCooloffMs: 5_000,
  listedCooloffFullLoss: 1n,
  issuerLossThreshold: 100n,
};
const subject = (over = {}) => ({ assetId: 'A', issuer: 'I', borrower: 'b', poolQuoteReserve: 10n ** 9n, ...over });

function snapshot(build: (s: ExposureSnapshot) => void): ExposureSnapshot {
  const s = emptySnapshot();
  build(s);
  return s;
}

describe('fitToLimits', () => {
  test('kept under every cap; reduced to the smallest room, named; 0 when a cap is full or passed', () => {
    const limits = lenderLimits(emptySnapshot(), subject(), LENDER, SHARED);
    expect(fitToLimits(100n, limits)).toEqual({ amount: 100n, limitedBy: null });
    expect(fitToLimits(1000n, limits)).toMatchObject({ amount: 300n, limitedBy: { reason: 'borrower_cap' } });
    const full = snapshot((s) => s.lender.add(301n, { assetId: 'X', issuer: 'J', borrower: 'b' }));
    expect(fitToLimits(1n, lenderLimits(full, subject(), LENDER, SHARED)).amount).toBe(0n);
  });
});

describe('lenderLimits', () => {
  test('the pool share of the stable reserve, less what the asset already has out', () => {
    const s = snapshot((x) => x.lender.add(40n, { assetId: 'A', issuer: 'I', borrower: 'c' }));
    expect(fitToLimits(5000n, lenderLimits(s, subject({ poolQuoteReserve: 1000n }), LENDER, SHARED))).toMatchObject({
      amount: 60n,
      limitedBy: { reason: 'pool_share_cap', setting: 'LENDER_MAX_POOL_SHARE_BPS' },
    });
  });

  test('per asset and in all', () => {
    const onAsset = snapshot((x) => x.lender.add(450n, { assetId: 'A', issuer: 'I', borrower: 'c' }));
    expect(fitToLimits(1000n, lenderLimits(onAsset, subject(), LENDER, SHARED))).toMatchObject({
      amount: 50n,
      limitedBy: { reason: 'asset_cap' },
    });
    const total = snapshot((x) => x.lender.add(650n, { assetId: 'X', issuer: 'J', borrower: 'c' }));
    expect(fitToLimits(1000n, lenderLimits(total, subject(), LENDER, SHARED))).toMatchObject({
      amount: 50n,
      limitedBy: { reason: 'total_cap' },
    });
  });

  test('a charged loss keeps its room used: a liquidation an attacker causes frees nothing', () => {
    // the loans are gone (liquidated), their losses stay in the ledger
    const s = snapshot((x) => x.lender.add(500n, { assetId: 'A', issuer: 'I', borrower: 'c' }));
    expect(fitToLimits(100n, lenderLimits(s, subject(), LENDER, SHARED)).amount).toBe(0n);
  });

  test("the issuer cap counts the lender's and the desk's exposure to all of its assets together", () => {
    const s = snapshot((x) => {
      x.lender.add(200n, { assetId: 'A2', issuer: 'I', borrower: 'c' });
      x.desk.add(750n, { assetId: 'A3', issuer: 'I' });
    });
    expect(fitToLimits(1000n, lenderLimits(s, subject(), LENDER, SHARED))).toMatchObject({
      amount: 50n,
      limitedBy: { reason: 'issuer_cap', setting: 'RISK_MAX_PER_ISSUER' },
    });
    expect(fitToLimits(100n, lenderLimits(s, subject({ issuer: 'K' }), LENDER, SHARED)).amount).toBe(100n);
  });
});

describe('deskBuyLimits', () => {
  test('position, pool share, issuer and total, each less what the desk already holds or is buying', () => {
    const s = snapshot((x) => x.desk.add(350n, { assetId: 'A', issuer: 'I' }));
    expect(fitToLimits(1000n, deskBuyLimits(s, subject(), DESK, SHARED))).toMatchObject({
      amount: 50n,
      limitedBy: { reason: 'position_limit' },
    });
    expect(fitToLimits(1000n, deskBuyLimits(s, subject({ poolQuoteReserve: 3600n }), DESK, SHARED))).toMatchObject({
      amount: 10n,
      limitedBy: { reason: 'pool_share_cap' },
    });
    const wide = snapshot((x) => x.desk.add(880n, { assetId: 'Z', issuer: 'J' }));
    expect(fitToLimits(1000n, deskBuyLimits(wide, subject(), DESK, SHARED))).toMatchObject({
      amount: 20n,
      limitedBy: { reason: 'total_cap' },
    });
  });
});

describe('tiers: the community budget is its own', () => {
  test('a community asset has the community caps, and community exposure never takes listed room', () => {
    const s = snapshot((x) => {
      x.lender.add(100n, { assetId: 'C1', issuer: 'S1', borrower: 'c' });
      x.desk.add(80n, { assetId: 'C2', issuer: 'S2' });
    });
    // listed: none of the 100 lent on C1 counts against LENDER_MAX_TOTAL
    expect(fitToLimits(290n, lenderLimits(s, subject(), LENDER, SHARED))).toEqual({ amount: 290n, limitedBy: null });
    expect(fitToLimits(1000n, lenderLimits(s, subject({ assetId: 'C3', issuer: 'S3' }), LENDER, SHARED))).toMatchObject(
      {
        amount: 20n,
        limitedBy: { reason: 'total_cap', setting: 'LENDER_COMMUNITY_MAX_TOTAL' },
      },
    );
    expect(fitToLimits(1000n, lenderLimits(emptySnapshot(), subject({ assetId: 'C3' }), LENDER, SHARED))).toMatchObject(
      {
        amount: 50n,
        limitedBy: { setting: 'LENDER_COMMUNITY_MAX_PER_ASSET' },
      },
    );
    expect(fitToLimits(1000n, deskBuyLimits(s, subject({ assetId: 'C3', issuer: 'S3' }), DESK, SHARED))).toMatchObject({
      amount: 10n,
      limitedBy: { setting: 'DESK_COMMUNITY_MAX_TOTAL' },
    });
    expect(fitToLimits(500n, deskBuyLimits(s, subject(), DESK, SHARED)).limitedBy?.setting).toBe('DESK_MAX_POSITION');
  });

  test("an issuer's community assets have their own issuer cap; its listed ones do not share it", () => {
    const s = snapshot((x) => {
      x.lender.add(30n, { assetId: 'C1', issuer: 'I', borrower: 'c' });
      x.desk.add(900n, { assetId: 'A', issuer: 'I' });
    });
    expect(fitToLimits(1000n, lenderLimits(s, subject({ assetId: 'C2' }), LENDER, SHARED))).toMatchObject({
      amount: 40n,
      limitedBy: { reason: 'issuer_cap', setting: 'RISK_COMMUNITY_MAX_PER_ISSUER' },
    });
    expect(fitToLimits(1000n, lenderLimits(s, subject(), LENDER, SHARED))).toMatchObject({
      amount: 100n,
      limitedBy: { reason: 'issuer_cap', setting: 'RISK_MAX_PER_ISSUER' },
    });
  });
});

describe('cooloffUntil: scoped to the cause', () => {
  const s = snapshot((x) => {
    x.losses.add(20n, { assetId: 'A', issuer: 'I' }); // a listed asset
    x.lastLossMs.set('A', 1000);
    x.lastLoss.set('A', 20n);
    x.losses.add(60n, { assetId: 'C1', issuer: 'I' }); // a community asset of the same issuer
    x.lastLossMs.set('C1', 3000);
  });
  test('a listed asset cools off for the listed cool-off, from its own loss only', () => {
    expect(cooloffUntil(s, 'A', 'I', 2000, SHARED)).toBe(6000);
    expect(cooloffUntil(s, 'A', 'I', 7000, SHARED)).toBeNull();
    expect(cooloffUntil(s, 'B', 'I', 2000, SHARED)).toBeNull(); // another listed asset of the issuer: never
  });
  test("a community asset for the community cool-off; its issuer's others only past the threshold", () => {
    expect(cooloffUntil(s, 'C1', 'I', 4000, SHARED)).toBe(63_000);
    expect(cooloffUntil(s, 'C2', 'I', 4000, SHARED)).toBeNull(); // 60 < 100 of community losses
    const past = snapshot((x) => {
      x.losses.add(120n, { assetId: 'C1', issuer: 'I' });
      x.lastLossMs.set('C1', 3000);
    });
    expect(cooloffUntil(past, 'C2', 'I', 4000, SHARED)).toBe(63_000);
    expect(cooloffUntil(past, 'B', 'I', 4000, SHARED)).toBeNull(); // still never a listed asset
    expect(cooloffUntil(past, 'C2', 'J', 4000, SHARED)).toBeNull();
  });
  test("a listed asset's cool-off is in proportion to its latest loss, whole from RISK_LISTED_COOLOFF_FULL_LOSS", () => {
    const scaled = { ...SHARED, listedLossCooloffMs: 300_000, listedCooloffFullLoss: 5000n };
    const after = (loss: bigint) =>
      cooloffUntil(
        snapshot((x) => {
          x.losses.add(loss, { assetId: 'A', issuer: 'I' });
          x.lastLossMs.set('A', 1000);
          x.lastLoss.set('A', loss);
        }),
        'A',
        'I',
        1000,
        scaled,
      );
    expect(after(500n)).toBe(1000 + 30_000); // a tenth of the full loss: a tenth of the cool-off
    expect(after(5000n)).toBe(1000 + 300_000);
    expect(after(50_000n)).toBe(1000 + 300_000); // never more than the whole
    expect(after(1n)).toBe(1000 + 60); // 300 s × 1 / 5000
    expect(listedCooloffMs(2500n, scaled)).toBe(150_000);
    expect(listedCooloffMs(0n, scaled)).toBe(0);
  });
});
