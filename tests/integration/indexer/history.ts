/**
 * A compact devnet history touching every svc module and every handler of the
 * indexer: the real devnet app and chain layer in history mode (explicit block
 * times), cosmjs-signed txs, ethers-signed EVM txs in both MsgEthereumTx layouts.
 */
import { DirectSecp256k1Wallet } from '@cosmjs/proto-signing';
import { sha256 } from '@noble/hashes/sha2';
import { Transaction, Wallet } from 'ethers';
import { createSvcApp, type Application } from '../../../devnet/app';
import { DevnetChain } from '../../../devnet/chain';
import { buildEvmTx, signTx } from '../../../src/client/registry';
import { decodeBech32Address, toBech32 } from '../../../src/lib/address';
import { encodeMessage } from '../../../src/lib/contract';
import { deriveAssetId, rightTokenAddress } from '../../../src/lib/ids';

export const CHAIN_ID = 'svc-devnet-1';
const FEE = { amount: [{ denom: 'usvc', amount: '20000' }], gas: '400000' };
const T0 = Date.UTC(2026, 0, 5);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

type Msg = { typeUrl: string; value: Record<string, unknown> };

export interface Actor {
  name: string;
  address: string;
  wallet: DirectSecp256k1Wallet;
}

export interface History {
  chain: DevnetChain;
  app: ReturnType<typeof createSvcApp>;
  actors: Record<'alice' | 'bob' | 'carol' | 'dave' | 'authority', Actor>;
  assetId: string;
  bigAssetId: string;
  /** eth hashes as ethers computes them */
  eth: { ok: string; revert: string; ethermint: string; sender: string };
  /** txs expected to fail, by label */
  failedTxs: string[];
  /** txs whose outcome differed from the plan (should stay empty) */
  surprises: string[];
}

async function actor(name: string): Promise<Actor> {
  const wallet = await DirectSecp256k1Wallet.fromKey(sha256(new TextEncoder().encode(`indexer-it/${name}`)), 'svc');
  return { name, wallet, address: (await wallet.getAccounts())[0].address };
}

/** Wraps an application (e.g. to tamper with its events); identity by default. */
export type AppWrapper = (app: Application) => Application;

