/**
 * The reconciler's comparison rules (reconciler/checks.ts): InvariantCheck, Svc20Check and
 * I8Check rows from the store's snapshot and the chain's answers at one height, each rule
 * both ways (agree, and every distinct way to disagree).
 */
import { getAddress } from 'ethers';
import {
  ABSENT,
  accrualsOf,
  i8Check,
  invariantCheck,
  registryChecks,
  type IndexedRoute,
  type IndexedTokens,
} from '../../../reconciler/checks';
import type { TokenRegistryEntry } from '../../../src/mappings/generated/proto-json';
import type { AccrualAnswer, SupplySnapshot } from '../../../src/store';

const H = 1234;
const ASSET = 'a'.repeat(64);

function accrual(denom: string, over: Partial<AccrualAnswer> = {}): AccrualAnswer {
  return {
    denom,
    index: '5000000000000000000',
    carry_scaled: '7',
    module_held: '40',
    total_distributed: '100',
    total_paid: '60',
    distributions_count: 3,
    ...over,
  };
}

function snapshot(over: Partial<SupplySnapshot> = {}): SupplySnapshot {
  return {
    exists: true,
    supply: '1000',
    holder_count: 3,
    holders_sum: '1000',
    accruals: [accrual('uatom'), accrual('usvc')],
    ...over,
  };
}

describe('invariantCheck', () => {
  it('agrees when both sides know the kind and show the same consistent snapshot', () => {
    const chain = snapshot();
    const indexer = snapshot();
    const row = invariantCheck(H, ASSET, 2, chain, indexer);
    expect(row).toEqual({ id: `${H}/${ASSET}/2`, asset_id: ASSET, kind_id: 2, height: H, agree: true, chain, indexer });
  });

  it('row id uses kind 0 literally (not "bundle")', () => {
    expect(invariantCheck(7, 'x', 0, snapshot(), snapshot()).id).toBe('7/x/0');
  });

  it('compares amounts as integers, not as text', () => {
    const chain = snapshot({ supply: '1000', holders_sum: '1000' });
    const indexer = snapshot({
      supply: '01000',
      holders_sum: '1000',
      accruals: [accrual('uatom', { total_paid: '060' }), accrual('usvc')],
    });
    expect(invariantCheck(H, ASSET, 1, chain, indexer).agree).toBe(true);
  });

  it('agrees on a kind with no supply, no holders and no accruals on either side', () => {
    const empty = snapshot({ supply: '0', holder_count: 0, holders_sum: '0', accruals: [] });
    expect(invariantCheck(H, ASSET, 1, empty, { ...empty }).agree).toBe(true);
  });

  it('disagrees on supply (each side still consistent)', () => {
    const row = invariantCheck(
      H,
      ASSET,
      1,
      snapshot({ supply: '1000', holders_sum: '1000' }),
      snapshot({ supply: '999', holders_sum: '999' }),
    );
    expect(row.agree).toBe(false);
  });

  it('disagrees on holder_count', () => {
    expect(invariantCheck(H, ASSET, 1, snapshot({ holder_count: 3 }), snapshot({ holder_count: 4 })).agree).toBe(false);
  });

  it('disagrees when both sides are equal but Σ holders != supply on them', () => {
    const bad = snapshot({ supply: '1000', holders_sum: '990' });
    const row = invariantCheck(H, ASSET, 1, bad, { ...bad });
    expect(row.agree).toBe(false);
  });

  it('disagrees when supply and holder_count match but one side has Σ holders != supply', () => {
    expect(invariantCheck(H, ASSET, 1, snapshot({ holders_sum: '1001' }), snapshot()).agree).toBe(false);
    expect(invariantCheck(H, ASSET, 1, snapshot(), snapshot({ holders_sum: '999' })).agree).toBe(false);
  });

  it.each(['index', 'carry_scaled', 'module_held', 'total_distributed', 'total_paid'] as const)(
    'disagrees on accrual field %s',
    (field) => {
      const changed = snapshot({ accruals: [accrual('uatom', { [field]: '123456789' }), accrual('usvc')] });
      expect(invariantCheck(H, ASSET, 1, snapshot(), changed).agree).toBe(false);
      expect(invariantCheck(H, ASSET, 1, changed, snapshot()).agree).toBe(false);
    },
  );

  it('disagrees on accrual distributions_count', () => {
    const changed = snapshot({ accruals: [accrual('uatom'), accrual('usvc', { distributions_count: 4 })] });
    expect(invariantCheck(H, ASSET, 1, snapshot(), changed).agree).toBe(false);
  });

  it('disagrees on the accrual denom', () => {
    const changed = snapshot({ accruals: [accrual('uatom'), accrual('uusdc')] });
    expect(invariantCheck(H, ASSET, 1, snapshot(), changed).agree).toBe(false);
  });

  it('disagrees when an accrual is present on only one side', () => {
    const one = snapshot({ accruals: [accrual('uatom')] });
    expect(invariantCheck(H, ASSET, 1, snapshot(), one).agree).toBe(false);
    expect(invariantCheck(H, ASSET, 1, one, snapshot()).agree).toBe(false);
    expect(invariantCheck(H, ASSET, 1, snapshot({ accruals: [] }), one).agree).toBe(false);
  });

  it('disagrees when the chain does not know the kind', () => {
    const row = invariantCheck(H, ASSET, 1, ABSENT, snapshot());
    expect(row.agree).toBe(false);
    expect(row.chain).toBe(ABSENT);
  });

  it('disagrees when the indexer does not know the kind', () => {
    expect(invariantCheck(H, ASSET, 1, snapshot(), ABSENT).agree).toBe(false);
  });

  it('disagrees when neither side knows the kind, even though the snapshots are equal', () => {
    expect(invariantCheck(H, ASSET, 1, ABSENT, ABSENT).agree).toBe(false);
    const gone = snapshot({ exists: false, supply: '0', holder_count: 0, holders_sum: '0', accruals: [] });
    expect(invariantCheck(H, ASSET, 1, gone, { ...gone }).agree).toBe(false);
  });

  it('disagrees when only exists differs', () => {
    const empty = snapshot({ supply: '0', holder_count: 0, holders_sum: '0', accruals: [] });
    expect(invariantCheck(H, ASSET, 1, empty, ABSENT).agree).toBe(false);
    expect(invariantCheck(H, ASSET, 1, ABSENT, empty).agree).toBe(false);
  });

  it('ABSENT is frozen and empty', () => {
    expect(ABSENT).toEqual({ exists: false, supply: '0', holder_count: 0, holders_sum: '0', accruals: [] });
    expect(Object.isFrozen(ABSENT)).toBe(true);
  });
});

