/**
 * The trade desk end to end: the devnet live, the real SubQuery node indexing it, the desk
 * acting through the app services, real HTTP validated against app-services/openapi.yaml,
 * and the chain state read through /v1 and the chain's balances.
 */
import { spawn, type ChildProcess } from 'child_process';
import path from 'path';
import { APP_SERVICES_DEFAULTS } from '../../../app-services/config';
import { ChainQueries } from '../../../app-services/chain/queries';
import { KeySecret } from '../../../app-services/keys';
import { documentHash, parseMetadataDocument } from '../../../app-services/launchpad/document';
import { STABLE_DENOM, type TestKey } from '../../harness/app-chain';
import { launchEquity, startLiveWorld, type EquityAsset, type LiveWorld, type Msg } from '../../harness/live-world';
import { until as waitFor } from '../../harness/until';
import { startAppApi, type AppApi } from './api';
import { toBech32 } from '../../../src/lib/address';
import { randomBytes } from 'crypto';

jest.setTimeout(120_000);

const REPO = path.resolve(__dirname, '..', '..', '..');
const WHOLE = 1_000_000n;
const DOC = {
  name: 'Desk Test Works',
  symbol: 'DTW',
  description: 'An equity test asset for the desk. Testnet only; it has no value.',
  template: 'equity',
};
const parsed = parseMetadataDocument(DOC);
if (!parsed.ok) throw new Error(parsed.error);

let world: LiveWorld;
let asset: EquityAsset;
let api: AppApi;
let k: Record<'desk' | 'issuer' | 'alice' | 'bob' | 'carol' | 'dave' | 'crash', TestKey>;

beforeAll(async () => {
  world = await startLiveWorld({ keys: ['desk', 'issuer', 'alice', 'bob', 'carol', 'dave', 'crash'] });
  k = world.keys as typeof k;
  asset = await launchEquity(world, {
    issuer: k.issuer,
    metaHash: documentHash(parsed.ok ? parsed.doc : (undefined as never)),
    holders: ['desk', 'alice', 'bob', 'carol', 'dave', 'crash'].map((name) => ({
      key: world.keys[name],
      units: (name === 'desk' ? 1000n : 10_000n) * WHOLE,
    })),
    // 2 stable units per whole share, 200,000 deep: the desk's 1,000 shares (2,000 at mid) leave it room to buy
    poolShares: 100_000n,
    poolQuote: 200_000_000_000n,
  });
  await world.waitIndexed();
  api = await startAppApi({
    database: { pool: world.pool, url: world.db.url },
    chain: { rpcUrl: world.rpcUrl },
    devnetDocuments: [DOC],
    settings: {
      keys: { desk: new KeySecret(k.desk.hex, 'DESK_KEY') },
      inclusionTimeoutMs: 10_000,
      reconcileMs: 500,
      lockRetryMs: 200,
      desk: { ...APP_SERVICES_DEFAULTS.desk, rfqLimit: 3, pollMs: 250, quoteCacheMs: 0 },
      market: { ...APP_SERVICES_DEFAULTS.market, windowBlocks: 3, minPoolAgeBlocks: 1 },
    },
  });
  await until('the desk to act', async () => (api.services.actor('desk')?.acting ? true : undefined));
  await until('the pool old enough and its price window filled', async () => {
    const r = await api.request<{ quotes: { symbol: string }[] }>('GET', '/api/desk/quotes');
    return r.body.quotes.some((q) => q.symbol === 'DTW') ? true : undefined;
  });
});

afterAll(async () => {
  await api?.close();
  await world?.close();
});

const until = <T>(what: string, probe: () => Promise<T | undefined>) =>
  waitFor(what, probe, { ms: 30_000, context: () => `app errors: ${api?.errors.join('\n')}` });

interface QuoteBody {
  symbol: string;
  kind: number;
  bid: string | null;
  ask: string | null;
  mid: string;
}

interface RfqAnswer {
  settlement_id: number;
  instrument: string;
  side: string;
  units: string;
  price: string;
  amount: string;
}

const rfq = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api.postJson<RfqAnswer & { code: string; error: string }>('/api/desk/rfq', body, headers);
const transferable = (holder: string, kind: number) =>
  new ChainQueries(world.rpcUrl).transferable(asset.assetId, kind, holder);

async function settlement(id: number) {
  await world.waitIndexed();
  return (
    await world.rest<{
      settlement: { status: string; proposer: string; counterparty: string; legs: Record<string, unknown>[] };
    }>(`/v1/settlements/${id}`)
  ).settlement;
}

