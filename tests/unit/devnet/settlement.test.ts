import {
  Harness,
  addr,
  createAsset,
  issue,
  position,
  msg,
  typed,
  coinBalance,
  pendingBalance,
  DAY,
  rfc,
  attr,
} from './harness';
import { moduleAccounts } from '../../../devnet/app';

const issuer = addr(1);
const alice = addr(2);
const bob = addr(3);
const carol = addr(4);

function setup() {
  const h = new Harness({
    genesis: {
      balances: [issuer, alice, bob, carol].map((address) => ({
        address,
        coins: [{ denom: 'uusdc', amount: '1000000' }],
      })),
    },
  });
  const a = createAsset(h, issuer);
  for (const k of [0, 1]) issue(h, issuer, a, k, alice, '1000');
  return { h, a };
}

const give = (a: string, kind: number, units: string) => ({
  direction: 'LEG_DIRECTION_GIVE',
  right: { asset_id: a, kind_id: kind, units },
});
const askCoin = (amount: string) => ({ direction: 'LEG_DIRECTION_ASK', coin: { denom: 'uusdc', amount } });
const giveCoin = (amount: string) => ({ direction: 'LEG_DIRECTION_GIVE', coin: { denom: 'uusdc', amount } });

function propose(h: Harness, proposer: string, counterparty: string, legs: unknown[], expiryMs = h.timeMs + DAY) {
  return h.tx(proposer, msg('/svc.settlement.v1.MsgPropose', { proposer, counterparty, legs, expiry: rfc(expiryMs) }));
}

