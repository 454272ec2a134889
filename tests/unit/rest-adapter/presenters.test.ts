/** Pure presentation rules: timestamps, JSON, accruals, kinds, account parts, bridge windows, daily series, lookup shapes. */
import { rightTokenAddress } from '../../../src/lib/ids';
import { toBech32, toChecksumAddress } from '../../../src/lib/address';
import { seqOf as mappingSeqOf } from '../../../src/mappings/infra/values';
import { seqOf } from '../../../rest-adapter/paging/seq';
import { keysetPage } from '../../../rest-adapter/paging/cursors';
import { formatTimestamp } from '../../../rest-adapter/presenters/values';
import { presentAccrual, presentHolder, presentKind, presentPolicy } from '../../../rest-adapter/presenters/assets';
import { presentLatestInvariantCheck } from '../../../rest-adapter/presenters/invariants';
import {
  presentAccountLocks,
  presentAssets,
  presentClaimable,
  presentVotingPower,
} from '../../../rest-adapter/presenters/accounts';
import { presentSettlement, presentSettlementTimeline } from '../../../rest-adapter/presenters/settlements';
import { windowIsCurrent } from '../../../rest-adapter/presenters/bridge';
import { outstanding } from '../../../src/lib/bridge-route';
import { dailySeries, dailyWindow, presentStatus } from '../../../rest-adapter/presenters/status';
import { presentEncumbranceTimeline } from '../../../rest-adapter/presenters/encumbrances';
import { lookupShape } from '../../../rest-adapter/routes/lookup-shape';

const A = 'aa'.repeat(32);
const B = 'bb'.repeat(32);

describe('timestamps', () => {
  it.each([
    ['2025-03-01 12:00:05', '2025-03-01T12:00:05Z'],
    ['2025-03-01 12:00:05.25', '2025-03-01T12:00:05.250Z'],
    ['2025-03-01 12:00:05.000', '2025-03-01T12:00:05Z'],
    ['2025-03-01 12:00:05.1234', '2025-03-01T12:00:05.123400Z'],
    ['2025-03-01 12:00:05.123456', '2025-03-01T12:00:05.123456Z'],
  ])('%s -> %s', (pg, api) => expect(formatTimestamp(pg)).toBe(api));

  it('refuses text it does not understand rather than guessing a zone', () => {
    expect(() => formatTimestamp('2025-03-01 12:00:05+02')).toThrow();
  });
});

describe('ordering key', () => {
  it('agrees with the mappings', () => {
    for (const [h, t, e] of [
      [1, -1, -1],
      [1, 0, -1],
      [7, 3, 12],
      [123456, 99998, 99998],
      [5, -1, 0],
    ])
      expect(seqOf(h, t, e)).toBe(mappingSeqOf(h, t, e));
  });

  it('keysetPage: the extra row only signals a next page', () => {
    expect(keysetPage([1, 2, 3], 2, (x) => `c${x}`)).toEqual({ items: [1, 2], nextCursor: 'c2' });
    expect(keysetPage([1, 2], 2, (x) => `c${x}`)).toEqual({ items: [1, 2], nextCursor: null });
    expect(keysetPage([], 2, (x) => `c${x}`)).toEqual({ items: [], nextCursor: null });
  });
});