describe('accrualsOf', () => {
  const zero = (denom: string): AccrualAnswer => ({
    denom,
    index: '0',
    carry_scaled: '0',
    module_held: '0',
    total_distributed: '0',
    total_paid: '0',
    distributions_count: 0,
  });

  it('drops accruals that never received anything', () => {
    expect(accrualsOf([zero('uatom'), zero('usvc')])).toEqual([]);
    expect(accrualsOf([])).toEqual([]);
  });

  it('treats zero written with leading zeros as zero', () => {
    expect(accrualsOf([{ ...zero('uatom'), index: '000' }])).toEqual([]);
  });

  it.each(['index', 'carry_scaled', 'module_held', 'total_distributed', 'total_paid'] as const)(
    'keeps an accrual whose only non-zero field is %s',
    (field) => {
      const a = { ...zero('uatom'), [field]: '1' };
      expect(accrualsOf([a])).toEqual([a]);
    },
  );

  it('keeps an accrual whose only non-zero field is distributions_count', () => {
    const a = { ...zero('uatom'), distributions_count: 1 };
    expect(accrualsOf([a])).toEqual([a]);
  });

  it('sorts by denom (code-unit order) and does not touch its input', () => {
    const input = [accrual('usvc'), zero('aaa'), accrual('ibc/27'), accrual('uatom'), accrual('Zeta')];
    const copy = input.map((a) => ({ ...a }));
    expect(accrualsOf(input).map((a) => a.denom)).toEqual(['Zeta', 'ibc/27', 'uatom', 'usvc']);
    expect(input).toEqual(copy);
  });

  it('makes two sides with the same accruals in different orders (and extra empty ones) agree', () => {
    const chain = snapshot({ accruals: accrualsOf([accrual('usvc'), accrual('uatom')]) });
    const indexer = snapshot({ accruals: accrualsOf([zero('uzero'), accrual('uatom'), accrual('usvc')]) });
    expect(invariantCheck(H, ASSET, 1, chain, indexer).agree).toBe(true);
  });
});