const accept = (key: TestKey, id: number) =>
  world.submit(key, [
    { typeUrl: '/svc.settlement.v1.MsgAccept', value: { counterparty: key.address, settlement_id: String(id) } },
  ]);

test('quotes: the pool mid, 60/30/10 per kind, 2 % either side', async () => {
  const r = await api.request<{ quotes: QuoteBody[] }>('GET', '/api/desk/quotes');
  expect(r.status).toBe(200);
  const mine = r.body.quotes.filter((q) => q.symbol === 'DTW').map((q) => [q.kind, q.mid, q.bid, q.ask]);
  expect(mine).toEqual([
    [-1, '2000000', '1960000', '2040000'],
    [0, '1200000', '1176000', '1224000'],
    [1, '600000', '588000', '612000'],
    [2, '200000', '196000', '204000'],
  ]);
});

test('RFQ sell: the desk escrows the stable denom at its bid; the requester accepts and both sides move in one block', async () => {
  const deskCash = world.balance(k.desk.address);
  const r = await rfq({
    address: k.alice.address,
    symbol: 'DTW',
    kind: -1,
    side: 'sell',
    units: (10n * WHOLE).toString(),
  });
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({
    instrument: 'DTW',
    side: 'sell',
    units: '10000000',
    price: '1960000',
    amount: '19600000',
  });
  expect(deskCash - world.balance(k.desk.address)).toBe(19_600_000n); // escrowed at propose
  const s = await settlement(r.body.settlement_id);
  expect(s).toMatchObject({ status: 'STATUS_PENDING', proposer: k.desk.address, counterparty: k.alice.address });
  expect(s.legs).toEqual([
    { direction: 'LEG_DIRECTION_GIVE', coin: { denom: STABLE_DENOM, amount: '19600000' } },
    ...[0, 1, 2].map((kind) => ({
      direction: 'LEG_DIRECTION_ASK',
      right: { asset_id: asset.assetId, kind_id: kind, units: '10000000' },
    })),
  ]);
  const aliceCash = world.balance(k.alice.address);
  const accepted = await accept(k.alice, r.body.settlement_id);
  expect(accepted.code).toBe(0);
  expect(world.balance(k.alice.address) - aliceCash).toBe(19_600_000n);
  for (const kind of [0, 1, 2]) expect(await transferable(k.desk.address, kind)).toBe(1_010n * WHOLE);
  expect((await settlement(r.body.settlement_id)).status).toBe('STATUS_SETTLED');
});

test('RFQ buy: the desk escrows the units at its ask; the requester pays in the accepting block', async () => {
  const before = await transferable(k.desk.address, 0);
  const r = await rfq({ address: k.bob.address, symbol: 'DTW', kind: 0, side: 'buy', units: (5n * WHOLE).toString() });
  expect(r.body).toMatchObject({
    instrument: 'DTW.0',
    side: 'buy',
    units: '5000000',
    price: '1224000',
    amount: '6120000',
  });
  expect(before - (await transferable(k.desk.address, 0))).toBe(5n * WHOLE);
  const bobCash = world.balance(k.bob.address);
  expect((await accept(k.bob, r.body.settlement_id)).code).toBe(0);
  expect(bobCash - world.balance(k.bob.address)).toBe(6_120_000n);
  expect(await transferable(k.bob.address, 0)).toBe(10_005n * WHOLE);
});

/** `from`'s offer to the desk: `shares` whole shares of the asset (DTW unless named) for `amount` of the stable denom. */
function offer(amount: bigint, shares: bigint, from = k.carol, assetId = asset.assetId): Msg {
  return {
    typeUrl: '/svc.settlement.v1.MsgPropose',
    value: {
      proposer: from.address,
      counterparty: k.desk.address,
      legs: [
        ...[0, 1, 2].map((kind) => ({
          direction: 'LEG_DIRECTION_GIVE',
          right: { asset_id: assetId, kind_id: kind, units: (shares * WHOLE).toString() },
        })),
        { direction: 'LEG_DIRECTION_ASK', coin: { denom: STABLE_DENOM, amount: amount.toString() } },
      ],
      expiry: new Date(Date.now() + 600_000).toISOString(),
    },
  };
}

