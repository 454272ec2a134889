/** The pure parts of GET /v1/stream (rest-adapter/stream/): ids, filters, framing, the writer's bound, limits, the hub's fan-out. */
import { EventEmitter } from 'events';
import { HeightWatcher } from '../../../rest-adapter/http/height-watcher';
import { CURSORS, writeCursor } from '../../../rest-adapter/paging/cursors';
import { StreamConnection, type StreamSink } from '../../../rest-adapter/stream/connection';
import { frameClose, frameEvent, frameOpening, type StreamEvent } from '../../../rest-adapter/stream/events';
import { filterKey, parseStreamFilter, type StreamFilter } from '../../../rest-adapter/stream/filter';
import { StreamHub } from '../../../rest-adapter/stream/hub';
import { drained } from '../../../rest-adapter/stream/route';
import { ConnectionLimits } from '../../../rest-adapter/stream/limits';
import {
  activityPosition,
  blockPosition,
  comparePositions,
  decodeEventId,
  encodeEventId,
  endOfHeight,
  txPosition,
} from '../../../rest-adapter/stream/position';
import type { StreamSource } from '../../../rest-adapter/stream/source';
import { encodeCursor } from '../../../src/lib/cursor';

const HRP = 'svc';
const BOB = 'svc1sxmr0k8u6trd5c6eu6trzyapzux7090yyq8xcp';
const ASSET = '8e3dd2ea9ff3da70862a52621f7c1dc81c2b184cb886a324a3f430ec11efd3f2';

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as { code?: string }).code;
  }
}

describe('stream event ids', () => {
  it('round-trip every kind of position and order them block, txs, activity within a height', () => {
    const ps = [
      blockPosition(7),
      txPosition(7, 0),
      txPosition(7, 3),
      activityPosition(7, -1, 0),
      activityPosition(7, 2, 5),
    ];
    for (const p of ps) expect(decodeEventId(encodeEventId(p))).toEqual(p);
    const sorted = [...ps].reverse().sort(comparePositions);
    expect(sorted).toEqual(ps);
    expect(comparePositions(activityPosition(7, 9, 9), endOfHeight(7))).toBeLessThan(0);
    expect(comparePositions(endOfHeight(7), blockPosition(8))).toBeLessThan(0);
  });

  it('refuse (400) what no event of this stream has: other lists, other shapes, a height end, garbage', () => {
    const refused = [
      'garbage!',
      writeCursor(CURSORS.blocks, [5]),
      encodeCursor('stream', [5, 3, 0, 0]), // a height end is never sent as an id
      encodeCursor('stream', [5, 0, 1, 0]), // a block has no tx index
      encodeCursor('stream', [5, 1, -1, 0]), // a tx has one
      encodeCursor('stream', [5, 1, 0, 2]),
      encodeCursor('stream', [5, 2, -2, 0]),
      encodeCursor('stream', [5, 0, 0]),
    ];
    for (const raw of refused) expect([raw, codeOf(() => decodeEventId(raw))]).toEqual([raw, 'bad_request']);
    expect(decodeEventId(undefined)).toBeNull();
  });
});

describe('stream filters', () => {
  it('take at most one of account, asset, method, an account parsed as the list routes parse it', () => {
    expect(parseStreamFilter({}, HRP)).toEqual({ kind: 'chain' });
    expect(parseStreamFilter({ account: BOB }, HRP)).toEqual({ kind: 'account', account: BOB });
    expect(parseStreamFilter({ asset: ASSET }, HRP)).toEqual({ kind: 'asset', assetId: ASSET });
    expect(parseStreamFilter({ method: '/svc.rights.v1.MsgTransfer' }, HRP)).toEqual({
      kind: 'method',
      method: '/svc.rights.v1.MsgTransfer',
    });
    for (const query of [
      { account: BOB, asset: ASSET },
      { asset: ASSET, method: '/svc.rights.v1.MsgTransfer' },
      { account: 'svc1nope' },
      { account: BOB.toUpperCase().slice(0, 10) },
      { account: [BOB, BOB] },
    ])
      expect([query, codeOf(() => parseStreamFilter(query, HRP))]).toEqual([query, 'bad_request']);
  });

  it('key connections so equal filters share a read', () => {
    expect(filterKey({ kind: 'account', account: BOB })).toBe(`account:${BOB}`);
    expect(filterKey({ kind: 'asset', assetId: ASSET })).toBe(`asset:${ASSET}`);
    expect(filterKey({ kind: 'method', method: '/a.B' })).not.toBe(filterKey({ kind: 'chain' }));
  });
});