describe('settlement module', () => {
  it('propose escrows GIVE legs: rights locked as settlement/<id>, coins to the module account', () => {
    const { h, a } = setup();
    const r = propose(h, alice, bob, [give(a, 0, '100'), giveCoin('5000'), askCoin('7000')]);
    expect(r.code).toBe(0);
    const ev = typed(r.events, 'svc.settlement.v1.EventSettlementProposed')[0];
    expect(ev.settlement_id).toBe('1');
    expect(ev.positions_after).toEqual([{ asset_id: a, kind_id: 0, holder: alice, units: '1000', locked: '100' }]);
    h.commit();
    expect(position(h, a, 0, alice).locks).toEqual([{ ref: 'settlement/1', units: '100' }]);
    expect(coinBalance(h, moduleAccounts(h.app).settlement, 'uusdc')).toBe(5000n);
    const s = h.query('/svc.settlement.v1.Query/Settlement', { settlement_id: '1' }).settlement as Record<
      string,
      unknown
    >;
    expect(s.status).toBe('STATUS_PENDING');
    expect((s.legs as unknown[]).length).toBe(3);
  });

  it('accept moves every leg in the accepting tx', () => {
    const { h, a } = setup();
    propose(h, alice, bob, [give(a, 0, '100'), give(a, 1, '50'), askCoin('7000')]);
    const r = h.ok(bob, msg('/svc.settlement.v1.MsgAccept', { counterparty: bob, settlement_id: '1' }));
    const ev = typed(r.events, 'svc.settlement.v1.EventSettlementSettled')[0];
    expect(ev.accepted_by).toBe(bob);
    expect(ev.positions_after).toEqual([
      { asset_id: a, kind_id: 0, holder: alice, units: '900', locked: '0' },
      { asset_id: a, kind_id: 0, holder: bob, units: '100', locked: '0' },
      { asset_id: a, kind_id: 1, holder: alice, units: '950', locked: '0' },
      { asset_id: a, kind_id: 1, holder: bob, units: '50', locked: '0' },
    ]);
    h.commit();
    expect(coinBalance(h, alice, 'uusdc')).toBe(1007000n);
    expect(coinBalance(h, bob, 'uusdc')).toBe(993000n);
    expect(
      (h.query('/svc.settlement.v1.Query/Settlement', { settlement_id: '1' }).settlement as Record<string, unknown>)
        .status,
    ).toBe('STATUS_SETTLED');
  });

  it('accept moves none when one leg cannot move (counterparty short of coins)', () => {
    const { h, a } = setup();
    propose(h, alice, bob, [give(a, 0, '100'), askCoin('2000000')]);
    const r = h.tx(bob, msg('/svc.settlement.v1.MsgAccept', { counterparty: bob, settlement_id: '1' }));
    expect([r.codespace, r.code]).toEqual(['sdk', 5]);
    h.commit();
    expect(position(h, a, 0, alice)).toEqual({
      units: '1000',
      locked: '100',
      locks: [{ ref: 'settlement/1', units: '100' }],
    });
    expect(position(h, a, 0, bob).units).toBe('0');
    expect(
      (h.query('/svc.settlement.v1.Query/Settlement', { settlement_id: '1' }).settlement as Record<string, unknown>)
        .status,
    ).toBe('STATUS_PENDING');
  });

  it('accept moves none when the ASK right leg fails the proposer-side policy', () => {
    const { h, a } = setup();
    issue(h, issuer, a, 0, bob, '10');
    h.ok(
      issuer,
      msg('/svc.asset.v1.MsgSetKindPolicy', {
        issuer,
        asset_id: a,
        kind_id: 0,
        policy_override: { transfer: 'TRANSFER_MODE_RESTRICTED', allowlist: [bob] },
      }),
    );
    propose(h, alice, bob, [
      giveCoin('10'),
      { direction: 'LEG_DIRECTION_ASK', right: { asset_id: a, kind_id: 0, units: '10' } },
    ]);
    const r = h.tx(bob, msg('/svc.settlement.v1.MsgAccept', { counterparty: bob, settlement_id: '1' }));
    expect([r.codespace, r.code]).toEqual(['rights', 4]);
    expect(pendingBalance(h, bob, 'uusdc')).toBe(1000000n);
  });

  it('only the counterparty accepts; nobody accepts after expiry', () => {
    const { h, a } = setup();
    propose(h, alice, bob, [give(a, 0, '1')], h.timeMs + 5000);
    expect(h.tx(carol, msg('/svc.settlement.v1.MsgAccept', { counterparty: carol, settlement_id: '1' })).code).toBe(4);
    h.commit();
    h.begin(5000);
    const late = h.tx(bob, msg('/svc.settlement.v1.MsgAccept', { counterparty: bob, settlement_id: '1' }));
    expect([late.codespace, late.code]).toEqual(['settlement', 5]);
  });

  it('cancel by either party returns the escrow, reason empty; others may not cancel', () => {
    const { h, a } = setup();
    propose(h, alice, bob, [give(a, 0, '100'), giveCoin('300')]);
    propose(h, alice, bob, [give(a, 0, '100')]);
    expect(h.tx(carol, msg('/svc.settlement.v1.MsgCancel', { sender: carol, settlement_id: '1' })).code).toBe(4);
    const byProposer = h.ok(alice, msg('/svc.settlement.v1.MsgCancel', { sender: alice, settlement_id: '1' }));
    expect(typed(byProposer.events, 'svc.settlement.v1.EventSettlementCancelled')[0]).toEqual({
      settlement_id: '1',
      cancelled_by: alice,
      reason: '',
      positions_after: [{ asset_id: a, kind_id: 0, holder: alice, units: '1000', locked: '100' }],
    });
    const byCounterparty = h.ok(bob, msg('/svc.settlement.v1.MsgCancel', { sender: bob, settlement_id: '2' }));
    expect(typed(byCounterparty.events, 'svc.settlement.v1.EventSettlementCancelled')[0].cancelled_by).toBe(bob);
    h.commit();
    expect(position(h, a, 0, alice)).toEqual({ units: '1000', locked: '0', locks: [] });
    expect(coinBalance(h, alice, 'uusdc')).toBe(1000000n);
    const again = h.tx(alice, msg('/svc.settlement.v1.MsgCancel', { sender: alice, settlement_id: '1' }));
    expect([again.codespace, again.code]).toEqual(['settlement', 3]);
  });

  it('EndBlock sweep expires pending settlements once expiry is reached (block-level event, no msg_index)', () => {
    const { h, a } = setup();
    propose(h, alice, bob, [give(a, 0, '100'), giveCoin('50')], h.timeMs + 3000);
    propose(h, alice, bob, [give(a, 1, '10')], h.timeMs + 60_000);
    expect(h.commit()).toEqual([]);
    const { end } = h.emptyBlock(3000);
    const expired = typed(end, 'svc.settlement.v1.EventSettlementExpired');
    expect(expired).toEqual([
      { settlement_id: '1', positions_after: [{ asset_id: a, kind_id: 0, holder: alice, units: '1000', locked: '0' }] },
    ]);
    expect(attr(end[end.length - 1], 'msg_index')).toBeUndefined();
    expect(
      (h.query('/svc.settlement.v1.Query/Settlement', { settlement_id: '1' }).settlement as Record<string, unknown>)
        .status,
    ).toBe('STATUS_EXPIRED');
    expect(coinBalance(h, alice, 'uusdc')).toBe(1000000n);
    expect(h.emptyBlock(1000).end).toEqual([]);
    expect(
      typed(h.emptyBlock(60_000).end, 'svc.settlement.v1.EventSettlementExpired').map((e) => e.settlement_id),
    ).toEqual(['2']);
  });

  it('the repayment flow: accept and release of the pledges in one tx', () => {
    const { h, a } = setup();
    const lender = carol;
    h.ok(
      alice,
      msg('/svc.encumbrance.v1.MsgCreateEncumbrance', {
        creator: alice,
        kind: 'ENCUMBRANCE_KIND_PLEDGE',
        asset_id: a,
        kind_id: 0,
        holder: alice,
        units: '500',
        beneficiary: lender,
        income_to_beneficiary: true,
        exercisable: true,
      }),
    );
    propose(h, alice, lender, [giveCoin('1000')]);
    const r = h.ok(lender, [
      msg('/svc.settlement.v1.MsgAccept', { counterparty: lender, settlement_id: '1' }),
      msg('/svc.encumbrance.v1.MsgRelease', { sender: lender, encumbrance_id: '1' }),
    ]);
    expect(typed(r.events, 'svc.encumbrance.v1.EventEncumbranceReleased')[0].actor_role).toBe('ACTOR_ROLE_BENEFICIARY');
    h.commit();
    expect(position(h, a, 0, alice).locked).toBe('0');
  });
});