test('auto-accept: an offer at the bid is accepted within a few blocks; one a base unit above it is cancelled', async () => {
  const atBid = await world.submit(k.carol, [offer(3_920_000n, 2n)]);
  const aboveBid = await world.submit(k.carol, [offer(3_920_001n, 2n)]);
  const [good, bad] = [Number(atBid.responses[0].settlement_id), Number(aboveBid.responses[0].settlement_id)];
  const proposedAt = atBid.height;
  const settled = await until('the offer at the bid to settle', async () =>
    (await settlement(good)).status === 'STATUS_SETTLED' ? true : undefined,
  );
  expect(settled).toBe(true);
  expect(
    await until('the offer above the bid to be cancelled', async () => {
      const s = await settlement(bad);
      return s.status === 'STATUS_PENDING' ? undefined : s.status;
    }),
  ).toBe('STATUS_CANCELLED');
  const acceptedAt = (
    await world.rest<{ settlement: { timeline: { event: string; height: number }[] } }>(`/v1/settlements/${good}`)
  ).settlement.timeline.find((t) => t.event === 'settled')!.height;
  expect(acceptedAt - proposedAt).toBeLessThanOrEqual(15); // within a few seconds (300 ms blocks)
  // the refusal says it with the figures: the amount the offer asks and the desk's bid
  const offers = await api.request<{
    offers: { settlement_id: number; verdict: string; reason: string | null; detail: string | null }[];
  }>('GET', `/api/desk/offers?address=${k.carol.address}`);
  expect(offers.status).toBe(200);
  const refused = offers.body.offers.find((o) => o.settlement_id === bad);
  expect(refused?.reason).toBe('worse_than_quote');
  expect(['refused', 'cancelled']).toContain(refused!.verdict); // cancelled once the desk has seen its cancel
  expect(refused!.detail).toMatch(/asks 3920001 for 2000000 base units of DTW; the desk bids 1960000 per whole unit/);
  expect(refused!.detail).toMatch(/pays at most 3920000/);
});

test('from the chain, not the index: with the indexer stopped, an offer is accepted within a couple of blocks of its own', async () => {
  const paused = await world.pauseIndexer();
  try {
    const proposed = await world.submit(k.carol, [offer(3_920_000n, 2n)]);
    const id = BigInt(String(proposed.responses[0].settlement_id));
    const acceptTx = await until('the desk to accept the offer', async () => {
      const { rows } = await world.pool.query<{ tx_hash: string }>(
        `SELECT tx_hash FROM app.intents WHERE id LIKE $1 AND status = 'committed'`,
        [`desk/accept/${id}%`],
      );
      return rows[0]?.tx_hash;
    });
    expect((await new ChainQueries(world.rpcUrl).settlement(id))?.status).toBe('STATUS_SETTLED');
    const acceptedAt = world.chain.tx(acceptTx)!.height;
    expect(acceptedAt - proposed.height).toBeLessThanOrEqual(4); // at 300 ms blocks: the watcher, a pass, the next blocks
    expect(paused).toBeLessThan(proposed.height); // the index never saw the offer
  } finally {
    world.resumeIndexer();
  }
});

test.each([
  ['an unknown symbol', { symbol: 'NOPE' }, /symbol/],
  ['an unknown kind', { kind: 7 }, /kind 7/],
  ['a kind that is not an integer', { kind: '0' }, /kind/],
  ['a bad side', { side: 'hold' }, /side/],
  ['zero units', { units: '0' }, /units/],
  ['fractional units', { units: '1.5' }, /units/],
  ['units as a number', { units: 5 }, /units/],
  ['a malformed address', { address: 'svc1nope' }, /address/],
  ['above 5000 stable units', { units: (3000n * WHOLE).toString() }, /trade cap/],
  ["beyond the desk's inventory", { side: 'buy', kind: 2, units: (20_000n * WHOLE).toString() }, /inventory/],
  ['an unknown field', { price: '1' }, /price/],
  ['no address', { address: undefined }, /^address is required/],
  ['no units', { units: undefined }, /^units is required/],
])('%s answers 400', async (_what, change, message) => {
  const r = await rfq({
    address: k.dave.address,
    symbol: 'DTW',
    kind: -1,
    side: 'sell',
    units: WHOLE.toString(),
    ...change,
  });
  expect([r.status, r.body.code]).toEqual([400, 'bad_request']);
  expect(r.body.error).toMatch(message);
});

