import { Harness, addr, createAsset, issue, msg, typed, coinBalance, position } from './harness';
import { QueryAccountRequest, QueryAccountResponse } from 'cosmjs-types/cosmos/auth/v1beta1/query';
import { BaseAccount } from 'cosmjs-types/cosmos/auth/v1beta1/auth';
import { accountFromAny } from '@cosmjs/stargate';
import { queryJson, QUERY_PATHS } from '../../../devnet/app';

const issuer = addr(1);
const alice = addr(2);
const trader = addr(3);

function setup(version?: string) {
  const h = new Harness({
    version,
    genesis: {
      balances: [issuer, alice, trader].map((address) => ({
        address,
        coins: [{ denom: 'uusdc', amount: '100000000' }],
      })),
    },
  });
  const a = createAsset(h, issuer);
  for (const k of [0, 1, 2]) issue(h, issuer, a, k, alice, '10000000');
  return { h, a };
}

describe('dex module', () => {
  it('creates a constant-product pool of whole bundles and prices it', () => {
    const { h, a } = setup();
    const r = h.ok(
      alice,
      msg('/svc.dex.v1.MsgCreatePool', {
        creator: alice,
        asset_id: a,
        quote_denom: 'uusdc',
        base_units: '2000000',
        quote_amount: '20000000',
      }),
    );
    const ev = typed(r.events, 'svc.dex.v1.EventPoolCreated')[0];
    expect(ev).toMatchObject({ pool_id: '1', base_reserve: '2000000', quote_reserve: '20000000' });
    expect((ev.positions_after as unknown[]).length).toBe(6);
    h.commit();
    expect(h.query('/svc.dex.v1.Query/PoolPrice', { asset_id: a, quote_denom: 'uusdc' })).toEqual({
      found: true,
      pool_id: '1',
      base_reserve: '2000000',
      quote_reserve: '20000000',
      price_per_whole: '10000000',
    });
    expect(h.query('/svc.dex.v1.Query/PoolPrice', { asset_id: a, quote_denom: 'uatom' }).found).toBe(false);
    const dup = h.tx(
      alice,
      msg('/svc.dex.v1.MsgCreatePool', {
        creator: alice,
        asset_id: a,
        quote_denom: 'uusdc',
        base_units: '1',
        quote_amount: '1',
      }),
    );
    expect([dup.codespace, dup.code]).toEqual(['dex', 5]);
  });

  it('swaps x·y=k with min_out', () => {
    const { h, a } = setup();
    h.ok(
      alice,
      msg('/svc.dex.v1.MsgCreatePool', {
        creator: alice,
        asset_id: a,
        quote_denom: 'uusdc',
        base_units: '1000',
        quote_amount: '1000',
      }),
    );
    const tooGreedy = h.tx(
      trader,
      msg('/svc.dex.v1.MsgSwap', { trader, pool_id: '1', sell_base: false, amount: '1000', min_out: '501' }),
    );
    expect([tooGreedy.codespace, tooGreedy.code]).toEqual(['dex', 3]);
    const r = h.ok(
      trader,
      msg('/svc.dex.v1.MsgSwap', { trader, pool_id: '1', sell_base: false, amount: '1000', min_out: '500' }),
    );
    expect(typed(r.events, 'svc.dex.v1.EventSwapped')[0]).toMatchObject({
      amount_in: '1000',
      amount_out: '500',
      base_reserve_after: '500',
      quote_reserve_after: '2000',
    });
    h.commit();
    expect(position(h, a, 1, trader).units).toBe('500');
    expect(coinBalance(h, trader, 'uusdc')).toBe(100000000n - 1000n);
  });
});

