/**
 * ChainQueryClient (src/client) against the devnet's real svc app over its RPC: answers have
 * every field of their generated proto-JSON type (defaults included), and the app's errors come
 * back as the error classes a caller maps.
 */
import { SigningStargateClient } from '@cosmjs/stargate';
import { createSvcApp } from '../../../devnet/app';
import { DevnetChain, startRpcServer, type DevnetRpcServer } from '../../../devnet/chain';
import { AbciQueryError, ChainQueryClient, QueryNotServed, svcRegistry } from '../../../src/client';
import { deriveAssetId } from '../../../src/lib/ids';
import type { Kind, QueryAssetResponse, QueryPoolPriceResponse } from '../../../src/mappings/generated/proto-json';
import { CHAIN_ID, testWallet } from '../devnet-chain/helpers';

const FEE = { amount: [{ denom: 'usvc', amount: '20000' }], gas: '400000' };

/** Every field of the generated types: the compiler fails when a field is added and not listed here. */
const ASSET_FIELDS: Record<keyof QueryAssetResponse, true> = {
  asset_id: true,
  issuer: true,
  nonce: true,
  status: true,
  meta_hash: true,
  issuance_locked: true,
  kinds: true,
};
const KIND_FIELDS: Record<keyof Kind, true> = {
  kind_id: true,
  class: true,
  decimals: true,
  bundle: true,
  transferable: true,
  term: true,
  policy_override: true,
  bridgeable: true,
  multiplier: true,
};
const POOL_PRICE_FIELDS: Record<keyof QueryPoolPriceResponse, true> = {
  found: true,
  pool_id: true,
  base_reserve: true,
  quote_reserve: true,
  price_per_whole: true,
};
const keys = (o: object) => Object.keys(o).sort();

describe('ChainQueryClient on the devnet', () => {
  let chain: DevnetChain;
  let server: DevnetRpcServer;
  let assetId: string;
  let createdAt: number;

  beforeAll(async () => {
    const alice = await testWallet('alice');
    const genesis = { balances: [{ address: alice.address, coins: [{ denom: 'usvc', amount: '1000000000' }] }] };
    chain = await DevnetChain.create({ app: createSvcApp({ genesis }), chainId: CHAIN_ID });
    chain.startLive(100);
    server = await startRpcServer(chain);
    const signer = await SigningStargateClient.connectWithSigner(server.url, alice.wallet, {
      registry: svcRegistry(),
      broadcastPollIntervalMs: 100,
    });
    const kind = { class: 'KIND_CLASS_ECONOMIC', decimals: 6, bundle: true, transferable: true };
    const created = await signer.signAndBroadcast(
      alice.address,
      [
        {
          typeUrl: '/svc.asset.v1.MsgCreateAsset',
          value: {
            issuer: alice.address,
            meta_hash: '',
            settlement_denom: 'usvc',
            policy: { transfer: 'TRANSFER_MODE_OPEN' },
            roles: {},
            kinds: [kind],
            liens_allowed: false,
            distribution_denoms: [],
          },
        },
      ],
      FEE,
    );
    expect(created.code).toBe(0);
    assetId = deriveAssetId(alice.address, 0n);
    createdAt = created.height;
    signer.disconnect();
  });

  afterAll(async () => {
    chain.stopLive();
    await server.close();
  });

  it('answers every field of the generated type, default-valued ones included', async () => {
    const client = new ChainQueryClient(server.url);
    const asset = await client.query('/svc.asset.v1.Query/Asset', { asset_id: assetId });
    expect(keys(asset)).toEqual(keys(ASSET_FIELDS));
    expect(asset).toMatchObject({ asset_id: assetId, nonce: '0', issuance_locked: false, meta_hash: '' });
    expect(asset.status).toBe('ASSET_STATUS_ACTIVE');
    expect(asset.kinds).toHaveLength(1);
    expect(keys(asset.kinds[0])).toEqual(keys(KIND_FIELDS));
    // unset message fields are null, defaulted scalars are there: kind 0, not bridgeable
    expect(asset.kinds[0]).toMatchObject({ kind_id: 0, bridgeable: false, term: null, policy_override: null });

    // no pool: every field at its default, none left out
    const price = await client.query('/svc.dex.v1.Query/PoolPrice', { asset_id: assetId, quote_denom: 'usvc' });
    expect(keys(price)).toEqual(keys(POOL_PRICE_FIELDS));
    expect(price).toEqual({ found: false, pool_id: '0', base_reserve: '', quote_reserve: '', price_per_whole: '' });
  });

  it('answers at a given height, and tells the height answered at', async () => {
    const client = new ChainQueryClient(server.url);
    const then = await client.queryWithHeight(
      '/svc.asset.v1.Query/Asset',
      { asset_id: assetId },
      { height: createdAt },
    );
    expect(then.height).toBe(createdAt);
    const before = client.query('/svc.asset.v1.Query/Asset', { asset_id: assetId }, { height: createdAt - 1 });
    await expect(before).rejects.toMatchObject({ name: 'AbciQueryError', fromModule: true });
    const bound = new ChainQueryClient(server.url, { height: createdAt });
    await expect(bound.queryWithHeight('/svc.asset.v1.Query/Asset', { asset_id: assetId })).resolves.toEqual(then);
  });

  it('a module error is an AbciQueryError from the module', async () => {
    const e = await new ChainQueryClient(server.url)
      .query('/svc.encumbrance.v1.Query/Encumbrance', { encumbrance_id: '999' })
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(AbciQueryError);
    expect(e).not.toBeInstanceOf(QueryNotServed);
    expect(e).toMatchObject({ path: '/svc.encumbrance.v1.Query/Encumbrance', fromModule: true });
  });

  it('a height not committed yet is an error of the node, not of the module', async () => {
    const e = await new ChainQueryClient(server.url, { height: 10_000_000 })
      .query('/svc.asset.v1.Query/Asset', { asset_id: assetId })
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(AbciQueryError);
    expect(e).toMatchObject({ codespace: 'sdk', fromModule: false });
  });
});

describe('ChainQueryClient on an older devnet', () => {
  it('a path the binary does not serve is QueryNotServed (an AbciQueryError too)', async () => {
    const chain = await DevnetChain.create({ app: createSvcApp({ version: '0.8.3' }), chainId: CHAIN_ID });
    chain.produceBlock(Date.UTC(2024, 0, 2));
    const server = await startRpcServer(chain);
    try {
      const e = await new ChainQueryClient(server.url)
        .query('/svc.asset.v1.Query/TokenRegistry', { asset_id: 'ab'.repeat(32) })
        .catch((err: unknown) => err);
      expect(e).toBeInstanceOf(QueryNotServed);
      expect(e).toBeInstanceOf(AbciQueryError);
      expect(e).toMatchObject({
        name: 'QueryNotServed',
        codespace: 'sdk',
        code: 6,
        fromModule: false,
        message: 'the chain does not serve /svc.asset.v1.Query/TokenRegistry',
      });
    } finally {
      await server.close();
    }
  });
});
