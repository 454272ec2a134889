/**
 * A user trying the live devnet with a key its scenario also signs with: the user's tx and the
 * scenario's next txs must both go in, block after block (the scenario signs at the mempool's
 * sequence, and a live block is made with whatever was submitted even if a tx of it is refused).
 */
import { txHashHex, type DevnetChain } from '../../../devnet/chain';
import { startDevnet } from '../../../devnet/scenario/start';
import { generateHistory, type ScenarioEngine } from '../../../devnet/scenario';
import type { Actor } from '../../../devnet/scenario/accounts';
import * as msg from '../../../devnet/scenario/messages';
import { signTx } from '../../../src/client/registry';
import { DEFAULT_CHAIN_CONFIG } from '../../../src/lib/config';

jest.setTimeout(120_000);

const GAS = DEFAULT_CHAIN_CONFIG.gasDenom;

/** Signs as `actor` at the sequence CheckTx expects now, as a wallet asking the node would. */
async function submitAs(chain: DevnetChain, actor: Actor, to: string): Promise<string> {
  const account = chain.app.account(actor.address)!;
  const tx = await signTx(actor.wallet, {
    messages: [msg.bankSend(actor.address, to, [msg.coin(GAS, 1n)])],
    accountNumber: account.accountNumber,
    sequence: chain.nextSequence(actor.address)!,
    chainId: chain.chainId,
    fee: { amount: [{ denom: GAS, amount: '5000' }], gas: 2_000_000n },
  });
  const r = await chain.checkTx(tx);
  if (r.code !== 0) throw new Error(`CheckTx refused the user's tx: ${r.codespace}/${r.code} ${r.log}`);
  return r.hash;
}

describe('a key shared by a user and the live scenario', () => {
  let engine: ScenarioEngine;
  let chain: DevnetChain;
  const errors: string[] = [];

  beforeAll(async () => {
    const history = await generateHistory({
      seed: 'shared-key',
      blocks: 30,
      txsPerBlock: 10,
      startTimeMs: Date.UTC(2026, 0, 1),
      blockIntervalMs: 3_600_000,
    });
    engine = history.engine;
    chain = history.chain;
    engine.enterLiveMode(1000, (flow, e) => errors.push(`${flow}: ${e instanceof Error ? e.message : String(e)}`));
  });

  it('every actor the scenario signs for also signs from outside in the same block: no block is lost, every tx goes in', async () => {
    const { cast } = engine.world;
    const actors = [...Object.values(cast.roles), ...cast.holders];
    const before = chain.height;
    let time = chain.lastBlockTimeMs;
    const ours: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (const actor of actors) ours.push(await submitAs(chain, actor, cast.holders[0].address));
      for (let i = 0; i < 3; i++) await engine.runBlock((time += 1000));
    }
    expect(chain.height).toBe(before + 9);
    for (const hash of ours) expect([hash, chain.tx(hash)?.result.code]).toEqual([hash, 0]);
    // the scenario went on signing beside the user: its own txs fill the live blocks
    let scenarioTxs = 0;
    for (let h = before + 1; h <= chain.height; h++)
      scenarioTxs += chain.block(h)!.txHashes.filter((x) => !ours.includes(x)).length;
    expect(scenarioTxs).toBeGreaterThan(9 * 5);
    expect(errors.filter((e) => /sequence/i.test(e))).toEqual([]);
  });
});

describe('the live devnet served over RPC, with a user broadcasting as a scenario account', () => {
  it("keeps making blocks: the user's txs land beside the scenario's, a refused tx leaves nothing in the mempool", async () => {
    const devnet = await startDevnet({
      seed: 'shared-key-live',
      blocks: 20,
      txsPerBlock: 10,
      live: true,
      blockMs: 150,
    });
    try {
      const { chain } = devnet;
      const holder = devnet.engine.world.cast.holders[1];
      const broadcast = async (sequence: bigint) => {
        const account = chain.app.account(holder.address)!;
        const tx = await signTx(holder.wallet, {
          messages: [msg.bankSend(holder.address, devnet.engine.world.cast.holders[0].address, [msg.coin(GAS, 1n)])],
          accountNumber: account.accountNumber,
          sequence,
          chainId: chain.chainId,
          fee: { amount: [{ denom: GAS, amount: '5000' }], gas: 2_000_000n },
        });
        const res = await fetch(devnet.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'broadcast_tx_sync',
            params: { tx: Buffer.from(tx).toString('base64') },
          }),
        });
        return ((await res.json()) as { result: { code: number; hash: string } }).result;
      };
      const start = chain.height;
      const landed: string[] = [];
      for (let i = 0; i < 5; i++) {
        // as a wallet does: the scenario may take the sequence first, then ask again
        let r = await broadcast(chain.nextSequence(holder.address)!);
        for (let retry = 0; r.code === 32 && retry < 5; retry++)
          r = await broadcast(chain.nextSequence(holder.address)!);
        expect(r.code).toBe(0);
        landed.push(r.hash);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // a stale sequence is refused at CheckTx and never enters the mempool
      const refused = await broadcast(0n);
      expect(refused.code).toBe(32);
      expect(chain.unconfirmedTxs().map((tx) => txHashHex(tx))).not.toContain(refused.hash);
      for (const hash of landed) expect(await chain.waitForTx(hash, 10_000)).toBeDefined();
      const after = chain.height;
      while (chain.height < after + 5) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(chain.height - start).toBeGreaterThanOrEqual(10);
      let scenario = 0;
      for (let h = start + 1; h <= chain.height; h++)
        scenario += chain.block(h)!.txHashes.filter((x) => !landed.includes(x)).length;
      expect(scenario).toBeGreaterThan(10);
      expect(chain.tx(refused.hash)).toBeUndefined();
    } finally {
      await devnet.close();
    }
  });
});
