/**
 * /v1/lookup dispatch on the node-built store, and the error rules: 400 for malformed
 * input, 404 for well-formed references to nothing, 200 with empty lists for filters
 * that match nothing, 405 with Allow: GET, and no CORS headers anywhere.
 */
import { toBech32, toChecksumAddress } from '../../../src/lib/address';
import { bundleTokenAddress, rightTokenAddress } from '../../../src/lib/ids';
import { encodeCursor } from '../../../src/lib/cursor';
import { Api, startApi } from './api';

jest.setTimeout(300_000);

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are asserted field by field */

/** A mixed-case 0x address with one letter's case flipped: a wrong EIP-55 checksum. */
function wrongChecksum(address: string): string {
  const i = address.slice(2).search(/[a-fA-F]/) + 2;
  const c = address[i];
  return address.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + address.slice(i + 1);
}

describe('lookup and error rules on the node-built store', () => {
  let api: Api;
  let assetId: string;
  let someTx: any;
  let evmTx: any;

  beforeAll(async () => {
    api = await startApi();
    assetId = api.store.summary.assets[0].assetId;
    const txs = (await api.ok('/v1/txs?limit=100')).txs;
    someTx = txs.find((t: any) => t.evm === null);
    evmTx =
      (await api.ok('/v1/txs?limit=100&method=/cosmos.evm.vm.v1.MsgEthereumTx')).txs[0] ??
      (await api.ok('/v1/txs?limit=100&method=/ethermint.evm.v1.MsgEthereumTx')).txs[0];
  });
  afterAll(() => api?.close());

  const lookup = (q: string) => api.ok(`/v1/lookup/${encodeURIComponent(q)}`);

  describe('/v1/lookup/{q}', () => {
    it('64 hex: the asset, then the tx; any case', async () => {
      expect(await lookup(assetId)).toEqual({ query: assetId, candidates: [{ type: 'asset', id: assetId }] });
      expect(await lookup(someTx.hash.toLowerCase())).toEqual({
        query: someTx.hash.toLowerCase(),
        candidates: [{ type: 'tx', id: someTx.hash, height: someTx.height }],
      });
      expect(await lookup(assetId.toUpperCase())).toEqual({
        query: assetId.toUpperCase(),
        candidates: [{ type: 'asset', id: assetId }],
      });
    });

    it('bech32: one account candidate with known and evm_address', async () => {
      const holder = api.store.summary.accounts['holder-0'];
      const evm = toChecksumAddress((await import('../../../src/lib/address')).decodeBech32Address(holder).bytes);
      expect(await lookup(holder)).toEqual({
        query: holder,
        candidates: [{ type: 'account', id: holder, known: true, evm_address: evm }],
      });
      const stranger = toBech32(
        Uint8Array.from({ length: 20 }, (_, i) => 3 * i + 1),
        'svc',
      );
      expect((await lookup(stranger)).candidates).toEqual([
        {
          type: 'account',
          id: stranger,
          known: false,
          evm_address: toChecksumAddress(Uint8Array.from({ length: 20 }, (_, i) => 3 * i + 1)),
        },
      ]);
      const escrow = (await api.ok('/v1/bridge/routes')).routes.find((r: any) => r.escrow_address).escrow_address;
      expect((await lookup(escrow)).candidates).toEqual([
        { type: 'account', id: escrow, known: true, evm_address: null },
      ]);
    });

    // The indexer writes an Account row for every party the chain's own events name
    // (src/mappings/domain/activity.ts recordParties): bank transfers, fees, failed txs' signers.
    it('bech32: known for every party of a bank transfer or fee the chain recorded', async () => {
      const { rows } = await api.store.pool.query<{ address: string }>(
        `SELECT DISTINCT a->>'value' AS address
         FROM "${api.store.schema}".txes, jsonb_array_elements(events::jsonb) e, jsonb_array_elements(e->'attributes') a
         WHERE e->>'type' IN ('transfer', 'coin_spent', 'coin_received', 'tx')
           AND a->>'key' IN ('sender', 'recipient', 'spender', 'receiver', 'fee_payer')
         ORDER BY 1`,
      );
      expect(rows.length).toBeGreaterThan(0);
      const unknown: string[] = [];
      for (const { address } of rows) {
        if (!(await lookup(address)).candidates[0].known) unknown.push(address);
      }
      expect(unknown).toEqual([]);
    });

    it('0x + 40 hex: the asset behind a right-token or bundle-token precompile, else the account', async () => {
      const svc20 = rightTokenAddress(assetId, 0);
      expect((await lookup(svc20)).candidates).toEqual([{ type: 'asset', id: assetId, kind_id: 0, bundle: false }]);
      expect((await lookup(svc20.toLowerCase())).candidates).toEqual([
        { type: 'asset', id: assetId, kind_id: 0, bundle: false },
      ]);
      expect((await lookup(bundleTokenAddress(assetId))).candidates).toEqual([
        { type: 'asset', id: assetId, kind_id: null, bundle: true },
      ]);
      const holder = api.store.summary.accounts['holder-1'];
      const evm = toChecksumAddress((await import('../../../src/lib/address')).decodeBech32Address(holder).bytes);
      expect((await lookup(evm)).candidates).toEqual([{ type: 'account', id: holder, known: true, evm_address: evm }]);
      expect((await api.get(`/v1/lookup/${wrongChecksum(evm)}`)).status).toBe(404);
    });

    it('0x + 64 hex: the tx with that eth hash, answered by its consensus hash', async () => {
      expect(evmTx).toBeDefined();
      expect((await lookup(evmTx.evm.eth_hash)).candidates).toEqual([
        { type: 'tx', id: evmTx.hash, height: evmTx.height },
      ]);
      expect((await lookup('0x' + '0'.repeat(64))).candidates).toEqual([]);
    });

    it('integer: block when at most the indexed height, then settlement and encumbrance', async () => {
      expect((await lookup('1')).candidates).toEqual([
        { type: 'block', id: '1', height: 1 },
        { type: 'settlement', id: '1' },
        { type: 'encumbrance', id: '1' },
      ]);
      const h = api.store.chainHeight;
      expect((await lookup(String(h))).candidates[0]).toEqual({ type: 'block', id: String(h), height: h });
      const settlements = (await api.ok('/v1/settlements?limit=1')).settlements[0].id;
      const beyond = Math.max(h, settlements) + 1000;
      expect(await lookup(String(beyond))).toEqual({ query: String(beyond), candidates: [] });
      expect((await lookup('0')).candidates).toEqual([]);
    });

    it('a recognised shape with nothing behind it is 200 with no candidates; anything else is 404', async () => {
      expect(await lookup('ab'.repeat(32))).toEqual({ query: 'ab'.repeat(32), candidates: [] });
      for (const q of [
        'hello',
        'cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu',
        '-5',
        '1.5',
        '0x12',
        'svc1invalidchecksum',
      ]) {
        const r = await api.get(`/v1/lookup/${encodeURIComponent(q)}`);
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ error: expect.any(String), code: 'not_found' });
      }
    });
  });

  describe('404 for a well-formed reference to nothing', () => {
    it.each([
      ['/v1/blocks/0'],
      ['/v1/blocks/999999999'],
      ['/v1/blocks/123456789012345678901234567890'],
      [`/v1/txs/${'0'.repeat(64)}`],
      [`/v1/txs/0x${'0'.repeat(64)}`],
      [`/v1/assets/${'0'.repeat(64)}`],
      [`/v1/assets/${'0'.repeat(64)}/graph`],
      [`/v1/assets/${'0'.repeat(64)}/kinds/0/holders`],
      [`/v1/assets/${'0'.repeat(64)}/distributions`],
      [`/v1/assets/${'0'.repeat(64)}/liquidation`],
      [`/v1/assets/${'0'.repeat(64)}/events`],
      ['/v1/settlements/999999'],
      ['/v1/encumbrances/999999'],
      ['/v1/delegations/999999'],
      ['/v1/bridge/routes/nope'],
    ])('%s', async (path) => {
      const r = await api.get(path);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('not_found');
    });

    it('an unknown kind of an existing asset', async () => {
      const { asset } = await api.ok(`/v1/assets/${assetId}`);
      const r = await api.get(`/v1/assets/${assetId}/kinds/${asset.kinds.length}/holders`);
      expect(r).toMatchObject({ status: 404, body: { code: 'not_found' } });
      expect((await api.get(`/v1/blocks/${api.store.chainHeight + 1}`)).status).toBe(404);
    });
  });

  it('filters that match nothing answer 200 with empty lists', async () => {
    const stranger = toBech32(
      Uint8Array.from({ length: 20 }, (_, i) => 99 - i),
      'svc',
    );
    expect(await api.ok(`/v1/settlements?party=${stranger}`)).toEqual({ settlements: [], next_cursor: null });
    expect(await api.ok(`/v1/bridge/transfers?account=${stranger}`)).toEqual({ transfers: [], next_cursor: null });
    expect(await api.ok(`/v1/bridge/transfers?message_id=0x${'1'.repeat(64)}`)).toEqual({
      transfers: [],
      next_cursor: null,
    });
    expect((await api.ok('/v1/txs?method=/svc.none.v1.MsgNone')).txs).toEqual([]);
  });

  describe('400 for malformed input', () => {
    const blocksCursor = encodeCursor('blocks', [5]);
    it.each([
      '/v1/txs?limit=0',
      '/v1/txs?limit=101',
      '/v1/txs?limit=ten',
      '/v1/txs?limit=2.5',
      '/v1/txs?limit=',
      '/v1/txs?limit=1&limit=2',
      '/v1/txs?cursor=zzz',
      `/v1/txs?cursor=${blocksCursor}`,
      '/v1/txs?method=MsgSend',
      '/v1/txs?method=/cosmos.bank.v1beta1.MsgSend&method=/x.y',
      '/v1/stats?limit=0',
      '/v1/stats?limit=101',
      `/v1/blocks?cursor=${encodeCursor('txs', ['o', 1, 0])}`,
      '/v1/blocks/abc',
      '/v1/blocks/-1',
      '/v1/txs/12345',
      '/v1/txs/0x1234',
      '/v1/assets?cursor=%20',
      `/v1/assets/${'A'.repeat(64)}`,
      '/v1/assets/0x1234/graph',
      `/v1/assets/{id}/kinds/x/holders`,
      '/v1/assets/' + 'a'.repeat(64) + '/kinds/-1/holders',
      '/v1/assets/' + 'a'.repeat(64) + '/events?cursor=' + encodeCursor('account_events', [1, 0, 0]),
      '/v1/accounts/svc1xyz',
      '/v1/accounts/cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu',
      '/v1/accounts/0xZZ',
      '/v1/accounts/svc1qqqq/attestations',
      '/v1/accounts/nope/events',
      '/v1/attesters/nope',
      '/v1/settlements?status=done',
      '/v1/settlements?status=Pending',
      '/v1/settlements?party=svc1bad',
      '/v1/settlements?limit=500',
      '/v1/settlements/1.0',
      '/v1/encumbrances/abc',
      '/v1/delegations/-2',
      '/v1/bridge/transfers?status=IN_FLIGHT',
      '/v1/bridge/transfers?message_id=abc',
      '/v1/bridge/transfers?account=0x123',
      '/v1/invariants?asset=' + 'A'.repeat(64),
    ])('%s', async (path) => {
      const r = await api.get(path);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: expect.any(String), code: 'bad_request' });
    });

    it('a wrong EIP-55 checksum in an account path', async () => {
      const evm = toChecksumAddress(
        (await import('../../../src/lib/address')).decodeBech32Address(api.store.summary.accounts['holder-2']).bytes,
      );
      expect((await api.get(`/v1/accounts/${wrongChecksum(evm)}`)).status).toBe(400);
    });

    it('unknown query parameters are ignored', async () => {
      expect((await api.get('/v1/txs?limit=2&colour=blue')).status).toBe(200);
    });
  });

  it('405 with Allow: GET on every known path for other methods; 404 JSON on unknown paths', async () => {
    const paths = [
      '/openapi.yaml',
      '/v1/status',
      '/v1/stats',
      '/v1/blocks',
      '/v1/blocks/1',
      '/v1/txs',
      `/v1/txs/${someTx.hash}`,
      '/v1/assets',
      `/v1/assets/${assetId}`,
      `/v1/assets/${assetId}/graph`,
      `/v1/assets/${assetId}/kinds/0/holders`,
      `/v1/assets/${assetId}/distributions`,
      `/v1/assets/${assetId}/liquidation`,
      `/v1/assets/${assetId}/events`,
      `/v1/accounts/${api.store.summary.accounts['holder-0']}`,
      `/v1/accounts/${api.store.summary.accounts['holder-0']}/attestations`,
      `/v1/accounts/${api.store.summary.accounts['holder-0']}/events`,
      `/v1/attesters/${api.store.summary.accounts.attester}`,
      '/v1/settlements',
      '/v1/settlements/1',
      '/v1/encumbrances/1',
      '/v1/delegations/1',
      '/v1/bridge/routes',
      '/v1/bridge/routes/x',
      '/v1/bridge/transfers',
      '/v1/lookup/1',
      '/v1/invariants',
    ];
    for (const path of paths) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        const r = await api.request(method, path);
        expect(`${method} ${path} ${r.status}`).toBe(`${method} ${path} 405`);
        expect(r.body).toEqual({ error: 'method not allowed', code: 'method_not_allowed' });
      }
      const head = await api.request('HEAD', path);
      expect(head.text).toBe('');
    }
    for (const path of ['/', '/v1', '/v1/nope', '/v2/status', '/v1/assets/x/y/z/w', '/openapi.json']) {
      expect((await api.get(path)).body).toEqual({ error: 'not found', code: 'not_found' });
    }
    // every request above was also checked for the absence of CORS and X-Powered-By headers
    expect(api.log.length).toBeGreaterThan(paths.length * 6);
  });

  it('serves openapi.yaml as text/yaml', async () => {
    const r = await api.get('/openapi.yaml');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/yaml/);
    expect(r.text).toMatch(/^openapi: 3\.0\.3/);
  });
});