describe('registryChecks', () => {
  const addr = (n: number) => getAddress('0x' + ('dead' + n.toString(16).padStart(4, '0')).repeat(5));
  const tokens: IndexedTokens = {
    assetId: ASSET,
    bundleAddress: addr(0xb0),
    kinds: [
      { kindId: 2, svc20Address: addr(0x12) },
      { kindId: 1, svc20Address: addr(0x11) },
    ],
  };
  const entries = (): TokenRegistryEntry[] => [
    { kind_id: 0, bundle: true, address: addr(0xb0) },
    { kind_id: 1, bundle: false, address: addr(0x11) },
    { kind_id: 2, bundle: false, address: addr(0x12) },
  ];

  it('agrees on every kind and the bundle, kinds by kind_id then the bundle row', () => {
    const rows = registryChecks(H, tokens, entries());
    expect(rows).toEqual([
      {
        id: `${H}/${ASSET}/1`,
        asset_id: ASSET,
        kind_id: 1,
        bundle: false,
        height: H,
        indexer_address: addr(0x11),
        chain_address: addr(0x11),
        evaluated: true,
        agree: true,
      },
      {
        id: `${H}/${ASSET}/2`,
        asset_id: ASSET,
        kind_id: 2,
        bundle: false,
        height: H,
        indexer_address: addr(0x12),
        chain_address: addr(0x12),
        evaluated: true,
        agree: true,
      },
      {
        id: `${H}/${ASSET}/bundle`,
        asset_id: ASSET,
        kind_id: null,
        bundle: true,
        height: H,
        indexer_address: addr(0xb0),
        chain_address: addr(0xb0),
        evaluated: true,
        agree: true,
      },
    ]);
  });

  it('orders kinds numerically, with the bundle row last whatever the chain order', () => {
    const many: IndexedTokens = {
      assetId: ASSET,
      bundleAddress: addr(0xb0),
      kinds: [10, 2, 1].map((k) => ({ kindId: k, svc20Address: addr(k) })),
    };
    const chain: TokenRegistryEntry[] = [
      { kind_id: 0, bundle: true, address: addr(0xb0) },
      { kind_id: 10, bundle: false, address: addr(10) },
      { kind_id: 1, bundle: false, address: addr(1) },
      { kind_id: 2, bundle: false, address: addr(2) },
    ];
    const rows = registryChecks(H, many, chain);
    expect(rows.map((r) => r.kind_id)).toEqual([1, 2, 10, null]);
    expect(rows.map((r) => r.bundle)).toEqual([false, false, false, true]);
    expect(rows.every((r) => r.agree)).toBe(true);
  });

  it('disagrees on a kind whose chain address differs, and only on it', () => {
    const chain = entries();
    chain[2] = { ...chain[2], address: addr(0x99) };
    const rows = registryChecks(H, tokens, chain);
    expect(rows.map((r) => [r.kind_id, r.agree])).toEqual([
      [1, true],
      [2, false],
      [null, true],
    ]);
    expect(rows[1]).toMatchObject({ indexer_address: addr(0x12), chain_address: addr(0x99), evaluated: true });
  });

  it('disagrees on the bundle when its chain address differs', () => {
    const chain = entries();
    chain[0] = { ...chain[0], address: addr(0x98) };
    const rows = registryChecks(H, tokens, chain);
    expect(rows[2]).toMatchObject({ kind_id: null, bundle: true, chain_address: addr(0x98), agree: false });
    expect(rows[0].agree && rows[1].agree).toBe(true);
  });

  it('disagrees on a kind the chain does not register (chain_address "")', () => {
    const rows = registryChecks(
      H,
      tokens,
      entries().filter((e) => e.kind_id !== 1),
    );
    expect(rows[0]).toMatchObject({
      kind_id: 1,
      indexer_address: addr(0x11),
      chain_address: '',
      evaluated: true,
      agree: false,
    });
    expect(rows[1].agree).toBe(true);
  });

  it('disagrees on the bundle when the chain registers no bundle', () => {
    const rows = registryChecks(
      H,
      tokens,
      entries().filter((e) => !e.bundle),
    );
    expect(rows[2]).toMatchObject({ kind_id: null, chain_address: '', evaluated: true, agree: false });
  });

  it('adds a row for a kind only the chain registers, with indexer_address ""', () => {
    const rows = registryChecks(H, tokens, [...entries(), { kind_id: 3, bundle: false, address: addr(0x13) }]);
    expect(rows.map((r) => r.kind_id)).toEqual([1, 2, 3, null]);
    expect(rows[2]).toEqual({
      id: `${H}/${ASSET}/3`,
      asset_id: ASSET,
      kind_id: 3,
      bundle: false,
      height: H,
      indexer_address: '',
      chain_address: addr(0x13),
      evaluated: true,
      agree: false,
    });
  });

  it('compares addresses case-insensitively (EIP-55 normal form)', () => {
    const chain = entries().map((e) => ({ ...e, address: e.address.toLowerCase() }));
    const rows = registryChecks(H, tokens, chain);
    expect(rows.every((r) => r.agree)).toBe(true);
    expect(rows[0].chain_address).toBe(addr(0x11).toLowerCase());
    const upper = entries().map((e) => ({ ...e, address: '0x' + e.address.slice(2).toUpperCase() }));
    expect(
      registryChecks(H, { ...tokens, bundleAddress: tokens.bundleAddress.toLowerCase() }, upper).every((r) => r.agree),
    ).toBe(true);
  });

  it('disagrees on an address that is not an address', () => {
    const chain = entries();
    chain[1] = { ...chain[1], address: 'not-an-address' };
    expect(registryChecks(H, tokens, chain)[0].agree).toBe(false);
  });

  it('does not evaluate when the chain does not serve the registry', () => {
    const rows = registryChecks(H, tokens, 'not-served');
    expect(rows.map((r) => r.kind_id)).toEqual([1, 2, null]);
    for (const r of rows) expect(r).toMatchObject({ evaluated: false, chain_address: '', agree: false });
    expect(rows.map((r) => r.indexer_address)).toEqual([addr(0x11), addr(0x12), addr(0xb0)]);
  });

  it('evaluates and disagrees everywhere when the chain has no such asset (null)', () => {
    const rows = registryChecks(H, tokens, null);
    expect(rows.map((r) => r.id)).toEqual([`${H}/${ASSET}/1`, `${H}/${ASSET}/2`, `${H}/${ASSET}/bundle`]);
    for (const r of rows) expect(r).toMatchObject({ evaluated: true, chain_address: '', agree: false });
  });

  it('gives only the bundle row to an asset with no kinds on either side', () => {
    const rows = registryChecks(H, { assetId: ASSET, bundleAddress: addr(0xb0), kinds: [] }, [
      { kind_id: 0, bundle: true, address: addr(0xb0) },
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: `${H}/${ASSET}/bundle`, kind_id: null, bundle: true, agree: true });
  });
});

