/**
 * GraphQL subscriptions of `npm start`'s /graphql (src/runtime/graphql.ts, graphql-subscriptions.ts)
 * on a live world: the devnet makes a block every 300 ms, the real node indexes it with
 * `--subscription` (its NOTIFY triggers), and a graphql-ws client (the `graphql-transport-ws`
 * protocol subql-query speaks) subscribes over a real websocket routed by the launcher's upgrade
 * router (http.ts). Each test asserts events against what the store holds afterwards.
 */
import express from 'express';
import http, { type Server } from 'http';
import type { AddressInfo } from 'net';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { GRAPHQL_DEFAULTS } from '../../src/runtime/config';
import { createGraphqlService, keepPostgraphileOffServer, type GraphqlService } from '../../src/runtime/graphql';
import { routeUpgrades, UpgradeSlot } from '../../src/runtime/http';
import { GAS_DENOM } from '../harness/app-chain';
import { startLiveWorld, type LiveWorld } from '../harness/live-world';
import { until } from '../harness/until';

jest.setTimeout(120_000);

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL answers are asserted field by field */

interface Event<E> {
  id: string;
  mutation_type: 'INSERT' | 'UPDATE' | 'DELETE';
  _entity: E | null;
}

const MAX_WEBSOCKETS = 4;

