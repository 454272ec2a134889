import { Wallet, Interface, Transaction, getCreateAddress, getBytes, toBeArray } from 'ethers';
import { Harness, addr, createAsset, issue, position, msg, typed, coinBalance, attr } from './harness';
import { erc20, moduleAccounts, TxMessage } from '../../../devnet/app';
import { rightTokenAddress, bundleTokenAddress } from '../../../src/lib/ids';
import { toBech32, toEvmAddress } from '../../../src/lib/address';
import { encodeMessage, decodeMessage } from '../../../src/lib/contract';

const wallet = new Wallet('0x' + '42'.repeat(32));
const sender = toBech32(wallet.address);
const issuer = addr(1);
const bob = addr(3);
const bobEvm = toEvmAddress(bob);
const token = new Interface([
  'function transfer(address,uint256) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'function mint()',
]);
const CHAIN_ID = 9000;

function setup() {
  const h = new Harness({
    genesis: {
      balances: [
        { address: sender, coins: [{ denom: 'usvc', amount: '1000000000' }] },
        { address: issuer, coins: [] },
      ],
    },
  });
  const a = createAsset(h, issuer, {
    kinds: [
      { class: 'KIND_CLASS_ECONOMIC', decimals: 6, bundle: true, transferable: true },
      { class: 'KIND_CLASS_INCOME', decimals: 6, bundle: true, transferable: true },
      { class: 'KIND_CLASS_VOTE', decimals: 6, bundle: false, transferable: false },
    ],
  });
  for (const k of [0, 1, 2]) issue(h, issuer, a, k, sender, '1000');
  return { h, a };
}

let nonce = 0;
async function signed(fields: {
  to?: string | null;
  data?: string;
  value?: bigint;
  gasLimit?: bigint;
  nonce?: number;
  chainId?: number;
  type?: number;
}): Promise<string> {
  return wallet.signTransaction({
    type: fields.type ?? 2,
    chainId: fields.chainId ?? CHAIN_ID,
    nonce: fields.nonce ?? nonce++,
    ...(fields.type === 0 ? { gasPrice: 1n } : { maxFeePerGas: 2n, maxPriorityFeePerGas: 1n }),
    gasLimit: fields.gasLimit ?? 200_000n,
    to: fields.to === undefined ? bobEvm : fields.to,
    value: fields.value ?? 0n,
    data: fields.data ?? '0x',
  });
}

const cosmosEvm = (raw: string): TxMessage =>
  msg('/cosmos.evm.vm.v1.MsgEthereumTx', { raw: Buffer.from(getBytes(raw)).toString('base64') });
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const intBytes = (n: bigint) => (n === 0n ? new Uint8Array(0) : toBeArray(n));

/** The ethermint form: data is an Any of DynamicFeeTx / LegacyTx (expanded or packed). */
function ethermint(raw: string, packed: boolean): TxMessage {
  const tx = Transaction.from(raw);
  const sig = tx.signature!;
  const common = {
    nonce: String(tx.nonce),
    gas: String(tx.gasLimit),
    to: tx.to ?? '',
    value: String(tx.value),
    data: b64(getBytes(tx.data)),
    r: b64(getBytes(sig.r)),
    s: b64(getBytes(sig.s)),
  };
  const [type, fields] =
    tx.type === 2
      ? [
          'ethermint.evm.v1.DynamicFeeTx',
          {
            ...common,
            chain_id: String(tx.chainId),
            gas_tip_cap: String(tx.maxPriorityFeePerGas),
            gas_fee_cap: String(tx.maxFeePerGas),
            accesses: [],
            v: b64(intBytes(BigInt(sig.yParity))),
          },
        ]
      : [
          'ethermint.evm.v1.LegacyTx',
          { ...common, gas_price: String(tx.gasPrice), v: b64(intBytes(sig.networkV ?? BigInt(sig.v))) },
        ];
  const data = packed
    ? { type_url: `/${type}`, value: b64(encodeMessage(type, fields)) }
    : { '@type': `/${type}`, ...fields };
  return msg('/ethermint.evm.v1.MsgEthereumTx', { data, size: 0, hash: tx.hash, from: tx.from });
}

function evmResult(events: { type: string; attributes: { key: string; value: string }[] }[]) {
  return typed(events, 'svc.evm.v1.EventEthereumTxExecuted')[0] as {
    eth_hash: string;
    gas_used: string;
    status: number;
    vm_error: string;
    return_data: string;
    contract_address: string;
  };
}

beforeEach(() => {
  nonce = 0;
});