test('an asset_id and a symbol that name different assets answer 400 saying which the asset_id is', async () => {
  const r = await rfq({
    address: k.dave.address,
    asset_id: asset.assetId,
    symbol: 'LTW',
    kind: -1,
    side: 'sell',
    units: WHOLE.toString(),
  });
  expect([r.status, r.body.code]).toEqual([400, 'bad_request']);
  expect(r.body.error).toMatch(new RegExp(`^asset ${asset.assetId} is DTW, not LTW`));
});

test('a sell RFQ from an address that holds none of the units answers 400 undeliverable, and reserves nothing', async () => {
  const stranger = toBech32(randomBytes(20), 'svc');
  const r = await rfq({ address: stranger, symbol: 'DTW', kind: -1, side: 'sell', units: WHOLE.toString() });
  expect([r.status, r.body.code, (r.body as { reason?: string }).reason]).toEqual([
    400,
    'bad_request',
    'undeliverable',
  ]);
  expect(r.body.error).toMatch(/holds 0 units/);
  const { rows } = await world.pool.query('SELECT 1 FROM app.rfqs WHERE requester = $1', [stranger]);
  expect(rows).toEqual([]);
});

test('the fourth RFQ of an address in 10 minutes answers 429 with Retry-After; another address is still served', async () => {
  for (let i = 0; i < 3; i++)
    expect(
      (await rfq({ address: k.dave.address, symbol: 'DTW', kind: 2, side: 'sell', units: WHOLE.toString() })).status,
    ).toBe(200);
  const refused = await rfq({ address: k.dave.address, symbol: 'DTW', kind: 2, side: 'sell', units: WHOLE.toString() });
  expect([refused.status, refused.body.code]).toEqual([429, 'too_many_requests']);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(
    (await rfq({ address: k.carol.address, symbol: 'DTW', kind: 2, side: 'sell', units: WHOLE.toString() })).status,
  ).toBe(200);
});

test('inventory: what the desk bought beyond DESK_INVENTORY_TARGET_BPS of its room is sold back into the pool in slices within DESK_REBALANCE_IMPACT_BPS, and an honest seller it had no room for is served again', async () => {
  const { desk } = APP_SERVICES_DEFAULTS;
  const doc = {
    name: 'Rebalance Works',
    symbol: 'RBW',
    description: 'An equity test asset the desk buys too much of. Testnet only; it has no value.',
    template: 'equity',
  };
  const posted = await api.postJson<{ meta_hash: string }>('/api/launchpad/metadata', doc);
  expect(posted.status).toBe(200);
  // 2 stable per share, 50,000 deep: the desk's room is the community position cap (1,000), not 10 % of the pool
  const rbw = await launchEquity(world, {
    issuer: k.dave,
    metaHash: posted.body.meta_hash,
    holders: [{ key: k.bob, units: 1000n * WHOLE }],
    poolShares: 25_000n,
    poolQuote: 50_000_000_000n,
  });
  const room = desk.communityMaxPosition;
  const target = (room * BigInt(desk.inventoryTargetBps)) / 10_000n;
  const rbwBid = () =>
    until('RBW to be bid', async () => {
      const r = await api.request<{ quotes: QuoteBody[] }>('GET', '/api/desk/quotes');
      const q = r.body.quotes.find((x) => x.symbol === 'RBW' && x.kind === -1);
      return q?.bid ? BigInt(q.bid) : undefined;
    });
  const bid = await rbwBid();
  const settled = async (tx: { responses: Record<string, unknown>[] }) => {
    const id = Number(tx.responses[0].settlement_id);
    return until(`offer ${id} answered`, async () => {
      const st = (await settlement(id)).status;
      return st === 'STATUS_PENDING' ? undefined : st;
    });
  };
  // the honest seller: 475 shares at the bid (931 paid, 950 at mid) take the desk to 93 % of its room
  const paid = 475n * bid;
  expect(await settled(await world.submit(k.bob, [offer(paid, 475n, k.bob, rbw.assetId)]))).toBe('STATUS_SETTLED');

  interface SaleRow {
    ref: string;
    units: string;
    status: string;
    proceeds: string | null;
  }
  const sales = await until('the desk to sell its excess down to its target', async () => {
    const { rows } = await world.pool.query<SaleRow>(
      `SELECT ref, units::text AS units, status, proceeds::text AS proceeds FROM app.pool_sales
        WHERE asset_id = $1 ORDER BY created_at`,
      [rbw.assetId],
    );
    const proceeds = rows.reduce((a, r) => a + BigInt(r.proceeds ?? 0), 0n);
    // within 1 % of the room of the target, nothing in flight: the rest is below what a slice is worth selling
    return rows.length && rows.every((r) => r.status === 'sold') && paid - proceeds <= target + room / 100n
      ? { rows, proceeds }
      : undefined;
  });
  // in slices, one per DESK_REBALANCE_EVERY_BLOCKS, each moving the pool's price by at most DESK_REBALANCE_IMPACT_BPS
  expect(sales.rows.length).toBeGreaterThanOrEqual(3);
  const judgedAt = sales.rows.map((r) => {
    const m = new RegExp(`^desk/sell/${rbw.assetId}/(\\d+)$`).exec(r.ref);
    expect(m).not.toBeNull();
    return Number(m![1]);
  });
  for (let i = 1; i < judgedAt.length; i++)
    expect(judgedAt[i] - judgedAt[i - 1]).toBeGreaterThanOrEqual(desk.rebalanceEveryBlocks);
  let base = 25_000n * WHOLE; // nobody else trades RBW's pool
  for (const r of sales.rows) {
    const units = BigInt(r.units);
    // x·y = k: the price falls by (B / (B + Δ))²
    expect(base * base * 10_000n).toBeGreaterThanOrEqual(
      (base + units) ** 2n * BigInt(10_000 - desk.rebalanceImpactBps),
    );
    base += units;
  }
  const sold = base - 25_000n * WHOLE;
  expect(sold).toBeLessThan(475n * WHOLE); // only what its buying brought in, never below the target
  expect(paid - sales.proceeds).toBeGreaterThanOrEqual(target);
  const pool = (await new ChainQueries(world.rpcUrl).poolPriceAt(rbw.assetId, STABLE_DENOM))!;
  expect(pool.baseReserve).toBe(base);

  // the same seller again, 200 shares (400 at mid), at the bid of the pool the sales moved: beyond the room
  // without the sales, within it after them
  const again = await rbwBid();
  expect(again).toBeLessThan(bid);
  expect(await settled(await world.submit(k.bob, [offer(200n * again, 200n, k.bob, rbw.assetId)]))).toBe(
    'STATUS_SETTLED',
  );
});

