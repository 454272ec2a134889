/**
 * ChainQueryClient (src/client) against a local JSON-RPC stand-in: what it asks, the timeout, the
 * retries and their backoff, and that the table of query paths matches the contract.
 */
import { ChainQueryClient, ChainUnavailable, queryMethodTypes, type QueryPath } from '../../../src/client';
import { ChainUnreachable } from '../../../src/client/query-errors';
import { decodeMessage } from '../../../src/lib/contract';
import { fail, ok, standIn, type Handler, type Reply } from './abci-stand-in';

const ASSET = 'c'.repeat(64);
const SUPPLY = '/svc.asset.v1.Query/KindSupply';
const supplyAnswer: Handler = (req) =>
  ok(req, 'svc.asset.v1.QueryKindSupplyResponse', { supply: '10', holder_count: '2', multiplier: '1' }, '7');

/** The stand-in answers `failures` first, then the KindSupply answer. */
function failingFirst(failures: Reply[]): Handler {
  return (req, n) => (n < failures.length ? failures[n] : supplyAnswer(req, n));
}

const unavailable = { status: 502, json: {} } as const;

describe('ChainQueryClient: what it asks', () => {
  it('the latest height: no height parameter, the height answered at comes back', async () => {
    const { url, asked } = await standIn(supplyAnswer);
    const client = new ChainQueryClient(url);
    const r = await client.queryWithHeight(SUPPLY, { asset_id: ASSET, kind_id: 3 });
    expect(r).toEqual({ value: { supply: '10', holder_count: '2', multiplier: '1' }, height: 7 });
    expect(asked[0].body.params.height).toBeUndefined();
    expect(decodeMessage('svc.asset.v1.QueryKindSupplyRequest', Buffer.from(asked[0].body.params.data, 'hex'))).toEqual(
      { asset_id: ASSET, kind_id: 3 },
    );
    expect(client.queries).toBe(1);
  });

  it('a height per call overrides the height the client is bound to', async () => {
    const { url, asked } = await standIn(supplyAnswer);
    const client = new ChainQueryClient(url, { height: 5 });
    await expect(client.query(SUPPLY, { asset_id: ASSET, kind_id: 1 })).rejects.toThrow(
      `${SUPPLY}: asked at height 5, answered at 7`,
    );
    await expect(client.query(SUPPLY, { asset_id: ASSET, kind_id: 1 }, { height: 7 })).resolves.toMatchObject({
      supply: '10',
    });
    // an option given as undefined is no option
    await expect(client.query(SUPPLY, { asset_id: ASSET, kind_id: 1 }, { height: undefined })).rejects.toThrow(
      /asked at height 5/,
    );
    expect(asked.map((a) => a.body.params.height)).toEqual(['5', '7', '5']);
  });
});

describe('ChainQueryClient: timeout and retries', () => {
  it('no answer within timeoutMs is ChainUnavailable', async () => {
    const { url } = await standIn(() => 'hang');
    const started = Date.now();
    const p = new ChainQueryClient(url, { timeoutMs: 150 }).query(SUPPLY, { asset_id: ASSET, kind_id: 1 });
    await expect(p).rejects.toBeInstanceOf(ChainUnavailable);
    await expect(p).rejects.toBeInstanceOf(ChainUnreachable); // no answer at all: worth asking again soon
    await expect(p).rejects.toThrow(new RegExp(`abci_query ${SUPPLY}: (no answer within 150 ms|TimeoutError)`));
    expect(Date.now() - started).toBeLessThan(2150);
  });

  it('retries a ChainUnavailable, waiting the backoff doubled each time', async () => {
    const { url, asked } = await standIn(failingFirst([unavailable, 'hang']));
    const client = new ChainQueryClient(url, { timeoutMs: 100, retries: 2, retryBackoffMs: 60 });
    const started = Date.now();
    await expect(client.query(SUPPLY, { asset_id: ASSET, kind_id: 1 })).resolves.toMatchObject({ supply: '10' });
    // 60 ms, the 100 ms timeout, then 120 ms
    expect(Date.now() - started).toBeGreaterThanOrEqual(270);
    expect(asked).toHaveLength(3);
    expect(client.queries).toBe(3);
    expect(new Set(asked.map((a) => a.body.id)).size).toBe(3);
  });

  it('gives up after the retries with the last ChainUnavailable', async () => {
    const { url, asked } = await standIn(() => unavailable);
    const p = new ChainQueryClient(url, { retries: 1 }).query(SUPPLY, { asset_id: ASSET, kind_id: 1 });
    await expect(p).rejects.toThrow(/HTTP 502/);
    expect(asked).toHaveLength(2);
  });

  it('an error code is the chain answering: not retried', async () => {
    const { url, asked } = await standIn((req) => fail(req, 'sdk', 26, 'invalid height'));
    const p = new ChainQueryClient(url, { retries: 3 }).query(SUPPLY, { asset_id: ASSET, kind_id: 1 });
    await expect(p).rejects.toMatchObject({ name: 'AbciQueryError', codespace: 'sdk', code: 26, fromModule: false });
    expect(asked).toHaveLength(1);
  });

  it('retries per call when the client does not', async () => {
    const { url, asked } = await standIn(failingFirst([unavailable]));
    const client = new ChainQueryClient(url);
    await expect(client.query(SUPPLY, { asset_id: ASSET, kind_id: 1 })).rejects.toBeInstanceOf(ChainUnavailable);
    await expect(client.query(SUPPLY, { asset_id: ASSET, kind_id: 1 }, { retries: 1 })).resolves.toMatchObject({
      supply: '10',
    });
    expect(asked).toHaveLength(2);
  });
});

describe('ChainQueryClient: the table of query paths', () => {
  /** Each path of QueryTypes with the name of its response type there; the compiler keeps the list whole. */
  const RESPONSES: Record<QueryPath, string> = {
    '/svc.asset.v1.Query/Asset': 'QueryAssetResponse',
    '/svc.asset.v1.Query/KindSupply': 'QueryKindSupplyResponse',
    '/svc.asset.v1.Query/TokenRegistry': 'QueryTokenRegistryResponse',
    '/svc.attestation.v1.Query/Attestation': 'QueryAttestationResponse',
    '/svc.bridge.v1.Query/EscrowBalance': 'QueryEscrowBalanceResponse',
    '/svc.bridge.v1.Query/Route': 'QueryRouteResponse',
    '/svc.delegation.v1.Query/Delegation': 'QueryDelegationResponse',
    '/svc.dex.v1.Query/PoolPrice': 'QueryPoolPriceResponse',
    '/svc.encumbrance.v1.Query/Encumbrance': 'QueryEncumbranceResponse',
    '/svc.payout.v1.Query/Accrual': 'QueryAccrualResponse',
    '/svc.payout.v1.Query/Claimable': 'QueryClaimableResponse',
    '/svc.rights.v1.Query/Holders': 'QueryHoldersResponse',
    '/svc.rights.v1.Query/Position': 'QueryPositionResponse',
    '/svc.settlement.v1.Query/Settlement': 'QuerySettlementResponse',
    '/svc.waterfall.v1.Query/Liquidation': 'QueryLiquidationResponse',
  };

  it.each(Object.entries(RESPONSES))('%s answers %s in the contract', (path, response) => {
    const types = queryMethodTypes(path);
    expect(types.responseType.split('.').pop()).toBe(response);
    expect(types.requestType.split('.').pop()).toBe(response.replace(/Response$/, 'Request'));
  });
});
