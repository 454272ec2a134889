import { Harness, addr, createAsset, issue, position, msg, typed, coinBalance, DAY, rfc } from './harness';

const issuer = addr(1);
const alice = addr(2);
const bob = addr(3);
const stranger = addr(4);
const REDEMPTION = { class: 'KIND_CLASS_REDEMPTION', decimals: 6, bundle: false, transferable: true };
const ECONOMIC = { class: 'KIND_CLASS_ECONOMIC', decimals: 6, bundle: false, transferable: true };

function setup() {
  const h = new Harness({
    genesis: {
      balances: [issuer, alice, bob].map((address) => ({ address, coins: [{ denom: 'uusdc', amount: '1000000' }] })),
    },
  });
  const a = createAsset(h, issuer, { kinds: [REDEMPTION, ECONOMIC] });
  issue(h, issuer, a, 0, alice, '100');
  issue(h, issuer, a, 1, bob, '1000');
  return { h, a };
}

const tiers = [
  { rank: 0, kind_id: 0, claim_per_unit: '10' },
  { rank: 1, kind_id: 1, claim_per_unit: '5' },
];
const setWaterfall = (h: Harness, a: string, sender = issuer) =>
  h.tx(sender, msg('/svc.waterfall.v1.MsgSetWaterfall', { issuer: sender, asset_id: a, tiers }));
const liquidate = (h: Harness, a: string, amount: string, authority = issuer) =>
  h.tx(
    authority,
    msg('/svc.waterfall.v1.MsgLiquidate', { authority, asset_id: a, proceeds: { denom: 'uusdc', amount } }),
  );
const redeem = (h: Harness, holder: string, a: string, kind: number, units: string) =>
  h.tx(holder, msg('/svc.waterfall.v1.MsgRedeem', { holder, asset_id: a, kind_id: kind, units }));

