/**
 * The block handler (src/mappings/block.ts) and the domain rules it drives, on a fake store
 * (harness/fake-store.ts) with blocks shaped as the node hands them (harness/fake-block.ts):
 * chain order, failed txs, one write per entity per block, store queries that see the
 * block's own changes, and the derivations settled with the one-pass design. The end-to-end
 * reconciliation with the chain (tests/integration/indexer-scenario.test.ts) runs the real node.
 */
import { toBech32 } from '../../../src/lib/address';
import { handleBlock } from '../../../src/mappings/block';
import type {
  EventAssetCreated,
  EventDistributed,
  EventEscrowIncomeSwept,
  EventIssued,
  EventKindBridgeableSet,
  EventKindPolicySet,
  EventKindSplit,
  EventRouteCreated,
} from '../../../src/mappings/generated/proto-json';
import { assetCreated, assetIssued } from './harness/asset-events';
import { blockLevel, fakeBlock, typed, type TxSpec } from './harness/fake-block';
import { FakeStore, installFakeStore } from './harness/fake-store';

const ISSUER = toBech32(new Uint8Array(20).fill(0x11));
const ALICE = toBech32(new Uint8Array(20).fill(0x22));
const ESCROW = toBech32(new Uint8Array(32).fill(0x33));
const ASSET = 'ab'.repeat(32);

const created = (): EventAssetCreated => assetCreated(ASSET, ISSUER);
const issued = (units: bigint, supplyAfter: bigint): EventIssued => assetIssued(ASSET, ALICE, units, supplyAfter);

const tx = (...events: ReturnType<typeof typed>[]): TxSpec => ({ events });
const E = {
  created: () => typed('svc.asset.v1.EventAssetCreated', created()),
  issued: (units: bigint, supplyAfter: bigint) => typed('svc.asset.v1.EventIssued', issued(units, supplyAfter)),
};

// The mappings keep a cache across consecutive heights: each test starts far from the last one's.
let base = 0;
let store: FakeStore;
beforeEach(() => {
  base += 1_000;
  store = installFakeStore();
});

const drifts = () => store.all('Drift').map((d) => `${d.entity} ${d.field}`);

describe('the block handler', () => {
  it('applies EndBlock events after the txs and BeginBlock events before them, as the chain does', async () => {
    // issued at EndBlock: the asset created by the block's tx exists by then
    await handleBlock(
      fakeBlock({ height: base, txs: [tx(E.created())], end: [blockLevel(E.issued(5n, 5n), 'EndBlock')] }),
    );
    expect(store.row('Kind', `${ASSET}-0`)?.supply).toBe(5n);
    expect(drifts()).toEqual([]);

    // issued at BeginBlock of a block whose tx creates another asset: applied before it, so a drift
    const other = { ...created(), asset_id: 'cd'.repeat(32), nonce: '1' };
    const early = typed('svc.asset.v1.EventIssued', { ...issued(1n, 1n), asset_id: other.asset_id });
    await handleBlock(
      fakeBlock({
        height: base + 1,
        begin: [blockLevel(early, 'BeginBlock')],
        txs: [tx(typed('svc.asset.v1.EventAssetCreated', other))],
      }),
    );
    expect(drifts()).toContain('Kind exists');
    expect(store.row('Kind', `${other.asset_id}-0`)?.supply).toBe(0n);
  });

  it('stores a failed tx with its events but applies none of them', async () => {
    await handleBlock(
      fakeBlock({ height: base, txs: [{ ...tx(E.created()), code: 7, codespace: 'asset', log: 'refused' }] }),
    );
    const row = store.row('Tx', `TX${base}_0`);
    expect(row).toMatchObject({ code: 7, codespace: 'asset', rawLog: 'refused', eventCount: 1 });
    expect(JSON.parse(String(row?.events))[0].type).toBe('svc.asset.v1.EventAssetCreated');
    expect(store.all('Asset')).toEqual([]);
    expect(store.all('ActivityEntry')).toEqual([]);
  });

  it("knows every party of the chain's own events: bank transfers, fees, the signer of a failed tx", async () => {
    const BOB = toBech32(new Uint8Array(20).fill(0x44));
    const FEE_COLLECTOR = toBech32(new Uint8Array(20).fill(0x55));
    const plain = (type: string, attrs: Record<string, string>) => ({
      type,
      attributes: Object.entries(attrs).map(([key, value]) => ({ key, value })),
    });
    await handleBlock(
      fakeBlock({
        height: base,
        txs: [
          { ...tx(plain('transfer', { recipient: BOB, sender: ALICE, amount: '5usvc' })), code: 5, codespace: 'sdk' },
          tx(
            plain('coin_received', { receiver: FEE_COLLECTOR, amount: '1usvc' }),
            plain('message', { sender: 'not-an-address' }),
          ),
        ],
      }),
    );
    expect(
      store
        .all('Account')
        .map((a) => a.id)
        .sort(),
    ).toEqual([ALICE, BOB, FEE_COLLECTOR].sort());
    expect(store.row('Account', BOB)).toMatchObject({ firstHeight: base, assetsCreated: 0 });
  });

  it('writes each entity type once per block, with every touched row at its end-of-block value', async () => {
    await handleBlock(
      fakeBlock({
        height: base,
        txs: [tx(E.created()), tx(E.issued(5n, 5n)), tx(E.issued(7n, 12n)), tx(E.issued(1n, 13n))],
      }),
    );
    const perEntity = new Map<string, number>();
    for (const w of store.writes) perEntity.set(w.entity, (perEntity.get(w.entity) ?? 0) + 1);
    expect([...perEntity.values()].every((n) => n === 1)).toBe(true);
    expect(store.writes.flatMap((w) => w.ids.map((id) => `${w.entity}/${id}`)).length).toBe(
      new Set(store.writes.flatMap((w) => w.ids.map((id) => `${w.entity}/${id}`))).size,
    );
    expect(store.row('Kind', `${ASSET}-0`)).toMatchObject({ supply: 13n, holderCount: 1 });
    expect(store.row('Holding', `${ASSET}-0-${ALICE}`)?.units).toBe(13n);
    expect(store.row('ChainTotals', 'chain')).toMatchObject({ txCount: 4, blockCount: 1 });
    expect(drifts()).toEqual([]);
  });

  it("lets a store query see the block's own unwritten changes (a first distribution opens every earning position)", async () => {
    const distributed: EventDistributed = {
      asset_id: ASSET,
      kind_id: 0,
      payer: ISSUER,
      denom: 'uusdc',
      amount: '1000',
      supply: '10',
      new_index: String(100n * 10n ** 18n),
      carry_scaled: '0',
      module_held_after: '1000',
      total_distributed_after: '1000',
    };
    // Alice's holding exists only in the block's cache when the distribution queries the kind's holdings
    await handleBlock(
      fakeBlock({
        height: base,
        txs: [tx(E.created()), tx(E.issued(10n, 10n)), tx(typed('svc.payout.v1.EventDistributed', distributed))],
      }),
    );
    const entries = store.all('Claimable');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ account: ALICE, units: 10n });
    expect(drifts()).toEqual([]);
  });
});