describe('assets', () => {
  const kind = {
    kind_id: 1,
    kind_class: 'INCOME',
    decimals: 6,
    bundle: true,
    transferable: true,
    term: null,
    policy_override: null,
    bridgeable: false,
    multiplier: '3',
    supply: '1000000000000000000000',
    holder_count: 2,
    svc20_address: rightTokenAddress(A, 1),
  };

  it('effective policy is the override when set, else the asset policy; effective supply = supply x multiplier', () => {
    const assetPolicy = { transfer: 'TRANSFER_MODE_RESTRICTED', allowlist: ['x'] };
    const plain = presentKind(kind, assetPolicy);
    expect(plain).toMatchObject({
      policy_override: null,
      policy_source: 'ASSET',
      multiplier: 3,
      supply: '1000000000000000000000',
    });
    expect(plain.effective_policy).toEqual({
      transfer: 'TRANSFER_MODE_RESTRICTED',
      attestation_type: '',
      attester: '',
      allowlist: ['x'],
    });
    expect(plain.effective_supply).toEqual({
      raw: '1000000000000000000000',
      multiplier: 3,
      effective: '3000000000000000000000',
    });
    const overridden = presentKind(
      {
        ...kind,
        policy_override: { transfer: 'TRANSFER_MODE_OPEN' },
        term: { start: '2026-01-01T00:00:00Z', label: 'Q1' },
      },
      assetPolicy,
    );
    expect(overridden).toMatchObject({
      policy_source: 'KIND_OVERRIDE',
      effective_policy: { transfer: 'TRANSFER_MODE_OPEN' },
    });
    expect(overridden.term).toEqual({ start: '2026-01-01T00:00:00Z', end: null, label: 'Q1' });
  });

  it('an unspecified transfer mode is OPEN, as the chain stores it', () => {
    expect(presentPolicy({})).toEqual({
      transfer: 'TRANSFER_MODE_OPEN',
      attestation_type: '',
      attester: '',
      allowlist: [],
    });
    expect(presentPolicy(JSON.stringify({ transfer: 'TRANSFER_MODE_UNSPECIFIED' })).transfer).toBe(
      'TRANSFER_MODE_OPEN',
    );
  });

  it('residue = module_held - sum of claimable - carry, signed', () => {
    const row = {
      kind_id: 1,
      denom: 'uusdc',
      index: '333333333333333333',
      carry_scaled: '2500000000000000000', // carry 2
      total_distributed: '1000',
      total_paid: '400',
      distributions_count: 3,
      module_held: '600',
      sum_claimable: '595',
      updated_height: 9,
    };
    expect(presentAccrual(row)).toMatchObject({ carry: '2', residue: '3' });
    expect(presentAccrual({ ...row, sum_claimable: '700' }).residue).toBe('-102');
  });

  it('latest invariant check: highest height, agree only when every kind agrees', () => {
    expect(presentLatestInvariantCheck([])).toBeNull();
    const check = (kind_id: number, height: number, agree: boolean) => ({
      asset_id: A,
      kind_id,
      height,
      agree,
      chain: { supply: '5', holder_count: 1 },
      indexer: { supply: '5', holder_count: 1 },
    });
    expect(presentLatestInvariantCheck([check(0, 10, true), check(1, 12, false)])).toMatchObject({
      height: 12,
      agree: false,
    });
  });

  it('holder: locks ordered by ref, only ACTIVE encumbrances behind encumbrance/ locks, by id', () => {
    const locks = [
      { ref: 'settlement/4', units: '1' },
      { ref: 'encumbrance/9', units: '2' },
      { ref: 'encumbrance/10', units: '3' },
      { ref: 'encumbrance/11', units: '4' },
    ];
    const enc = (id: string, status: string) => ({
      id,
      kind: 'pledge',
      beneficiary: 'b',
      units: '2',
      status,
      expiry: null,
      holder_release_after: '2026-01-01 00:00:00',
    });
    const holder = presentHolder(
      { holder: 'h', units: '20', locked: '10', locks },
      new Map([
        ['9', enc('9', 'active')],
        ['10', enc('10', 'active')],
        ['11', enc('11', 'released')],
      ]),
    );
    expect(holder.locks.map((l) => l.ref)).toEqual([
      'encumbrance/10',
      'encumbrance/11',
      'encumbrance/9',
      'settlement/4',
    ]);
    expect(holder.encumbrances.map((e) => e.id)).toEqual([9, 10]);
    expect(holder.encumbrances[0]).toMatchObject({ holder_release_after: '2026-01-01T00:00:00Z', expiry: null });
  });
});