describe('waterfall module', () => {
  it('only the issuer sets the waterfall; liquidation needs one and the issuer or operator', () => {
    const { h, a } = setup();
    expect(setWaterfall(h, a, stranger).codespace).toBe('waterfall');
    expect(liquidate(h, a, '10').code).toBe(2);
    setWaterfall(h, a);
    expect(liquidate(h, a, '10', stranger).code).toBe(3);
  });

  it('liquidation: LIQUIDATING, cancels pending settlements with a leg of the asset (LIQUIDATION), pays tiers in rank order', () => {
    const { h, a } = setup();
    setWaterfall(h, a);
    h.ok(
      alice,
      msg('/svc.settlement.v1.MsgPropose', {
        proposer: alice,
        counterparty: bob,
        legs: [{ direction: 'LEG_DIRECTION_GIVE', right: { asset_id: a, kind_id: 0, units: '10' } }],
        expiry: rfc(h.timeMs + DAY),
      }),
    );
    h.ok(
      alice,
      msg('/svc.settlement.v1.MsgPropose', {
        proposer: alice,
        counterparty: bob,
        legs: [{ direction: 'LEG_DIRECTION_GIVE', coin: { denom: 'uusdc', amount: '5' } }],
        expiry: rfc(h.timeMs + DAY),
      }),
    );
    const r = liquidate(h, a, '3000');
    expect(r.code).toBe(0);
    const types = r.events.map((e) => e.type).filter((t) => t.startsWith('svc.'));
    expect(types).toEqual([
      'svc.asset.v1.EventAssetStatusChanged',
      'svc.settlement.v1.EventSettlementCancelled',
      'svc.waterfall.v1.EventLiquidationStarted',
    ]);
    expect(typed(r.events, 'svc.asset.v1.EventAssetStatusChanged')[0]).toEqual({
      asset_id: a,
      status: 'ASSET_STATUS_LIQUIDATING',
      previous: 'ASSET_STATUS_ACTIVE',
    });
    expect(typed(r.events, 'svc.settlement.v1.EventSettlementCancelled')[0]).toMatchObject({
      settlement_id: '1',
      reason: 'LIQUIDATION',
    });
    const started = typed(r.events, 'svc.waterfall.v1.EventLiquidationStarted')[0];
    expect(started.tiers).toEqual([
      { rank: 0, kind_id: 0, owed: '1000', paid: '1000', cumulative_paid: '1000' },
      { rank: 1, kind_id: 1, owed: '5000', paid: '2000', cumulative_paid: '3000' },
    ]);
    expect(started.surplus).toBe('0');
    expect(started.pools_after).toEqual([
      { kind_id: 0, denom: 'uusdc', amount: '1000', units_outstanding: '100' },
      { kind_id: 1, denom: 'uusdc', amount: '2000', units_outstanding: '1000' },
    ]);
    h.commit();
    expect(position(h, a, 0, alice).locked).toBe('0');
    expect(
      (h.query('/svc.settlement.v1.Query/Settlement', { settlement_id: '1' }).settlement as Record<string, unknown>)
        .cancel_reason,
    ).toBe('LIQUIDATION');
    expect(
      (h.query('/svc.settlement.v1.Query/Settlement', { settlement_id: '2' }).settlement as Record<string, unknown>)
        .status,
    ).toBe('STATUS_PENDING');
    const q = h.query('/svc.waterfall.v1.Query/Liquidation', { asset_id: a });
    expect(q.liquidating).toBe(true);
    expect((q.payments as unknown[]).length).toBe(2);
  });

  it('redeem burns units pro rata; LIQUIDATED when every tier kind supply is 0', () => {
    const { h, a } = setup();
    setWaterfall(h, a);
    liquidate(h, a, '3000');
    const first = redeem(h, alice, a, 0, '40');
    expect(typed(first.events, 'svc.waterfall.v1.EventRedeemed')[0]).toMatchObject({
      units: '40',
      amount: '400',
      supply_after: '60',
      pool_after: { kind_id: 0, denom: 'uusdc', amount: '600', units_outstanding: '60' },
    });
    redeem(h, alice, a, 0, '60');
    const last = redeem(h, bob, a, 1, '1000');
    expect(last.events.map((e) => e.type).filter((t) => t.startsWith('svc.'))).toEqual([
      'svc.waterfall.v1.EventRedeemed',
      'svc.waterfall.v1.EventLiquidationCompleted',
      'svc.asset.v1.EventAssetStatusChanged',
    ]);
    h.commit();
    expect(coinBalance(h, alice, 'uusdc')).toBe(1001000n);
    expect(coinBalance(h, bob, 'uusdc')).toBe(1002000n);
    expect(h.query('/svc.asset.v1.Query/Asset', { asset_id: a }).status).toBe('ASSET_STATUS_LIQUIDATED');
    const issueAfter = h.tx(
      issuer,
      msg('/svc.asset.v1.MsgIssue', { issuer, asset_id: a, kind_id: 0, recipient: alice, units: '1' }),
    );
    expect([issueAfter.codespace, issueAfter.code]).toEqual(['asset', 7]);
  });

  it('funded redemption pools for REDEMPTION kinds only; redeem works with issuance locked', () => {
    const { h, a } = setup();
    h.ok(issuer, msg('/svc.asset.v1.MsgLockIssuance', { issuer, asset_id: a }));
    const wrongKind = h.tx(
      issuer,
      msg('/svc.waterfall.v1.MsgFundRedemption', {
        issuer,
        asset_id: a,
        kind_id: 1,
        amount: { denom: 'uusdc', amount: '100' },
      }),
    );
    expect([wrongKind.codespace, wrongKind.code]).toEqual(['waterfall', 5]);
    const funded = h.ok(
      issuer,
      msg('/svc.waterfall.v1.MsgFundRedemption', {
        issuer,
        asset_id: a,
        kind_id: 0,
        amount: { denom: 'uusdc', amount: '999' },
      }),
    );
    expect(typed(funded.events, 'svc.waterfall.v1.EventRedemptionFunded')[0].pool_after).toEqual({
      kind_id: 0,
      denom: 'uusdc',
      amount: '999',
      units_outstanding: '100',
    });
    expect(typed(redeem(h, alice, a, 0, '50').events, 'svc.waterfall.v1.EventRedeemed')[0].amount).toBe('499');
    expect(typed(redeem(h, alice, a, 0, '50').events, 'svc.waterfall.v1.EventRedeemed')[0].amount).toBe('500');
    expect(redeem(h, bob, a, 1, '1').code).toBe(6);
  });
});
