/**
 * The devnet's Simulate (abci_query /cosmos.tx.v1beta1.Service/Simulate) and its tx-index
 * fault hook, over loopback RPC with the real svc app.
 */
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { SimulateRequest, SimulateResponse } from 'cosmjs-types/cosmos/tx/v1beta1/service';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { signTx } from '../../../src/client/registry';
import {
  bankSend,
  startTestChain,
  TEST_CHAIN_ID,
  TEST_FEE,
  testKey,
  type TestChain,
  type TestKey,
} from '../../harness/app-chain';

let chain: TestChain;
let client: Comet38Client;
let alice: TestKey;
let bob: TestKey;

beforeAll(async () => {
  alice = await testKey('simulate-alice');
  bob = await testKey('simulate-bob');
  chain = await startTestChain([alice.address]);
  client = await Comet38Client.connect(chain.rpcUrl);
});

afterAll(async () => {
  client.disconnect();
  await chain.close();
});

async function signed(messages: ReturnType<typeof bankSend>[]): Promise<Uint8Array> {
  const account = chain.app.account(alice.address)!;
  return signTx(alice.wallet, {
    messages,
    accountNumber: account.accountNumber,
    sequence: account.sequence,
    chainId: TEST_CHAIN_ID,
    fee: TEST_FEE,
    signerAddress: alice.address,
  });
}

const withoutSignatures = (bytes: Uint8Array) => {
  const raw = TxRaw.decode(bytes);
  return TxRaw.encode({ ...raw, signatures: raw.signatures.map(() => new Uint8Array(0)) }).finish();
};

const simulate = (tx: Uint8Array) =>
  client.abciQuery({
    path: '/cosmos.tx.v1beta1.Service/Simulate',
    data: SimulateRequest.encode(SimulateRequest.fromPartial({ txBytes: tx })).finish(),
  });

test('Simulate answers the gas the delivery then uses, keeps nothing, and needs no signature', async () => {
  const messages = Array.from({ length: 10 }, (_, i) => bankSend(alice.address, bob.address, BigInt(i + 1)));
  const bytes = await signed(messages);
  const r = await simulate(withoutSignatures(bytes));
  expect(r.code).toBe(0);
  const gasUsed = SimulateResponse.decode(r.value).gasInfo!.gasUsed;
  expect(chain.balance(bob.address)).toBe(0n);
  expect(chain.app.account(alice.address)!.sequence).toBe(0n);

  const check = await chain.chain.checkTx(bytes);
  expect(check.code).toBe(0);
  chain.produceBlock();
  expect(chain.chain.tx(check.hash)!.result.gasUsed).toBe(gasUsed);
  expect(chain.balance(bob.address)).toBe(55n);
});

test('a tx that would fail answers its error, as an SDK node does', async () => {
  const r = await simulate(withoutSignatures(await signed([bankSend(alice.address, bob.address, 10n ** 15n)])));
  expect([r.codespace, r.code]).toEqual(['sdk', 5]);
  const garbage = await simulate(new Uint8Array([1, 2, 3]));
  expect(garbage.code).not.toBe(0);
});

test('rpcFaults.missingTxs: `tx` answers not found for a committed tx; its block still holds it', async () => {
  const bytes = await signed([bankSend(alice.address, bob.address, 1n)]);
  const { hash } = await chain.chain.checkTx(bytes);
  chain.produceBlock();
  chain.chain.rpcFaults.missingTxs.add(hash);
  try {
    await expect(client.tx({ hash: Buffer.from(hash, 'hex') })).rejects.toThrow(/not found/);
    const { block } = await client.block(chain.chain.height);
    expect(block.txs).toHaveLength(1);
  } finally {
    chain.chain.rpcFaults.missingTxs.clear();
  }
  expect((await client.tx({ hash: Buffer.from(hash, 'hex') })).height).toBe(chain.chain.height);
});
