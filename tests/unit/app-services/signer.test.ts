/** The per-key signer against the devnet over loopback RPC: kept sequences, sdk/32 retries, inclusion waits. */
import { connectChain, type ChainClient } from '../../../app-services/chain/chain-client';
import { ChainSigner, expectedSequence, InclusionTimeout, type SignedTx } from '../../../app-services/chain/signer';
import { bankSend, startTestChain, TEST_FEE, testKey, type TestChain, type TestKey } from '../../harness/app-chain';

let chain: TestChain;
let client: ChainClient;
let lender: TestKey;
let other: TestKey;

beforeAll(async () => {
  lender = await testKey('signer-lender');
  other = await testKey('signer-other');
  chain = await startTestChain([lender.address]);
  client = await connectChain(chain.rpcUrl);
});

afterAll(async () => {
  client.disconnect();
  await chain.close();
});

const newSigner = (maxSequenceRetries?: number) =>
  new ChainSigner(client, lender.wallet, lender.address, { fee: TEST_FEE, maxSequenceRetries, pollMs: 20 });

function recorder() {
  const recorded: SignedTx[] = [];
  return { recorded, record: async (s: SignedTx) => void recorded.push(s) };
}

test('expectedSequence reads the SDK mismatch text', () => {
  expect(expectedSequence('account sequence mismatch, expected 7, got 5: incorrect account sequence')).toBe(7n);
  expect(expectedSequence('out of gas')).toBeUndefined();
});

test('two txs of one key go into one block with consecutive sequences', async () => {
  const signer = newSigner();
  const { recorded, record } = recorder();
  const before = chain.balance(other.address);
  const [a, b] = await Promise.all([
    signer.submit([bankSend(lender.address, other.address, 10n)], record),
    signer.submit([bankSend(lender.address, other.address, 20n)], record),
  ]);
  expect([a.checkTx.code, b.checkTx.code]).toEqual([0, 0]);
  expect(b.signed.sequence).toBe(a.signed.sequence + 1n);
  expect(recorded.map((s) => s.hash)).toEqual([a.signed.hash, b.signed.hash]);
  chain.produceBlock();
  const [ta, tb] = await Promise.all([
    signer.waitForInclusion(a.signed.hash, 2000),
    signer.waitForInclusion(b.signed.hash, 2000),
  ]);
  expect(ta.height).toBe(tb.height);
  expect([ta.code, tb.code]).toEqual([0, 0]);
  expect(chain.balance(other.address) - before).toBe(30n);
});

test('a sequence mismatch moves to the expected sequence and signs again; the refused bytes are replaced in the record', async () => {
  const signer = newSigner();
  await signer.submit([bankSend(lender.address, other.address, 1n)], async () => undefined);
  chain.produceBlock();
  // another signer of the same key spends the sequence this one keeps
  const outsider = newSigner();
  const spent = await outsider.submit([bankSend(lender.address, other.address, 2n)], async () => undefined);
  expect(spent.checkTx.code).toBe(0);
  const { recorded, record } = recorder();
  const r = await signer.submit([bankSend(lender.address, other.address, 3n)], record);
  expect(r.checkTx.code).toBe(0);
  expect(recorded).toHaveLength(2);
  expect(recorded[1].sequence).toBe(recorded[0].sequence + 1n);
  expect(r.signed.hash).toBe(recorded[1].hash);
  chain.produceBlock();
  expect((await signer.waitForInclusion(r.signed.hash, 2000)).code).toBe(0);
  expect(await client.findTx(recorded[0].hash)).toBeNull();
});

test('retries are bounded: with none allowed, the mismatch is answered, not retried', async () => {
  const signer = newSigner(0);
  await signer.submit([bankSend(lender.address, other.address, 1n)], async () => undefined);
  chain.produceBlock();
  // (another amount than the outsider's: the same message and sequence would sign to the very same bytes)
  await newSigner().submit([bankSend(lender.address, other.address, 4n)], async () => undefined);
  const { recorded, record } = recorder();
  const r = await signer.submit([bankSend(lender.address, other.address, 5n)], record);
  expect([r.checkTx.codespace, r.checkTx.code]).toEqual(['sdk', 32]);
  expect(recorded).toHaveLength(1);
  chain.produceBlock();
});

test('a CheckTx refusal is answered with its code and consumes no sequence', async () => {
  const signer = newSigner();
  // a message another account must sign: refused at CheckTx (sdk/9 unknown address)
  const refused = await signer.submit([bankSend(other.address, lender.address, 1n)], async () => undefined);
  expect(refused.checkTx.code).not.toBe(0);
  const next = await signer.submit([bankSend(lender.address, other.address, 1n)], async () => undefined);
  expect(next.checkTx.code).toBe(0);
  expect(next.signed.sequence).toBe(refused.signed.sequence);
  chain.produceBlock();
});

test('waiting for a tx no block holds ends in InclusionTimeout', async () => {
  await expect(newSigner().waitForInclusion('AB'.repeat(32), 100)).rejects.toBeInstanceOf(InclusionTimeout);
});

test('the account query answers number and committed sequence; an unknown address is null', async () => {
  const account = await client.account(lender.address);
  expect(account!.sequence).toBeGreaterThan(3n);
  expect(await client.account(other.address.replace(/.{6}$/, 'qqqqqq'))).toBeNull();
});
