/**
 * Keyset paging on the node-built store: /v1/txs (openapi.yaml, the txs paging parameters: next/prev/last
 * cursors, total from the counters, method filter), then every other paged list:
 * no duplicate, no gap, the documented order, the documented page sizes.
 */
import { Api, startApi, walkPages, withCursor } from './api';
import { chainTxHashes } from './chain';

jest.setTimeout(300_000);

interface TxLite {
  hash: string;
  height: number;
  tx_index: number;
  code: number;
  msgs: { '@type': string }[];
}

interface TxPageBody {
  txs: TxLite[];
  total: number;
  next_cursor: string | null;
  prev_cursor: string | null;
  last_cursor: string | null;
  methods: { method: string; count: number }[];
}

const key = (t: { height: number; tx_index: number }) => t.height * 1e6 + t.tx_index;

function expectStrictlyDescending<T>(items: T[], order: (a: T, b: T) => number): void {
  for (let i = 1; i < items.length; i++) expect(order(items[i - 1], items[i])).toBeGreaterThan(0);
}

describe('paging on the node-built store', () => {
  let api: Api;
  let chainTxs: { hash: string; height: number; txIndex: number }[];

  beforeAll(async () => {
    api = await startApi();
    chainTxs = await chainTxHashes(api.store.devnetUrl, api.store.chainHeight);
  });
  afterAll(() => api?.close());

  describe('/v1/txs', () => {
    it('the chain has enough txs for multi-page walks, failed ones included', () => {
      expect(chainTxs.length).toBe(api.store.summary.txs.total);
      expect(chainTxs.length).toBeGreaterThan(500);
      expect(api.store.summary.txs.failed).toBeGreaterThan(0);
    });

    it.each([7, 20, 100, 13])('walks every tx of the chain once, newest first, with limit %i', async (limit) => {
      const pages = await walkPages<TxPageBody>(api, `/v1/txs?limit=${limit}`);
      const txs = pages.flatMap((p) => p.txs);
      const total = pages[0].total;
      expect(total).toBe(chainTxs.length);
      expect(txs).toHaveLength(total);
      expect(new Set(txs.map((t) => t.hash)).size).toBe(total); // no duplicate
      expect(txs.map((t) => t.hash)).toEqual([...chainTxs].reverse().map((t) => t.hash)); // no gap, chain order reversed
      expectStrictlyDescending(txs, (a, b) => key(a) - key(b));
      pages.slice(0, -1).forEach((p) => expect(p.txs).toHaveLength(limit));
      expect(pages[pages.length - 1].txs).toHaveLength(total % limit || limit);
      expect(txs.filter((t) => t.code !== 0)).toHaveLength(api.store.summary.txs.failed);
      for (const p of pages) {
        expect(p.total).toBe(total);
        expect(p.last_cursor).toBe(pages[0].last_cursor);
      }
      expect(pages[0].prev_cursor).toBeNull();
      expect(pages[pages.length - 1].next_cursor).toBeNull();
    });

    it.each([7, 20, 100])(
      'last_cursor opens the oldest page and prev_cursor walks back to the newest (limit %i)',
      async (limit) => {
        const forward = await walkPages<TxPageBody>(api, `/v1/txs?limit=${limit}`);
        const first = forward[0];
        expect(first.last_cursor).not.toBeNull();
        const backward: TxPageBody[] = [];
        let path: string | null = `/v1/txs?limit=${limit}&cursor=${first.last_cursor}`;
        while (path) {
          const page: TxPageBody = await api.ok(path);
          backward.push(page);
          path = page.prev_cursor === null ? null : withCursor(`/v1/txs?limit=${limit}`, page.prev_cursor);
        }
        expect(backward.map((p) => p.txs.map((t) => t.hash))).toEqual(
          [...forward].reverse().map((p) => p.txs.map((t) => t.hash)),
        );
        expect(backward[0].txs).toHaveLength(first.total % limit || limit);
        expect(backward[0].next_cursor).toBeNull();
        expect(backward[backward.length - 1].prev_cursor).toBeNull();
        // a prev page's next_cursor goes forward again
        const second = forward[1];
        const back: TxPageBody = await api.ok(`/v1/txs?limit=${limit}&cursor=${second.prev_cursor}`);
        expect(back.txs).toEqual(first.txs);
        expect(back.prev_cursor).toBeNull();
        expect((await api.ok<TxPageBody>(`/v1/txs?limit=${limit}&cursor=${back.next_cursor}`)).txs).toEqual(second.txs);
      },
    );

    it('a limit that divides the total exactly makes the oldest page a full page', async () => {
      const total = chainTxs.length;
      const limit = [100, 99, 98, 97, 96, 95, 90, 80, 75, 60, 50, 49, 40, 30, 25, 20].find((l) => total % l === 0) ?? 1;
      const first: TxPageBody = await api.ok(`/v1/txs?limit=${limit}`);
      const last: TxPageBody = await api.ok(`/v1/txs?limit=${limit}&cursor=${first.last_cursor}`);
      expect(last.txs).toHaveLength(limit);
      expect(last.txs[last.txs.length - 1].hash).toBe(chainTxs[0].hash);
    });

    it('has no last_cursor when everything fits one page', async () => {
      const [method, count] = Object.entries(api.store.summary.firstMessages).find(([, n]) => n > 1 && n <= 100)!;
      const page: TxPageBody = await api.ok(`/v1/txs?limit=100&method=${encodeURIComponent(method)}`);
      expect(page.total).toBe(count);
      expect(page).toMatchObject({ next_cursor: null, prev_cursor: null, last_cursor: null });
    });

    it('method keeps txs whose first message has that type; total counts them; methods stays whole-chain', async () => {
      const whole: TxPageBody = await api.ok('/v1/txs?limit=1');
      const expected = Object.entries(api.store.summary.firstMessages)
        .map(([method, count]) => ({ method, count }))
        .sort((a, b) => b.count - a.count || (a.method < b.method ? -1 : 1));
      expect(whole.methods).toEqual(expected);
      for (const { method, count } of expected.filter((m) => m.count >= 5).slice(0, 6)) {
        const limit = Math.min(100, Math.max(2, Math.ceil(count / 3)));
        const pages = await walkPages<TxPageBody>(api, `/v1/txs?limit=${limit}&method=${encodeURIComponent(method)}`);
        const txs = pages.flatMap((p) => p.txs);
        expect(pages[0].total).toBe(count);
        expect(txs).toHaveLength(count);
        expect(new Set(txs.map((t) => t.hash)).size).toBe(count);
        txs.forEach((t) => expect(t.msgs[0]['@type']).toBe(method));
        expectStrictlyDescending(txs, (a, b) => key(a) - key(b));
        expect(pages[pages.length - 1].txs).toHaveLength(count % limit || limit);
        pages.forEach((p) => expect(p.methods).toEqual(expected));
        const last: TxPageBody = await api.ok(
          `/v1/txs?limit=${limit}&method=${encodeURIComponent(method)}&cursor=${pages[0].last_cursor}`,
        );
        expect(last.txs).toEqual(pages[pages.length - 1].txs);
      }
    });

    it('an unseen but well-formed method is an empty page with total 0', async () => {
      const page: TxPageBody = await api.ok('/v1/txs?method=/svc.nothing.v1.MsgNothing');
      expect(page).toMatchObject({ txs: [], total: 0, next_cursor: null, prev_cursor: null, last_cursor: null });
      expect(page.methods.length).toBeGreaterThan(0);
    });
  });

  it('/v1/blocks walks every block once, height descending', async () => {
    const pages = await walkPages<{ blocks: { height: number; tx_count: number }[]; next_cursor: string | null }>(
      api,
      '/v1/blocks?limit=33',
    );
    const heights = pages.flatMap((p) => p.blocks.map((b) => b.height));
    expect(heights).toEqual(Array.from({ length: api.store.chainHeight }, (_, i) => api.store.chainHeight - i));
    expect(pages.flatMap((p) => p.blocks).reduce((n, b) => n + b.tx_count, 0)).toBe(chainTxs.length);
  });

  it('/v1/assets walks every asset once, by id', async () => {
    const pages = await walkPages<{ assets: { id: string }[]; next_cursor: string | null }>(api, '/v1/assets?limit=2');
    const ids = pages.flatMap((p) => p.assets.map((a) => a.id));
    expect(ids).toEqual(api.store.summary.assets.map((a) => a.assetId).sort());
  });

  describe('holders', () => {
    it.each([1, 3, 100])(
      'every holder with units > 0 once, by units desc then holder asc (limit %i)',
      async (limit) => {
        const { assets } = await api.ok<{ assets: { id: string; kind_count: number }[] }>('/v1/assets?limit=100');
        let walked = 0;
        for (const asset of assets) {
          const { asset: detail } = await api.ok(`/v1/assets/${asset.id}`);
          for (const kind of detail.kinds as { kind_id: number; holder_count: number }[]) {
            const pages = await walkPages<{ holders: { holder: string; units: string }[]; next_cursor: string | null }>(
              api,
              `/v1/assets/${asset.id}/kinds/${kind.kind_id}/holders?limit=${limit}`,
            );
            const holders = pages.flatMap((p) => p.holders);
            expect(holders).toHaveLength(kind.holder_count);
            expect(new Set(holders.map((h) => h.holder)).size).toBe(holders.length);
            holders.forEach((h) => expect(BigInt(h.units)).toBeGreaterThan(0n));
            expectStrictlyDescending(holders, (a, b) => {
              const d = BigInt(a.units) - BigInt(b.units);
              return d !== 0n ? Number(d > 0n) * 2 - 1 : a.holder < b.holder ? 1 : -1;
            });
            walked += holders.length;
          }
        }
        expect(walked).toBeGreaterThan(20);
      },
    );
  });

  it('an activity feed walks every entry once, newest first on (height, tx_index, event_index)', async () => {
    type Feed = {
      events: { height: number; tx_index: number; event_index: number; tx_hash: string | null; mode?: string }[];
      next_cursor: string | null;
    };
    const busiest = api.store.summary.assets[0].assetId;
    const all = (await walkPages<Feed>(api, `/v1/assets/${busiest}/events?limit=100`)).flatMap((p) => p.events);
    expect(all.length).toBeGreaterThan(50);
    const order = (a: Feed['events'][0], b: Feed['events'][0]) =>
      a.height - b.height || a.tx_index - b.tx_index || a.event_index - b.event_index;
    expectStrictlyDescending(all, order);
    all
      .filter((e) => e.tx_index === -1)
      .forEach((e) =>
        expect(e).toMatchObject({ tx_hash: null, mode: expect.stringMatching(/^(BeginBlock|EndBlock)$/) }),
      );
    for (const limit of [1, 7, 50]) {
      const pages = await walkPages<Feed>(api, `/v1/assets/${busiest}/events?limit=${limit}`);
      expect(pages.flatMap((p) => p.events)).toEqual(all);
      pages.slice(0, -1).forEach((p) => expect(p.events).toHaveLength(limit));
    }
    const account = Object.values(api.store.summary.accounts)[0];
    const accountPages = await walkPages<Feed>(api, `/v1/accounts/${account}/events?limit=9`);
    const accountEvents = accountPages.flatMap((p) => p.events);
    expect(accountEvents.length).toBeGreaterThan(9);
    expectStrictlyDescending(accountEvents, order);
  });

  it('distributions, settlements and bridge transfers page without gaps, newest first', async () => {
    type Dist = {
      distributions: { height: number; tx_index: number; event_index: number }[];
      next_cursor: string | null;
    };
    let distributions = 0;
    for (const a of api.store.summary.assets) {
      const all = (await walkPages<Dist>(api, `/v1/assets/${a.assetId}/distributions?limit=100`)).flatMap(
        (p) => p.distributions,
      );
      const small = (await walkPages<Dist>(api, `/v1/assets/${a.assetId}/distributions?limit=4`)).flatMap(
        (p) => p.distributions,
      );
      expect(small).toEqual(all);
      expectStrictlyDescending(
        all,
        (x, y) => x.height - y.height || x.tx_index - y.tx_index || x.event_index - y.event_index,
      );
      distributions += all.length;
    }
    expect(distributions).toBe(api.store.summary.txEvents['svc.payout.v1.EventDistributed']);

    const settlements = (
      await walkPages<{ settlements: { id: number }[]; next_cursor: string | null }>(api, '/v1/settlements?limit=9')
    ).flatMap((p) => p.settlements);
    const total = Object.values(api.store.summary.statuses.settlement).reduce((n, c) => n + c, 0);
    expect(settlements).toHaveLength(total);
    expectStrictlyDescending(settlements, (a, b) => a.id - b.id);

    type Transfers = {
      transfers: { height: number; tx_index: number; event_index: number; status: string }[];
      next_cursor: string | null;
    };
    const transfers = (await walkPages<Transfers>(api, '/v1/bridge/transfers?limit=5')).flatMap((p) => p.transfers);
    const bridge = api.store.summary.bridge;
    const rejected = Object.values(bridge.rejected).reduce((n, c) => n + c, 0);
    expect(transfers).toHaveLength(bridge.out + bridge.in + rejected);
    expectStrictlyDescending(
      transfers,
      (a, b) => a.height - b.height || a.tx_index - b.tx_index || a.event_index - b.event_index,
    );
  });
});
