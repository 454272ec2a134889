import { deriveAssetId, rightTokenAddress, bundleTokenAddress } from '../../../src/lib/ids';
import { Harness, addr, createAsset, issue, position, msg, typed, coinBalance, DAY, rfc } from './harness';

const issuer = addr(1);
const alice = addr(2);
const bob = addr(3);
const carol = addr(4);
const attester = addr(5);

function setup(): Harness {
  return new Harness({
    genesis: {
      balances: [issuer, alice, bob, carol].map((address) => ({
        address,
        coins: [
          { denom: 'usvc', amount: '1000000' },
          { denom: 'uusdc', amount: '1000000000' },
        ],
      })),
    },
  });
}

const transfer = (sender: string, recipient: string, assetId: string, kindId: number, units: string) =>
  msg('/svc.rights.v1.MsgTransfer', { sender, recipient, asset_id: assetId, kind_id: kindId, units });

describe('asset module', () => {
  it('derives the asset id from issuer and nonce; kind ids are positions, multiplier 1, ACTIVE', () => {
    const h = setup();
    const first = createAsset(h, issuer);
    const second = createAsset(h, issuer);
    expect(first).toBe(deriveAssetId(issuer, 0n));
    expect(second).toBe(deriveAssetId(issuer, 1n));
    h.commit();
    const asset = h.query('/svc.asset.v1.Query/Asset', { asset_id: first });
    expect(asset.status).toBe('ASSET_STATUS_ACTIVE');
    expect(asset.nonce).toBe('0');
    expect((asset.kinds as { kind_id: number; multiplier: string }[]).map((k) => [k.kind_id, k.multiplier])).toEqual([
      [0, '1'],
      [1, '1'],
      [2, '1'],
    ]);
  });

  it('issues units with supply_after and positions_after; holder counts follow', () => {
    const h = setup();
    const a = createAsset(h, issuer);
    const r = issue(h, issuer, a, 0, alice, '1000');
    const ev = typed(r.events, 'svc.asset.v1.EventIssued')[0];
    expect(ev.supply_after).toBe('1000');
    expect(ev.positions_after).toEqual([{ asset_id: a, kind_id: 0, holder: alice, units: '1000', locked: '0' }]);
    expect(r.events.find((e) => e.type === 'svc.asset.v1.EventIssued')!.attributes.at(-1)).toEqual({
      key: 'msg_index',
      value: '0',
    });
    h.ok(alice, transfer(alice, bob, a, 0, '400'));
    h.commit();
    expect(h.query('/svc.asset.v1.Query/KindSupply', { asset_id: a, kind_id: 0 })).toEqual({
      supply: '1000',
      holder_count: '2',
      multiplier: '1',
    });
    h.ok(bob, transfer(bob, alice, a, 0, '400'));
    h.commit();
    expect(h.query('/svc.asset.v1.Query/KindSupply', { asset_id: a, kind_id: 0 }).holder_count).toBe('1');
  });

  it('only the issuer issues', () => {
    const h = setup();
    const a = createAsset(h, issuer);
    const r = h.tx(
      alice,
      msg('/svc.asset.v1.MsgIssue', { issuer: alice, asset_id: a, kind_id: 0, recipient: alice, units: '1' }),
    );
    expect([r.codespace, r.code]).toEqual(['asset', 4]);
  });

  it('a message whose signer field did not sign fails with sdk/4', () => {
    const h = setup();
    const a = createAsset(h, issuer);
    const r = h.tx(
      alice,
      msg('/svc.asset.v1.MsgIssue', { issuer, asset_id: a, kind_id: 0, recipient: alice, units: '1' }),
    );
    expect([r.codespace, r.code]).toEqual(['sdk', 4]);
  });

  it('issuance locked: issue fails for ever; transfers, settlements and distributions continue', () => {
    const h = setup();
    const a = createAsset(h, issuer);
    issue(h, issuer, a, 0, alice, '1000');
    issue(h, issuer, a, 1, alice, '1000');
    const lock = h.ok(issuer, msg('/svc.asset.v1.MsgLockIssuance', { issuer, asset_id: a }));
    expect(typed(lock.events, 'svc.asset.v1.EventIssuanceLocked')).toEqual([{ asset_id: a, issuer }]);
    const refused = h.tx(
      issuer,
      msg('/svc.asset.v1.MsgIssue', { issuer, asset_id: a, kind_id: 0, recipient: alice, units: '1' }),
    );
    expect([refused.codespace, refused.code]).toEqual(['asset', 5]);
    h.ok(alice, transfer(alice, bob, a, 0, '100'));
    h.ok(
      alice,
      msg('/svc.settlement.v1.MsgPropose', {
        proposer: alice,
        counterparty: bob,
        legs: [{ direction: 'LEG_DIRECTION_GIVE', right: { asset_id: a, kind_id: 0, units: '10' } }],
        expiry: rfc(h.timeMs + DAY),
      }),
    );
    h.ok(bob, msg('/svc.settlement.v1.MsgAccept', { counterparty: bob, settlement_id: '1' }));
    h.ok(
      issuer,
      msg('/svc.payout.v1.MsgDistribute', {
        payer: issuer,
        asset_id: a,
        kind_id: 1,
        amount: { denom: 'uusdc', amount: '500' },
      }),
    );
    h.commit();
    expect(h.query('/svc.asset.v1.Query/Asset', { asset_id: a }).issuance_locked).toBe(true);
    expect(position(h, a, 0, bob).units).toBe('110');
  });

  it('sets and clears a kind policy override, splits, and sets bridgeable', () => {
    const h = setup();
    const a = createAsset(h, issuer);
    const set = h.ok(
      issuer,
      msg('/svc.asset.v1.MsgSetKindPolicy', {
        issuer,
        asset_id: a,
        kind_id: 1,
        policy_override: { transfer: 'TRANSFER_MODE_RESTRICTED', allowlist: [bob] },
      }),
    );
    expect(typed(set.events, 'svc.asset.v1.EventKindPolicySet')[0].cleared).toBe(false);
    const split = h.ok(issuer, msg('/svc.asset.v1.MsgSplitKind', { issuer, asset_id: a, kind_id: 0, factor: '2' }));
    expect(typed(split.events, 'svc.asset.v1.EventKindSplit')[0].multiplier_after).toBe('2');
    h.ok(issuer, msg('/svc.asset.v1.MsgSplitKind', { issuer, asset_id: a, kind_id: 0, factor: '5' }));
    h.ok(issuer, msg('/svc.asset.v1.MsgSetBridgeable', { issuer, asset_id: a, kind_id: 0, bridgeable: true }));
    h.commit();
    const kinds = h.query('/svc.asset.v1.Query/Asset', { asset_id: a }).kinds as Record<string, unknown>[];
    expect(kinds[0].multiplier).toBe('10');
    expect(kinds[0].bridgeable).toBe(true);
    expect((kinds[1].policy_override as Record<string, unknown>).transfer).toBe('TRANSFER_MODE_RESTRICTED');
    h.ok(issuer, msg('/svc.asset.v1.MsgSetKindPolicy', { issuer, asset_id: a, kind_id: 1, clear: true }));
    h.commit();
    expect(
      (h.query('/svc.asset.v1.Query/Asset', { asset_id: a }).kinds as Record<string, unknown>[])[1].policy_override,
    ).toBeNull();
  });

  it('registers the right-token and bundle-token precompile addresses', () => {
    const h = setup();
    const a = createAsset(h, issuer);
    h.commit();
    const { entries } = h.query('/svc.asset.v1.Query/TokenRegistry', { asset_id: a }) as {
      entries: Record<string, unknown>[];
    };
    expect(entries).toEqual([
      { kind_id: 0, bundle: false, address: rightTokenAddress(a, 0) },
      { kind_id: 1, bundle: false, address: rightTokenAddress(a, 1) },
      { kind_id: 2, bundle: false, address: rightTokenAddress(a, 2) },
      { kind_id: 0, bundle: true, address: bundleTokenAddress(a) },
    ]);
  });
});

