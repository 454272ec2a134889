import { Harness, addr, createAsset, issue, position, msg, typed, DAY, rfc } from './harness';

const issuer = addr(1);
const alice = addr(2);
const lender = addr(3);
const carol = addr(4);
const operator = addr(5);
const releaser = addr(6);
const EVIDENCE = 'ab'.repeat(32);

function setup(extra: Record<string, unknown> = {}) {
  const h = new Harness({
    genesis: {
      balances: [issuer, alice, lender].map((address) => ({ address, coins: [{ denom: 'uusdc', amount: '1000000' }] })),
    },
  });
  const a = createAsset(h, issuer, { roles: { operator, releaser }, liens_allowed: true, ...extra });
  issue(h, issuer, a, 0, alice, '1000');
  return { h, a };
}

function create(h: Harness, creator: string, fields: Record<string, unknown>) {
  return h.tx(
    creator,
    msg('/svc.encumbrance.v1.MsgCreateEncumbrance', { creator, holder: alice, kind_id: 0, units: '100', ...fields }),
  );
}

const pledge = (a: string, extra: Record<string, unknown> = {}) => ({
  kind: 'ENCUMBRANCE_KIND_PLEDGE',
  asset_id: a,
  beneficiary: lender,
  ...extra,
});
const release = (h: Harness, sender: string, id = '1') =>
  h.tx(sender, msg('/svc.encumbrance.v1.MsgRelease', { sender, encumbrance_id: id }));
const exercise = (h: Harness, sender: string, id = '1') =>
  h.tx(sender, msg('/svc.encumbrance.v1.MsgExercise', { sender, encumbrance_id: id }));
const status = (h: Harness, id = '1') =>
  (h.query('/svc.encumbrance.v1.Query/Encumbrance', { encumbrance_id: id }).encumbrance as Record<string, unknown>)
    .status;

