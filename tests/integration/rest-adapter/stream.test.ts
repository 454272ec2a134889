/**
 * GET /v1/stream end to end on one live world: the devnet producing blocks, the real
 * subql-node-cosmos indexing them into PostgreSQL, adapters (createRestApp) over real HTTP,
 * SSE parsed with eventsource-parser. Every JSON refusal is validated against openapi.yaml.
 */
import express from 'express';
import type { Server } from 'http';
import type { AddressInfo } from 'net';
import { Pool } from 'pg';
import { createRestApp } from '../../../rest-adapter/app';
import { CURSORS, writeCursor } from '../../../rest-adapter/paging/cursors';
import { DEFAULT_STREAM_OPTIONS, type StreamOptions } from '../../../rest-adapter/stream/options';
import { blockPosition, encodeEventId } from '../../../rest-adapter/stream/position';
import type { TestKey } from '../../harness/app-chain';
import { launchEquity, startLiveWorld, type EquityAsset, type LiveWorld, type Msg } from '../../harness/live-world';
import { loadOpenApiValidator } from '../../harness/openapi-validator';
import { isStream, openSse, type RefusedAnswer, type SseEvent, type SseStream } from '../../harness/sse-client';

jest.setTimeout(180_000);

const validator = loadOpenApiValidator();
const WHOLE = 1_000_000n;
/** Rounds of 3 txs of 120 transfers to bob: several MB on his stream, more than loopback's socket buffers (~4.3 MB here) hold. */
const HEAVY_ROUNDS = 14;

interface Adapter {
  url: string;
  server: Server;
  /** server.close(), resolved once every connection has ended */
  close(): Promise<void>;
}

let world: LiveWorld;
let pool: Pool;
let asset: EquityAsset;
let k: Record<'issuer' | 'alice' | 'bob' | 'carol' | 'dave', TestKey>;
const adapters: Adapter[] = [];
const streams: SseStream[] = [];

async function startAdapter(stream: Partial<StreamOptions> = {}): Promise<Adapter> {
  const app = express()
    .disable('x-powered-by')
    .use(createRestApp({ pool, schema: 'svc', hrp: 'svc', stream: { ...DEFAULT_STREAM_OPTIONS, ...stream } }));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const adapter = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  adapters.push(adapter);
  return adapter;
}

async function open(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const answer = await openSse(url, headers);
  if (!isStream(answer)) throw new Error(`${url} -> ${answer.status} ${answer.body}`);
  streams.push(answer);
  return answer;
}

async function refused(url: string, headers: Record<string, string> = {}): Promise<RefusedAnswer> {
  const answer = await openSse(url, headers);
  if (isStream(answer)) {
    streams.push(answer);
    throw new Error(`${url} opened a stream`);
  }
  const path = url.replace(/^http:\/\/[^/]+/, '');
  validator.check({
    method: 'GET',
    path,
    status: answer.status,
    headers: answer.headers as Record<string, string>,
    body: JSON.parse(answer.body),
  });
  return answer;
}

const data = <T = any>(e: SseEvent): T => JSON.parse(e.data) as T; // eslint-disable-line @typescript-eslint/no-explicit-any -- asserted field by field
const ofKind = (events: SseEvent[], kind: string) => events.filter((e) => e.event === kind);
const blockHeights = (events: SseEvent[]) => ofKind(events, 'block').map((e) => data<{ height: number }>(e).height);
const lastBlock = (events: SseEvent[]) => blockHeights(events).at(-1) ?? 0;

const transfer = (from: TestKey, to: TestKey, units = 1n): Msg => ({
  typeUrl: '/svc.rights.v1.MsgTransfer',
  value: { sender: from.address, recipient: to.address, asset_id: asset.assetId, kind_id: 0, units: units.toString() },
});

/** Keeps bob active: a transfer to him every block until stopped. */
function keepBobActive(): () => Promise<void> {
  let stop = false;
  const loop = (async () => {
    for (let i = 0; !stop; i++)
      await world.submit(i % 2 ? k.carol : k.alice, [transfer(i % 2 ? k.carol : k.alice, k.bob)]);
  })();
  return async () => {
    stop = true;
    await loop;
  };
}