describe('evm module', () => {
  it('value transfer in the gas denom (1 wei = 1 usvc); gas charged at the effective price; ethereum_tx event', async () => {
    const { h } = setup();
    const raw = await signed({ value: 1234n });
    const r = h.tx([], cosmosEvm(raw), {});
    expect(r.code).toBe(0);
    const ev = evmResult(r.events);
    expect(ev).toMatchObject({
      eth_hash: Transaction.from(raw).hash,
      gas_used: '21000',
      status: 1,
      vm_error: '',
      contract_address: '',
    });
    const ethTx = r.events.find((e) => e.type === 'ethereum_tx')!;
    expect(attr(ethTx, 'ethereumTxHash')).toBe(Transaction.from(raw).hash);
    expect(attr(ethTx, 'txGasUsed')).toBe('21000');
    expect(attr(ethTx, 'ethereumTxFailed')).toBeUndefined();
    const message = r.events.find((e) => e.type === 'message')!;
    expect(attr(message, 'sender')).toBe(sender);
    expect(attr(message, 'module')).toBe('evm');
    expect(r.gasUsed).toBe(21000n);
    h.commit();
    expect(coinBalance(h, bob, 'usvc')).toBe(1234n);
    expect(coinBalance(h, sender, 'usvc')).toBe(1000000000n - 1234n - 21000n);
    expect(coinBalance(h, moduleAccounts(h.app).fee_collector, 'usvc')).toBe(21000n);
  });

  it('right-token precompile transfer moves units and emits EventTransferred in the same tx', async () => {
    const { h, a } = setup();
    const raw = await signed({
      to: rightTokenAddress(a, 0),
      data: token.encodeFunctionData('transfer', [bobEvm, 10n]),
    });
    const r = h.tx([], cosmosEvm(raw));
    expect(evmResult(r.events).status).toBe(1);
    const transferred = r.events.find((e) => e.type === 'svc.rights.v1.EventTransferred')!;
    expect(attr(transferred, 'msg_index')).toBe('0');
    expect(typed(r.events, 'svc.rights.v1.EventTransferred')[0]).toMatchObject({
      sender,
      recipient: bob,
      units: '10',
      kind_id: 0,
    });
    h.commit();
    expect(position(h, a, 0, bob).units).toBe('10');
  });

  it('bundle-token transfer moves every bundle kind (EventBundleTransferred)', async () => {
    const { h, a } = setup();
    const raw = await signed({ to: bundleTokenAddress(a), data: token.encodeFunctionData('transfer', [bobEvm, 7n]) });
    const r = h.tx([], cosmosEvm(raw));
    expect(typed(r.events, 'svc.rights.v1.EventBundleTransferred')[0]).toMatchObject({ units: '7', kind_ids: [0, 1] });
  });

  it('balanceOf returns the transferable units', async () => {
    const { h, a } = setup();
    const raw = await signed({
      to: rightTokenAddress(a, 1),
      data: token.encodeFunctionData('balanceOf', [wallet.address]),
    });
    const ev = evmResult(h.tx([], cosmosEvm(raw)).events);
    expect(BigInt(ev.return_data)).toBe(1000n);
  });

  it.each([
    [
      'insufficient transferable units',
      (a: string) => ({ to: rightTokenAddress(a, 0), data: token.encodeFunctionData('transfer', [bobEvm, 5000n]) }),
      'svc: insufficient transferable units',
    ],
    [
      'kind not transferable',
      (a: string) => ({ to: rightTokenAddress(a, 2), data: token.encodeFunctionData('transfer', [bobEvm, 1n]) }),
      'svc: kind not transferable',
    ],
    [
      'unknown selector',
      (a: string) => ({ to: rightTokenAddress(a, 0), data: token.encodeFunctionData('mint', []) }),
      'svc: unknown selector',
    ],
  ])(
    'revert (%s): Error(string), tx code 0, gas charged, nonce bumped, no state change',
    async (_name, fields, reason) => {
      const { h, a } = setup();
      const before = coinBalance(h, sender, 'usvc');
      const r = h.tx([], cosmosEvm(await signed(fields(a))));
      expect(r.code).toBe(0);
      const ev = evmResult(r.events);
      expect(ev.status).toBe(0);
      expect(ev.vm_error).toBe('execution reverted');
      expect(erc20.decodeRevert(ev.return_data)).toBe(reason);
      expect(
        attr(
          r.events.find((e) => e.type === 'ethereum_tx')!,
          'ethereumTxFailed',
        ),
      ).toBe('execution reverted');
      expect(typed(r.events, 'svc.rights.v1.EventTransferred')).toEqual([]);
      h.commit();
      expect(coinBalance(h, sender, 'usvc')).toBe(before - BigInt(ev.gas_used));
      expect(position(h, a, 0, bob).units).toBe('0');
      // the nonce moved on: the same nonce is now refused, the next one accepted
      expect(h.tx([], cosmosEvm(await signed({ nonce: 0 }))).code).toBe(3);
      expect(h.tx([], cosmosEvm(await signed({ nonce: 1 }))).code).toBe(0);
    },
  );

  it('a policy denial reverts with the rule path', async () => {
    const { h, a } = setup();
    h.ok(
      issuer,
      msg('/svc.asset.v1.MsgSetKindPolicy', {
        issuer,
        asset_id: a,
        kind_id: 1,
        policy_override: { transfer: 'TRANSFER_MODE_RESTRICTED' },
      }),
    );
    const r = h.tx(
      [],
      cosmosEvm(
        await signed({ to: rightTokenAddress(a, 1), data: token.encodeFunctionData('transfer', [bobEvm, 1n]) }),
      ),
    );
    expect(erc20.decodeRevert(evmResult(r.events).return_data)).toBe(
      'svc: policy denied: kinds[1].policy_override.transfer',
    );
  });

  it('contract creation stores the code at getCreateAddress(sender, nonce)', async () => {
    const { h } = setup();
    h.tx([], cosmosEvm(await signed({})));
    const r = h.tx([], cosmosEvm(await signed({ to: null, data: '0x600160005260206000f3' })));
    const ev = evmResult(r.events);
    expect(ev.status).toBe(1);
    expect(ev.contract_address).toBe(getCreateAddress({ from: wallet.address, nonce: 1 }));
    // intrinsic + creation + calldata (8 non-zero bytes × 16, 2 zero bytes × 4) + 200 per code byte
    expect(BigInt(ev.gas_used)).toBe(21000n + 32000n + 8n * 16n + 2n * 4n + 200n * 10n);
    expect(h.app.pendingState().get(`evm/code/${ev.contract_address.toLowerCase()}`)).toBe('0x600160005260206000f3');
    const call = evmResult(h.tx([], cosmosEvm(await signed({ to: ev.contract_address, data: '0x01' }))).events);
    expect([call.status, call.vm_error]).toEqual([0, 'contract execution not supported']);
  });

  it('out of gas when gas_used exceeds the gas limit: status 0, all gas charged', async () => {
    const { h, a } = setup();
    const r = h.tx(
      [],
      cosmosEvm(
        await signed({
          to: rightTokenAddress(a, 0),
          data: token.encodeFunctionData('transfer', [bobEvm, 1n]),
          gasLimit: 30_000n,
        }),
      ),
    );
    const ev = evmResult(r.events);
    expect([ev.status, ev.vm_error, ev.gas_used]).toEqual([0, 'out of gas', '30000']);
    h.commit();
    expect(position(h, a, 0, bob).units).toBe('0');
  });

  it('refuses a wrong chain id (sdk/41) and a wrong nonce (sdk/3) at consensus level', async () => {
    const { h } = setup();
    const wrongChain = h.tx([], cosmosEvm(await signed({ chainId: 1 })));
    expect([wrongChain.codespace, wrongChain.code]).toEqual(['sdk', 41]);
    const wrongNonce = h.tx([], cosmosEvm(await signed({ nonce: 5 })));
    expect([wrongNonce.codespace, wrongNonce.code]).toEqual(['sdk', 3]);
  });

  it.each([
    ['DynamicFeeTx, expanded Any', 2, false],
    ['DynamicFeeTx, packed Any', 2, true],
    ['LegacyTx (EIP-155), packed Any', 0, true],
  ])('accepts /ethermint.evm.v1.MsgEthereumTx with %s', async (_name, type, packed) => {
    const { h } = setup();
    const raw = await signed({ type, value: 5n });
    const r = h.tx([], ethermint(raw, packed));
    expect(r.code).toBe(0);
    const ev = evmResult(r.events);
    expect(ev.eth_hash).toBe(Transaction.from(raw).hash);
    expect(ev.status).toBe(1);
    expect(
      attr(
        r.events.find((e) => e.type === 'message')!,
        'sender',
      ),
    ).toBe(sender);
  });

  it('accepts both forms as the chain layer decodes them from protobuf (decodeMessage)', async () => {
    const { h } = setup();
    const viaBytes = (m: TxMessage) => {
      const type = m.typeUrl.slice(1);
      return msg(m.typeUrl, decodeMessage(type, encodeMessage(type, m.value)));
    };
    expect(evmResult(h.tx([], viaBytes(ethermint(await signed({ value: 1n }), true))).events).status).toBe(1);
    expect(evmResult(h.tx([], viaBytes(cosmosEvm(await signed({ value: 1n })))).events).status).toBe(1);
  });
});
