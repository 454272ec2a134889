import { Harness, addr, createAsset, issue, position, msg, typed, DAY, rfc } from './harness';

const issuer = addr(1);
const alice = addr(2);
const bob = addr(3);
const attester = addr(5);

function setup() {
  const h = new Harness();
  const a = createAsset(h, issuer);
  issue(h, issuer, a, 2, alice, '100');
  issue(h, issuer, a, 0, alice, '100');
  return { h, a };
}

const delegate = (h: Harness, a: string, extra: Record<string, unknown> = {}) =>
  h.tx(
    alice,
    msg('/svc.delegation.v1.MsgDelegate', {
      holder: alice,
      delegate: bob,
      asset_id: a,
      kind_id: 2,
      units: '40',
      until: rfc(h.timeMs + DAY),
      purposes: ['agm-2027'],
      revocable: true,
      ...extra,
    }),
  );
const delegation = (h: Harness, id = '1') => h.query('/svc.delegation.v1.Query/Delegation', { delegation_id: id });

describe('delegation module', () => {
  it('locks VOTE units as delegation/<id>; non-VOTE kinds are refused', () => {
    const { h, a } = setup();
    const r = delegate(h, a);
    expect(typed(r.events, 'svc.delegation.v1.EventDelegated')[0]).toMatchObject({
      delegation_id: '1',
      purposes: ['agm-2027'],
      revocable: true,
      units: '40',
    });
    const econ = delegate(h, a, { kind_id: 0 });
    expect([econ.codespace, econ.code]).toEqual(['delegation', 6]);
    h.commit();
    expect(position(h, a, 2, alice).locks).toEqual([{ ref: 'delegation/1', units: '40' }]);
    expect(delegation(h)).toMatchObject({
      found: true,
      holder: alice,
      delegate: bob,
      units: '40',
      ended: 'END_REASON_UNSPECIFIED',
    });
    expect(delegation(h, '9')).toMatchObject({ found: false });
  });

  it('revoke only by the holder and only when revocable', () => {
    const { h, a } = setup();
    delegate(h, a, { revocable: false });
    delegate(h, a, { revocable: true });
    const notRevocable = h.tx(
      alice,
      msg('/svc.delegation.v1.MsgRevokeDelegation', { holder: alice, delegation_id: '1' }),
    );
    expect([notRevocable.codespace, notRevocable.code]).toEqual(['delegation', 5]);
    expect(h.tx(bob, msg('/svc.delegation.v1.MsgRevokeDelegation', { holder: bob, delegation_id: '2' })).code).toBe(4);
    const r = h.ok(alice, msg('/svc.delegation.v1.MsgRevokeDelegation', { holder: alice, delegation_id: '2' }));
    expect(typed(r.events, 'svc.delegation.v1.EventDelegationEnded')[0]).toMatchObject({
      reason: 'END_REASON_REVOKED',
      actor: alice,
    });
  });

  it('return by the delegate, always allowed', () => {
    const { h, a } = setup();
    delegate(h, a, { revocable: false });
    expect(
      h.tx(alice, msg('/svc.delegation.v1.MsgReturnDelegation', { delegate: alice, delegation_id: '1' })).code,
    ).toBe(4);
    const r = h.ok(bob, msg('/svc.delegation.v1.MsgReturnDelegation', { delegate: bob, delegation_id: '1' }));
    expect(typed(r.events, 'svc.delegation.v1.EventDelegationEnded')[0]).toMatchObject({
      reason: 'END_REASON_RETURNED',
      actor: bob,
    });
    const again = h.tx(bob, msg('/svc.delegation.v1.MsgReturnDelegation', { delegate: bob, delegation_id: '1' }));
    expect([again.codespace, again.code]).toEqual(['delegation', 3]);
    h.commit();
    expect(position(h, a, 2, alice).locked).toBe('0');
  });

  it('EndBlock sweep ends a delegation at until with END_REASON_EXPIRED', () => {
    const { h, a } = setup();
    delegate(h, a, { until: rfc(h.timeMs + 1500) });
    h.commit();
    const { end } = h.emptyBlock(2000);
    expect(typed(end, 'svc.delegation.v1.EventDelegationEnded')).toEqual([
      {
        delegation_id: '1',
        reason: 'END_REASON_EXPIRED',
        actor: '',
        positions_after: [{ asset_id: a, kind_id: 2, holder: alice, units: '100', locked: '0' }],
      },
    ]);
    expect(delegation(h).ended).toBe('END_REASON_EXPIRED');
  });
});

describe('attestation module', () => {
  it('attest, query, revoke; renewal clears the revocation; expiry is passive', () => {
    const h = new Harness();
    const expiry = rfc(h.timeMs + 5000);
    const r = h.ok(
      attester,
      msg('/svc.attestation.v1.MsgAttest', {
        attester,
        subject: alice,
        type: 'kyc',
        expiry,
        evidence_hash: 'cd'.repeat(32),
      }),
    );
    expect(typed(r.events, 'svc.attestation.v1.EventAttested')[0]).toEqual({
      attester,
      subject: alice,
      type: 'kyc',
      expiry,
      evidence_hash: 'cd'.repeat(32),
    });
    h.commit();
    const q = () => h.query('/svc.attestation.v1.Query/Attestation', { attester, subject: alice, type: 'kyc' });
    expect(q()).toMatchObject({ found: true, revoked: false, expiry });
    h.ok(attester, msg('/svc.attestation.v1.MsgRevokeAttestation', { attester, subject: alice, type: 'kyc' }));
    h.commit();
    expect(q().revoked).toBe(true);
    const twice = h.tx(
      attester,
      msg('/svc.attestation.v1.MsgRevokeAttestation', { attester, subject: alice, type: 'kyc' }),
    );
    expect([twice.codespace, twice.code]).toEqual(['attestation', 2]);
    h.ok(
      attester,
      msg('/svc.attestation.v1.MsgAttest', { attester, subject: alice, type: 'kyc', expiry: rfc(h.timeMs + DAY) }),
    );
    h.commit();
    expect(q().revoked).toBe(false);
    expect(h.query('/svc.attestation.v1.Query/Attestation', { attester, subject: bob, type: 'kyc' }).found).toBe(false);
    const past = h.tx(
      attester,
      msg('/svc.attestation.v1.MsgAttest', { attester, subject: alice, type: 'kyc', expiry: rfc(h.timeMs - 1) }),
    );
    expect([past.codespace, past.code]).toEqual(['attestation', 3]);
  });
});