const block = (height: number): StreamEvent => ({
  kind: 'block',
  position: blockPosition(height),
  data: { height, hash: 'AB', time: '2025-03-01T10:00:00Z', proposer: 'CD', tx_count: 0, event_count: 0 },
});

describe('stream framing', () => {
  it('writes id, event and one data line per event; the opening carries retry; close has no id', () => {
    const text = frameEvent(block(3));
    expect(text).toBe(
      `id: ${encodeEventId(blockPosition(3))}\nevent: block\ndata: {"height":3,"hash":"AB","time":"2025-03-01T10:00:00Z","proposer":"CD","tx_count":0,"event_count":0}\n\n`,
    );
    expect(frameOpening(2000)).toMatch(/^retry: 2000\n/);
    expect(frameClose('slow_client', 'too slow')).toBe(
      'event: close\ndata: {"error":"too slow","code":"slow_client"}\n\n',
    );
  });
});

/** A response stand-in: written text kept, `unsent` set by the test. */
class FakeSink extends EventEmitter {
  text = '';
  unsent = 0;
  ended = false;
  destroyed = false;
  get writableLength(): number {
    return this.unsent;
  }
  /** written bytes stay unsent until the test says the client took them */
  write(chunk: string): boolean {
    this.text += chunk;
    this.unsent += Buffer.byteLength(chunk);
    return true;
  }
  end(): this {
    this.ended = true;
    return this;
  }
  destroy(): this {
    this.destroyed = true;
    this.emit('close');
    return this;
  }
}

const sinkOf = (s: FakeSink) => s as unknown as StreamSink;

describe('StreamConnection', () => {
  it('sends only what lies after its position and marks whole heights served', () => {
    const sink = new FakeSink();
    const c = new StreamConnection(sinkOf(sink), { kind: 'chain' }, blockPosition(5), 1000);
    c.send([block(4), block(5), block(6)], 6);
    expect(sink.text.match(/event: block/g)).toHaveLength(1);
    expect(c.position).toEqual(endOfHeight(6));
    c.send([block(6)], 6);
    expect(sink.text.match(/event: block/g)).toHaveLength(1);
  });

  it('closes a client whose unsent bytes pass the bound with a final slow_client event', () => {
    const sink = new FakeSink();
    const c = new StreamConnection(sinkOf(sink), { kind: 'chain' }, endOfHeight(0), 100);
    expect(c.send([block(1)], 1)).toBe(true); // one write larger than the bound is not held against it
    expect([sink.unsent > 100, c.isOpen]).toEqual([true, true]);
    sink.unsent = 100; // the client took all but the bound
    expect(c.send([block(2)], 2)).toBe(true);
    sink.unsent = 101; // it left more than the bound of earlier writes when new events come
    expect(c.send([block(3)], 3)).toBe(false);
    expect(sink.text).not.toContain('"height":3');
    expect(sink.text.endsWith(frameClose('slow_client', JSON.parse(sink.text.split('data: ').at(-1)!).error))).toBe(
      true,
    );
    expect([sink.ended, c.isOpen]).toEqual([true, false]);
    expect(c.send([block(4)], 4)).toBe(false);
    sink.destroy();
  });

  it('heartbeats only after heartbeatMs without a write', () => {
    const sink = new FakeSink();
    const c = new StreamConnection(sinkOf(sink), { kind: 'chain' }, endOfHeight(0), 100);
    c.heartbeat(Date.now(), 60_000);
    expect(sink.text).toBe('');
    c.heartbeat(Date.now() + 60_000, 60_000);
    expect(sink.text).toBe(': heartbeat\n\n');
  });
});

describe('ConnectionLimits', () => {
  it('bounds streams per client address and in total, and gives slots back', () => {
    const limits = new ConnectionLimits(3, 2);
    expect([limits.acquire('a'), limits.acquire('a'), limits.acquire('a')]).toEqual([
      undefined,
      undefined,
      'per_client',
    ]);
    expect([limits.acquire('b'), limits.acquire('c')]).toEqual([undefined, 'total']);
    limits.release('a');
    expect(limits.acquire('c')).toBeUndefined();
    limits.release('zzz'); // never acquired: no slot appears
    expect(limits.acquire('d')).toBe('total');
    expect(limits.open).toBe(3);
  });
});

