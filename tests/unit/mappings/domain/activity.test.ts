/**
 * src/mappings/domain/activity.ts on the fake store: the ActivityEntry rows a handled event
 * writes (one per declared subject, ids and seq from its chain position), and the Account rows
 * of its account subjects and of the parties the SDK's own events name (first sight only).
 */
import { toBech32 } from '../../../../src/lib/address';
import { recordActivity, recordParties } from '../../../../src/mappings/domain/activity';
import type { RawEvent } from '../../../../src/mappings/infra/host';
import { ALICE, ASSET, BOB, account, eventAt, newWorld, type World } from '../harness/domain-world';

let w: World;
beforeEach(() => {
  w = newWorld();
});

const OTHER_ASSET = 'cd'.repeat(32);
const MODULE = toBech32(new Uint8Array(32).fill(0x33)); // a 32-byte module account (escrows, pools)
const event = (type: string, attrs: [string, string][]): RawEvent => ({
  type,
  attributes: attrs.map(([key, value]) => ({ key, value })),
});
const accountIds = () =>
  w.store
    .all('Account')
    .map((a) => a.id)
    .sort();

describe('recordActivity', () => {
  it('writes one entry per declared subject, keyed by feed and chain position, with the Account rows of its accounts', async () => {
    await w.block(async () => {
      const ctx = eventAt(w.height, 2, 5);
      ctx.assets.add(ASSET).add(OTHER_ASSET);
      ctx.accounts.add(ALICE).add(MODULE);
      await recordActivity(ctx);
    });
    const h = w.height;
    const seq = BigInt(h) * 10_000_000_000n + 3n * 100_000n + 6n;
    expect(w.store.all('ActivityEntry').sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(
      [`account:${ALICE}`, `account:${MODULE}`, `asset:${ASSET}`, `asset:${OTHER_ASSET}`]
        .sort()
        .map((feed) => ({ id: `${feed}:${h}:2:5`, feed, seq, txHash: `TX${h}_2` })),
    );
    expect(w.store.row('Account', ALICE)).toMatchObject({ firstHeight: h, assetsCreated: 0 });
    expect(w.store.row('Account', ALICE)?.evmAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // a module account has no EVM form; an asset subject is no account
    expect(w.store.row('Account', MODULE)).toMatchObject({ firstHeight: h, evmAddress: undefined });
    expect(accountIds()).toEqual([ALICE, MODULE].sort());
  });

  it('a block-level event has no tx hash; its seq counts tx_index -1 as 0', async () => {
    await w.block(async () => {
      const ctx = eventAt(w.height, -1, 0, 'BeginBlock');
      ctx.assets.add(ASSET);
      await recordActivity(ctx);
    });
    const [entry] = w.store.all('ActivityEntry');
    expect(entry).toMatchObject({
      id: `asset:${ASSET}:${w.height}:-1:0`,
      seq: BigInt(w.height) * 10_000_000_000n + 1n,
    });
    expect(entry.txHash).toBeUndefined();
  });

  it("orders a feed's entries by chain position: BeginBlock, then each tx's events in order, then the next block", async () => {
    const positions: [number, number][] = [
      [-1, 0],
      [0, 0],
      [0, 1],
      [0, 10],
      [1, 0],
      [12, 3],
    ];
    for (let b = 0; b < 2; b++) {
      await w.block(async () => {
        for (const [txIndex, eventIndex] of positions) {
          const ctx = eventAt(w.height, txIndex, eventIndex, txIndex < 0 ? 'BeginBlock' : undefined);
          ctx.accounts.add(ALICE);
          await recordActivity(ctx);
        }
      });
    }
    const entries = w.store.all('ActivityEntry');
    const h0 = w.height - 1;
    const inChainOrder = [h0, h0 + 1].flatMap((h) => positions.map(([t, e]) => `account:${ALICE}:${h}:${t}:${e}`));
    expect(entries).toHaveLength(inChainOrder.length);
    expect(entries.sort((a, b) => (BigInt(String(a.seq)) < BigInt(String(b.seq)) ? -1 : 1)).map((e) => e.id)).toEqual(
      inChainOrder,
    );
  });

  it('keeps an Account row it already has (first sight stays first) and does not rewrite it', async () => {
    await w.block(async (ctx) => {
      ctx.accounts.add(ALICE);
      await recordActivity(ctx);
    });
    const first = w.height;
    w.takeWrites();
    await w.block(async (ctx) => {
      ctx.accounts.add(ALICE);
      await recordActivity(ctx);
    });
    expect(w.store.row('Account', ALICE)?.firstHeight).toBe(first);
    expect(w.takeWrites()).toEqual([`ActivityEntry account:${ALICE}:${w.height}:0:0`]);
  });

  it('an event with no subjects writes nothing', async () => {
    await w.block((ctx) => recordActivity(ctx));
    expect(w.takeWrites()).toEqual([]);
  });
});

describe('recordParties', () => {
  it("makes an Account row of every party the SDK's events name: transfers, coins, mint, burn, fees, signers", async () => {
    const parties = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08].map(account);
    await w.block((ctx) =>
      recordParties(ctx.height, [
        event('transfer', [
          ['recipient', parties[0]],
          ['sender', parties[1]],
          ['amount', '5usvc'],
        ]),
        event('coin_spent', [['spender', parties[2]]]),
        event('coin_received', [['receiver', parties[3]]]),
        event('coinbase', [['minter', parties[4]]]),
        event('burn', [['burner', parties[5]]]),
        event('tx', [['fee_payer', parties[6]]]),
        event('tx', [['acc_seq', `${parties[7]}/42`]]),
        event('message', [['sender', MODULE]]),
      ]),
    );
    expect(accountIds()).toEqual([...parties, MODULE].sort());
    expect(w.store.row('Account', parties[7])).toMatchObject({ firstHeight: w.height });
  });

  it('ignores other keys and values that are not accounts of this chain', async () => {
    const badChecksum = ALICE.slice(0, -1) + (ALICE.endsWith('q') ? 'p' : 'q');
    await w.block((ctx) =>
      recordParties(ctx.height, [
        event('delegate', [['validator', BOB]]), // names an account, but not as a party key
        event('message', [['sender', 'not-an-address']]),
        event('transfer', [['recipient', toBech32(new Uint8Array(20).fill(0x22), 'cosmos')]]),
        event('transfer', [['sender', badChecksum]]),
        event('tx', [['acc_seq', 'not-an-address/3']]),
      ]),
    );
    expect(w.store.all('Account')).toEqual([]);
  });

  it('writes one row for a party named many times, at the height it was first seen', async () => {
    await w.block((ctx) =>
      recordParties(ctx.height, [
        event('transfer', [
          ['sender', ALICE],
          ['recipient', ALICE],
        ]),
        event('tx', [['fee_payer', ALICE]]),
      ]),
    );
    const first = w.height;
    expect(w.takeWrites()).toEqual([`Account ${ALICE}`]);
    await w.block((ctx) => recordParties(ctx.height, [event('coin_spent', [['spender', ALICE]])]));
    expect(w.takeWrites()).toEqual([]);
    expect(w.store.row('Account', ALICE)?.firstHeight).toBe(first);
  });
});