describe('account parts', () => {
  const position = (asset_id: string, kind_id: number, kind_class: string, units: string, locks: unknown[] = []) => ({
    asset_id,
    kind_id,
    kind_class,
    decimals: 6,
    units,
    locked: '0',
    locks,
  });

  it('groups positions with units > 0 by asset with whole units, and lists every lock', () => {
    const rows = [
      position(A, 0, 'ECONOMIC', '12500000', [{ ref: 'encumbrance/3', units: '10' }]),
      position(A, 1, 'INCOME', '0'),
      position(B, 0, 'VOTE', '3000000'),
    ];
    expect(presentAssets(rows)).toEqual([
      {
        asset_id: A,
        positions: [
          {
            kind_id: 0,
            class: 'ECONOMIC',
            units: '12500000',
            encumbered: '0',
            whole_units: '12.5',
            locks: [{ ref: 'encumbrance/3', units: '10' }],
          },
        ],
      },
      {
        asset_id: B,
        positions: [{ kind_id: 0, class: 'VOTE', units: '3000000', encumbered: '0', whole_units: '3', locks: [] }],
      },
    ]);
    expect(presentAccountLocks(rows)).toEqual([{ asset_id: A, kind_id: 0, ref: 'encumbrance/3', units: '10' }]);
  });

  it('claimable: pending = floor(units x (index - snapshot) / 1e18), entries with nothing to claim left out', () => {
    const base = {
      routed_from: '',
      ref: '',
      asset_id: A,
      kind_id: 1,
      denom: 'uusdc',
      snapshot_index: '0',
      accrued: '0',
    };
    const out = presentClaimable([
      { ...base, units: '3', index: '333333333333333333' }, // 0.999… -> 0
      { ...base, denom: 'uatom', units: '1000000', index: '1500000000000000000', accrued: '7' }, // 1500000 + 7
      {
        ...base,
        routed_from: 'holder',
        ref: 'encumbrance/2',
        units: '10',
        index: '2000000000000000000',
        snapshot_index: '1000000000000000000',
      },
    ]);
    expect(out).toEqual([
      {
        routed_from: '',
        ref: '',
        asset_id: A,
        denom: 'uatom',
        kind_id: 1,
        pending: '1500000',
        accrued: '7',
        total: '1500007',
      },
      {
        routed_from: 'holder',
        ref: 'encumbrance/2',
        asset_id: A,
        denom: 'uusdc',
        kind_id: 1,
        pending: '10',
        accrued: '0',
        total: '10',
      },
    ]);
  });

  it('voting power over VOTE kinds: own - delegated out + delegated in, per asset', () => {
    const vp = presentVotingPower(
      [position(A, 2, 'VOTE', '100'), position(A, 0, 'ECONOMIC', '999'), position(B, 1, 'VOTE', '5')],
      [
        { asset_id: A, kind_id: 2, delegated_out: '30', delegated_in: '0' },
        { asset_id: B, kind_id: 3, delegated_out: '0', delegated_in: '8' },
      ],
    );
    expect(vp).toEqual([
      {
        asset_id: A,
        own: '100',
        delegated_out: '30',
        delegated_in: '0',
        voting_power: {
          total: '70',
          by_kind: [{ kind_id: 2, own: '100', delegated_out: '30', delegated_in: '0', total: '70' }],
        },
      },
      {
        asset_id: B,
        own: '5',
        delegated_out: '0',
        delegated_in: '8',
        voting_power: {
          total: '13',
          by_kind: [
            { kind_id: 1, own: '5', delegated_out: '0', delegated_in: '0', total: '5' },
            { kind_id: 3, own: '0', delegated_out: '0', delegated_in: '8', total: '8' },
          ],
        },
      },
    ]);
  });

  it('settlement legs carry exactly one of right or coin', () => {
    const s = presentSettlement({
      id: '7',
      proposer: 'p',
      counterparty: 'c',
      legs: [
        { direction: 'LEG_DIRECTION_GIVE', right: null, coin: { denom: 'uusdc', amount: '5' } },
        { direction: 'LEG_DIRECTION_ASK', right: { asset_id: A, kind_id: 0, units: '1' } },
      ],
      expiry: '2026-01-01 00:00:00',
      status: 'STATUS_PENDING',
      cancel_reason: '',
      memo_hash: '',
      created_height: 1,
      created_tx_hash: 'H',
      created_at: '2026-01-01 00:00:00',
      updated_height: 1,
    });
    expect(s.legs).toEqual([
      { direction: 'LEG_DIRECTION_GIVE', coin: { denom: 'uusdc', amount: '5' } },
      { direction: 'LEG_DIRECTION_ASK', right: { asset_id: A, kind_id: 0, units: '1' } },
    ]);
    expect(s.id).toBe(7);
  });
});

