/** bench:api's PostGraphile column: which endpoints it covers, and that each query is valid GraphQL. */
import { parse } from 'graphql';
import { restEndpoints, type StoreSample } from '../../../bench/endpoints';
import { graphqlEquivalents } from '../../../bench/graphql-equivalents';
import { endpointClass } from '../../../bench/lib/api-targets';

const hash = (n: number) => n.toString(16).toUpperCase().padStart(64, '0');

const sample: StoreSample = {
  height: 1000,
  txHashes: [hash(1), hash(2)],
  ethHashes: [`0x${'ab'.repeat(32)}`],
  assets: ['a'.repeat(64)],
  bigKind: { asset_id: 'a'.repeat(64), kind_id: 1 },
  holderKeys: [{ units: '1000', holder: 'svc1holder' }],
  busyAccounts: ['svc1busy'],
  someAccounts: ['svc1some'],
  evmShapedAccounts: [],
  attesters: [],
  settlementMax: 50,
  encumbranceMax: 20,
  delegationMax: 10,
  routes: ['route-a'],
  methods: ['/svc.asset.v1.MsgIssue'],
  svc20: [],
  txCount: 10_005,
  lastTxCursor: null,
};

function query(body: string | undefined): { query: string; variables: Record<string, unknown> } {
  return JSON.parse(body ?? '{}') as { query: string; variables: Record<string, unknown> };
}

describe('GraphQL equivalents of the /v1 endpoints', () => {
  const equivalents = graphqlEquivalents(sample);
  const names = restEndpoints(sample).map((e) => e.name);

  it('are named after endpoints of bench/endpoints.ts', () => {
    expect([...equivalents.keys()].filter((name) => !names.includes(name))).toEqual([]);
  });

  it('cover every txs page, the point reads with a key GraphQL can use, holders and both feeds', () => {
    for (const name of ['txs (first page)', 'txs deep next', 'txs method', 'tx by hash', 'asset', 'account (busy)'])
      expect(equivalents.has(name)).toBe(true);
    for (const name of ['holders first page', 'holders deep', 'asset events', 'account events'])
      expect(equivalents.has(name)).toBe(true);
    expect(equivalents.has('tx by eth hash')).toBe(false);
  });

  it('are POSTs to /graphql of documents that parse, with every declared variable given', () => {
    for (const [name, next] of equivalents) {
      const request = next();
      expect([name, request.path]).toEqual([name, '/graphql']);
      const { query: text, variables } = query(request.body);
      const declared = [...text.matchAll(/\$(\w+):/g)].map((m) => m[1]);
      expect(() => parse(text)).not.toThrow();
      expect([name, declared.filter((v) => !(v in variables))]).toEqual([name, []]);
    }
  });

  it("ask for the oldest page's size of /v1/txs (total mod 20)", () => {
    expect(query(equivalents.get('txs last page')!().body).query).toContain('txes(first: 5, orderBy: SEQ_ASC)');
  });

  it("follow a feed's entries with one query for their txs' events, each hash once", () => {
    const request = equivalents.get('account events')!();
    const entries = { data: { activityEntries: { nodes: [{ txHash: 'H1' }, { txHash: 'H1' }, { txHash: null }] } } };
    const second = request.followUp!(JSON.stringify(entries));
    expect(query(second.body).variables).toEqual({ ids: ['H1'] });
    expect(() => parse(query(second.body).query)).not.toThrow();
  });
});

describe('endpoint classes of the floor targets', () => {
  it('heavy: txs pages, holders pages, feeds; point: a tx, an asset, an account; other: the rest', () => {
    expect(
      ['txs (first page)', 'txs limit=100', 'holders deep', 'asset events', 'account events', 'distributions'].map(
        endpointClass,
      ),
    ).toEqual(Array(6).fill('heavy'));
    expect(
      ['tx by hash', 'tx by eth hash', 'asset', 'asset (big kind)', 'account (busy)', 'account (any, 0x)'].map(
        endpointClass,
      ),
    ).toEqual(Array(6).fill('point'));
    expect(
      ['assets', 'account attestations', 'graph (big kind)', 'status', 'lookup tx', 'block'].map(endpointClass),
    ).toEqual(Array(6).fill('other'));
  });
});