export async function buildHistory(wrap: AppWrapper = (a) => a): Promise<History> {
  const [alice, bob, carol, dave, authority] = await Promise.all(
    ['alice', 'bob', 'carol', 'dave', 'authority'].map(actor),
  );
  const evmKey = new Wallet('0x' + Buffer.from(sha256(new TextEncoder().encode('indexer-it/evm'))).toString('hex'));
  const evmAccount = toBech32(evmKey.address.toLowerCase());
  const coins = [
    { denom: 'usvc', amount: '100000000000' },
    { denom: 'uusdc', amount: '1000000000000000000000000000000' },
  ];
  const app = createSvcApp({
    genesis: {
      balances: [...[alice, bob, carol, dave, authority].map((a) => a.address), evmAccount].map((address) => ({
        address,
        coins,
      })),
      bridgeAuthority: authority.address,
    },
  });
  const chain = await DevnetChain.create({ app: wrap(app), chainId: CHAIN_ID });
  const surprises: string[] = [];
  const failedTxs: string[] = [];
  const pending: { label: string; expectFail: boolean }[] = [];
  const seq = new Map<string, number>();
  let t = T0;

  const send = async (who: Actor, messages: Msg[], label: string, expectFail = false) => {
    const account = app.account(who.address)!;
    const sequence = seq.get(who.address) ?? Number(account.sequence);
    const tx = await signTx(who.wallet, {
      messages,
      accountNumber: account.accountNumber,
      sequence,
      chainId: CHAIN_ID,
      fee: FEE,
    });
    const r = await chain.checkTx(tx);
    if (r.code !== 0) throw new Error(`${label}: CheckTx ${r.code} ${r.log}`);
    seq.set(who.address, sequence + 1);
    pending.push({ label, expectFail });
    if (expectFail) failedTxs.push(label);
  };
  let evmNonce = 0;
  const sendEvm = async (to: string, data: string, label: string, layout: 'cosmos' | 'ethermint') => {
    const tx = Transaction.from(
      await evmKey.signTransaction(
        Transaction.from({
          type: 2,
          chainId: 9000n,
          nonce: evmNonce++,
          maxPriorityFeePerGas: 1n,
          maxFeePerGas: 10n,
          gasLimit: 200000n,
          to,
          value: 0n,
          data,
        }),
      ),
    );
    const b64 = (hex: string) => Buffer.from(hex.slice(2), 'hex').toString('base64');
    const inner = {
      chain_id: '9000',
      nonce: String(tx.nonce),
      gas_tip_cap: '1',
      gas_fee_cap: '10',
      gas: '200000',
      to,
      value: '0',
      data: b64(data),
      accesses: [],
      v: Buffer.from([tx.signature!.yParity]).toString('base64'),
      r: b64(tx.signature!.r),
      s: b64(tx.signature!.s),
    };
    const msg =
      layout === 'cosmos'
        ? { typeUrl: '/cosmos.evm.vm.v1.MsgEthereumTx', value: { raw: b64(tx.serialized) } }
        : {
            typeUrl: '/ethermint.evm.v1.MsgEthereumTx',
            value: {
              data: {
                type_url: '/ethermint.evm.v1.DynamicFeeTx',
                value: Buffer.from(encodeMessage('ethermint.evm.v1.DynamicFeeTx', inner)).toString('base64'),
              },
            },
          };
    const r = await chain.checkTx(buildEvmTx([msg], { amount: [], gas: '200000' }));
    if (r.code !== 0) throw new Error(`${label}: CheckTx ${r.code} ${r.log}`);
    pending.push({ label, expectFail: false });
    return tx.hash!.toLowerCase();
  };
  const block = (dt = 5000) => {
    t += dt;
    chain.produceBlock(t);
    const results = JSON.parse(chain.block(chain.height)!.resultsJson) as {
      txs_results: { code: number; log: string }[] | null;
    };
    (results.txs_results ?? []).forEach((r, i) => {
      if ((r.code !== 0) !== pending[i].expectFail) surprises.push(`${pending[i].label}: code ${r.code} ${r.log}`);
    });
    pending.length = 0;
  };

  const assetId = deriveAssetId(alice.address, 0n);
  const issue = (k: number, to: string, units: string, asset = assetId) => ({
    typeUrl: '/svc.asset.v1.MsgIssue',
    value: { issuer: alice.address, asset_id: asset, kind_id: k, recipient: to, units },
  });
  const transfer = (from: string, to: string, k: number, units: string) => ({
    typeUrl: '/svc.rights.v1.MsgTransfer',
    value: { sender: from, recipient: to, asset_id: assetId, kind_id: k, units },
  });
  const distribute = (amount: string, asset = assetId, kind = 1) => ({
    typeUrl: '/svc.payout.v1.MsgDistribute',
    value: { payer: alice.address, asset_id: asset, kind_id: kind, amount: { denom: 'uusdc', amount } },
  });
  const claim = (who: Actor) => ({
    typeUrl: '/svc.payout.v1.MsgClaim',
    value: { claimer: who.address, asset_id: assetId, kind_id: 1, denom: 'uusdc' },
  });
  const propose = (expiryMs: number) => ({
    typeUrl: '/svc.settlement.v1.MsgPropose',
    value: {
      proposer: alice.address,
      counterparty: bob.address,
      expiry: iso(expiryMs),
      memo_hash: '',
      legs: [
        { direction: 'LEG_DIRECTION_GIVE', right: { asset_id: assetId, kind_id: 0, units: '10000000' } },
        { direction: 'LEG_DIRECTION_ASK', coin: { denom: 'uusdc', amount: '5000000' } },
      ],
    },
  });
  const route = (id: string, direction: string, extra: Record<string, unknown>) => ({
    typeUrl: '/svc.bridge.v1.MsgCreateRoute',
    value: {
      authority: authority.address,
      route: {
        route_id: id,
        remote_domain: 1,
        remote_contract: '0x' + 'ab'.repeat(32),
        direction,
        local_denom: '',
        status: 'ROUTE_STATUS_ACTIVE',
        window_seconds: '3600',
        outbound_limit: '1000000000',
        inbound_limit: '0',
        warp_token_id: 'w',
        display: id,
        exponent: 6,
        ...extra,
      },
    },
  });
  const bridgeOut = (who: Actor, id: string, amount: string) => ({
    typeUrl: '/svc.bridge.v1.MsgBridgeOut',
    value: { sender: who.address, route_id: id, recipient: '0x' + 'cd'.repeat(32), amount },
  });

  // asset: ECONOMIC, INCOME, VOTE, all in the bundle
  await send(
    alice,
    [
      {
        typeUrl: '/svc.asset.v1.MsgCreateAsset',
        value: {
          issuer: alice.address,
          meta_hash: '',
          settlement_denom: 'uusdc',
          policy: { transfer: 'TRANSFER_MODE_OPEN' },
          roles: { operator: alice.address, releaser: alice.address },
          kinds: ['KIND_CLASS_ECONOMIC', 'KIND_CLASS_INCOME', 'KIND_CLASS_VOTE'].map((c) => ({
            class: c,
            decimals: 6,
            bundle: true,
            transferable: true,
            bridgeable: true,
          })),
          liens_allowed: true,
          distribution_denoms: ['uusdc'],
        },
      },
    ],
    'create asset',
  );
  block();
  await send(
    alice,
    [
      issue(0, alice.address, '1000000000'),
      issue(1, alice.address, '1000000000'),
      issue(2, alice.address, '1000000000'),
      issue(1, bob.address, '333333'),
    ],
    'issue',
  );
  block();
  await send(
    alice,
    [
      transfer(alice.address, bob.address, 0, '250000000'),
      {
        typeUrl: '/svc.rights.v1.MsgTransferBundle',
        value: { sender: alice.address, recipient: carol.address, asset_id: assetId, units: '1000000' },
      },
    ],
    'transfers',
  );
  await send(bob, [transfer(bob.address, alice.address, 0, '999999999999')], 'transfer beyond the balance', true);
  await send(
    bob,
    [
      {
        typeUrl: '/cosmos.bank.v1beta1.MsgSend',
        value: { fromAddress: bob.address, toAddress: carol.address, amount: [{ denom: 'usvc', amount: '5' }] },
      },
    ],
    'bank send',
  );
  block();
  await send(alice, [distribute('1000001')], 'first distribution');
  block();
  await send(
    alice,
    [
      {
        typeUrl: '/svc.encumbrance.v1.MsgCreateEncumbrance',
        value: {
          creator: alice.address,
          kind: 'ENCUMBRANCE_KIND_PLEDGE',
          asset_id: assetId,
          kind_id: 1,
          holder: alice.address,
          units: '400000000',
          beneficiary: dave.address,
          income_to_beneficiary: true,
          exercisable: true,
          evidence_hash: '',
        },
      },
    ],
    'pledge with income to dave',
  );
  await send(
    bob,
    [
      {
        typeUrl: '/svc.encumbrance.v1.MsgCreateEncumbrance',
        value: {
          creator: bob.address,
          kind: 'ENCUMBRANCE_KIND_LOCKUP',
          asset_id: assetId,
          kind_id: 0,
          holder: bob.address,
          units: '1000',
          expiry: iso(t + 12000),
          evidence_hash: '',
        },
      },
    ],
    'lockup that expires',
  );
  block();
  await send(alice, [distribute('777777')], 'second distribution');
  block();
  await send(dave, [claim(dave)], 'claim routed income');
  await send(bob, [claim(bob)], 'claim own income');
  block();
  await send(
    alice,
    [{ typeUrl: '/svc.encumbrance.v1.MsgRelease', value: { sender: alice.address, encumbrance_id: '1' } }],
    'release the pledge',
  );
  block();
  await send(alice, [propose(t + 3600_000), propose(t + 3600_000), propose(t + 8000)], 'three proposals');
  block();
  await send(
    bob,
    [{ typeUrl: '/svc.settlement.v1.MsgAccept', value: { counterparty: bob.address, settlement_id: '1' } }],
    'accept',
  );
  await send(
    alice,
    [{ typeUrl: '/svc.settlement.v1.MsgCancel', value: { sender: alice.address, settlement_id: '2' } }],
    'cancel',
  );
  block();
  block();
  block();
  await send(
    alice,
    [
      {
        typeUrl: '/svc.delegation.v1.MsgDelegate',
        value: {
          holder: alice.address,
          delegate: bob.address,
          asset_id: assetId,
          kind_id: 2,
          units: '5000000',
          until: iso(t + 3600_000),
          purposes: ['agm-2027'],
          revocable: true,
        },
      },
    ],
    'delegate',
  );
  await send(
    dave,
    [
      {
        typeUrl: '/svc.attestation.v1.MsgAttest',
        value: {
          attester: dave.address,
          subject: bob.address,
          type: 'kyc',
          expiry: iso(t + 86400_000),
          evidence_hash: '',
        },
      },
    ],
    'attest',
  );
  block();
  await send(
    alice,
    [{ typeUrl: '/svc.delegation.v1.MsgRevokeDelegation', value: { holder: alice.address, delegation_id: '1' } }],
    'revoke delegation',
  );
  await send(
    dave,
    [
      {
        typeUrl: '/svc.attestation.v1.MsgRevokeAttestation',
        value: { attester: dave.address, subject: bob.address, type: 'kyc' },
      },
    ],
    'revoke attestation',
  );
  block();
  await send(
    authority,
    [
      route('usdc-out', 'DIRECTION_NATIVE_OUT', { local_denom: 'uusdc' }),
      route('eq-out', 'DIRECTION_RIGHT_OUT', { asset_id: assetId, kind_id: 0, bundle: true }),
    ],
    'routes',
  );
  block();
  await send(alice, [bridgeOut(alice, 'usdc-out', '1000000'), bridgeOut(alice, 'eq-out', '2000000')], 'bridge out');
  block();
  await send(
    authority,
    [
      {
        typeUrl: '/svc.bridge.v1.MsgBridgeIn',
        value: {
          relayer: authority.address,
          route_id: 'eq-out',
          message_id: '0x' + '01'.repeat(32),
          sender: '0x' + 'ee'.repeat(32),
          recipient: carol.address,
          amount: '500000',
        },
      },
      {
        typeUrl: '/svc.bridge.v1.MsgSetRouteStatus',
        value: { authority: authority.address, route_id: 'usdc-out', status: 'ROUTE_STATUS_PAUSED' },
      },
    ],
    'bridge in, pause',
  );
  block();
  await send(bob, [bridgeOut(bob, 'usdc-out', '1000')], 'bridge out on a paused route', true);
  await send(alice, [distribute('5000000')], 'third distribution (the escrow earns)');
  block();
  block();
  await send(
    alice,
    [
      {
        typeUrl: '/svc.dex.v1.MsgCreatePool',
        value: {
          creator: alice.address,
          asset_id: assetId,
          quote_denom: 'uusdc',
          base_units: '10000000',
          quote_amount: '50000000',
        },
      },
    ],
    'pool',
  );
  block();
  await send(
    bob,
    [
      {
        typeUrl: '/svc.dex.v1.MsgSwap',
        value: { trader: bob.address, pool_id: '1', sell_base: false, amount: '1000000', min_out: '1' },
      },
    ],
    'swap',
  );
  await send(alice, [transfer(alice.address, evmAccount, 0, '1000000')], 'units to the EVM key');
  block();
  const token = rightTokenAddress(assetId, 0);
  const bobEvm = '0x' + Buffer.from(decodeBech32Address(bob.address).bytes).toString('hex');
  const erc20Transfer = (units: bigint) =>
    '0xa9059cbb' + bobEvm.slice(2).padStart(64, '0') + units.toString(16).padStart(64, '0');
  const eth = {
    ok: await sendEvm(token, erc20Transfer(1000n), 'evm transfer', 'cosmos'),
    revert: await sendEvm(token, erc20Transfer(10n ** 30n), 'evm transfer reverting', 'cosmos'),
    ethermint: await sendEvm(token, erc20Transfer(7n), 'evm transfer, ethermint layout', 'ethermint'),
    sender: evmKey.address,
  };
  block();
  await send(alice, [propose(t + 3600_000)], 'a pending settlement the liquidation cancels');
  await send(
    alice,
    [
      {
        typeUrl: '/svc.waterfall.v1.MsgSetWaterfall',
        value: { issuer: alice.address, asset_id: assetId, tiers: [{ rank: 0, kind_id: 0, claim_per_unit: '1' }] },
      },
    ],
    'waterfall',
  );
  block();
  await send(
    alice,
    [
      {
        typeUrl: '/svc.waterfall.v1.MsgLiquidate',
        value: { authority: alice.address, asset_id: assetId, proceeds: { denom: 'uusdc', amount: '600000000' } },
      },
    ],
    'liquidate',
  );
  block();
  await send(
    bob,
    [
      {
        typeUrl: '/svc.waterfall.v1.MsgRedeem',
        value: { holder: bob.address, asset_id: assetId, kind_id: 0, units: '1000000' },
      },
    ],
    'redeem',
  );
  block();
  // amounts above 2^64
  const bigAssetId = deriveAssetId(alice.address, 1n);
  await send(
    alice,
    [
      {
        typeUrl: '/svc.asset.v1.MsgCreateAsset',
        value: {
          issuer: alice.address,
          meta_hash: '',
          settlement_denom: 'uusdc',
          policy: { transfer: 'TRANSFER_MODE_OPEN' },
          roles: {},
          kinds: [{ class: 'KIND_CLASS_INCOME', decimals: 6, bundle: true, transferable: true }],
          liens_allowed: false,
          distribution_denoms: ['uusdc'],
        },
      },
    ],
    'second asset',
  );
  block();
  await send(
    alice,
    [
      issue(0, alice.address, (2n ** 80n).toString(), bigAssetId),
      {
        typeUrl: '/svc.rights.v1.MsgTransfer',
        value: {
          sender: alice.address,
          recipient: bob.address,
          asset_id: bigAssetId,
          kind_id: 0,
          units: (2n ** 70n + 12345n).toString(),
        },
      },
      distribute((10n ** 29n + 7n).toString(), bigAssetId, 0),
    ],
    'amounts above 2^64',
  );
  block();
  return { chain, app, actors: { alice, bob, carol, dave, authority }, assetId, bigAssetId, eth, failedTxs, surprises };
}
