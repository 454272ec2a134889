/**
 * ChainAtHeight (reconciler/chain-at-height.ts) against a real local HTTP JSON-RPC stand-in of
 * CometBFT: what it asks (abci_query at the height, protobuf request as hex) and how it
 * classifies each answer (value, null, QueryNotServed, ChainUnavailable).
 */
import http from 'http';
import { ChainAtHeight } from '../../../reconciler/chain-at-height';
import { ChainUnavailable, QueryNotServed } from '../../../src/client';
import { decodeMessage, encodeMessage } from '../../../src/lib/contract';
import { bytesToHex } from '../../../src/lib/bytes';
import { fail, listen, ok, servers, standIn, type Asked, type Handler } from '../client/abci-stand-in';

const HEIGHT = 42;
const ASSET = 'c'.repeat(64);
/** Generous for answers that come (a loaded machine took over 200 ms for the first one); the hang test uses HANG_TIMEOUT_MS. */
const TIMEOUT_MS = 10_000;
/** The timeout the hang test waits out. */
const HANG_TIMEOUT_MS = 200;

const supplyAnswer: Handler = (req) =>
  ok(req, 'svc.asset.v1.QueryKindSupplyResponse', { supply: '10', holder_count: '2', multiplier: '1' });

function expectRequest(a: Asked, path: string, requestType: string, request: Record<string, unknown>) {
  expect(a.method).toBe('POST');
  expect(a.contentType).toBe('application/json');
  expect(a.body).toMatchObject({ jsonrpc: '2.0', method: 'abci_query' });
  expect(a.body.params).toEqual({
    path,
    data: bytesToHex(encodeMessage(requestType, request)),
    height: String(HEIGHT),
    prove: false,
  });
}

describe('ChainAtHeight: what it asks', () => {
  it('POSTs abci_query at the height as a string with the protobuf request as hex', async () => {
    const { url, asked } = await standIn(supplyAnswer);
    await new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).kindSupply(ASSET, 3);
    expect(asked).toHaveLength(1);
    expectRequest(asked[0], '/svc.asset.v1.Query/KindSupply', 'svc.asset.v1.QueryKindSupplyRequest', {
      asset_id: ASSET,
      kind_id: 3,
    });
    expect(asked[0].body.params.height).toBe('42');
    expect(decodeMessage('svc.asset.v1.QueryKindSupplyRequest', Buffer.from(asked[0].body.params.data, 'hex'))).toEqual(
      { asset_id: ASSET, kind_id: 3 },
    );
  });

  it('gives each request its own JSON-RPC id', async () => {
    const { url, asked } = await standIn(supplyAnswer);
    const chain = new ChainAtHeight(url, HEIGHT, TIMEOUT_MS);
    await chain.kindSupply(ASSET, 1);
    await chain.kindSupply(ASSET, 2);
    expect(new Set(asked.map((a) => a.body.id)).size).toBe(2);
  });

  it.each([
    [
      'kindIds',
      (c: ChainAtHeight) => c.kindIds(ASSET),
      '/svc.asset.v1.Query/Asset',
      'svc.asset.v1.QueryAssetRequest',
      { asset_id: ASSET },
    ],
    [
      'tokenRegistry',
      (c: ChainAtHeight) => c.tokenRegistry(ASSET),
      '/svc.asset.v1.Query/TokenRegistry',
      'svc.asset.v1.QueryTokenRegistryRequest',
      { asset_id: ASSET },
    ],
    [
      'accrual',
      (c: ChainAtHeight) => c.accrual(ASSET, 4, 'uatom'),
      '/svc.payout.v1.Query/Accrual',
      'svc.payout.v1.QueryAccrualRequest',
      { asset_id: ASSET, kind_id: 4, denom: 'uatom' },
    ],
    [
      'escrowBalance',
      (c: ChainAtHeight) => c.escrowBalance('r-1'),
      '/svc.bridge.v1.Query/EscrowBalance',
      'svc.bridge.v1.QueryEscrowBalanceRequest',
      { route_id: 'r-1' },
    ],
    [
      'route',
      (c: ChainAtHeight) => c.route('r-1'),
      '/svc.bridge.v1.Query/Route',
      'svc.bridge.v1.QueryRouteRequest',
      { route_id: 'r-1' },
    ],
  ] as const)('%s asks its path with its request', async (_name, call, path, requestType, request) => {
    // A module error answer: what is asked is the point here.
    const { url, asked } = await standIn((req) => fail(req, 'asset', 2, 'not found'));
    await expect(call(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS))).resolves.toBeNull();
    expect(asked).toHaveLength(1);
    expectRequest(asked[0], path, requestType, request);
  });
});

