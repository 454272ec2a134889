import { Harness, addr, createAsset, issue, msg, typed, coinBalance } from './harness';
import { moduleAccounts } from '../../../devnet/app';

const issuer = addr(1);
const holders = [addr(2), addr(3), addr(4)];
const lender = addr(9);

function setup() {
  const h = new Harness({
    genesis: { balances: [{ address: issuer, coins: [{ denom: 'uusdc', amount: '1000000000' }] }] },
  });
  const a = createAsset(h, issuer, { distribution_denoms: ['uusdc'] });
  return { h, a };
}

const distribute = (h: Harness, a: string, kind: number, amount: string) =>
  h.tx(
    issuer,
    msg('/svc.payout.v1.MsgDistribute', {
      payer: issuer,
      asset_id: a,
      kind_id: kind,
      amount: { denom: 'uusdc', amount },
    }),
  );
const claim = (h: Harness, claimer: string, a: string, kind = 1) =>
  h.tx(claimer, msg('/svc.payout.v1.MsgClaim', { claimer, asset_id: a, kind_id: kind, denom: 'uusdc' }));

type Entry = { routed_from: string; ref: string; asset_id: string; kind_id: number; denom: string; amount: string };
const claimable = (h: Harness, address: string) =>
  (h.query('/svc.payout.v1.Query/Claimable', { address }) as { entries: Entry[] }).entries;
const accrual = (h: Harness, a: string, kind = 1) =>
  h.query('/svc.payout.v1.Query/Accrual', { asset_id: a, kind_id: kind, denom: 'uusdc' }).accrual as Record<
    string,
    string
  >;

function sumClaimable(h: Harness, addresses: string[]): bigint {
  return addresses.flatMap((x) => claimable(h, x)).reduce((s, e) => s + BigInt(e.amount), 0n);
}

