/** The app behind the real chain layer: cosmjs-signed txs in, block results and abci queries out. */
import { DirectSecp256k1Wallet } from '@cosmjs/proto-signing';
import { sha256 } from '@noble/hashes/sha2';
import { Wallet, getBytes } from 'ethers';
import { DevnetChain } from '../../../devnet/chain';
import { signTx, buildEvmTx } from '../../../src/client/registry';
import { createSvcApp, queryJson } from '../../../devnet/app';
import { deriveAssetId, rightTokenAddress } from '../../../src/lib/ids';
import { toBech32, toEvmAddress } from '../../../src/lib/address';

const CHAIN_ID = 'svc-devnet-1';
const FEE = { amount: [{ denom: 'usvc', amount: '5000' }], gas: 300000 };

async function wallet(name: string) {
  const w = await DirectSecp256k1Wallet.fromKey(sha256(new TextEncoder().encode(`app-test/${name}`)), 'svc');
  return { w, address: (await w.getAccounts())[0].address };
}

describe('SvcApp driven by DevnetChain', () => {
  it('creates, issues, transfers and runs an EVM precompile call through signed txs', async () => {
    const issuer = await wallet('issuer');
    const bob = await wallet('bob');
    const eth = new Wallet('0x' + '07'.repeat(32));
    const app = createSvcApp({
      genesis: {
        balances: [issuer.address, bob.address, toBech32(eth.address)].map((address) => ({
          address,
          coins: [{ denom: 'usvc', amount: '100000000' }],
        })),
      },
    });
    const chain = await DevnetChain.create({ app, chainId: CHAIN_ID });
    const assetId = deriveAssetId(issuer.address, 0n);
    const { accountNumber } = app.account(issuer.address)!;
    const sign = (sequence: number, messages: { typeUrl: string; value: Record<string, unknown> }[]) =>
      signTx(issuer.w, { messages, chainId: CHAIN_ID, fee: FEE, accountNumber, sequence });
    const create = await sign(0, [
      {
        typeUrl: '/svc.asset.v1.MsgCreateAsset',
        value: {
          issuer: issuer.address,
          settlement_denom: 'uusdc',
          policy: { transfer: 'TRANSFER_MODE_OPEN' },
          kinds: [{ class: 'KIND_CLASS_ECONOMIC', decimals: 6, bundle: true, transferable: true }],
          distribution_denoms: ['uusdc'],
        },
      },
    ]);
    const issue = await sign(1, [
      {
        typeUrl: '/svc.asset.v1.MsgIssue',
        value: { issuer: issuer.address, asset_id: assetId, kind_id: 0, recipient: issuer.address, units: '1000' },
      },
      {
        typeUrl: '/svc.asset.v1.MsgIssue',
        value: { issuer: issuer.address, asset_id: assetId, kind_id: 0, recipient: toBech32(eth.address), units: '50' },
      },
      {
        typeUrl: '/svc.rights.v1.MsgTransfer',
        value: { sender: issuer.address, recipient: bob.address, asset_id: assetId, kind_id: 0, units: '250' },
      },
    ]);
    for (const tx of [create, issue]) expect((await chain.checkTx(tx)).code).toBe(0);
    const raw = await eth.signTransaction({
      type: 2,
      chainId: 9000,
      nonce: 0,
      maxFeePerGas: 1n,
      maxPriorityFeePerGas: 1n,
      gasLimit: 100000n,
      to: rightTokenAddress(assetId, 0),
      data:
        '0xa9059cbb' +
        toEvmAddress(bob.address).slice(2).toLowerCase().padStart(64, '0') +
        (20).toString(16).padStart(64, '0'),
    });
    const evmTx = buildEvmTx([{ typeUrl: '/cosmos.evm.vm.v1.MsgEthereumTx', value: { raw: getBytes(raw) } }], {
      amount: [],
      gas: 100000,
    });
    expect((await chain.checkTx(evmTx)).code).toBe(0);
    const block = chain.produceBlock(Date.UTC(2024, 0, 2));
    expect(block.results.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(Buffer.from(block.appHash)).toEqual(Buffer.from(app.appHash));
    const position = queryJson(app, '/svc.rights.v1.Query/Position', {
      asset_id: assetId,
      kind_id: 0,
      holder: bob.address,
    });
    expect(position.json).toMatchObject({ units: '270' });
    expect(app.account(issuer.address)!.sequence).toBe(2n);
  });
});
