/** The committed blocks the services watch (app-services/chain/chain-watcher.ts, addressed-events.ts). */
import { AddressedEvents } from '../../../../app-services/chain/addressed-events';
import type { ChainClient, CommittedBlock } from '../../../../app-services/chain/chain-client';
import { ChainWatcher } from '../../../../app-services/chain/chain-watcher';

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A chain whose blocks are made by the test; `failAt` makes one block unreadable once. */
class FakeChain {
  head = 0;
  failAt: number | undefined;
  readonly reads: number[] = [];
  blocks = new Map<number, CommittedBlock>();
  async height(): Promise<number> {
    return this.head;
  }
  async committedBlock(h: number): Promise<CommittedBlock> {
    if (h === this.failAt) {
      this.failAt = undefined;
      throw new Error('unreadable for now');
    }
    this.reads.push(h);
    return this.blocks.get(h) ?? { height: h, timeMs: h * 1000, txs: [] };
  }
}

const attr = (key: string, value: unknown) => ({ key, value: JSON.stringify(value) });
const proposed = (id: number, counterparty: string) => ({
  type: 'svc.settlement.v1.EventSettlementProposed',
  attributes: [
    attr('settlement_id', String(id)),
    attr('proposer', 'svc1p'),
    attr('counterparty', counterparty),
    attr('legs', []),
  ],
});

function watcherOn(chain: FakeChain, from = 0) {
  return new ChainWatcher({ chain: chain as unknown as ChainClient, pollMs: 1000, from: async () => from, log: quiet });
}

test('every block after the start is read once, in order; a block that cannot be read is read again next round', async () => {
  const chain = new FakeChain();
  const w = watcherOn(chain, 3);
  const seen: number[] = [];
  w.subscribe((b) => seen.push(b.height));
  chain.head = 6;
  chain.failAt = 5;
  await expect(w.round()).rejects.toThrow(/unreadable/);
  expect(seen).toEqual([4]);
  await w.round();
  chain.head = 8;
  await w.round();
  expect(seen).toEqual([4, 5, 6, 7, 8]);
  expect(chain.reads).toEqual([4, 5, 6, 7, 8]);
});

test('a long gap is caught up over several rounds, never skipped', async () => {
  const chain = new FakeChain();
  const w = watcherOn(chain);
  chain.head = 120;
  await w.round();
  expect(w.height).toBe(50);
  await w.round();
  await w.round();
  expect(w.height).toBe(120);
  expect(chain.reads).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
});

test('only successful txs’ events naming the key are kept, until the index holds their block; each arrival wakes the worker', async () => {
  const chain = new FakeChain();
  const w = watcherOn(chain);
  let wakes = 0;
  const events = new AddressedEvents(
    w,
    'svc1desk',
    [{ type: 'svc.settlement.v1.EventSettlementProposed', field: 'counterparty' }],
    () => wakes++,
  );
  chain.blocks.set(1, {
    height: 1,
    timeMs: 1000,
    txs: [
      { hash: 'A', code: 0, codespace: '', log: '', events: [proposed(7, 'svc1desk'), proposed(8, 'svc1other')] },
      { hash: 'B', code: 5, codespace: 'x', log: 'failed', events: [proposed(9, 'svc1desk')] },
    ],
  });
  chain.blocks.set(2, {
    height: 2,
    timeMs: 2000,
    txs: [{ hash: 'C', code: 0, codespace: '', log: '', events: [proposed(10, 'svc1desk')] }],
  });
  chain.head = 3;
  await w.round();
  expect(wakes).toBe(2);
  const type = 'svc.settlement.v1.EventSettlementProposed';
  expect(events.above(0, type).map((e) => [e.fields.settlement_id, e.txHash, e.height])).toEqual([
    ['7', 'A', 1],
    ['10', 'C', 2],
  ]);
  expect(events.above(1, type).map((e) => e.fields.settlement_id)).toEqual(['10']); // block 1 is indexed now
  expect(events.above(0, type).map((e) => e.fields.settlement_id)).toEqual(['10']); // and forgotten
});