describe('payout module', () => {
  it('index ×10^18 with carry and a per-holder floor: Σ incomes + residue + carry == distributed', () => {
    const { h, a } = setup();
    for (const x of holders) issue(h, issuer, a, 1, x, '1');
    const r = distribute(h, a, 1, '10');
    const ev = typed(r.events, 'svc.payout.v1.EventDistributed')[0];
    expect(ev).toMatchObject({
      supply: '3',
      new_index: '3333333333333333333',
      carry_scaled: '1',
      module_held_after: '10',
      total_distributed_after: '10',
    });
    h.commit();
    expect(holders.map((x) => claimable(h, x)[0].amount)).toEqual(['3', '3', '3']);
    const acc = accrual(h, a);
    const residue = BigInt(acc.module_held) - sumClaimable(h, holders) - BigInt(acc.carry_scaled) / 10n ** 18n;
    expect(residue).toBe(1n);
    distribute(h, a, 1, '5');
    h.commit();
    // carry 1 + 5e18 spread over 3 exactly: index is now 5 per unit
    expect(accrual(h, a)).toMatchObject({
      index: '5000000000000000000',
      carry_scaled: '0',
      total_distributed: '15',
      module_held: '15',
      distributions_count: '2',
    });
    expect(sumClaimable(h, holders)).toBe(15n);
  });

  it('settles income on every change of units, so movers keep what they earned', () => {
    const { h, a } = setup();
    issue(h, issuer, a, 1, holders[0], '700');
    issue(h, issuer, a, 1, holders[1], '300');
    distribute(h, a, 1, '1000');
    h.ok(
      holders[0],
      msg('/svc.rights.v1.MsgTransfer', {
        sender: holders[0],
        recipient: holders[2],
        asset_id: a,
        kind_id: 1,
        units: '700',
      }),
    );
    distribute(h, a, 1, '1000');
    h.commit();
    expect(holders.map((x) => claimable(h, x)[0]?.amount ?? '0')).toEqual(['700', '600', '700']);
    const conserved = sumClaimable(h, holders);
    expect(conserved).toBe(2000n);
  });

  it('claims pay the accrued income and emit EventClaimed; nothing to claim is payout/2', () => {
    const { h, a } = setup();
    issue(h, issuer, a, 1, holders[0], '100');
    distribute(h, a, 1, '250');
    const r = claim(h, holders[0], a);
    expect(r.code).toBe(0);
    expect(typed(r.events, 'svc.payout.v1.EventClaimed')[0]).toEqual({
      claimer: holders[0],
      asset_id: a,
      kind_id: 1,
      denom: 'uusdc',
      amount: '250',
      entries: [{ routed_from: '', ref: '', amount: '250' }],
      module_held_after: '0',
      total_paid_after: '250',
    });
    const again = claim(h, holders[0], a);
    expect([again.codespace, again.code]).toEqual(['payout', 2]);
    h.commit();
    expect(coinBalance(h, holders[0], 'uusdc')).toBe(250n);
    expect(coinBalance(h, moduleAccounts(h.app).payout, 'uusdc')).toBe(0n);
  });

  it('refuses a denom outside distribution_denoms and a kind without supply', () => {
    const { h, a } = setup();
    const wrongDenom = h.tx(
      issuer,
      msg('/svc.payout.v1.MsgDistribute', {
        payer: issuer,
        asset_id: a,
        kind_id: 1,
        amount: { denom: 'usvc', amount: '1' },
      }),
    );
    expect([wrongDenom.codespace, wrongDenom.code]).toEqual(['payout', 3]);
    const noSupply = distribute(h, a, 1, '1');
    expect([noSupply.codespace, noSupply.code]).toEqual(['payout', 4]);
  });

  it('routes the income of pledged units to the beneficiary while the pledge is active', () => {
    const { h, a } = setup();
    const [alice] = holders;
    issue(h, issuer, a, 1, alice, '1000');
    h.ok(
      alice,
      msg('/svc.encumbrance.v1.MsgCreateEncumbrance', {
        creator: alice,
        kind: 'ENCUMBRANCE_KIND_PLEDGE',
        asset_id: a,
        kind_id: 1,
        holder: alice,
        units: '400',
        beneficiary: lender,
        income_to_beneficiary: true,
      }),
    );
    distribute(h, a, 1, '1000');
    h.commit();
    expect(claimable(h, alice)).toEqual([
      { routed_from: '', ref: '', asset_id: a, kind_id: 1, denom: 'uusdc', amount: '600' },
    ]);
    expect(claimable(h, lender)).toEqual([
      { routed_from: alice, ref: 'encumbrance/1', asset_id: a, kind_id: 1, denom: 'uusdc', amount: '400' },
    ]);
    // release: routing stops, what was routed stays with the lender
    h.ok(lender, msg('/svc.encumbrance.v1.MsgRelease', { sender: lender, encumbrance_id: '1' }));
    distribute(h, a, 1, '1000');
    h.commit();
    expect(claimable(h, alice)[0].amount).toBe('1600');
    expect(claimable(h, lender)[0].amount).toBe('400');
    const r = claim(h, lender, a);
    expect(typed(r.events, 'svc.payout.v1.EventClaimed')[0].entries).toEqual([
      { routed_from: alice, ref: 'encumbrance/1', amount: '400' },
    ]);
    h.commit();
    expect(coinBalance(h, lender, 'uusdc')).toBe(400n);
    expect(claimable(h, lender)).toEqual([]);
  });

  it('a beneficiary claims routed income while the pledge is still active', () => {
    const { h, a } = setup();
    const [alice] = holders;
    issue(h, issuer, a, 1, alice, '100');
    h.ok(
      alice,
      msg('/svc.encumbrance.v1.MsgCreateEncumbrance', {
        creator: alice,
        kind: 'ENCUMBRANCE_KIND_PLEDGE',
        asset_id: a,
        kind_id: 1,
        holder: alice,
        units: '100',
        beneficiary: lender,
        income_to_beneficiary: true,
      }),
    );
    distribute(h, a, 1, '50');
    const r = claim(h, lender, a);
    expect(typed(r.events, 'svc.payout.v1.EventClaimed')[0].amount).toBe('50');
    expect(claim(h, alice, a).code).toBe(2);
  });

  it('conservation holds over many random distributions and moves', () => {
    const { h, a } = setup();
    holders.forEach((x, i) => issue(h, issuer, a, 1, x, String(1000 + 337 * i)));
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    let distributed = 0n;
    for (let i = 0; i < 30; i++) {
      const amount = BigInt(1 + rnd(997));
      distributed += amount;
      distribute(h, a, 1, amount.toString());
      const from = holders[rnd(3)];
      const to = holders[rnd(3)];
      h.tx(
        from,
        msg('/svc.rights.v1.MsgTransfer', {
          sender: from,
          recipient: to,
          asset_id: a,
          kind_id: 1,
          units: String(1 + rnd(50)),
        }),
      );
    }
    h.commit();
    const acc = accrual(h, a);
    const sum = sumClaimable(h, holders);
    const carry = BigInt(acc.carry_scaled) / 10n ** 18n;
    const residue = BigInt(acc.module_held) - sum - carry;
    expect(BigInt(acc.module_held)).toBe(distributed);
    expect(residue >= 0n && residue <= 3n * 30n).toBe(true);
    expect(sum + residue + carry).toBe(distributed);
  });
});
