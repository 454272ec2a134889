/**
 * @subql/node-cosmos 5.4's own connection and block fetcher (the code the
 * real node runs: version probe, chain id, block interval, block +
 * block_results per height, tx/message/event wrapping) read the devnet.
 */
import { createSvcApp } from '../../../devnet/app';
import { DevnetChain, DevnetRpcServer, startRpcServer } from '../../../devnet/chain';
import { signTx, svcRegistry } from '../../../src/client/registry';
import { CHAIN_ID, T0, testWallet } from './helpers';

/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-explicit-any -- the node's dist modules are untyped here */
const subql = () => {
  // @polkadot/util warns about its duplicate copies when loaded; not ours to fix
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    require('@subql/node-core/dist/logger').initLogger(false, 'json', 'error');
    return {
      CosmosClientConnection: require('@subql/node-cosmos/dist/indexer/cosmosClient.connection').CosmosClientConnection,
      fetchBlocksBatches: require('@subql/node-cosmos/dist/utils/cosmos').fetchBlocksBatches,
    };
  } finally {
    warn.mockRestore();
  }
};

describe('@subql/node-cosmos block fetching against the devnet', () => {
  let server: DevnetRpcServer;
  let conn: any;

  afterAll(async () => {
    conn?.apiDisconnect();
    await server?.close();
  });

  it('connects (Comet 0.38), measures the interval and wraps txs, messages and events', async () => {
    const alice = await testWallet('alice');
    const chain = await DevnetChain.create({
      app: createSvcApp({
        genesis: { balances: [{ address: alice.address, coins: [{ denom: 'usvc', amount: '100000000' }] }] },
      }),
      chainId: CHAIN_ID,
    });
    chain.produceBlock(T0);
    const createAsset = {
      typeUrl: '/svc.asset.v1.MsgCreateAsset',
      value: {
        issuer: alice.address,
        settlement_denom: 'uusdc',
        policy: { transfer: 'TRANSFER_MODE_OPEN' },
        kinds: [{ class: 'KIND_CLASS_ECONOMIC', decimals: 6, bundle: true, transferable: true }],
      },
    };
    const { accountNumber } = chain.app.account(alice.address)!;
    const tx = await signTx(alice.wallet, {
      messages: [createAsset],
      accountNumber,
      sequence: 0,
      chainId: CHAIN_ID,
      fee: { amount: [{ denom: 'usvc', amount: '20000' }], gas: '400000' },
    });
    expect((await chain.checkTx(tx)).code).toBe(0);
    chain.produceBlock(T0 + 5000);
    chain.produceBlock(T0 + 10000);
    server = await startRpcServer(chain);

    const { CosmosClientConnection, fetchBlocksBatches } = subql();
    conn = await CosmosClientConnection.create(server.url, fetchBlocksBatches, svcRegistry(), {});
    expect(conn.networkMeta.chain).toBe(CHAIN_ID);
    expect(await conn.unsafeApi.getBlockInterval()).toBe(5000);
    const blocks = await conn.fetchBlocks([1, 2, 3]);
    const block2 = blocks[1].block.block;
    expect(block2.block.id).toBe(Buffer.from(chain.block(2)!.blockId.hash).toString('hex').toUpperCase());
    expect(block2.transactions).toHaveLength(1);
    expect(block2.transactions[0].hash).toBe(chain.block(2)!.txHashes[0]);
    expect(block2.messages.map((m: any) => m.msg.typeUrl)).toEqual(['/svc.asset.v1.MsgCreateAsset']);
    expect(block2.messages[0].msg.decodedMsg.issuer).toBe(alice.address);
    const kinds = block2.events.map((e: any) => `${e.kind}:${e.event.type}`);
    expect(kinds).toContain('message:svc.asset.v1.EventAssetCreated');
    expect(blocks[0].getHeader()).toMatchObject({ blockHeight: 1 });
  }, 60_000); // loading @subql/node-cosmos alone takes several seconds on a busy 2-core machine
});
