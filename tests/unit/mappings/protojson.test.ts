/**
 * msgs proto-JSON of the indexer (src/mappings/infra/protojson.ts) against the
 * contract's canonical proto-JSON (src/lib/contract toProtoJson), fed the way
 * the node feeds it: each chaintypes file parsed on its own by protobufjs
 * (camelCase, Long), messages decoded from their protobuf bytes.
 */
import fs from 'fs';
import path from 'path';
import * as protobuf from 'protobufjs';
import { parse as parseYaml } from 'yaml';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { encodeMessage, toProtoJson, MSG_TYPE_URLS } from '../../../src/lib/contract';
import { decodeWire, msgToProtoJson } from '../../../src/mappings/infra/protojson';

const ROOT = path.resolve(__dirname, '../../..');

/** The node's registry types: every chaintypes file parsed separately, added to one root (utils/project.js). */
function nodeRoot(): protobuf.Root {
  const manifest = parseYaml(fs.readFileSync(path.join(ROOT, 'project.yaml'), 'utf8')) as {
    network: { chaintypes: Record<string, { file: string }> };
  };
  const root = new protobuf.Root();
  for (const { file } of Object.values(manifest.network.chaintypes)) {
    root.add(protobuf.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')).root);
  }
  return root;
}

const root = nodeRoot();

function asNode(typeUrl: string, value: Record<string, unknown>): unknown {
  const bytes = encodeMessage(typeUrl.slice(1), value);
  return root.lookupType(typeUrl.slice(1)).decode(bytes);
}

const ASSET = 'ab'.repeat(32);
const ADDR = 'svc1s2kerd8v782qm4xqhdsnxju99lnx6v2e4lzv23';

const samples: [string, Record<string, unknown>][] = [
  [
    '/svc.asset.v1.MsgCreateAsset',
    {
      issuer: ADDR,
      meta_hash: 'cd'.repeat(32),
      settlement_denom: 'uusdc',
      policy: { transfer: 'TRANSFER_MODE_ATTESTED', attestation_type: 'kyc', attester: ADDR, allowlist: [ADDR] },
      roles: { operator: ADDR, releaser: '' },
      kinds: [
        { kind_id: 0, class: 'KIND_CLASS_ECONOMIC', decimals: 6, bundle: true, transferable: true, multiplier: '1' },
        {
          kind_id: 1,
          class: 'KIND_CLASS_INCOME',
          decimals: 6,
          term: { start: '2026-01-01T00:00:00Z', end: '2026-06-30T12:00:00.5Z', label: 'c1' },
          policy_override: { transfer: 'TRANSFER_MODE_OPEN' },
          multiplier: '18446744073709551615',
        },
      ],
      liens_allowed: true,
      distribution_denoms: ['uusdc', 'usvc'],
    },
  ],
  ['/svc.asset.v1.MsgSplitKind', { issuer: ADDR, asset_id: ASSET, kind_id: 4294967295, factor: '9007199254740993' }],
  [
    '/svc.settlement.v1.MsgPropose',
    {
      proposer: ADDR,
      counterparty: ADDR,
      expiry: '2026-01-05T00:00:00.123456789Z',
      memo_hash: '',
      legs: [
        { direction: 'LEG_DIRECTION_GIVE', right: { asset_id: ASSET, kind_id: 2, units: '5' } },
        { direction: 'LEG_DIRECTION_ASK', coin: { denom: 'uusdc', amount: '7' } },
      ],
    },
  ],
  ['/svc.settlement.v1.MsgAccept', { counterparty: ADDR, settlement_id: '0' }],
  [
    '/svc.payout.v1.MsgDistribute',
    { payer: ADDR, asset_id: ASSET, kind_id: 1, amount: { denom: 'uusdc', amount: '123456789012345678901234567890' } },
  ],
  [
    '/svc.encumbrance.v1.MsgCreateEncumbrance',
    {
      creator: ADDR,
      kind: 'ENCUMBRANCE_KIND_LIEN',
      asset_id: ASSET,
      kind_id: 0,
      holder: ADDR,
      units: '1',
      evidence_hash: 'ef'.repeat(32),
    },
  ],
  [
    '/svc.bridge.v1.MsgCreateRoute',
    {
      authority: ADDR,
      route: {
        route_id: 'r',
        direction: 'DIRECTION_RIGHT_OUT',
        status: 'ROUTE_STATUS_PAUSED',
        window_seconds: '86400',
        asset_id: ASSET,
        bundle: true,
      },
    },
  ],
  [
    '/svc.delegation.v1.MsgDelegate',
    {
      holder: ADDR,
      delegate: ADDR,
      asset_id: ASSET,
      kind_id: 2,
      units: '3',
      until: '2027-01-01T00:00:00Z',
      purposes: ['agm-2027', 'x'],
      revocable: true,
    },
  ],
  [
    '/cosmos.evm.vm.v1.MsgEthereumTx',
    {
      from: Buffer.from('11'.repeat(20), 'hex').toString('base64'),
      raw: Buffer.from('02f8', 'hex').toString('base64'),
      size: 1.5,
    },
  ],
];

describe('msgToProtoJson', () => {
  it.each(samples)('%s equals the contract proto-JSON, @type first', (typeUrl, value) => {
    const json = msgToProtoJson(typeUrl, asNode(typeUrl, value), undefined);
    expect(Object.keys(json)[0]).toBe('@type');
    expect(json).toEqual({ '@type': typeUrl, ...toProtoJson(typeUrl.slice(1), value) });
  });

  it('emits every contract Msg with defaults when all fields are empty', () => {
    for (const typeUrl of MSG_TYPE_URLS) {
      expect(msgToProtoJson(typeUrl, asNode(typeUrl, {}), undefined)).toEqual({
        '@type': typeUrl,
        ...toProtoJson(typeUrl.slice(1), {}),
      });
    }
  });

  it('expands the Any of an ethermint MsgEthereumTx into the inner tx', () => {
    const inner = {
      chain_id: '9000',
      nonce: '3',
      gas: '21000',
      to: '0x' + '22'.repeat(20),
      value: '5',
      data: 'AQI=',
      accesses: [{ address: '0x' + '33'.repeat(20), storage_keys: ['0x01'] }],
      v: 'AQ==',
      r: 'Ag==',
      s: 'Aw==',
    };
    const data = {
      type_url: '/ethermint.evm.v1.DynamicFeeTx',
      value: Buffer.from(encodeMessage('ethermint.evm.v1.DynamicFeeTx', inner)).toString('base64'),
    };
    const json = msgToProtoJson(
      '/ethermint.evm.v1.MsgEthereumTx',
      asNode('/ethermint.evm.v1.MsgEthereumTx', { data, hash: '0xabc' }),
      undefined,
    );
    expect(json.data).toEqual({
      '@type': '/ethermint.evm.v1.DynamicFeeTx',
      ...toProtoJson('ethermint.evm.v1.DynamicFeeTx', inner),
    });
  });

  it('keeps an undecodable message raw: @type and base64 value', () => {
    const raw = Uint8Array.of(1, 2, 3);
    expect(msgToProtoJson('/unknown.v1.MsgX', undefined, raw)).toEqual({ '@type': '/unknown.v1.MsgX', value: 'AQID' });
  });

  it('converts a decoded non-contract message best-effort (snake_case, strings)', () => {
    const decoded = MsgSend.decode(
      MsgSend.encode({ fromAddress: ADDR, toAddress: ADDR, amount: [{ denom: 'usvc', amount: '5' }] }).finish(),
    );
    expect(msgToProtoJson('/cosmos.bank.v1beta1.MsgSend', decoded, undefined)).toEqual({
      '@type': '/cosmos.bank.v1beta1.MsgSend',
      from_address: ADDR,
      to_address: ADDR,
      amount: [{ denom: 'usvc', amount: '5' }],
    });
  });
});

describe('decodeWire', () => {
  it('decodes packed repeated fields, 64-bit values and nested messages', () => {
    const value = {
      asset_id: ASSET,
      sender: ADDR,
      recipient: ADDR,
      units: '9',
      kind_ids: [0, 1, 300],
      positions_after: [{ asset_id: ASSET, kind_id: 1, holder: ADDR, units: '1', locked: '0' }],
    };
    const decoded = decodeWire(
      'svc.rights.v1.EventBundleTransferred',
      encodeMessage('svc.rights.v1.EventBundleTransferred', value),
    );
    expect(decoded).toMatchObject({
      asset_id: ASSET,
      kind_ids: [0, 1, 300],
      units: '9',
      positions_after: [{ holder: ADDR, kind_id: 1 }],
    });
    const split = decodeWire(
      'svc.asset.v1.MsgSplitKind',
      encodeMessage('svc.asset.v1.MsgSplitKind', { factor: '18446744073709551615' }),
    );
    expect(split.factor).toBe(18446744073709551615n);
  });
});