interface AppProcess {
  child: ChildProcess;
  port: Promise<number>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function runDeskProcess(failpoint = ''): AppProcess {
  const env = {
    ...process.env,
    DATABASE_URL: world.db.url,
    CHAIN_RPC_URL: world.rpcUrl,
    DESK_KEY: k.desk.hex,
    PORT: '0',
    APP_FAILPOINT: failpoint,
  };
  const child = spawn(
    path.join(REPO, 'node_modules', '.bin', 'ts-node'),
    ['--transpile-only', path.join(REPO, 'tests/harness/app-process.ts')],
    { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const port = new Promise<number>((resolve) =>
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    }),
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, port, exited };
}

test('the desk killed after broadcasting an RFQ proposal and before recording it proposes exactly once', async () => {
  await api.close(); // this process stops acting for the desk
  api = await startAppApi({ database: { pool: world.pool, url: world.db.url }, settings: { keys: {} } });
  const body = JSON.stringify({
    address: k.crash.address,
    symbol: 'DTW',
    kind: -1,
    side: 'sell',
    units: (3n * WHOLE).toString(),
  });
  const headers = { 'content-type': 'application/json', 'idempotency-key': 'crash-test-1' };
  const post = async (port: number) =>
    fetch(`http://127.0.0.1:${port}/api/desk/rfq`, { method: 'POST', body, headers });

  const crashing = runDeskProcess('after-broadcast');
  const cut = await post(await crashing.port).then(
    () => 'answered',
    () => 'connection lost',
  );
  expect(cut).toBe('connection lost');
  expect((await crashing.exited).signal).toBe('SIGKILL');

  const restarted = runDeskProcess();
  try {
    const answer = await post(await restarted.port);
    expect(answer.status).toBe(200);
    const again = await post(await restarted.port); // a client's retry with the same key
    const [first, second] = [(await answer.json()) as RfqAnswer, (await again.json()) as RfqAnswer];
    expect(second.settlement_id).toBe(first.settlement_id);
    await world.waitIndexed();
    const fromDesk = await world.rest<{ settlements: { proposer: string }[] }>(
      `/v1/settlements?party=${k.crash.address}`,
    );
    expect(fromDesk.settlements.filter((s) => s.proposer === k.desk.address)).toHaveLength(1);
  } finally {
    restarted.child.kill('SIGTERM');
    await restarted.exited;
  }
});
