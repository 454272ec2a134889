/**
 * The chain layer driving the real svc application (devnet/app createSvcApp):
 * cosmjs signs and broadcasts svc messages over the RPC, the app's events and
 * queries come back through CometBFT shapes, and blocks are deterministic.
 */
import { SigningStargateClient } from '@cosmjs/stargate';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { createSvcApp } from '../../../devnet/app';
import { DevnetChain, startRpcServer } from '../../../devnet/chain';
import { ChainQueryClient } from '../../../src/client';
import { signTx, svcRegistry } from '../../../src/client/registry';
import { deriveAssetId } from '../../../src/lib/ids';
import { CHAIN_ID, T0, testWallet, TestWallet } from './helpers';

const FEE = { amount: [{ denom: 'usvc', amount: '20000' }], gas: '400000' };

function genesis(...wallets: TestWallet[]) {
  return {
    balances: wallets.map((w) => ({
      address: w.address,
      coins: [
        { denom: 'usvc', amount: '1000000000' },
        { denom: 'uusdc', amount: '1000000000' },
      ],
    })),
  };
}

function createAssetMsg(issuer: string) {
  return {
    typeUrl: '/svc.asset.v1.MsgCreateAsset',
    value: {
      issuer,
      meta_hash: '',
      settlement_denom: 'uusdc',
      policy: { transfer: 'TRANSFER_MODE_OPEN' },
      roles: {},
      kinds: [{ class: 'KIND_CLASS_ECONOMIC', decimals: 6, bundle: true, transferable: true }],
      liens_allowed: false,
      distribution_denoms: [],
    },
  };
}

const issueMsg = (issuer: string, assetId: string, recipient: string, units: string) => ({
  typeUrl: '/svc.asset.v1.MsgIssue',
  value: { issuer, asset_id: assetId, kind_id: 0, recipient, units },
});

const transferMsg = (sender: string, recipient: string, assetId: string, units: string) => ({
  typeUrl: '/svc.rights.v1.MsgTransfer',
  value: { sender, recipient, asset_id: assetId, kind_id: 0, units },
});

describe('devnet chain with the real svc app', () => {
  it('cosmjs creates an asset, issues and transfers units; events, results and queries come back', async () => {
    const alice = await testWallet('alice');
    const bob = await testWallet('bob');
    const chain = await DevnetChain.create({ app: createSvcApp({ genesis: genesis(alice, bob) }), chainId: CHAIN_ID });
    chain.startLive(100);
    const server = await startRpcServer(chain);
    const client = await SigningStargateClient.connectWithSigner(server.url, alice.wallet, {
      registry: svcRegistry(),
      broadcastPollIntervalMs: 100,
    });
    const comet = await Comet38Client.connect(server.url);
    try {
      const assetId = deriveAssetId(alice.address, 0n);
      const created = await client.signAndBroadcast(alice.address, [createAssetMsg(alice.address)], FEE);
      expect(created.rawLog ?? '').toBe('');
      expect(created.code).toBe(0);
      expect(created.events.map((e) => e.type)).toContain('svc.asset.v1.EventAssetCreated');
      const issued = await client.signAndBroadcast(
        alice.address,
        [issueMsg(alice.address, assetId, alice.address, '1000')],
        FEE,
      );
      expect(issued.code).toBe(0);
      const moved = await client.signAndBroadcast(
        alice.address,
        [transferMsg(alice.address, bob.address, assetId, '25')],
        FEE,
      );
      expect(moved.code).toBe(0);
      const transferred = moved.events.find((e) => e.type === 'svc.rights.v1.EventTransferred');
      expect(transferred?.attributes).toEqual(
        expect.arrayContaining([{ key: 'asset_id', value: JSON.stringify(assetId) }]),
      );

      const results = await comet.blockResults(moved.height);
      const ours = results.results[(await client.getTx(moved.transactionHash))!.txIndex];
      expect(
        ours.events
          .find((e) => e.type === 'svc.rights.v1.EventTransferred')
          ?.attributes.find((a) => a.key === 'msg_index')?.value,
      ).toBe('0');

      const supply = await new ChainQueryClient(server.url).queryWithHeight('/svc.asset.v1.Query/KindSupply', {
        asset_id: assetId,
        kind_id: 0,
      });
      expect(supply.value).toMatchObject({ supply: '1000', holder_count: '2' });

      const tooMuch = await client.signAndBroadcast(
        alice.address,
        [transferMsg(alice.address, bob.address, assetId, '999999')],
        FEE,
      );
      expect(tooMuch.code).not.toBe(0);
    } finally {
      chain.stopLive();
      comet.disconnect();
      client.disconnect();
      await server.close();
    }
  });

  it("takes the app's genesis hash as the app_hash of height 1", async () => {
    const alice = await testWallet('alice');
    const app = createSvcApp({ genesis: genesis(alice) });
    const genesisHash = Uint8Array.from(app.appHash);
    expect(genesisHash.length).toBeGreaterThan(0);
    const chain = await DevnetChain.create({ app, chainId: CHAIN_ID });
    expect(chain.produceBlock(T0).header.appHash).toEqual(genesisHash);
  });

  it('rejects a tampered signature with code 4 at broadcast', async () => {
    const alice = await testWallet('alice');
    const chain = await DevnetChain.create({ app: createSvcApp({ genesis: genesis(alice) }), chainId: CHAIN_ID });
    const account = chain.app.account(alice.address)!;
    const raw = TxRaw.decode(
      await signTx(alice.wallet, {
        messages: [createAssetMsg(alice.address)],
        accountNumber: account.accountNumber,
        sequence: 0,
        chainId: CHAIN_ID,
        fee: FEE,
      }),
    );
    raw.signatures[0][10] ^= 1;
    const r = await chain.checkTx(TxRaw.encode(raw).finish());
    expect([r.code, r.codespace]).toEqual([4, 'sdk']);
  });

  it('is deterministic: two chains fed the same txs and times give identical block hashes', async () => {
    const alice = await testWallet('alice');
    const bob = await testWallet('bob');
    const assetId = deriveAssetId(alice.address, 0n);
    const plan = [
      [createAssetMsg(alice.address)],
      [issueMsg(alice.address, assetId, alice.address, '500')],
      [transferMsg(alice.address, bob.address, assetId, '7'), transferMsg(alice.address, bob.address, assetId, '8')],
    ];
    const run = async () => {
      const chain = await DevnetChain.create({
        app: createSvcApp({ genesis: genesis(alice, bob) }),
        chainId: CHAIN_ID,
      });
      const accountNumber = chain.app.account(alice.address)!.accountNumber;
      for (const [i, messages] of plan.entries()) {
        const tx = await signTx(alice.wallet, { messages, accountNumber, sequence: i, chainId: CHAIN_ID, fee: FEE });
        expect((await chain.checkTx(tx)).code).toBe(0);
        chain.produceBlock(T0 + i * 6000);
      }
      return [1, 2, 3].map((h) => chain.block(h)!);
    };
    const [a, b] = [await run(), await run()];
    expect(a.map((x) => Buffer.from(x.blockId.hash).toString('hex'))).toEqual(
      b.map((x) => Buffer.from(x.blockId.hash).toString('hex')),
    );
    expect(a.map((x) => x.resultsJson)).toEqual(b.map((x) => x.resultsJson));
    expect(JSON.parse(a[2].resultsJson).txs_results[0].code).toBe(0);
  });
});