describe('rights module', () => {
  it('moves only transferable units (units − locked)', () => {
    const h = setup();
    const a = createAsset(h, issuer);
    issue(h, issuer, a, 2, alice, '100');
    h.ok(
      alice,
      msg('/svc.delegation.v1.MsgDelegate', {
        holder: alice,
        delegate: bob,
        asset_id: a,
        kind_id: 2,
        units: '70',
        until: rfc(h.timeMs + DAY),
        revocable: true,
      }),
    );
    const r = h.tx(alice, transfer(alice, carol, a, 2, '31'));
    expect([r.codespace, r.code]).toEqual(['rights', 2]);
    h.ok(alice, transfer(alice, carol, a, 2, '30'));
    h.commit();
    expect(position(h, a, 2, alice)).toEqual({
      units: '70',
      locked: '70',
      locks: [{ ref: 'delegation/1', units: '70' }],
    });
  });

  it('refuses a kind that is not transferable', () => {
    const h = setup();
    const a = createAsset(h, issuer, { kinds: [{ class: 'KIND_CLASS_ECONOMIC', decimals: 6, transferable: false }] });
    issue(h, issuer, a, 0, alice, '100');
    const r = h.tx(alice, transfer(alice, bob, a, 0, '1'));
    expect([r.codespace, r.code]).toEqual(['rights', 3]);
  });

  it('RESTRICTED policy: only issuer and allowlist receive; denial names the rule path', () => {
    const h = setup();
    const a = createAsset(h, issuer, { policy: { transfer: 'TRANSFER_MODE_RESTRICTED', allowlist: [bob] } });
    issue(h, issuer, a, 0, alice, '100');
    h.ok(alice, transfer(alice, bob, a, 0, '1'));
    h.ok(alice, transfer(alice, issuer, a, 0, '1'));
    const denied = h.tx(alice, transfer(alice, carol, a, 0, '1'));
    expect([denied.codespace, denied.code]).toEqual(['rights', 4]);
    expect(denied.log).toContain('policy denied: policy.transfer');
  });

  it('a kind override wins over the asset policy (rule path kinds[i].policy_override.transfer)', () => {
    const h = setup();
    const a = createAsset(h, issuer);
    issue(h, issuer, a, 1, alice, '100');
    h.ok(
      issuer,
      msg('/svc.asset.v1.MsgSetKindPolicy', {
        issuer,
        asset_id: a,
        kind_id: 1,
        policy_override: { transfer: 'TRANSFER_MODE_RESTRICTED' },
      }),
    );
    const denied = h.tx(alice, transfer(alice, bob, a, 1, '1'));
    expect(denied.log).toContain('policy denied: kinds[1].policy_override.transfer');
  });

  it('ATTESTED policy: needs a live, unrevoked attestation of the type (from the attester when set)', () => {
    const h = setup();
    const a = createAsset(h, issuer, {
      policy: { transfer: 'TRANSFER_MODE_ATTESTED', attestation_type: 'kyc', attester },
    });
    issue(h, issuer, a, 0, alice, '100');
    expect(h.tx(alice, transfer(alice, bob, a, 0, '1')).code).toBe(4);
    h.ok(
      attester,
      msg('/svc.attestation.v1.MsgAttest', { attester, subject: bob, type: 'kyc', expiry: rfc(h.timeMs + 10_000) }),
    );
    h.ok(alice, transfer(alice, bob, a, 0, '1'));
    h.ok(
      carol,
      msg('/svc.attestation.v1.MsgAttest', {
        attester: carol,
        subject: carol,
        type: 'kyc',
        expiry: rfc(h.timeMs + DAY),
      }),
    );
    expect(h.tx(alice, transfer(alice, carol, a, 0, '1')).code).toBe(4); // wrong attester
    h.commit();
    h.emptyBlock(20_000); // bob's attestation expired (passively)
    expect(h.tx(alice, transfer(alice, bob, a, 0, '1')).code).toBe(4);
    h.ok(
      attester,
      msg('/svc.attestation.v1.MsgAttest', { attester, subject: bob, type: 'kyc', expiry: rfc(h.timeMs + DAY) }),
    );
    h.ok(alice, transfer(alice, bob, a, 0, '1'));
    h.ok(attester, msg('/svc.attestation.v1.MsgRevokeAttestation', { attester, subject: bob, type: 'kyc' }));
    expect(h.tx(alice, transfer(alice, bob, a, 0, '1')).code).toBe(4);
  });

  it('bundle transfer moves every bundle kind or none', () => {
    const h = setup();
    const a = createAsset(h, issuer);
    for (const k of [0, 1, 2]) issue(h, issuer, a, k, alice, '100');
    h.ok(
      alice,
      msg('/svc.delegation.v1.MsgDelegate', {
        holder: alice,
        delegate: bob,
        asset_id: a,
        kind_id: 2,
        units: '60',
        until: rfc(h.timeMs + DAY),
      }),
    );
    const failed = h.tx(
      alice,
      msg('/svc.rights.v1.MsgTransferBundle', { sender: alice, recipient: bob, asset_id: a, units: '50' }),
    );
    expect([failed.codespace, failed.code]).toEqual(['rights', 2]);
    const ok = h.ok(
      alice,
      msg('/svc.rights.v1.MsgTransferBundle', { sender: alice, recipient: bob, asset_id: a, units: '40' }),
    );
    const ev = typed(ok.events, 'svc.rights.v1.EventBundleTransferred')[0];
    expect(ev.kind_ids).toEqual([0, 1, 2]);
    expect((ev.positions_after as unknown[]).length).toBe(6);
    h.commit();
    expect([0, 1, 2].map((k) => position(h, a, k, bob).units)).toEqual(['40', '40', '40']);
  });

  it('a failed message leaves state unchanged, but the fee is charged and the sequence bumped', () => {
    const h = setup();
    const a = createAsset(h, issuer);
    issue(h, issuer, a, 0, alice, '100');
    h.commit();
    const seqBefore = h.app.account(alice)!.sequence;
    const usvcBefore = coinBalance(h, alice, 'usvc');
    const r = h.tx(alice, [transfer(alice, bob, a, 0, '10'), transfer(alice, bob, a, 0, '1000')], {
      fee: [{ denom: 'usvc', amount: '2500' }],
    });
    expect(r.code).not.toBe(0);
    expect(r.log).toContain('message index: 1');
    expect(r.events.map((e) => e.type)).toEqual(['coin_spent', 'coin_received', 'transfer', 'tx', 'tx']); // ante events only
    h.commit();
    expect(position(h, a, 0, alice).units).toBe('100');
    expect(position(h, a, 0, bob).units).toBe('0');
    expect(coinBalance(h, alice, 'usvc')).toBe(usvcBefore - 2500n);
    expect(h.app.account(alice)!.sequence).toBe(seqBefore + 1n);
  });

  it('ante refuses a fee the payer cannot pay (sdk/5) and changes nothing', () => {
    const h = setup();
    const seq = h.app.account(alice)!.sequence;
    const r = h.tx(
      alice,
      msg('/cosmos.bank.v1beta1.MsgSend', {
        from_address: alice,
        to_address: bob,
        amount: [{ denom: 'usvc', amount: '1' }],
      }),
      { fee: [{ denom: 'usvc', amount: '999999999' }] },
    );
    expect([r.codespace, r.code]).toEqual(['sdk', 5]);
    expect(h.app.account(alice)!.sequence).toBe(seq);
  });

  it('out of gas fails the tx with sdk/11', () => {
    const h = setup();
    const r = h.tx(
      alice,
      msg('/cosmos.bank.v1beta1.MsgSend', {
        from_address: alice,
        to_address: bob,
        amount: [{ denom: 'usvc', amount: '1' }],
      }),
      { gasLimit: 25_000n },
    );
    expect([r.codespace, r.code]).toEqual(['sdk', 11]);
    h.commit();
    expect(coinBalance(h, bob, 'usvc')).toBe(1000000n);
  });

  it('MsgSend emits the standard bank events with msg_index and a message event', () => {
    const h = setup();
    const r = h.ok(
      alice,
      msg('/cosmos.bank.v1beta1.MsgSend', {
        from_address: alice,
        to_address: bob,
        amount: [{ denom: 'usvc', amount: '7' }],
      }),
    );
    expect(r.events.map((e) => e.type)).toEqual(['tx', 'message', 'coin_spent', 'coin_received', 'transfer']);
    const message = r.events[1].attributes;
    expect(message).toEqual([
      { key: 'action', value: '/cosmos.bank.v1beta1.MsgSend' },
      { key: 'sender', value: alice },
      { key: 'module', value: 'bank' },
      { key: 'msg_index', value: '0' },
    ]);
  });

  it('queries answer at an old height with the old value', () => {
    const h = setup();
    const a = createAsset(h, issuer);
    issue(h, issuer, a, 0, alice, '100');
    h.commit();
    const oldHeight = h.height;
    h.ok(alice, transfer(alice, bob, a, 0, '30'));
    h.commit();
    expect(position(h, a, 0, alice).units).toBe('70');
    expect(position(h, a, 0, alice, oldHeight).units).toBe('100');
    expect(position(h, a, 0, bob, oldHeight).units).toBe('0');
    const holders = h.query(
      '/svc.rights.v1.Query/Holders',
      { asset_id: a, kind_id: 0, offset: '0', limit: 10 },
      oldHeight,
    );
    expect(holders.total).toBe('1');
    expect(
      (h.query('/svc.rights.v1.Query/Holders', { asset_id: a, kind_id: 0 }) as { holders: unknown[] }).holders,
    ).toHaveLength(2);
  });
});