describe('i8Check', () => {
  const route = (direction: string, outbound: bigint, inbound: bigint): IndexedRoute => ({
    routeId: 'route-7',
    direction,
    outbound,
    inbound,
  });

  it.each([
    ['DIRECTION_NATIVE_OUT', 100n, 30n, 70n],
    ['DIRECTION_RIGHT_OUT', 100n, 30n, 70n],
    ['DIRECTION_SYNTHETIC_IN', 30n, 100n, 70n],
  ])('%s: agrees when the chain holds the outstanding amount', (direction, outbound, inbound, expected) => {
    const row = i8Check(H, route(direction, outbound, inbound), { actual: expected, direction, outbound, inbound });
    expect(row).toEqual({
      id: `${H}/route-7`,
      route_id: 'route-7',
      height: H,
      chain_actual: expected.toString(),
      indexer_actual: expected.toString(),
      chain_ok: true,
      evaluated: true,
      agree: true,
    });
  });

  it.each([
    ['DIRECTION_NATIVE_OUT', 100n, 30n, 70n],
    ['DIRECTION_RIGHT_OUT', 100n, 30n, 70n],
    ['DIRECTION_SYNTHETIC_IN', 30n, 100n, 70n],
  ])(
    '%s: disagrees when the chain holds something else than the indexer outstanding',
    (direction, outbound, inbound, expected) => {
      const held = expected + 1n;
      const row = i8Check(H, route(direction, outbound, inbound), { actual: held, direction, outbound, inbound });
      expect(row).toMatchObject({
        chain_actual: held.toString(),
        indexer_actual: expected.toString(),
        chain_ok: false,
        evaluated: true,
        agree: false,
      });
    },
  );

  it('uses inbound − outbound for SYNTHETIC_IN and outbound − inbound otherwise', () => {
    expect(i8Check(H, route('DIRECTION_SYNTHETIC_IN', 100n, 30n), null).indexer_actual).toBe('-70');
    expect(i8Check(H, route('DIRECTION_NATIVE_OUT', 30n, 100n), null).indexer_actual).toBe('-70');
    expect(i8Check(H, route('DIRECTION_RIGHT_OUT', 30n, 100n), null).indexer_actual).toBe('-70');
    expect(i8Check(H, route('DIRECTION_SYNTHETIC_IN', 30n, 100n), null).indexer_actual).toBe('70');
  });

  it('chain_ok false while agree true: the chain holds the indexer outstanding but its own counters say otherwise', () => {
    const row = i8Check(H, route('DIRECTION_NATIVE_OUT', 100n, 30n), {
      actual: 70n,
      direction: 'DIRECTION_NATIVE_OUT',
      outbound: 110n,
      inbound: 30n,
    });
    expect(row).toMatchObject({
      chain_actual: '70',
      indexer_actual: '70',
      chain_ok: false,
      evaluated: true,
      agree: true,
    });
  });

  it('chain_ok true while agree false: the chain is consistent but the indexer counters differ', () => {
    const row = i8Check(H, route('DIRECTION_SYNTHETIC_IN', 30n, 90n), {
      actual: 70n,
      direction: 'DIRECTION_SYNTHETIC_IN',
      outbound: 30n,
      inbound: 100n,
    });
    expect(row).toMatchObject({
      chain_actual: '70',
      indexer_actual: '60',
      chain_ok: true,
      evaluated: true,
      agree: false,
    });
  });

  it("judges chain_ok with the chain's own direction", () => {
    // The chain says SYNTHETIC_IN: its counters give 100 − 30 = 70, which it holds.
    const row = i8Check(H, route('DIRECTION_NATIVE_OUT', 100n, 30n), {
      actual: 70n,
      direction: 'DIRECTION_SYNTHETIC_IN',
      outbound: 30n,
      inbound: 100n,
    });
    expect(row).toMatchObject({ chain_ok: true, agree: true });
    const wrong = i8Check(H, route('DIRECTION_NATIVE_OUT', 100n, 30n), {
      actual: 70n,
      direction: 'DIRECTION_NATIVE_OUT',
      outbound: 30n,
      inbound: 100n,
    });
    expect(wrong).toMatchObject({ chain_ok: false, agree: true });
  });

  it('does not evaluate when the chain does not serve the query', () => {
    expect(i8Check(H, route('DIRECTION_NATIVE_OUT', 100n, 30n), 'not-served')).toEqual({
      id: `${H}/route-7`,
      route_id: 'route-7',
      height: H,
      chain_actual: '',
      indexer_actual: '',
      chain_ok: false,
      evaluated: false,
      agree: false,
    });
  });

  it('evaluates and disagrees when the chain has no such route (null)', () => {
    expect(i8Check(H, route('DIRECTION_RIGHT_OUT', 100n, 30n), null)).toEqual({
      id: `${H}/route-7`,
      route_id: 'route-7',
      height: H,
      chain_actual: '',
      indexer_actual: '70',
      chain_ok: false,
      evaluated: true,
      agree: false,
    });
  });

  it('agrees on a route with nothing outstanding', () => {
    const row = i8Check(H, route('DIRECTION_NATIVE_OUT', 5n, 5n), {
      actual: 0n,
      direction: 'DIRECTION_NATIVE_OUT',
      outbound: 5n,
      inbound: 5n,
    });
    expect(row).toMatchObject({ chain_actual: '0', indexer_actual: '0', chain_ok: true, agree: true });
  });
});