describe('queries', () => {
  it('unknown path is sdk/6 "unknown query path"', () => {
    const { h } = setup();
    const r = h.app.query('/svc.asset.v1.Query/Nope', new Uint8Array(), 0);
    expect([r.codespace, r.code]).toEqual(['sdk', 6]);
    expect(r.log).toContain('unknown query path');
  });

  it('an old chain (0.8.3) answers TokenRegistry as an unknown path; 0.12.2 serves it', () => {
    const old = setup('0.8.3');
    expect(old.h.app.version).toBe('0.8.3');
    old.h.commit();
    const refused = queryJson(old.h.app, '/svc.asset.v1.Query/TokenRegistry', { asset_id: old.a });
    expect([refused.codespace, refused.code]).toEqual(['sdk', 6]);
    const current = setup();
    current.h.commit();
    expect(current.h.app.version).toBe('0.12.2');
    expect(
      (current.h.query('/svc.asset.v1.Query/TokenRegistry', { asset_id: current.a }).entries as unknown[]).length,
    ).toBe(4);
  });

  it('answers every service Query rpc of the contract', () => {
    expect(QUERY_PATHS).toEqual(
      expect.arrayContaining([
        '/svc.asset.v1.Query/Asset',
        '/svc.asset.v1.Query/KindSupply',
        '/svc.asset.v1.Query/TokenRegistry',
        '/svc.rights.v1.Query/Position',
        '/svc.rights.v1.Query/Holders',
        '/svc.settlement.v1.Query/Settlement',
        '/svc.encumbrance.v1.Query/Encumbrance',
        '/svc.payout.v1.Query/Accrual',
        '/svc.payout.v1.Query/Claimable',
        '/svc.attestation.v1.Query/Attestation',
        '/svc.delegation.v1.Query/Delegation',
        '/svc.waterfall.v1.Query/Liquidation',
        '/svc.bridge.v1.Query/Route',
        '/svc.bridge.v1.Query/EscrowBalance',
        '/svc.dex.v1.Query/PoolPrice',
        '/cosmos.auth.v1beta1.Query/Account',
        '/cosmos.bank.v1beta1.Query/Balance',
      ]),
    );
  });

  it('not found answers carry the module code; heights above the tip are refused', () => {
    const { h } = setup();
    h.commit();
    const r = queryJson(h.app, '/svc.asset.v1.Query/Asset', { asset_id: 'ab'.repeat(32) });
    expect([r.codespace, r.code]).toEqual(['asset', 2]);
    expect(queryJson(h.app, '/svc.settlement.v1.Query/Settlement', { settlement_id: '9' }).codespace).toBe(
      'settlement',
    );
    const future = queryJson(h.app, '/svc.asset.v1.Query/Asset', { asset_id: 'ab'.repeat(32) }, h.height + 1);
    expect([future.codespace, future.code]).toEqual(['sdk', 26]);
  });

  it('cosmos auth Account gives a BaseAccount in an Any (cosmjs accountFromAny), NotFound otherwise', () => {
    const { h } = setup();
    h.ok(
      alice,
      msg('/cosmos.bank.v1beta1.MsgSend', {
        from_address: alice,
        to_address: trader,
        amount: [{ denom: 'uusdc', amount: '1' }],
      }),
    );
    h.commit();
    const r = h.app.query(
      '/cosmos.auth.v1beta1.Query/Account',
      QueryAccountRequest.encode({ address: alice }).finish(),
      0,
    );
    expect(r.code).toBe(0);
    const any = QueryAccountResponse.decode(r.value).account!;
    expect(any.typeUrl).toBe('/cosmos.auth.v1beta1.BaseAccount');
    const account = accountFromAny(any);
    expect(account.address).toBe(alice);
    expect(account.sequence).toBe(1);
    expect(account.pubkey).not.toBeNull();
    expect(BaseAccount.decode(any.value).accountNumber).toBe(h.app.account(alice)!.accountNumber);
    const missing = h.app.query(
      '/cosmos.auth.v1beta1.Query/Account',
      QueryAccountRequest.encode({ address: addr(99) }).finish(),
      0,
    );
    expect(missing.code).not.toBe(0);
    expect(missing.log).toMatch(/rpc error: code = NotFound/);
  });

  it('account numbers are assigned on creation, in order', () => {
    const { h } = setup();
    const n = (x: string) => h.app.account(x)!.accountNumber;
    expect([n(issuer), n(alice), n(trader)]).toEqual([0n, 1n, 2n]);
    h.ok(
      alice,
      msg('/cosmos.bank.v1beta1.MsgSend', {
        from_address: alice,
        to_address: addr(50),
        amount: [{ denom: 'uusdc', amount: '1' }],
      }),
    );
    expect(h.app.account(addr(50))!.accountNumber).toBeGreaterThan(2n);
  });

  it('is deterministic: the same history gives the same app hash', () => {
    const run = () => {
      const { h, a } = setup();
      h.ok(
        alice,
        msg('/svc.rights.v1.MsgTransfer', { sender: alice, recipient: trader, asset_id: a, kind_id: 0, units: '5' }),
      );
      h.commit();
      return Buffer.from(h.app.appHash).toString('hex');
    };
    expect(run()).toBe(run());
  });
});