describe('ChainAtHeight: values', () => {
  it('decodes KindSupply', async () => {
    const { url } = await standIn(supplyAnswer);
    await expect(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).kindSupply(ASSET, 1)).resolves.toEqual({
      supply: '10',
      holder_count: 2,
    });
  });

  it('decodes a generic query to proto-JSON', async () => {
    const { url } = await standIn(supplyAnswer);
    const r = await new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).query('/svc.asset.v1.Query/KindSupply', {
      asset_id: ASSET,
      kind_id: 1,
    });
    expect(r).toEqual({ supply: '10', holder_count: '2', multiplier: '1' });
  });

  it('decodes an empty (default) value as zeros', async () => {
    const { url } = await standIn((req) => ok(req, 'svc.asset.v1.QueryKindSupplyResponse', {}));
    await expect(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).kindSupply(ASSET, 1)).resolves.toEqual({
      supply: '0',
      holder_count: 0,
    });
  });

  it('decodes kind ids, the registry, an accrual, an escrow balance and a route', async () => {
    const { url } = await standIn((req) => {
      switch (req.params.path) {
        case '/svc.asset.v1.Query/Asset':
          return ok(req, 'svc.asset.v1.QueryAssetResponse', {
            asset_id: ASSET,
            kinds: [{ kind_id: 1 }, { kind_id: 5 }],
          });
        case '/svc.asset.v1.Query/TokenRegistry':
          return ok(req, 'svc.asset.v1.QueryTokenRegistryResponse', {
            entries: [
              { kind_id: 1, bundle: false, address: '0x00000000000000000000000000000000000000A1' },
              { kind_id: 0, bundle: true, address: '0x00000000000000000000000000000000000000B0' },
            ],
          });
        case '/svc.payout.v1.Query/Accrual':
          return ok(req, 'svc.payout.v1.QueryAccrualResponse', {
            accrual: {
              asset_id: ASSET,
              kind_id: 1,
              denom: 'uatom',
              index: '9',
              carry_scaled: '8',
              total_distributed: '7',
              total_paid: '6',
              distributions_count: '5',
              module_held: '1',
            },
          });
        case '/svc.bridge.v1.Query/EscrowBalance':
          return ok(req, 'svc.bridge.v1.QueryEscrowBalanceResponse', { amount: '123456789012345678901234567890' });
        case '/svc.bridge.v1.Query/Route':
          return ok(req, 'svc.bridge.v1.QueryRouteResponse', {
            route: { route_id: 'r-1', direction: 'DIRECTION_SYNTHETIC_IN' },
            counters: { outbound: '30', inbound: '100' },
          });
        default:
          throw new Error(`unexpected path ${req.params.path}`);
      }
    });
    const chain = new ChainAtHeight(url, HEIGHT, TIMEOUT_MS);
    await expect(chain.kindIds(ASSET)).resolves.toEqual([1, 5]);
    await expect(chain.tokenRegistry(ASSET)).resolves.toEqual([
      { kind_id: 1, bundle: false, address: '0x00000000000000000000000000000000000000A1' },
      { kind_id: 0, bundle: true, address: '0x00000000000000000000000000000000000000B0' },
    ]);
    await expect(chain.accrual(ASSET, 1, 'uatom')).resolves.toEqual({
      denom: 'uatom',
      index: '9',
      carry_scaled: '8',
      module_held: '1',
      total_distributed: '7',
      total_paid: '6',
      distributions_count: 5,
    });
    await expect(chain.escrowBalance('r-1')).resolves.toBe(123456789012345678901234567890n);
    await expect(chain.route('r-1')).resolves.toEqual({
      direction: 'DIRECTION_SYNTHETIC_IN',
      outbound: 30n,
      inbound: 100n,
    });
  });
});