describe('derivations settled with the one-pass design', () => {
  const route: EventRouteCreated = {
    route: {
      route_id: 'r1',
      remote_domain: 1,
      remote_contract: `0x${'00'.repeat(32)}`,
      direction: 'DIRECTION_RIGHT_OUT',
      local_denom: '',
      status: 'ROUTE_STATUS_ACTIVE',
      window_seconds: '0',
      outbound_limit: '0',
      inbound_limit: '0',
      warp_token_id: '',
      display: '',
      exponent: 0,
      asset_id: ASSET,
      kind_id: 0,
      bundle: false,
      escrow_address: ESCROW,
    },
  };
  const swept = (amount: string): EventEscrowIncomeSwept => ({
    route_id: 'r1',
    escrow_address: ESCROW,
    asset_id: ASSET,
    kind_id: 0,
    denom: 'uusdc',
    amount,
    module_held_after: '0',
    total_paid_after: '0',
  });

  it('applies EventEscrowIncomeSwept wherever it arrives: BeginBlock, inside a tx, EndBlock', async () => {
    await handleBlock(
      fakeBlock({ height: base, txs: [tx(E.created(), typed('svc.bridge.v1.EventRouteCreated', route))] }),
    );
    const sweep = (amount: string) => typed('svc.bridge.v1.EventEscrowIncomeSwept', swept(amount));
    await handleBlock(
      fakeBlock({
        height: base + 1,
        begin: [blockLevel(sweep('1'), 'BeginBlock')],
        txs: [tx(sweep('20'))],
        end: [blockLevel(sweep('300'), 'EndBlock')],
      }),
    );
    expect(store.row('BridgeRoute', 'r1')?.incomeSwept).toEqual({ uusdc: '321' });
  });

  it("moves an asset's updated_height when an issue, a kind policy, a split or a bridgeable flag changes a kind", async () => {
    await handleBlock(fakeBlock({ height: base, txs: [tx(E.created())] }));
    const policy: EventKindPolicySet = { asset_id: ASSET, kind_id: 0, policy_override: null, cleared: true };
    const split: EventKindSplit = { asset_id: ASSET, kind_id: 0, factor: '2', multiplier_after: '2' };
    const bridgeable: EventKindBridgeableSet = { asset_id: ASSET, kind_id: 0, bridgeable: true };
    const steps = [
      E.issued(5n, 5n),
      typed('svc.asset.v1.EventKindPolicySet', policy),
      typed('svc.asset.v1.EventKindSplit', split),
      typed('svc.asset.v1.EventKindBridgeableSet', bridgeable),
    ];
    for (const [i, event] of steps.entries()) {
      const height = base + 1 + i;
      await handleBlock(fakeBlock({ height, txs: [tx(event)] }));
      expect([event.type, store.row('Asset', ASSET)?.updatedHeight]).toEqual([event.type, height]);
    }
    expect(drifts()).toEqual([]);
  });
});
