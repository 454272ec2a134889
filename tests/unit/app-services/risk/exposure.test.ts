/** The risk account both services share (app-services/risk/exposure.ts): one unit, losses kept, the issuer counted across both. */
import {
  cooloffUntil,
  deskBuyLimits,
  emptySnapshot,
  fitToLimits,
  lenderLimits,
  type ExposureSnapshot,
} from '../../../../app-services/risk/exposure';

const LENDER = { maxPoolShareBps: 1000, maxPerBorrower: 300n, maxPerAsset: 500n, maxTotal: 700n };
const DESK = { maxPosition: 400n, maxPoolShareBps: 1000, maxTotal: 900n };
const SHARED = { maxPerIssuer: 1000n, lossCooloffMs: 60_000 };
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

describe('cooloffUntil', () => {
  const s = snapshot((x) => {
    x.lastLossMs.asset.set('A', 1000);
    x.lastLossMs.issuer.set('I', 5000);
  });
  test('runs from the latest loss of the asset or of its issuer', () => {
    expect(cooloffUntil(s, 'A', 'J', 2000, SHARED)).toBe(61_000);
    expect(cooloffUntil(s, 'B', 'I', 2000, SHARED)).toBe(65_000); // another asset of the same issuer
    expect(cooloffUntil(s, 'A', 'I', 70_000, SHARED)).toBeNull();
    expect(cooloffUntil(s, 'B', 'J', 2000, SHARED)).toBeNull();
  });
});