describe('ChainAtHeight: holdersSum', () => {
  const holder = (i: number, units: bigint) => ({ holder: `svc1holder${i}`, units: units.toString(), locked: '0' });

  it('pages with limit 1000 and increasing offsets until the total, summing every page', async () => {
    const total = 2500;
    const { url, asked } = await standIn((req) => {
      const r = decodeMessage('svc.rights.v1.QueryHoldersRequest', Buffer.from(req.params.data, 'hex'));
      const offset = Number(r.offset);
      const count = Math.min(Number(r.limit), total - offset);
      const holders = Array.from({ length: count }, (_, j) => holder(offset + j, BigInt(offset + j + 1)));
      return ok(req, 'svc.rights.v1.QueryHoldersResponse', { holders, total: String(total) });
    });
    const sum = await new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).holdersSum(ASSET, 2);
    expect(sum).toBe(BigInt((total * (total + 1)) / 2));
    expect(asked).toHaveLength(3);
    const requests = asked.map((a) =>
      decodeMessage('svc.rights.v1.QueryHoldersRequest', Buffer.from(a.body.params.data, 'hex')),
    );
    expect(requests).toEqual([
      { asset_id: ASSET, kind_id: 2, offset: '0', limit: 1000 },
      { asset_id: ASSET, kind_id: 2, offset: '1000', limit: 1000 },
      { asset_id: ASSET, kind_id: 2, offset: '2000', limit: 1000 },
    ]);
    for (const a of asked) {
      expect(a.body.params.path).toBe('/svc.rights.v1.Query/Holders');
      expect(a.body.params.height).toBe(String(HEIGHT));
    }
  });

  it('sums amounts beyond 2^53 exactly', async () => {
    const big = 2n ** 70n + 1n;
    const { url, asked } = await standIn((req) =>
      ok(req, 'svc.rights.v1.QueryHoldersResponse', { holders: [holder(1, big), holder(2, big)], total: '2' }),
    );
    await expect(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).holdersSum(ASSET, 1)).resolves.toBe(2n * big);
    expect(asked).toHaveLength(1);
  });

  it('stops at an empty page', async () => {
    const { url, asked } = await standIn((req) =>
      ok(req, 'svc.rights.v1.QueryHoldersResponse', { holders: [], total: '0' }),
    );
    await expect(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).holdersSum(ASSET, 1)).resolves.toBe(0n);
    expect(asked).toHaveLength(1);
  });

  it('stops at an empty page even when the total claims more', async () => {
    const { url, asked } = await standIn((req, n) =>
      ok(req, 'svc.rights.v1.QueryHoldersResponse', {
        holders: n === 0 ? Array.from({ length: 1000 }, (_, j) => holder(j, 1n)) : [],
        total: '5000',
      }),
    );
    await expect(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).holdersSum(ASSET, 1)).resolves.toBe(1000n);
    expect(asked).toHaveLength(2);
  });

  it('is null when the module has no such kind', async () => {
    const { url } = await standIn((req) => fail(req, 'rights', 3, 'kind not found'));
    await expect(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).holdersSum(ASSET, 1)).resolves.toBeNull();
  });

  it('fails as a whole when a later page cannot be had', async () => {
    const { url, asked } = await standIn((req, n) =>
      n === 0
        ? ok(req, 'svc.rights.v1.QueryHoldersResponse', {
            holders: Array.from({ length: 1000 }, (_, j) => holder(j, 1n)),
            total: '1500',
          })
        : fail(req, 'sdk', 26, 'invalid height'),
    );
    await expect(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).holdersSum(ASSET, 1)).rejects.toBeInstanceOf(
      ChainUnavailable,
    );
    expect(asked).toHaveLength(2);
  });
});

describe('ChainAtHeight: null (the module answers with its own error)', () => {
  it.each([
    ['asset', 2],
    ['payout', 5],
    ['bridge', 7],
  ])('codespace %s code %d gives null', async (codespace, code) => {
    const { url } = await standIn((req) => fail(req, codespace, code, 'not found'));
    await expect(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).kindSupply(ASSET, 1)).resolves.toBeNull();
  });

  it('gives null for the registry of an unknown asset', async () => {
    const { url } = await standIn((req) => fail(req, 'asset', 2, 'asset not found'));
    await expect(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).tokenRegistry(ASSET)).resolves.toBeNull();
  });
});

describe('ChainAtHeight: QueryNotServed', () => {
  it('sdk code 6 (unknown query path) throws QueryNotServed naming the path', async () => {
    const { url } = await standIn((req) => fail(req, 'sdk', 6, 'unknown query path'));
    const p = new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).tokenRegistry(ASSET);
    await expect(p).rejects.toBeInstanceOf(QueryNotServed);
    await expect(p).rejects.not.toBeInstanceOf(ChainUnavailable);
    await expect(p).rejects.toMatchObject({ name: 'QueryNotServed', path: '/svc.asset.v1.Query/TokenRegistry' });
  });

  it('a code 6 of a module codespace is the module answering, not QueryNotServed', async () => {
    const { url } = await standIn((req) => fail(req, 'asset', 6, 'something'));
    await expect(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).tokenRegistry(ASSET)).resolves.toBeNull();
  });
});