describe('timelines', () => {
  it('settlement: no actor for the sweep or a liquidation cancel; reason only on cancels', () => {
    const row = {
      height: 5,
      block_time: '2026-01-01 00:00:00',
      tx_hash: null,
      actor: 'waterfall-module',
      reason: 'LIQUIDATION',
    };
    expect(presentSettlementTimeline({ ...row, event: 'cancelled' })).toMatchObject({
      actor: null,
      reason: 'LIQUIDATION',
    });
    expect(presentSettlementTimeline({ ...row, event: 'expired', actor: null, reason: null })).toMatchObject({
      actor: null,
      reason: '',
    });
    expect(presentSettlementTimeline({ ...row, event: 'cancelled', actor: 'alice', reason: '' })).toMatchObject({
      actor: 'alice',
      reason: '',
    });
    expect(presentSettlementTimeline({ ...row, event: 'proposed', actor: 'alice', reason: null })).toMatchObject({
      actor: 'alice',
      reason: '',
    });
  });

  it('encumbrance: units as {units}; unknown roles are null', () => {
    const row = {
      event: 'expired',
      height: 5,
      block_time: '2026-01-01 00:00:00',
      tx_hash: null,
      actor: null,
      actor_role: 'protocol',
      units: { asset_id: A, kind_id: 0, units: '9' },
    };
    expect(presentEncumbranceTimeline(row)).toMatchObject({
      actor_role: 'protocol',
      units: { units: '9' },
      actor: null,
    });
    expect(presentEncumbranceTimeline({ ...row, actor_role: 'unspecified', units: null })).toMatchObject({
      actor_role: null,
      units: null,
    });
  });
});

describe('bridge windows and outstanding', () => {
  it('usage counts only inside the current fixed window; window 0 never resets', () => {
    expect(windowIsCurrent(3600n, 7200n, 7200n + 3599n)).toBe(true);
    expect(windowIsCurrent(3600n, 7200n, 10800n)).toBe(false);
    expect(windowIsCurrent(0n, 0n, 99999n)).toBe(true);
  });

  it('outstanding per direction', () => {
    expect(outstanding('DIRECTION_NATIVE_OUT', 10n, 3n)).toBe(7n);
    expect(outstanding('DIRECTION_RIGHT_OUT', 10n, 3n)).toBe(7n);
    expect(outstanding('DIRECTION_SYNTHETIC_IN', 3n, 10n)).toBe(7n);
  });
});

