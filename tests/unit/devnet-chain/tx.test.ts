import { toBase64 } from '@cosmjs/encoding';
import { TxRaw, TxBody, AuthInfo } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { decodeTx, verifyTxSignatures, signerField, TxRejection, SignerAccount } from '../../../devnet/chain/tx';
import { buildEvmTx, encodeTxBody, svcRegistry } from '../../../src/client/registry';
import { encodeMessage } from '../../../src/lib/contract';
import { ASSET_ID, CHAIN_ID, FEE, signed, testWallet, transferMsg } from './helpers';

async function rejection(p: Promise<unknown> | (() => unknown)): Promise<TxRejection> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    if (e instanceof TxRejection) return e;
    throw e;
  }
  throw new Error('expected a TxRejection');
}

describe('svc registry', () => {
  it('encodes contract messages with proto field names exactly as the contract does', () => {
    const msg = transferMsg('svc1sender', 'svc1recipient', '25');
    expect(svcRegistry().encode(msg)).toEqual(encodeMessage('svc.rights.v1.MsgTransfer', msg.value));
  });

  it('rejects camelCase keys instead of dropping them', () => {
    expect(() => svcRegistry().encode({ typeUrl: '/svc.rights.v1.MsgTransfer', value: { assetId: ASSET_ID } })).toThrow(
      /no field assetId/,
    );
  });

  it('decodes to proto-JSON and keeps the Stargate defaults', () => {
    const r = svcRegistry();
    const msg = transferMsg('svc1a', 'svc1b', '7');
    expect(r.decode({ typeUrl: msg.typeUrl, value: r.encode(msg) })).toEqual(msg.value);
    expect(r.lookupType('/cosmos.bank.v1beta1.MsgSend')).toBeDefined();
    expect(r.lookupType('/ethermint.evm.v1.MsgEthereumTx')).toBeDefined();
    expect(r.lookupType('/svc.asset.v1.MsgCreateAsset')).toBeDefined();
  });
});