describe('ChainAtHeight: ChainUnavailable', () => {
  async function expectUnavailable(p: Promise<unknown>, message?: RegExp) {
    const e = await p.then(
      () => {
        throw new Error('expected a rejection');
      },
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ChainUnavailable);
    expect(e).not.toBeInstanceOf(QueryNotServed);
    expect((e as Error).name).toBe('ChainUnavailable');
    if (message) expect((e as Error).message).toMatch(message);
  }

  it.each([
    ['sdk', 26, 'invalid height'],
    ['sdk', 18, 'invalid request'],
    ['sdk', 1, 'internal'],
    ['', 1, 'panic'],
  ])('codespace "%s" code %d', async (codespace, code, log) => {
    const { url } = await standIn((req) => fail(req, codespace, code, log));
    await expectUnavailable(
      new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).kindSupply(ASSET, 1),
      new RegExp(`KindSupply at height ${HEIGHT}: ${codespace}/${code} ${log}`),
    );
  });

  it('an error response without a codespace', async () => {
    const { url } = await standIn((req) => ({
      json: { jsonrpc: '2.0', id: req.id, result: { response: { code: 1, log: 'boom', height: '0' } } },
    }));
    await expectUnavailable(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).kindSupply(ASSET, 1), /\/1 boom/);
  });

  it('a JSON-RPC error object', async () => {
    const { url } = await standIn((req) => ({
      json: {
        jsonrpc: '2.0',
        id: req.id,
        error: { code: -32603, message: 'Internal error', data: 'height 42 is not available, lowest height is 100' },
      },
    }));
    await expectUnavailable(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).kindSupply(ASSET, 1), /lowest height is 100/);
  });

  it('a JSON-RPC error object without data', async () => {
    const { url } = await standIn((req) => ({
      json: { jsonrpc: '2.0', id: req.id, error: { code: -32601, message: 'Method not found' } },
    }));
    await expectUnavailable(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).kindSupply(ASSET, 1), /Method not found/);
  });

  it('a JSON-RPC error object wins over a result next to it', async () => {
    const { url } = await standIn((req) => {
      const good = ok(req, 'svc.asset.v1.QueryKindSupplyResponse', {
        supply: '10',
        holder_count: '2',
        multiplier: '1',
      }) as { json: Record<string, unknown> };
      return { json: { ...good.json, error: { code: -32603, message: 'Internal error', data: 'state pruned' } } };
    });
    await expectUnavailable(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).kindSupply(ASSET, 1), /state pruned/);
  });

  it('an answer with no result', async () => {
    const { url } = await standIn((req) => ({ json: { jsonrpc: '2.0', id: req.id } }));
    await expectUnavailable(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).kindSupply(ASSET, 1), /no response/);
  });

  it.each(['41', '43', '0'])('an answer at another height (%s)', async (height) => {
    const { url } = await standIn((req) =>
      ok(req, 'svc.asset.v1.QueryKindSupplyResponse', { supply: '10', holder_count: '2', multiplier: '1' }, height),
    );
    await expectUnavailable(
      new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).kindSupply(ASSET, 1),
      new RegExp(`asked at height ${HEIGHT}, answered at ${height}`),
    );
  });

  it('an HTTP error status', async () => {
    const { url } = await standIn(() => ({ status: 502, json: { error: 'bad gateway' } }));
    await expectUnavailable(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).kindSupply(ASSET, 1), /HTTP 502/);
  });

  it('a body that is not JSON', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>proxy</html>');
    });
    servers.push(server);
    const url = await listen(server);
    await expectUnavailable(new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).kindSupply(ASSET, 1));
  });

  it('no answer within timeoutMs', async () => {
    const { url, asked } = await standIn(() => 'hang');
    const started = Date.now();
    // Plain Node says "no answer within 200 ms"; under Jest the abort error comes from another realm
    // (not instanceof the test realm's Error), so the message keeps its String() form.
    await expectUnavailable(
      new ChainAtHeight(url, HEIGHT, HANG_TIMEOUT_MS).kindSupply(ASSET, 1),
      new RegExp(`KindSupply at height ${HEIGHT}: (no answer within ${HANG_TIMEOUT_MS} ms|TimeoutError)`),
    );
    const elapsed = Date.now() - started;
    expect(asked).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(HANG_TIMEOUT_MS - 20);
    expect(elapsed).toBeLessThan(HANG_TIMEOUT_MS + 2000);
  });

  it('a closed port (connection refused)', async () => {
    const server = http.createServer();
    const url = await listen(server);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await expectUnavailable(
      new ChainAtHeight(url, HEIGHT, TIMEOUT_MS).kindSupply(ASSET, 1),
      new RegExp(`abci_query /svc.asset.v1.Query/KindSupply at height ${HEIGHT}: .*(ECONNREFUSED|fetch failed)`),
    );
  });
});