describe('GraphQL subscriptions over a websocket on /graphql (subql-query shape)', () => {
  let world: LiveWorld;
  let service: GraphqlService;
  let server: Server;
  let upgrades: { destroyAll(): void };
  let base: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    world = await startLiveWorld({ keys: ['alice', 'bob'], nodeArgs: ['--subscription'] });
    await world.waitIndexed();
    service = await createGraphqlService({ url: world.db.url }, 'svc', undefined, {
      ...GRAPHQL_DEFAULTS,
      subscriptions: true,
      maxWebsockets: MAX_WEBSOCKETS,
    });
    server = http.createServer(express().use(service.handler));
    keepPostgraphileOffServer(server);
    const slot = new UpgradeSlot();
    slot.set(service.upgrade);
    upgrades = routeUpgrades(server, slot);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    // an HTTP query first: PostGraphile must not attach a second upgrade listener on it
    await until('GraphQL schema', async () =>
      (await query('{ _metadata { lastProcessedHeight } }')) ? true : undefined,
    );
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    upgrades?.destroyAll();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await service?.close();
    await world?.close();
  });

  async function query(q: string): Promise<any> {
    const res = await fetch(`http://${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: q }),
    });
    const body = (await res.json()) as { data?: any; errors?: unknown[] };
    if (res.status !== 200 || body.errors) throw new Error(`${res.status} ${JSON.stringify(body.errors)}`);
    return body.data;
  }

  function client(): Client {
    const c = createClient({ url: `ws://${base}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
    clients.push(c);
    return c;
  }

  /** Subscribes; `events` fills as they come, `errors` with what the server refused. */
  function subscribe<E>(c: Client, q: string) {
    const events: Event<E>[] = [];
    const errors: unknown[] = [];
    let subscribed!: () => void;
    const done = new Promise<void>((resolve) => (subscribed = resolve));
    c.on('connected', () => subscribed());
    const stop = c.subscribe<Record<string, Event<E>>>(
      { query: q },
      {
        next: (r) => (r.errors ? errors.push(...r.errors) : events.push(Object.values(r.data!)[0])),
        error: (e) => errors.push(e),
        complete: () => undefined,
      },
    );
    return { events, errors, stop, connected: done };
  }

  async function bankSend(amount: string): Promise<{ hash: string; height: number }> {
    const { alice, bob } = world.keys;
    const tx = await world.submit(alice, [
      {
        typeUrl: '/cosmos.bank.v1beta1.MsgSend',
        value: { fromAddress: alice.address, toAddress: bob.address, amount: [{ denom: GAS_DENOM, amount }] },
      },
    ]);
    expect(tx.code).toBe(0);
    return tx;
  }

  test('a new tx arrives once as INSERT with its row (read back from the store); a block likewise', async () => {
    const c = client();
    const txes = subscribe<any>(c, 'subscription { txes { id mutation_type _entity { id hash height code method } } }');
    const blocks = subscribe<any>(c, 'subscription { blocks { id mutation_type _entity { height hash txCount } } }');
    await txes.connected;
    await new Promise((r) => setTimeout(r, 300)); // the server LISTENs once the subscription is set up
    const sent = await bankSend('7');
    await world.waitIndexed(sent.height);
    const mine = await until('the tx event', () => {
      const e = txes.events.filter((x) => x.id === sent.hash);
      return e.length ? e : undefined;
    });
    await new Promise((r) => setTimeout(r, 500)); // a duplicate would come with the same flush
    expect(txes.errors).toEqual([]);
    expect(txes.events.filter((x) => x.id === sent.hash)).toHaveLength(1);
    expect(mine[0]).toEqual({
      id: sent.hash,
      mutation_type: 'INSERT',
      _entity: { id: sent.hash, hash: sent.hash, height: sent.height, code: 0, method: '/cosmos.bank.v1beta1.MsgSend' },
    });
    // the block of that height, as the store has it
    const stored = await query(`{ block(id: "${sent.height}") { height hash txCount } }`);
    const blockEvent = await until('the block event', () => blocks.events.find((b) => b.id === String(sent.height)));
    expect(blockEvent).toEqual({ id: String(sent.height), mutation_type: 'INSERT', _entity: stored.block });
    expect(stored.block.txCount).toBeGreaterThanOrEqual(1);
  });

  test('filters: id picks one block among all; mutation picks UPDATE of the counters, never INSERT', async () => {
    const c = client();
    const now = await world.chain.height;
    const target = String(now + 3);
    const one = subscribe<any>(c, `subscription { blocks(id: ["${target}"]) { id mutation_type } }`);
    const all = subscribe<any>(c, 'subscription { blocks { id } }');
    const updates = subscribe<any>(c, 'subscription { chainTotals(mutation: [UPDATE]) { id mutation_type } }');
    const txInserts = subscribe<any>(c, 'subscription { txes(mutation: [UPDATE, DELETE]) { id } }');
    await one.connected;
    await new Promise((r) => setTimeout(r, 300));
    await world.waitIndexed(now + 6);
    await bankSend('3');
    await until('blocks after the target', () =>
      all.events.some((b) => Number(b.id) > Number(target)) ? true : undefined,
    );
    expect(all.events.length).toBeGreaterThan(1);
    expect(one.events).toEqual([{ id: target, mutation_type: 'INSERT' }]);
    expect(updates.events.length).toBeGreaterThan(0);
    expect(updates.events.every((e) => e.id === 'chain' && e.mutation_type === 'UPDATE')).toBe(true);
    expect(txInserts.events).toEqual([]); // txs are only ever inserted
    expect([one.errors, all.errors, updates.errors, txInserts.errors]).toEqual([[], [], [], []]);
  });

  test('websockets: other paths 404, beyond GRAPHQL_WS_MAX_CONNECTIONS 429; POST still refuses mutations and subscriptions', async () => {
    const status = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`ws://${base}${path}`, 'graphql-transport-ws');
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => {
          resolve(101);
          ws.close();
        });
        ws.on('error', reject);
      });
    expect(await status('/v1/status')).toBe(404);
    // two clients are open from the tests above; fill up to the bound, then one more
    const held: WebSocket[] = [];
    for (let i = 2; i < MAX_WEBSOCKETS; i++) {
      const ws = new WebSocket(`ws://${base}/graphql`, 'graphql-transport-ws');
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      held.push(ws);
    }
    expect(await status('/graphql')).toBe(429);
    for (const ws of held) ws.close();
    await until('a freed slot', async () => ((await status('/graphql')) === 101 ? true : undefined));

    for (const q of ['mutation { x }', 'subscription { txes { id } }']) {
      const res = await fetch(`http://${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: q }),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).errors[0].message).toMatch(/read-only/);
    }
  });
});