describe('StreamHub', () => {
  /** A height the test moves, a source that counts its reads. */
  function setup() {
    let height = 10;
    const watcher = new HeightWatcher(async () => ({ indexedHeight: height, blockIntervalMs: null }), 60_000);
    const reads: string[] = [];
    const gate = { open: Promise.resolve() };
    const source = {
      blocks: async (after: number, through: number) => {
        reads.push(`blocks ${after}..${through}`);
        await gate.open;
        const out: StreamEvent[] = [];
        for (let h = after + 1; h <= through; h++) out.push(block(h));
        return out;
      },
      filtered: async (filter: StreamFilter, after: number, through: number) => {
        reads.push(`${filterKey(filter)} ${after}..${through}`);
        if (filter.kind === 'method' && filter.method === '/broken.Msg') throw new Error('read failed');
        return [];
      },
    } as unknown as StreamSource;
    const hub = new StreamHub(watcher, source, { heartbeatMs: 60_000 }, { error: () => undefined });
    const moveTo = async (h: number) => {
      height = h;
      await watcher.poll();
      await hub.idle();
    };
    return { watcher, hub, reads, moveTo, gate, poll: (h: number) => ((height = h), watcher.poll()) };
  }

  function connect(hub: StreamHub, filter: StreamFilter, from: number) {
    const sink = new FakeSink();
    const c = new StreamConnection(sinkOf(sink), filter, endOfHeight(from), 1 << 20);
    hub.register(c, undefined);
    hub.join(c);
    return sink;
  }

  it('reads each new height range once per distinct filter and sends every height in order to each connection', async () => {
    const { watcher, hub, reads, moveTo } = setup();
    expect(await hub.deliveredHeight()).toBe(10);
    const bob = { kind: 'account', account: BOB } as const;
    const sinks = [connect(hub, bob, 10), connect(hub, bob, 10), connect(hub, { kind: 'chain' }, 10)];
    await moveTo(13);
    expect(reads.sort()).toEqual([`account:${BOB} 10..13`, 'blocks 10..13', 'chain 10..13']);
    for (const sink of sinks)
      expect(sink.text.match(/"height":\d+/g)).toEqual(['"height":11', '"height":12', '"height":13']);
    watcher.stop();
  });

  it('ends only the streams of a filter whose read fails; the others get the height', async () => {
    const { watcher, hub, moveTo } = setup();
    await hub.deliveredHeight();
    const broken = connect(hub, { kind: 'method', method: '/broken.Msg' }, 10);
    const fine = connect(hub, { kind: 'chain' }, 10);
    await moveTo(11);
    expect(broken.text).toContain('"code":"unavailable"');
    expect(fine.text).toContain('"height":11');
    expect(fine.ended).toBe(false);
    watcher.stop();
  });

  it('refuses a join while a batch runs, and ends every stream when the store goes back', async () => {
    const { watcher, hub, moveTo, gate, poll } = setup();
    await hub.deliveredHeight();
    const sink = connect(hub, { kind: 'chain' }, 10);
    await moveTo(12);
    const other = new StreamConnection(sinkOf(new FakeSink()), { kind: 'chain' }, endOfHeight(12), 1 << 20);
    let release = () => undefined as void;
    gate.open = new Promise<void>((r) => (release = r));
    await poll(14);
    expect(hub.busy).toBe(true);
    expect(() => hub.join(other)).toThrow('while a batch runs');
    release();
    await hub.idle();
    expect(sink.text.match(/"height":\d+/g)).toEqual(['"height":11', '"height":12', '"height":13', '"height":14']);
    await moveTo(5);
    expect(sink.text).toContain('"code":"resync"');
    expect(sink.ended).toBe(true);
    watcher.stop();
  });
});

describe('drained (pacing of a replay)', () => {
  it('does not wait on bytes in flight when no write was refused (no drain would ever come)', async () => {
    const res = Object.assign(new EventEmitter(), { writableNeedDrain: false, writableLength: 4096 });
    await expect(drained(res, 60_000)).resolves.toBe(true);
  });

  it('waits for drain after a refused write, and gives up after the interval', async () => {
    const res = Object.assign(new EventEmitter(), { writableNeedDrain: true });
    const waiting = drained(res, 60_000);
    res.emit('drain');
    await expect(waiting).resolves.toBe(true);
    await expect(drained(Object.assign(new EventEmitter(), { writableNeedDrain: true }), 10)).resolves.toBe(false);
  });
});
