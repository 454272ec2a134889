/** EVM view of signed transactions (src/mappings/infra/eth.ts), cross-checked with ethers. */
import { AbiCoder, Transaction, Wallet } from 'ethers';
import { encodeMessage } from '../../../src/lib/contract';
import { decodeWire } from '../../../src/mappings/infra/protojson';
import {
  revertString,
  rlpDecode,
  rlpEncode,
  signedEthermintTx,
  viewOfMsgEthereumTx,
  viewOfRaw,
} from '../../../src/mappings/infra/eth';

const wallet = new Wallet('0x' + '42'.repeat(32));
const TO = '0x' + 'aB'.repeat(20).toLowerCase();
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));

async function signed(fields: Record<string, unknown>): Promise<Transaction> {
  return Transaction.from(await wallet.signTransaction(Transaction.from(fields)));
}

const variants: [string, Record<string, unknown>][] = [
  ['legacy pre-EIP-155', { type: 0, nonce: 0, gasPrice: 1n, gasLimit: 21000n, to: TO, value: 1n, data: '0x' }],
  [
    'legacy EIP-155',
    {
      type: 0,
      chainId: 9000n,
      nonce: 7,
      gasPrice: 10n ** 9n,
      gasLimit: 50000n,
      to: TO,
      value: 10n ** 20n,
      data: '0xa9059cbb',
    },
  ],
  [
    'EIP-2930',
    {
      type: 1,
      chainId: 9000n,
      nonce: 1,
      gasPrice: 5n,
      gasLimit: 60000n,
      to: TO,
      value: 0n,
      data: '0x',
      accessList: [{ address: TO, storageKeys: ['0x' + '00'.repeat(31) + '01'] }],
    },
  ],
  [
    'EIP-1559',
    {
      type: 2,
      chainId: 9000n,
      nonce: 300,
      maxPriorityFeePerGas: 1n,
      maxFeePerGas: 10n,
      gasLimit: 200000n,
      to: TO,
      value: 3n,
      data: '0x1234',
    },
  ],
  [
    'EIP-1559 contract creation',
    {
      type: 2,
      chainId: 9000n,
      nonce: 2,
      maxPriorityFeePerGas: 1n,
      maxFeePerGas: 10n,
      gasLimit: 200000n,
      to: null,
      value: 0n,
      data: '0x6080',
    },
  ],
];

describe('viewOfRaw', () => {
  it.each(variants)('%s: hash, sender, recipient and value as ethers', async (_name, fields) => {
    const tx = await signed(fields);
    const view = viewOfRaw(bytes(tx.serialized));
    expect(view).toEqual({ ethHash: tx.hash, from: wallet.address, to: tx.to, value: tx.value });
  });

  it('rejects garbage', () => {
    expect(() => viewOfRaw(Uint8Array.of(0x02, 0xc1))).toThrow();
    expect(() => viewOfRaw(new Uint8Array(0))).toThrow();
  });
});

describe('ethermint layout', () => {
  it('rebuilds the signed RLP of a DynamicFeeTx and a LegacyTx from proto fields', async () => {
    const dyn = await signed(variants[3][1]);
    const sig = dyn.signature!;
    const b64 = (hex: string) => Buffer.from(hex.slice(2), 'hex').toString('base64');
    const dynFields = {
      chain_id: '9000',
      nonce: '300',
      gas_tip_cap: '1',
      gas_fee_cap: '10',
      gas: '200000',
      to: dyn.to,
      value: '3',
      data: b64('0x1234'),
      accesses: [],
      v: Buffer.from([sig.yParity]).toString('base64'),
      r: b64(sig.r),
      s: b64(sig.s),
    };
    const wire = decodeWire('ethermint.evm.v1.DynamicFeeTx', encodeMessage('ethermint.evm.v1.DynamicFeeTx', dynFields));
    expect(Buffer.from(signedEthermintTx('/ethermint.evm.v1.DynamicFeeTx', wire)).toString('hex')).toBe(
      dyn.serialized.slice(2),
    );
    const msg = {
      data: {
        typeUrl: '/ethermint.evm.v1.DynamicFeeTx',
        value: encodeMessage('ethermint.evm.v1.DynamicFeeTx', dynFields),
      },
    };
    expect(viewOfMsgEthereumTx('/ethermint.evm.v1.MsgEthereumTx', msg)).toMatchObject({
      ethHash: dyn.hash,
      from: wallet.address,
    });

    const legacy = await signed(variants[1][1]);
    const lsig = legacy.signature!;
    const v = BigInt(lsig.networkV ?? lsig.v);
    const legacyFields = {
      nonce: '7',
      gas_price: String(10n ** 9n),
      gas: '50000',
      to: legacy.to,
      value: String(10n ** 20n),
      data: b64('0xa9059cbb'),
      v: Buffer.from(v.toString(16).padStart(4, '0'), 'hex').toString('base64'),
      r: b64(lsig.r),
      s: b64(lsig.s),
    };
    const lwire = decodeWire('ethermint.evm.v1.LegacyTx', encodeMessage('ethermint.evm.v1.LegacyTx', legacyFields));
    expect(viewOfRaw(signedEthermintTx('/ethermint.evm.v1.LegacyTx', lwire))).toEqual({
      ethHash: legacy.hash,
      from: wallet.address,
      to: legacy.to,
      value: legacy.value,
    });
  });
});

describe('rlp', () => {
  it('round-trips long strings and nested lists', () => {
    const item = [new Uint8Array(60).fill(7), [Uint8Array.of(0x7f), Uint8Array.of(0x80)], new Uint8Array(0)];
    expect(rlpDecode(rlpEncode(item))).toEqual(item);
  });
});

describe('revertString', () => {
  it('decodes Error(string) and ignores anything else', () => {
    const data =
      '0x08c379a0' +
      AbiCoder.defaultAbiCoder().encode(['string'], ['svc: policy denied: kinds[1].policy_override.transfer']).slice(2);
    expect(revertString(data)).toBe('svc: policy denied: kinds[1].policy_override.transfer');
    expect(revertString('0x')).toBeNull();
    expect(revertString('0x4e487b71' + '00'.repeat(32))).toBeNull();
  });
});

describe('signatures with leading zero bytes', () => {
  it('recovers the sender when r or s starts with 0x00 (about 1 signature in 128)', async () => {
    let found = 0;
    for (let nonce = 0; found < 2 && nonce < 5000; nonce++) {
      const tx = await signed({
        type: 2,
        chainId: 9000n,
        nonce,
        maxPriorityFeePerGas: 1n,
        maxFeePerGas: 10n,
        gasLimit: 21000n,
        to: TO,
        value: 1n,
        data: '0x',
      });
      const sig = tx.signature!;
      if (!sig.r.startsWith('0x00') && !sig.s.startsWith('0x00')) continue;
      found++;
      expect(viewOfRaw(bytes(tx.serialized))).toEqual({
        ethHash: tx.hash,
        from: wallet.address,
        to: tx.to,
        value: tx.value,
      });
    }
    expect(found).toBe(2);
  });
});
