/** Shared fixtures of the chain-layer tests: deterministic wallets, signed txs, a chain on a FakeApp. */
import { DirectSecp256k1Wallet } from '@cosmjs/proto-signing';
import { sha256 } from '@noble/hashes/sha2';
import { DevnetChain } from '../../../devnet/chain';
import { signTx, type SignTxInput } from '../../../src/client/registry';
import { FakeApp } from './fake-app';

export const CHAIN_ID = 'svc-devnet-1';
export const ASSET_ID = 'ab'.repeat(32);
export const FEE = { amount: [{ denom: 'usvc', amount: '5000' }], gas: 200000 };
export const T0 = Date.UTC(2024, 0, 2);

export interface TestWallet {
  wallet: DirectSecp256k1Wallet;
  address: string;
}

export async function testWallet(name: string): Promise<TestWallet> {
  const wallet = await DirectSecp256k1Wallet.fromKey(sha256(new TextEncoder().encode(`test-key/${name}`)), 'svc');
  const [account] = await wallet.getAccounts();
  return { wallet, address: account.address };
}

export async function fixture() {
  const alice = await testWallet('alice');
  const bob = await testWallet('bob');
  const app = new FakeApp([
    { address: alice.address, coins: { usvc: 1_000_000n } },
    { address: bob.address, coins: { usvc: 1_000_000n } },
  ]);
  app.setUnits(alice.address, ASSET_ID, 1, 1000n);
  const chain = await DevnetChain.create({ app, chainId: CHAIN_ID });
  return { alice, bob, app, chain };
}

export function transferMsg(from: string, to: string, units: string) {
  return {
    typeUrl: '/svc.rights.v1.MsgTransfer',
    value: { sender: from, recipient: to, asset_id: ASSET_ID, kind_id: 1, units },
  };
}

/** A signed TxRaw; the FakeApp numbers genesis accounts in order (alice 0, bob 1). */
export function signed(
  w: TestWallet,
  messages: SignTxInput['messages'],
  at: { accountNumber: number; sequence: number },
  extra: Partial<SignTxInput> = {},
) {
  return signTx(w.wallet, { messages, chainId: CHAIN_ID, fee: FEE, ...at, ...extra });
}
