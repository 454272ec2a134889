/**
 * The subql-query compatible subscriptions (src/runtime/graphql-subscriptions.ts): the channel a
 * table's events come on is the one @subql/node-core's trigger notifies, and the `id` /
 * `mutation` arguments filter as subql-query's do.
 */
import { matchesSubscription, notifyChannel, type EntityEvent } from '../../../src/runtime/graphql-subscriptions';

describe('GraphQL subscriptions in the subql-query shape', () => {
  let hashName: (schema: string, type: string, table: string) => string;
  beforeAll(async () => {
    // @subql/utils loads a second @polkadot/util, which warns about it: not this test's concern
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    ({ hashName } = await import('@subql/utils'));
    warn.mockRestore();
  });

  test.each([
    ['svc', 'txes'],
    ['svc', 'blocks'],
    ['svc_e2e', 'chain_totals'],
  ])("%s.%s: the node's notify channel (@subql/utils hashName)", (schema, table) => {
    expect(notifyChannel(schema, table)).toBe(hashName(schema, 'notify_channel', table));
    expect(notifyChannel(schema, table)).toMatch(/^0x[0-9a-f]{16}$/);
  });

  test('id and mutation filters: every given list must hold the value; none given passes all', () => {
    const insert: EntityEvent = { id: 'AB', mutation_type: 'INSERT', _entity: null };
    expect(matchesSubscription(insert, {})).toBe(true);
    expect(matchesSubscription(insert, { id: null, mutation: null })).toBe(true);
    expect(matchesSubscription(insert, { id: ['AB', 'CD'] })).toBe(true);
    expect(matchesSubscription(insert, { id: ['CD'] })).toBe(false);
    expect(matchesSubscription(insert, { mutation: ['UPDATE', 'DELETE'] })).toBe(false);
    expect(matchesSubscription(insert, { id: ['AB'], mutation: ['INSERT'] })).toBe(true);
    expect(matchesSubscription(insert, { id: ['AB'], mutation: ['UPDATE'] })).toBe(false);
    expect(matchesSubscription(undefined, {})).toBe(false);
  });
});