describe('encumbrance module', () => {
  it('a pledge locks the holder units as encumbrance/<id> and reports the creator role', () => {
    const { h, a } = setup();
    const r = create(h, alice, pledge(a, { exercisable: true }));
    expect(r.code).toBe(0);
    const ev = typed(r.events, 'svc.encumbrance.v1.EventEncumbranceCreated')[0];
    expect(ev).toMatchObject({
      encumbrance_id: '1',
      kind: 'ENCUMBRANCE_KIND_PLEDGE',
      actor: alice,
      actor_role: 'ACTOR_ROLE_HOLDER',
      holder_release_after: null,
      expiry: null,
    });
    expect(ev.positions_after).toEqual([{ asset_id: a, kind_id: 0, holder: alice, units: '1000', locked: '100' }]);
    h.commit();
    expect(position(h, a, 0, alice).locks).toEqual([{ ref: 'encumbrance/1', units: '100' }]);
    expect(status(h)).toBe('ENCUMBRANCE_STATUS_ACTIVE');
  });

  it('refuses units that are not transferable, pledges by others, liens by non-operators or when not allowed', () => {
    const { h, a } = setup();
    expect(create(h, alice, pledge(a, { units: '1001' })).code).toBe(2); // rights/2
    expect(create(h, lender, pledge(a)).codespace).toBe('encumbrance');
    const lienByHolder = create(h, alice, {
      kind: 'ENCUMBRANCE_KIND_LIEN',
      asset_id: a,
      beneficiary: lender,
      evidence_hash: EVIDENCE,
    });
    expect([lienByHolder.codespace, lienByHolder.code]).toEqual(['encumbrance', 4]);
    const lienNoEvidence = create(h, operator, { kind: 'ENCUMBRANCE_KIND_LIEN', asset_id: a, beneficiary: lender });
    expect([lienNoEvidence.codespace, lienNoEvidence.code]).toEqual(['encumbrance', 7]);
    const lien = create(h, operator, {
      kind: 'ENCUMBRANCE_KIND_LIEN',
      asset_id: a,
      beneficiary: lender,
      evidence_hash: EVIDENCE,
    });
    expect(typed(lien.events, 'svc.encumbrance.v1.EventEncumbranceCreated')[0].actor_role).toBe('ACTOR_ROLE_OPERATOR');
    const { h: h2, a: a2 } = setup({ liens_allowed: false });
    const refused = create(h2, operator, {
      kind: 'ENCUMBRANCE_KIND_LIEN',
      asset_id: a2,
      beneficiary: lender,
      evidence_hash: EVIDENCE,
    });
    expect([refused.codespace, refused.code]).toEqual(['encumbrance', 6]);
  });

  it('holder release: never when holder_release_after is null', () => {
    const { h, a } = setup();
    create(h, alice, pledge(a));
    const r = release(h, alice);
    expect([r.codespace, r.code]).toEqual(['encumbrance', 4]);
    expect(r.log).toContain('never');
  });

  it('holder release: refused before holder_release_after, allowed at/after it', () => {
    const { h, a } = setup();
    create(h, alice, pledge(a, { holder_release_after: rfc(h.timeMs + 10_000) }));
    h.commit();
    h.begin(5000);
    expect(release(h, alice).code).toBe(4);
    h.commit();
    h.begin(5000);
    const r = release(h, alice);
    expect(r.code).toBe(0);
    expect(typed(r.events, 'svc.encumbrance.v1.EventEncumbranceReleased')[0]).toEqual({
      encumbrance_id: '1',
      actor: alice,
      actor_role: 'ACTOR_ROLE_HOLDER',
      positions_after: [{ asset_id: a, kind_id: 0, holder: alice, units: '1000', locked: '0' }],
    });
    h.commit();
    expect(status(h)).toBe('ENCUMBRANCE_STATUS_RELEASED');
  });

  it('the releaser role and the beneficiary may release; strangers may not', () => {
    const { h, a } = setup();
    create(h, alice, pledge(a));
    create(h, alice, pledge(a));
    expect(release(h, carol).code).toBe(4);
    expect(typed(release(h, releaser, '1').events, 'svc.encumbrance.v1.EventEncumbranceReleased')[0].actor_role).toBe(
      'ACTOR_ROLE_RELEASER',
    );
    expect(typed(release(h, lender, '2').events, 'svc.encumbrance.v1.EventEncumbranceReleased')[0].actor_role).toBe(
      'ACTOR_ROLE_BENEFICIARY',
    );
    const again = release(h, lender, '2');
    expect([again.codespace, again.code]).toEqual(['encumbrance', 3]);
  });

  it('lockups: by holder or issuer, released by the issuer, no beneficiary', () => {
    const { h, a } = setup();
    expect(create(h, issuer, { kind: 'ENCUMBRANCE_KIND_LOCKUP', asset_id: a, beneficiary: lender }).code).toBe(7);
    const r = create(h, issuer, { kind: 'ENCUMBRANCE_KIND_LOCKUP', asset_id: a });
    expect(typed(r.events, 'svc.encumbrance.v1.EventEncumbranceCreated')[0].actor_role).toBe('ACTOR_ROLE_ISSUER');
    expect(typed(release(h, issuer).events, 'svc.encumbrance.v1.EventEncumbranceReleased')[0].actor_role).toBe(
      'ACTOR_ROLE_ISSUER',
    );
  });

  it('exercise only when exercisable, by the beneficiary, who takes the units', () => {
    const { h, a } = setup();
    create(h, alice, pledge(a, { exercisable: false }));
    create(h, alice, pledge(a, { exercisable: true, units: '300' }));
    const notExercisable = exercise(h, lender, '1');
    expect([notExercisable.codespace, notExercisable.code]).toEqual(['encumbrance', 5]);
    expect(exercise(h, carol, '2').code).toBe(4);
    const r = exercise(h, lender, '2');
    expect(typed(r.events, 'svc.encumbrance.v1.EventEncumbranceExercised')[0]).toEqual({
      encumbrance_id: '2',
      actor: lender,
      actor_role: 'ACTOR_ROLE_BENEFICIARY',
      beneficiary: lender,
      units: '300',
      positions_after: [
        { asset_id: a, kind_id: 0, holder: alice, units: '700', locked: '100' },
        { asset_id: a, kind_id: 0, holder: lender, units: '300', locked: '0' },
      ],
    });
    h.commit();
    expect(status(h, '2')).toBe('ENCUMBRANCE_STATUS_EXERCISED');
  });

  it('exercise respects the beneficiary-side policy', () => {
    const { h, a } = setup({ policy: { transfer: 'TRANSFER_MODE_RESTRICTED', allowlist: [alice] } });
    create(h, alice, pledge(a, { exercisable: true }));
    const r = exercise(h, lender);
    expect([r.codespace, r.code]).toEqual(['rights', 4]);
  });

  it('EndBlock sweep expires an encumbrance at its expiry (actor role protocol)', () => {
    const { h, a } = setup();
    create(h, alice, pledge(a, { expiry: rfc(h.timeMs + 2000), income_to_beneficiary: true }));
    h.commit();
    const { end } = h.emptyBlock(2000);
    expect(typed(end, 'svc.encumbrance.v1.EventEncumbranceExpired')).toEqual([
      {
        encumbrance_id: '1',
        expiry: rfc(h.timeMs),
        positions_after: [{ asset_id: a, kind_id: 0, holder: alice, units: '1000', locked: '0' }],
      },
    ]);
    expect(status(h)).toBe('ENCUMBRANCE_STATUS_EXPIRED');
    expect(exercise(h, lender).code).toBe(3);
  });

  it('past expiry at creation is refused', () => {
    const { h, a } = setup();
    expect(create(h, alice, pledge(a, { expiry: rfc(h.timeMs - DAY) })).code).toBe(7);
  });
});
