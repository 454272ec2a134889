import crypto from 'crypto';
import { buildSchema } from 'graphql';
import { GraphqlLimits, MAX_PAGE, unitsOfCost } from '../../../src/runtime/graphql-limits';

// the shape PostGraphile gives the node's tables: connections with nodes/edges/totalCount, relations
const schema = buildSchema(`
  type Query {
    blocks(first: Int, last: Int, offset: Int, after: String): BlocksConnection
    txes(first: Int, last: Int, offset: Int): TxesConnection
    block(id: ID!): Block
  }
  type BlocksConnection { nodes: [Block]! edges: [BlocksEdge!]! totalCount: Int! pageInfo: PageInfo! }
  type BlocksEdge { cursor: String node: Block }
  type TxesConnection { nodes: [Tx]! totalCount: Int! }
  type PageInfo { hasNextPage: Boolean! }
  type Block { id: ID! height: Int! txesByBlockId(first: Int, last: Int): TxesConnection! }
  type Tx { id: ID! hash: String! events: String blockByBlockId: Block }
`);

const limits = (o: { maxDepth?: number; maxCost?: number; allowlist?: string[] } = {}) =>
  new GraphqlLimits(
    { maxDepth: o.maxDepth ?? 10, maxCost: o.maxCost ?? 10_000, allowlist: o.allowlist },
    async () => schema,
  );

describe('GraphQL limits', () => {
  test.each([
    ['{ txes(first: 5) { nodes { id hash } } }', 5],
    ['{ txes { nodes { id events } } }', MAX_PAGE], // no first/last: one page, never the table
    ['{ txes(first: 10, offset: 500) { nodes { id } } }', 510],
    ['{ blocks(first: 10) { nodes { height txesByBlockId(first: 20) { nodes { id } } } } }', 10 * 20 + 10],
    ['{ blocks(first: 2) { edges { node { id } } totalCount } }', 2 + MAX_PAGE],
    ['{ txes(first: 3) { nodes { blockByBlockId { height } } } }', 3 * 2], // each tx and its block
    ['{ block(id: "1") { height } }', 1],
    ['{ __schema { types { name fields { name type { ofType { ofType { ofType { name } } } } } } } }', 0],
  ])('%s may read %d rows', async (query, rows) => {
    expect(await limits().check({ query })).toEqual({ ok: true, query, cost: rows });
  });

  test('the cost is charged as a page of /v1: 100 rows cost what ?limit=100 does', () => {
    expect(unitsOfCost(100)).toBe(11);
  });

  test('attack: a deep query is refused with a clear error before it reaches the store', async () => {
    const deep =
      '{ txes { nodes { blockByBlockId { txesByBlockId { nodes { blockByBlockId { txesByBlockId { nodes { blockByBlockId { txesByBlockId { nodes { id } } } } } } } } } } } }';
    expect(await limits().check({ query: deep })).toEqual({
      ok: false,
      code: 'QUERY_TOO_DEEP',
      message: 'the query nests 12 levels deep; at most 10 are answered',
    });
    // through fragments too, and a fragment cycle does not hang the check
    const viaFragment =
      'query { txes { ...T } } fragment T on TxesConnection { nodes { blockByBlockId { txesByBlockId { ...T } } } }';
    expect(await limits({ maxDepth: 4, maxCost: 1e6 }).check({ query: viaFragment })).toMatchObject({ ok: true });
  });

  test('attack: a huge query (nested full pages, aliases) is refused by its cost', async () => {
    const nested =
      '{ blocks(first: 100) { nodes { txesByBlockId(first: 100) { nodes { blockByBlockId { txesByBlockId(first: 100) { nodes { id } } } } } } } }';
    const r = await limits().check({ query: nested });
    expect(r).toMatchObject({ ok: false, code: 'QUERY_TOO_COSTLY' });
    expect((r as { message: string }).message).toMatch(/may read 10\d{5} rows.*at most 10000/);
    const aliases = `{ ${Array.from({ length: 101 }, (_, i) => `a${i}: txes(first: 100) { nodes { id } }`).join(' ')} }`;
    expect(await limits().check({ query: aliases })).toMatchObject({ ok: false, code: 'QUERY_TOO_COSTLY' });
  });

  test('attack: first/last above 100 is refused, as a literal or a variable', async () => {
    expect(await limits().check({ query: '{ txes(first: 1000) { nodes { id } } }' })).toMatchObject({
      ok: false,
      code: 'PAGE_TOO_LARGE',
      message: '`first` is 1000: a connection answers at most 100 rows; page with `after`/`before`',
    });
    expect(
      await limits().check({ query: 'query Q($n: Int) { txes(last: $n) { nodes { id } } }', variables: { n: 101 } }),
    ).toMatchObject({ ok: false, code: 'PAGE_TOO_LARGE' });
  });

  test('allow-list: only listed operations run, by their SHA-256 or their exact text', async () => {
    const listed = '{ txes(first: 5) { nodes { id } } }';
    const hash = crypto.createHash('sha256').update(listed).digest('hex');
    const l = limits({ allowlist: [listed] });
    expect(await l.check({ extensions: { persistedQuery: { sha256Hash: hash } } })).toEqual({
      ok: true,
      query: listed,
      cost: 5,
    });
    expect(await l.check({ id: hash })).toMatchObject({ ok: true, query: listed });
    expect(await l.check({ query: listed })).toMatchObject({ ok: true });
    expect(await l.check({ query: '{ txes(first: 6) { nodes { id } } }' })).toMatchObject({
      ok: false,
      code: 'OPERATION_NOT_ALLOWED',
    });
  });

  test('what it cannot judge is left to PostGraphile to refuse', async () => {
    expect(await limits().check({ query: '{ txes(' })).toBeUndefined(); // syntax
    expect(await limits().check({ query: '{ nothing { id } }' })).toEqual({
      ok: true,
      query: '{ nothing { id } }',
      cost: 0, // no field it knows: PostGraphile answers the error, charged 1 unit
    });
    expect(await limits().check({})).toBeUndefined();
  });
});