/** Every item of bob's activity feed (newest first, all pages). */
async function bobFeed(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const page: { events: Record<string, unknown>[]; next_cursor: string | null } = await world.rest(
      `/v1/accounts/${k.bob.address}/events?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    );
    items.push(...page.events);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

beforeAll(async () => {
  world = await startLiveWorld({ keys: ['issuer', 'alice', 'bob', 'carol', 'dave'] });
  k = world.keys as typeof k;
  pool = new Pool({ connectionString: world.db.url, max: 8 });
  pool.on('error', () => undefined);
  asset = await launchEquity(world, {
    issuer: k.issuer,
    metaHash: 'ab'.repeat(32),
    holders: [k.alice, k.carol, k.dave].map((key) => ({ key, units: 1_000_000n * WHOLE })),
    poolShares: 10n,
    poolQuote: 10_000_000n,
  });
  await world.waitIndexed();
});

afterAll(async () => {
  for (const s of streams) s.close();
  for (const a of adapters) if (a.server.listening) await a.close();
  await pool?.end();
  await world?.close();
});

describe('GET /v1/stream', () => {
  it('follows an account: every tx its feed lists, once, in order, across a dropped connection and an adapter restart', async () => {
    const stopActivity = keepBobActive();
    const follow = `/v1/stream?account=${k.bob.address}`;
    const a = await startAdapter();

    // 1. live from now
    const first = await open(a.url + follow);
    expect(first.retry).toBe(DEFAULT_STREAM_OPTIONS.retryMs);
    const start = await until1stBlock(first);
    await first.waitFor('8 heights', (ev) => lastBlock(ev) >= start + 8);
    first.close(); // 2. the client drops; blocks go on meanwhile
    const dropped = first.lastId!;
    await world.waitIndexed(world.chain.height + 3);

    const second = await open(a.url + follow, { 'Last-Event-ID': dropped });
    await second.waitFor('8 more heights', (ev) => lastBlock(ev) >= lastBlock(first.events) + 12);

    // 3. the adapter stops: its streams end with a final event, server.close() is not held
    const stopped = Date.now();
    await a.close();
    expect(Date.now() - stopped).toBeLessThan(3000);
    await second.end;
    const closeEvent = second.events.at(-1)!;
    expect([closeEvent.event, closeEvent.id, data(closeEvent).code]).toEqual(['close', undefined, 'shutting_down']);
    await world.waitIndexed(world.chain.height + 3);

    // 4. a new adapter on the same store resumes from the id the client kept
    const b = await startAdapter();
    const third = await open(b.url + follow, { 'Last-Event-ID': second.lastId! });
    const target = lastBlock(second.events) + 10;
    await third.waitFor('10 more heights', (ev) => lastBlock(ev) > target);
    third.close();
    await stopActivity();

    const segments = [first, second, third].map((s) =>
      s.events.filter((e) => e.event !== 'close' && blockOf(e) <= target),
    );
    const got = segments.flat();
    // blocks: every height from start to target exactly once, in order
    expect(blockHeights(got)).toEqual(range(start, target));
    expect(new Set(got.map((e) => e.id)).size).toBe(got.length);

    // txs: exactly the txs of bob's feed in [start, target], in chain order, as /v1/txs/{hash} answers them
    const feed = (await bobFeed()).filter((e) => (e.height as number) >= start && (e.height as number) <= target);
    const chainOrder = [...feed].reverse();
    const feedTxs = [...new Set(chainOrder.filter((e) => e.tx_hash !== null).map((e) => e.tx_hash as string))];
    const txEvents = ofKind(got, 'tx').map((e) => data<{ hash: string }>(e));
    expect(feedTxs.length).toBeGreaterThan(15);
    expect(txEvents.map((t) => t.hash)).toEqual(feedTxs);
    for (const tx of txEvents) expect(tx).toEqual(await world.rest(`/v1/txs/${tx.hash}`));
    // activity: the feed's items, oldest first
    expect(ofKind(got, 'activity').map((e) => data(e))).toEqual(chainOrder);
    // within a height: block, then txs, then activity
    for (const segment of segments) expect(segment.map(orderKey)).toEqual([...segment.map(orderKey)].sort(byKey));
  });

  it('the unfiltered stream sends a block event for every new height, never before the store has it', async () => {
    const b = adapters.at(-1)!;
    const chain = await open(b.url + '/v1/stream');
    const reads: Promise<[number, unknown, number]>[] = [];
    let seen = 0;
    await chain.waitFor('6 blocks', (ev) => {
      for (const e of ofKind(ev, 'block').slice(seen)) {
        const h = data<{ height: number }>(e).height;
        // read as soon as the event is parsed: the store must already hold that height
        reads.push(
          Promise.all([
            h,
            world.rest(`/v1/blocks/${h}`).then((d: { block: unknown }) => d.block),
            world.rest('/v1/status').then((s: { indexed_height: number }) => s.indexed_height),
          ]),
        );
      }
      seen = ofKind(ev, 'block').length;
      return seen >= 6;
    });
    chain.close();
    expect(ofKind(chain.events, 'tx').length + ofKind(chain.events, 'activity').length).toBe(0);
    const heights = blockHeights(chain.events);
    expect(heights).toEqual(range(heights[0], heights[0] + heights.length - 1));
    for (const [i, [h, block, indexed]] of (await Promise.all(reads)).entries()) {
      expect(block).toEqual(data(ofKind(chain.events, 'block')[i]));
      expect(indexed).toBeGreaterThanOrEqual(h);
    }
  });

  it('refuses bad filters and ids with a JSON 400 (410 for a resume point too old) before any stream byte', async () => {
    const b = adapters.at(-1)!;
    const blocksCursor = writeCursor(CURSORS.blocks, [5]);
    const good = encodeEventId(blockPosition(world.chain.height - 2));
    const cases: [string, Record<string, string>][] = [
      ['/v1/stream?account=svc1notanaddress', {}],
      ['/v1/stream?asset=ABC', {}],
      ['/v1/stream?method=foo', {}],
      [`/v1/stream?account=${k.bob.address}&asset=${asset.assetId}`, {}],
      [`/v1/stream?account=${k.bob.address}&account=${k.bob.address}`, {}],
      ['/v1/stream?after=garbage!', {}],
      [`/v1/stream?after=${blocksCursor}`, {}],
      [`/v1/stream?after=${good}`, { 'Last-Event-ID': 'not-a-cursor' }],
    ];
    for (const [path, headers] of cases) {
      const answer = await refused(b.url + path, headers);
      expect([path, answer.status, JSON.parse(answer.body).code]).toEqual([path, 400, 'bad_request']);
    }
    const head = await fetch(`${b.url}/v1/stream`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([
      200,
      'text/event-stream; charset=utf-8',
      '',
    ]);
    const short = await startAdapter({ replayMaxBlocks: 5 });
    const old = await refused(`${short.url}/v1/stream?after=${encodeEventId(blockPosition(1))}`);
    expect([old.status, JSON.parse(old.body).code]).toEqual([410, 'cursor_expired']);
  });

  it('gives 429 beyond the per-address limit, and a slot again once a stream ends', async () => {
    const c = await startAdapter({ maxPerClient: 2 });
    const one = await open(c.url + '/v1/stream');
    await open(c.url + '/v1/stream');
    const third = await refused(c.url + '/v1/stream');
    expect([third.status, JSON.parse(third.body).code, third.headers['retry-after']]).toEqual([
      429,
      'too_many_requests',
      '2',
    ]);
    one.close();
    for (let i = 0; ; i++) {
      const again = await openSse(c.url + '/v1/stream');
      if (isStream(again)) {
        streams.push(again);
        break;
      }
      if (i > 40) throw new Error(`no slot after a stream ended: ${again.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it('sends a client that stops reading a final close event and ends it, while the others go on', async () => {
    // the grace outlasts the test's wait for the reader, however loaded the machine: the stalled
    // client's final event is still there when it reads again
    const c = await startAdapter({ maxBufferBytes: 64 * 1024, closeGraceMs: 300_000 });
    const follow = `/v1/stream?account=${k.bob.address}`;
    const stalled = await open(c.url + follow);
    const reader = await open(c.url + follow);
    await stalled.waitFor('a first block', (ev) => lastBlock(ev) > 0);
    stalled.pause();
    // heavy txs to bob until the stalled client's unsent bytes pass the bound (after the kernel's buffers)
    const senders = [k.alice, k.carol, k.dave];
    const heavy = (from: TestKey) => Array.from({ length: 120 }, () => transfer(from, k.bob));
    for (let round = 0; round < HEAVY_ROUNDS; round++)
      await Promise.all(senders.map((from) => world.submit(from, heavy(from))));
    const sent = world.chain.height;
    await world.waitIndexed(sent);
    await reader.waitFor('the heavy txs', (ev) => lastBlock(ev) >= sent);
    const cut = lastBlock(reader.events);
    stalled.resume(); // read what was sent before the end (within its grace): the final event is there
    await Promise.race([
      stalled.end,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the stalled client was not closed')), 15_000)),
    ]);
    console.log(`slow client: got ${stalled.bytes} bytes, the reader ${reader.bytes}`);
    const last = stalled.events.at(-1)!;
    expect([last.event, data(last).code]).toEqual(['close', 'slow_client']);
    // it was cut off: it got less than the reader, whose stream goes on
    expect(lastBlock(stalled.events)).toBeLessThan(cut);
    expect(stalled.bytes).toBeLessThan(reader.bytes);
    await reader.waitFor('blocks after the cut', (ev) => lastBlock(ev) >= cut + 3);
    expect(reader.ended).toBe(false);
  });
});

async function until1stBlock(s: SseStream): Promise<number> {
  await s.waitFor('a first block', (ev) => ofKind(ev, 'block').length > 0);
  return blockHeights(s.events)[0];
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

function blockOf(e: SseEvent): number {
  return data<{ height: number }>(e).height;
}

const PART: Record<string, number> = { block: 0, tx: 1, activity: 2 };
type Key = [number, number, number, number];
function orderKey(e: SseEvent): Key {
  const d = data<{ height: number; tx_index?: number; event_index?: number }>(e);
  return [d.height, PART[e.event], d.tx_index ?? -1, d.event_index ?? -1];
}
function byKey(a: Key, b: Key): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3];
}