describe('status and daily series', () => {
  it('14 zero-filled UTC days ending on the latest block day, oldest first', () => {
    const days = dailyWindow('2026-03-01');
    expect(days).toHaveLength(14);
    expect(days[0]).toBe('2026-02-16');
    expect(days[13]).toBe('2026-03-01');
    const series = dailySeries(days, [
      { day: '2026-02-28', count: 4 },
      { day: '2026-01-01', count: 9 },
    ]);
    expect(series.reduce((n, d) => n + d.count, 0)).toBe(4);
    expect(series[12]).toEqual({ day: '2026-02-28', count: 4 });
  });

  it('status: lag from the node metadata, wall-clock lag from the latest block, drift from both sources, the proof', () => {
    const totals = { tx_count: 3, drift_total: 2, latest_height: 9, latest_block_time: '2026-01-01 00:00:00' };
    const proof = {
      height: 9,
      hash: 'a'.repeat(64),
      previous: '',
      block_hash: 'B'.repeat(64),
      entities_root: 'c'.repeat(64),
      roots: { Block: 'd'.repeat(64) },
    };
    const progress = { indexedHeight: 9, targetHeight: 12 };
    const read = { progress, totals, reconciliationDisagreements: 1, proof };
    expect(presentStatus(read, Date.UTC(2026, 0, 1, 0, 1, 30))).toEqual({
      indexed_height: 9,
      chain_height: 12,
      lag_blocks: 3,
      latest_block_time: '2026-01-01T00:00:00Z',
      wall_clock_lag_seconds: 90,
      drift_total: 3,
      // the first proved height has no previous proof: null, not ''
      proof: { ...proof, previous: null },
    });
    const empty = { progress: { indexedHeight: 0, targetHeight: 0 }, totals: undefined };
    expect(presentStatus({ ...empty, reconciliationDisagreements: 0, proof: undefined }, 0)).toMatchObject({
      indexed_height: 0,
      latest_block_time: '1970-01-01T00:00:00Z',
      drift_total: 0,
      proof: null,
    });
  });
});

describe('lookup shapes (dispatch order)', () => {
  const key = Uint8Array.from({ length: 20 }, (_, i) => 200 - i);
  const evm = toChecksumAddress(key);

  it('classifies each shape', () => {
    expect(lookupShape('Ab'.repeat(32), 'svc')).toEqual({
      shape: 'hex64',
      assetId: 'ab'.repeat(32),
      txHash: 'AB'.repeat(32),
    });
    expect(lookupShape('1'.repeat(64), 'svc')?.shape).toBe('hex64'); // 64 digits: the first rule wins
    expect(lookupShape(toBech32(key, 'svc'), 'svc')).toMatchObject({
      shape: 'bech32',
      account: { bech32: toBech32(key, 'svc'), evm },
    });
    expect(lookupShape(evm, 'svc')).toMatchObject({ shape: 'evm', account: { bech32: toBech32(key, 'svc') } });
    expect(lookupShape(evm.toLowerCase(), 'svc')?.shape).toBe('evm');
    expect(lookupShape('0x' + 'AB'.repeat(32), 'svc')).toEqual({ shape: 'ethHash', ethHash: '0x' + 'ab'.repeat(32) });
    expect(lookupShape('0042', 'svc')).toEqual({ shape: 'integer', value: 42n });
  });

  it('does not recognise wrong checksums, other prefixes or free text', () => {
    const i = evm.slice(2).search(/[a-fA-F]/) + 2;
    const bad =
      evm.slice(0, i) +
      (evm[i] === evm[i].toLowerCase() ? evm[i].toUpperCase() : evm[i].toLowerCase()) +
      evm.slice(i + 1);
    for (const q of [bad, toBech32(key, 'cosmos'), 'hello', '-1', '1.5', '0x12', '', '0X' + 'ab'.repeat(20)])
      expect(lookupShape(q, 'svc')).toBeNull();
  });
});

describe('HeightMemo', () => {
  it('computes once per (height, key) and forgets the least recently used', async () => {
    const { HeightMemo } = await import('../../../rest-adapter/reads/height-memo');
    const memo = new HeightMemo<number>(2);
    let computed = 0;
    const compute = async () => ++computed;
    expect(await memo.get(1, 'a', compute)).toBe(1);
    expect(await memo.get(1, 'a', compute)).toBe(1);
    expect(await memo.get(2, 'a', compute)).toBe(2); // a new height is a new value
    expect(await memo.get(1, 'a', compute)).toBe(1); // refreshed: (2, a) is now the oldest
    expect(await memo.get(1, 'b', compute)).toBe(3); // evicts (2, a)
    expect(await memo.get(2, 'a', compute)).toBe(4);
  });
});