describe('decodeTx and the ante signature checks', () => {
  const accounts = new Map<string, SignerAccount>();
  const lookup = (a: string) => accounts.get(a);
  let alice: Awaited<ReturnType<typeof testWallet>>;
  let bob: Awaited<ReturnType<typeof testWallet>>;

  beforeAll(async () => {
    alice = await testWallet('alice');
    bob = await testWallet('bob');
    accounts.set(alice.address, { accountNumber: 0n, sequence: 3n });
    accounts.set(bob.address, { accountNumber: 1n, sequence: 0n });
  });

  it('decodes messages to proto-JSON and derives signers, fee and hash', async () => {
    const bytes = await signed(
      alice,
      [transferMsg(alice.address, bob.address, '10')],
      { accountNumber: 0, sequence: 3 },
      { memo: 'hi' },
    );
    const tx = decodeTx(bytes, 'svc');
    expect(tx.messages).toEqual([transferMsg(alice.address, bob.address, '10')]);
    expect(tx.signers).toEqual([alice.address]);
    expect(tx.fee).toEqual(FEE.amount);
    expect(tx.gasLimit).toBe(200000n);
    expect(tx.memo).toBe('hi');
    expect(tx.hash).toMatch(/^[0-9A-F]{64}$/);
    const pubKeys = await verifyTxSignatures(tx, lookup, CHAIN_ID);
    expect(pubKeys[0]).toHaveLength(33);
  });

  it('maps MsgSend to proto field names', async () => {
    const send = {
      typeUrl: '/cosmos.bank.v1beta1.MsgSend',
      value: { fromAddress: alice.address, toAddress: bob.address, amount: [{ denom: 'usvc', amount: '9' }] },
    };
    const tx = decodeTx(await signed(alice, [send], { accountNumber: 0, sequence: 3 }), 'svc');
    expect(tx.messages[0].value).toEqual({
      from_address: alice.address,
      to_address: bob.address,
      amount: [{ denom: 'usvc', amount: '9' }],
    });
    expect(signerField('/cosmos.bank.v1beta1.MsgSend')).toBe('from_address');
    expect(signerField('/svc.asset.v1.MsgCreateAsset')).toBe('issuer');
  });

  it('rejects a bad signature with sdk code 4', async () => {
    const bytes = await signed(alice, [transferMsg(alice.address, bob.address, '1')], {
      accountNumber: 0,
      sequence: 3,
    });
    const raw = TxRaw.decode(bytes);
    raw.signatures[0][5] ^= 0xff;
    const err = await rejection(verifyTxSignatures(decodeTx(TxRaw.encode(raw).finish(), 'svc'), lookup, CHAIN_ID));
    expect([err.code, err.codespace]).toEqual([4, 'sdk']);
    expect(err.log).toMatch(/^signature verification failed; .*: unauthorized$/);
  });

  it('rejects a malleated (high-S) signature with code 4, as the SDK does', async () => {
    const bytes = await signed(alice, [transferMsg(alice.address, bob.address, '1')], {
      accountNumber: 0,
      sequence: 3,
    });
    const raw = TxRaw.decode(bytes);
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt('0x' + Buffer.from(raw.signatures[0].subarray(32)).toString('hex'));
    raw.signatures[0].set(Buffer.from((n - s).toString(16).padStart(64, '0'), 'hex'), 32);
    const err = await rejection(verifyTxSignatures(decodeTx(TxRaw.encode(raw).finish(), 'svc'), lookup, CHAIN_ID));
    expect(err.code).toBe(4);
  });

  it('rejects a signature for another chain id or account number with code 4', async () => {
    const other = await signed(
      alice,
      [transferMsg(alice.address, bob.address, '1')],
      { accountNumber: 0, sequence: 3 },
      { chainId: 'other-1' },
    );
    expect((await rejection(verifyTxSignatures(decodeTx(other, 'svc'), lookup, CHAIN_ID))).code).toBe(4);
    const wrongNumber = await signed(alice, [transferMsg(alice.address, bob.address, '1')], {
      accountNumber: 7,
      sequence: 3,
    });
    expect((await rejection(verifyTxSignatures(decodeTx(wrongNumber, 'svc'), lookup, CHAIN_ID))).code).toBe(4);
  });

  it('rejects a wrong sequence with sdk code 32', async () => {
    const bytes = await signed(alice, [transferMsg(alice.address, bob.address, '1')], {
      accountNumber: 0,
      sequence: 2,
    });
    const err = await rejection(verifyTxSignatures(decodeTx(bytes, 'svc'), lookup, CHAIN_ID));
    expect(err.code).toBe(32);
    expect(err.log).toBe('account sequence mismatch, expected 3, got 2: incorrect account sequence');
  });

  it('rejects a signer whose key does not match the message signer with code 8', async () => {
    const bytes = await signed(bob, [transferMsg(alice.address, bob.address, '1')], { accountNumber: 0, sequence: 3 });
    expect((await rejection(verifyTxSignatures(decodeTx(bytes, 'svc'), lookup, CHAIN_ID))).code).toBe(8);
  });

  it('rejects an unknown (never funded) account with code 9', async () => {
    const carol = await testWallet('carol');
    const bytes = await signed(carol, [transferMsg(carol.address, bob.address, '1')], {
      accountNumber: 9,
      sequence: 0,
    });
    const err = await rejection(verifyTxSignatures(decodeTx(bytes, 'svc'), lookup, CHAIN_ID));
    expect(err.code).toBe(9);
    expect(err.log).toBe(`account ${carol.address} does not exist: unknown address`);
  });

  it('rejects unknown type URLs (code 2), garbage (code 2), txs without messages (code 18) and bad signer addresses (code 7)', async () => {
    const unknownBody = TxBody.encode(
      TxBody.fromPartial({ messages: [{ typeUrl: '/foo.v1.MsgBar', value: new Uint8Array() }] }),
    ).finish();
    const unknown = TxRaw.encode({
      bodyBytes: unknownBody,
      authInfoBytes: AuthInfo.encode(AuthInfo.fromPartial({})).finish(),
      signatures: [],
    }).finish();
    expect((await rejection(() => decodeTx(unknown, 'svc'))).log).toBe(
      'unable to resolve type URL /foo.v1.MsgBar: tx parse error',
    );
    expect((await rejection(() => decodeTx(Uint8Array.of(0xff, 0xff, 0xff), 'svc'))).code).toBe(2);
    const empty = TxRaw.encode({
      bodyBytes: encodeTxBody([]),
      authInfoBytes: new Uint8Array(),
      signatures: [],
    }).finish();
    expect((await rejection(() => decodeTx(empty, 'svc'))).code).toBe(18);
    const bad = TxRaw.encode({
      bodyBytes: encodeTxBody([transferMsg('cosmos1xyz', bob.address, '1')]),
      authInfoBytes: new Uint8Array(),
      signatures: [],
    }).finish();
    expect((await rejection(() => decodeTx(bad, 'svc'))).code).toBe(7);
  });

  it('accepts an EVM-only tx without cosmos signatures and refuses mixing', async () => {
    const evm = {
      typeUrl: '/ethermint.evm.v1.MsgEthereumTx',
      value: { hash: '0x' + '11'.repeat(32), from: '', size: 0 },
    };
    const tx = decodeTx(buildEvmTx([evm], FEE), 'svc');
    expect(tx.isEvm).toBe(true);
    expect(tx.signers).toEqual([]);
    expect(await verifyTxSignatures(tx, lookup, CHAIN_ID)).toEqual([]);
    const mixed = buildEvmTx([evm, transferMsg(alice.address, bob.address, '1')], FEE);
    expect((await rejection(() => decodeTx(mixed, 'svc'))).code).toBe(18);
    const signedEvm = await signed(alice, [evm], { accountNumber: 0, sequence: 3 });
    expect((await rejection(() => decodeTx(signedEvm, 'svc'))).log).toMatch(/SignerInfos should be empty/);
    expect(toBase64(tx.bytes)).toBeTruthy();
  });
});
