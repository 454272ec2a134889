/**
 * /graphql (src/runtime/graphql.ts) over the node-built store of this folder, through real HTTP:
 * the JSON kept as text (a tx's msgs, fee and events, a block's events) is selectable as JSON
 * values (`msgsJson`, `feeJson`, `eventsJson`: the computed columns of src/runtime/graphql-json.ts),
 * equal to the string fields parsed, which still answer as strings.
 */
import express from 'express';
import type { AddressInfo } from 'net';
import type { Server } from 'http';
import { createGraphqlService, GraphqlService } from '../../../src/runtime/graphql';
import { getIndexedStore, IndexedStore } from '../../harness/indexed-store';

jest.setTimeout(120_000);

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL answers are asserted field by field */

describe('GraphQL JSON fields on the node-built store', () => {
  let store: IndexedStore;
  let service: GraphqlService;
  let server: Server;
  let url: string;
  const jsonErrors: Error[] = [];

  beforeAll(async () => {
    store = await getIndexedStore(1);
    service = await createGraphqlService({ url: store.databaseUrl }, store.schema, (e) => jsonErrors.push(e));
    const app = express();
    app.use(service.handler);
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await service?.close();
    await store?.close();
  });

  async function graphql(query: string): Promise<any> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const body = (await res.json()) as { data?: any; errors?: unknown[] };
    expect([res.status, body.errors]).toEqual([200, undefined]);
    return body.data;
  }

  it("a tx's msgs, fee and events and a block's events as JSON values, equal to the strings parsed", async () => {
    expect(jsonErrors).toEqual([]);
    const data = await graphql(`
      {
        txes(first: 50, orderBy: SEQ_DESC) {
          nodes {
            id
            msgs
            msgsJson
            fee
            feeJson
            events
            eventsJson
          }
        }
        blocks(first: 20, orderBy: HEIGHT_DESC) {
          nodes {
            height
            events
            eventsJson
          }
        }
      }
    `);
    expect(data.txes.nodes).toHaveLength(50);
    for (const tx of data.txes.nodes) {
      for (const field of ['msgs', 'fee', 'events']) {
        expect(typeof tx[field]).toBe('string');
        expect(Array.isArray(tx[`${field}Json`])).toBe(true);
        expect(tx[`${field}Json`]).toEqual(JSON.parse(tx[field]));
      }
      expect(Object.keys(tx.msgsJson[0])[0]).toBe('@type'); // the stored key order is kept
    }
    expect(data.txes.nodes.some((t: any) => t.eventsJson.length > 0)).toBe(true);
    for (const block of data.blocks.nodes) {
      expect(typeof block.events).toBe('string');
      expect(block.eventsJson).toEqual(JSON.parse(block.events));
    }
    expect(data.blocks.nodes.some((b: any) => b.eventsJson.length > 0)).toBe(true);
  });

  it('a client selects into them: one event type per tx without parsing a string', async () => {
    const data = await graphql(`
      {
        txes(first: 5, orderBy: SEQ_ASC) {
          nodes {
            eventsJson
          }
        }
      }
    `);
    for (const tx of data.txes.nodes) expect(tx.eventsJson.map((e: any) => typeof e.type)).not.toContain('undefined');
  });

  it('creating them again (a second GraphQL server starting) is harmless', async () => {
    const errors: Error[] = [];
    const again = await createGraphqlService({ url: store.databaseUrl }, store.schema, (e) => errors.push(e));
    await again.close();
    expect(errors).toEqual([]);
  });
});
