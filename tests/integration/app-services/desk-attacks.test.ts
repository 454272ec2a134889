/**
 * The desk against a hostile user (docs/app-services.md, "Threat model"), on one live world:
 * the devnet, the real SubQuery node, the desk acting through the app services over real
 * HTTP. The attacker does what anyone can: fresh keys, its own assets with launchpad
 * documents (its own or another's) and its own pools, kinds of odd decimals, real swaps, real
 * proposals batched in one tx, and lockups of the desk's units as issuer. Each test asserts
 * that the attack extracts nothing beyond the documented bounds and that honest users are
 * still served.
 */
import { createHash } from 'crypto';
import express from 'express';
import http, { type Server } from 'http';
import type { AddressInfo } from 'net';
import { APP_SERVICES_DEFAULTS } from '../../../app-services/config';
import { ChainQueries } from '../../../app-services/chain/queries';
import { outstandingRfqSql } from '../../../app-services/risk/repository';
import { KeySecret } from '../../../app-services/keys';
import { documentHash, parseMetadataDocument } from '../../../app-services/launchpad/document';
import { deriveAssetId } from '../../../src/lib/ids';
import { STABLE_DENOM, testKey, type TestKey } from '../../harness/app-chain';
import { launchEquity, startLiveWorld, type EquityAsset, type LiveWorld, type Msg } from '../../harness/live-world';
import { until as waitFor } from '../../harness/until';
import { startAppApi, type AppApi } from './api';

jest.setTimeout(120_000);

const WHOLE = 1_000_000n;
const KINDS = [0, 1, 2];
const REAL = {
  name: 'Attack Test Works',
  symbol: 'ATW',
  description: 'An equity test asset with a deep pool. Testnet only; it has no value.',
  template: 'equity',
};
const THIN = {
  name: 'Thin Pool Works',
  symbol: 'THIN',
  description: "The attacker's own asset, with a pool of three base units. Testnet only.",
  template: 'equity',
};
const BATCH = {
  name: 'Batch Works',
  symbol: 'BAT',
  description: "The attacker's own asset, with a 300-stable pool. Testnet only.",
  template: 'equity',
};
const DECIMALS = {
  name: 'Odd Decimals Works',
  symbol: 'ODW',
  description: "The attacker's own asset, its first kind with 0 decimals. Testnet only.",
  template: 'equity',
};
/** a new document whose symbol is the real asset's */
const SAME_SYMBOL = { ...REAL, name: 'Attack Test Works Two' };
/** the real asset's name exactly, with a symbol that reads like it and a symbol of its own */
const SAME_NAME = { ...REAL, symbol: 'QXZ', description: 'Not the real one. Testnet only; it has no value.' };
const MARKET = { windowBlocks: 30, minPoolAgeBlocks: 20, maxDivergenceBps: 1000, minPoolReserve: 100_000_000n };
/** the documented bound of the fee-drain test: the honest accept and at most two cancel txs */
const DESK_TXS_BOUND = 3n;
/** DESK_MAX_TOTAL here: room for the small attacks (the 1,000 ATW the desk was given cost it nothing: its exposure is what it paid) */
const DESK_MAX_TOTAL = 3_000n * WHOLE;
/** the pool of the attacker's assets: 300 stable; DESK_MAX_POOL_SHARE_BPS (10 %) leaves the desk 30 stable of each */
const ATTACK_POOL_QUOTE = 300n * WHOLE;
const POOL_SHARE_ROOM = ATTACK_POOL_QUOTE / 10n;

let world: LiveWorld;
let api: AppApi;
/** a second front door to the same services, for requests from other loopback client addresses */
let door: Server;
let chain: ChainQueries;
let real: EquityAsset;
let thinAssetId: string;
let batch: EquityAsset;
let decimals: EquityAsset;
let lookAlikes: EquityAsset[];
let k: Record<
  | 'desk'
  | 'issuer'
  | 'attacker'
  | 'honest'
  | 'batcher'
  | 'decimal'
  | 'squatter'
  | 'flooder'
  | 'relay0'
  | 'relay1'
  | 'relay2'
  | 'seller',
  TestKey
>;

const metaHashOf = (doc: typeof REAL) => {
  const parsed = parseMetadataDocument(doc);
  if (!parsed.ok) throw new Error(parsed.error);
  return documentHash(parsed.doc);
};

beforeAll(async () => {
  world = await startLiveWorld({
    keys: [
      'desk',
      'issuer',
      'attacker',
      'honest',
      'batcher',
      'decimal',
      'squatter',
      'flooder',
      'relay0',
      'relay1',
      'relay2',
      'seller',
    ],
  });
  k = world.keys as typeof k;
  chain = new ChainQueries(world.rpcUrl);
  api = await startAppApi({
    database: { pool: world.pool, url: world.db.url },
    chain: { rpcUrl: world.rpcUrl },
    devnetDocuments: [REAL],
    settings: {
      keys: { desk: new KeySecret(k.desk.hex, 'DESK_KEY') },
      inclusionTimeoutMs: 10_000,
      reconcileMs: 500,
      lockRetryMs: 200,
      // the assets of these tests are community assets: their caps are the listed ones here, but for the total
      desk: {
        ...APP_SERVICES_DEFAULTS.desk,
        pollMs: 250,
        rfqLimit: 2,
        rfqIpLimit: 3,
        maxTotal: DESK_MAX_TOTAL,
        communityMaxTotal: DESK_MAX_TOTAL,
        communityMaxPosition: APP_SERVICES_DEFAULTS.desk.maxPosition,
      },
      risk: { ...APP_SERVICES_DEFAULTS.risk, communityMaxPerIssuer: APP_SERVICES_DEFAULTS.risk.maxPerIssuer },
      market: { ...APP_SERVICES_DEFAULTS.market, ...MARKET },
    },
  });
  real = await launchEquity(world, {
    issuer: k.issuer,
    metaHash: metaHashOf(REAL),
    holders: [
      { key: k.desk, units: 1000n * WHOLE },
      { key: k.attacker, units: 10_000n * WHOLE },
      { key: k.honest, units: 10_000n * WHOLE },
      // a sell RFQ needs units its requester holds (the look-alike and the every-asset tests sell ATW)
      { key: k.squatter, units: 1000n * WHOLE },
      { key: k.batcher, units: 10_000n * WHOLE },
      { key: k.flooder, units: 1000n * WHOLE },
      // the relay test's honest seller, with RFQs of its own to spend (DESK_RFQ_LIMIT here is 2)
      { key: k.seller, units: 10_000n * WHOLE },
    ],
    poolShares: 100_000n,
    poolQuote: 200_000_000_000n, // 2 stable per whole share, 200,000 stable deep
  });
  // the attacker's assets: launchpad documents anyone may post, then their own pools
  const post = async (doc: typeof REAL) => {
    const posted = await api.postJson<{ meta_hash: string }>('/api/launchpad/metadata', doc);
    expect(posted.status).toBe(200);
    return posted.body.meta_hash;
  };
  thinAssetId = await launchThinAsset(await post(THIN));
  batch = await launchEquity(world, {
    issuer: k.batcher,
    metaHash: await post(BATCH),
    holders: [{ key: k.batcher, units: 10_000n * WHOLE }],
    poolShares: 1000n,
    poolQuote: ATTACK_POOL_QUOTE, // 0.3 stable per share
  });
  // its first kind with 0 decimals: the pool prices a bundle per base unit (PoolPrice uses the first bundle kind's decimals)
  decimals = await launchEquity(world, {
    issuer: k.decimal,
    metaHash: await post(DECIMALS),
    holders: [{ key: k.decimal, units: 10_000n * WHOLE }],
    poolShares: 0n,
    poolBase: 1_000_000n,
    poolQuote: ATTACK_POOL_QUOTE, // 300 base units of stable per base unit of the bundle
    kinds: [
      { class: 'KIND_CLASS_VOTE', decimals: 0 },
      { class: 'KIND_CLASS_ECONOMIC' },
      { class: 'KIND_CLASS_INCOME' },
    ],
  });
  // look-alikes: the real asset's own launchpad document, and a new one with its symbol, each with a pool deep enough
  lookAlikes = [
    await launchEquity(world, {
      issuer: k.squatter,
      metaHash: metaHashOf(REAL),
      holders: [],
      poolShares: 100n,
      poolQuote: 101n * WHOLE,
    }),
    await launchEquity(world, {
      issuer: k.squatter,
      nonce: 1n,
      metaHash: await post(SAME_SYMBOL),
      holders: [],
      poolShares: 100n,
      poolQuote: 101n * WHOLE,
    }),
    await launchEquity(world, {
      issuer: k.squatter,
      nonce: 2n,
      metaHash: await post(SAME_NAME),
      holders: [],
      poolShares: 100n,
      poolQuote: 101n * WHOLE,
    }),
  ];
  await until('the deep pool to be old enough and its window filled', async () =>
    (await quotes()).some((q) => q.symbol === 'ATW' && q.bid !== null) ? true : undefined,
  );
  await world.waitIndexed(world.chain.height + MARKET.minPoolAgeBlocks); // the thin pool as old as the deep one
  door = await new Promise<Server>((resolve) => {
    const s = express()
      .use('/api', api.services.router)
      .listen(0, '127.0.0.1', () => resolve(s));
  });
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => (door ? door.close(resolve) : resolve(undefined)));
  await api?.close();
  await world?.close();
});

const until = <T>(what: string, probe: () => Promise<T | undefined>) =>
  waitFor(what, probe, { ms: 30_000, context: () => `app errors: ${api?.errors.join('\n')}` });

async function launchThinAsset(metaHash: string): Promise<string> {
  const issuer = k.attacker.address;
  const assetId = deriveAssetId(issuer, 0n);
  const kind = (cls: string) => ({ class: cls, decimals: 6, bundle: true, transferable: true });
  await world.submit(k.attacker, [
    {
      typeUrl: '/svc.asset.v1.MsgCreateAsset',
      value: {
        issuer,
        meta_hash: metaHash,
        settlement_denom: STABLE_DENOM,
        policy: { transfer: 'TRANSFER_MODE_OPEN' },
        kinds: [kind('KIND_CLASS_ECONOMIC'), kind('KIND_CLASS_INCOME'), kind('KIND_CLASS_VOTE')],
        distribution_denoms: [STABLE_DENOM],
      },
    },
  ]);
  await world.submit(
    k.attacker,
    KINDS.map((kindId) => ({
      typeUrl: '/svc.asset.v1.MsgIssue',
      value: { issuer, asset_id: assetId, kind_id: kindId, recipient: issuer, units: (1000n * WHOLE).toString() },
    })),
  );
  const pool = await world.submit(k.attacker, [
    {
      typeUrl: '/svc.dex.v1.MsgCreatePool',
      value: { creator: issuer, asset_id: assetId, quote_denom: STABLE_DENOM, base_units: '3', quote_amount: '9000' },
    },
  ]);
  expect(pool.code).toBe(0); // 9000 × 10^6 / 3: 3,000 stable per whole share on the pool's spot
  return assetId;
}

interface QuoteBody {
  symbol: string;
  asset_id: string;
  kind: number;
  bid: string | null;
  ask: string | null;
  mid: string;
  bid_withheld: string | null;
}

async function quotes(): Promise<QuoteBody[]> {
  const r = await api.request<{ quotes: QuoteBody[] }>('GET', '/api/desk/quotes');
  expect(r.status).toBe(200);
  return r.body.quotes;
}

const wholeShare = async (symbol = 'ATW') => (await quotes()).find((q) => q.symbol === symbol && q.kind === -1);

/** An RFQ from another client address (127.0.0.0/8 is all loopback): the per-client limit sees it as another client. */
function rfqFrom(
  clientIp: string,
  body: Record<string, unknown>,
): Promise<{ status: number; body: { code?: string; error?: string; settlement_id?: number } }> {
  const { port } = door.address() as AddressInfo;
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress: clientIp,
        path: '/api/desk/rfq',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The proposer's offer to the desk: it gives `units` of every kind of `assetId`, asks `amount` of the stable denom. */
function offerToDesk(from: TestKey, assetId: string, units: bigint, amount: bigint): Msg {
  return {
    typeUrl: '/svc.settlement.v1.MsgPropose',
    value: {
      proposer: from.address,
      counterparty: k.desk.address,
      legs: [
        ...KINDS.map((kindId) => ({
          direction: 'LEG_DIRECTION_GIVE',
          right: { asset_id: assetId, kind_id: kindId, units: units.toString() },
        })),
        { direction: 'LEG_DIRECTION_ASK', coin: { denom: STABLE_DENOM, amount: amount.toString() } },
      ],
      expiry: new Date(Date.now() + 600_000).toISOString(),
    },
  };
}

async function settlementStatus(id: string | number): Promise<string> {
  await world.waitIndexed();
  return (await world.rest<{ settlement: { status: string } }>(`/v1/settlements/${id}`)).settlement.status;
}

/** The whole share's bid once the pool is steady (spot and twap within the bound: both sides quoted). */
const steadyBid = () =>
  until('both sides of the whole share quoted', async () => {
    const q = await wholeShare();
    return q?.bid && q.ask ? BigInt(q.bid) : undefined;
  });

const deskSequence = () => world.app.account(k.desk.address)!.sequence;

/** Long enough for the desk to have judged what was proposed: the index past `height` and a dozen desk passes more. */
async function deskHadItsChance(height: number): Promise<void> {
  await world.waitIndexed(height + 10);
}

function swap(trader: TestKey, sellBase: boolean, amount: bigint) {
  return world.submit(trader, [
    {
      typeUrl: '/svc.dex.v1.MsgSwap',
      value: { trader: trader.address, pool_id: String(real.poolId), sell_base: sellBase, amount: amount.toString() },
    },
  ]);
}

test('thin pool: the desk neither quotes the attacker’s asset nor buys a share of it at the pool’s 3,000-stable price', async () => {
  expect((await quotes()).filter((q) => q.symbol === 'THIN')).toEqual([]);
  const attackerCash = world.balance(k.attacker.address);
  const deskCash = world.balance(k.desk.address);
  const offer = await world.submit(k.attacker, [offerToDesk(k.attacker, thinAssetId, WHOLE, 2_940_000_000n)]);
  expect(offer.code).toBe(0);
  await deskHadItsChance(offer.height);
  expect(await settlementStatus(String(offer.responses[0].settlement_id))).toBe('STATUS_PENDING'); // left to expire
  expect(world.balance(k.desk.address)).toBe(deskCash);
  expect(world.balance(k.attacker.address)).toBe(attackerCash); // fees are in the gas denom
  const asked = await rfqFrom('127.0.0.5', {
    address: k.attacker.address,
    symbol: 'THIN',
    kind: -1,
    side: 'sell',
    units: WHOLE.toString(),
  });
  expect([asked.status, asked.body.code]).toEqual([400, 'bad_request']);
});

test('pump: with the pool pumped 2.7×, the desk offers no ask, refuses a buy RFQ and does not buy at the pumped bid', async () => {
  const before = (await wholeShare())!;
  expect(before.bid).not.toBeNull();
  const pump = await swap(k.attacker, false, 130_000_000_000n); // 130,000 stable into a 200,000-stable pool
  expect(pump.code).toBe(0);
  const shares = BigInt(String(pump.responses[0].out));
  const pumpedSpot = (330_000_000_000n * WHOLE) / (100_000n * WHOLE - shares);
  expect(pumpedSpot).toBeGreaterThan((BigInt(before.mid) * 26n) / 10n);
  try {
    const during = (await wholeShare())!; // the book of the pump's height: the market reads the chain
    expect(during.ask).toBeNull(); // spot above the twap: a buyer would take the desk's units below the pool
    expect(BigInt(during.mid)).toBeLessThan((pumpedSpot * 6n) / 10n); // the mid is the twap, not the spot
    const buy = await rfqFrom('127.0.0.5', {
      address: k.attacker.address,
      symbol: 'ATW',
      kind: -1,
      side: 'buy',
      units: WHOLE.toString(),
    });
    expect([buy.status, buy.body.code]).toEqual([400, 'bad_request']);

    const attackerCash = world.balance(k.attacker.address);
    const pumpedBid = (pumpedSpot * 98n) / 100n;
    const offer = await world.submit(k.attacker, [offerToDesk(k.attacker, real.assetId, WHOLE, pumpedBid)]);
    const id = String(offer.responses[0].settlement_id);
    const status = await until('the desk to answer the offer at the pumped bid', async () => {
      const s = await settlementStatus(id);
      return s === 'STATUS_PENDING' ? undefined : s;
    });
    expect(status).toBe('STATUS_CANCELLED');
    expect(world.balance(k.attacker.address)).toBe(attackerCash);
  } finally {
    expect((await swap(k.attacker, true, shares)).code).toBe(0); // sold back: costs only fees
  }
  await until('the pumped heights out of the price window', async () => {
    const mid = BigInt((await wholeShare())!.mid);
    const drift = mid > BigInt(before.mid) ? mid - BigInt(before.mid) : BigInt(before.mid) - mid;
    return drift * 1000n <= BigInt(before.mid) ? true : undefined;
  });
});

test('fee drain: 60 junk proposals cost the desk at most one cancel tx, and an honest offer is still accepted within a few blocks', async () => {
  const bid = await steadyBid();
  const sequenceBefore = deskSequence();
  const dust = Array.from({ length: 30 }, () => offerToDesk(k.attacker, real.assetId, 1n, 1_000_000n)); // 1 base unit
  const unquoted = Array.from({ length: 20 }, () => offerToDesk(k.attacker, thinAssetId, WHOLE, 1_000_000n));
  const aboveBid = Array.from({ length: 10 }, () => offerToDesk(k.attacker, real.assetId, WHOLE, bid * 2n));
  for (const junk of [dust, unquoted, aboveBid]) expect((await world.submit(k.attacker, junk)).code).toBe(0);

  const honest = await world.submit(k.honest, [offerToDesk(k.honest, real.assetId, 2n * WHOLE, 2n * bid)]);
  const honestId = String(honest.responses[0].settlement_id);
  const settledAt = await until('the honest offer to settle', async () => {
    if ((await settlementStatus(honestId)) !== 'STATUS_SETTLED') return undefined;
    const s = await world.rest<{ settlement: { timeline: { event: string; height: number }[] } }>(
      `/v1/settlements/${honestId}`,
    );
    return s.settlement.timeline.find((t) => t.event === 'settled')!.height;
  });
  expect(settledAt - honest.height).toBeLessThanOrEqual(15); // a few seconds at 300 ms blocks

  const cancelled = await until('the offers above the bid to be cancelled', async () => {
    const n = (await offersToDesk(k.attacker.address, 'cancelled')).length;
    return n >= 1 + aboveBid.length ? n : undefined; // the pump test's offer, and these
  });
  expect(cancelled).toBe(1 + aboveBid.length);
  await deskHadItsChance(world.chain.height);
  // dust and what the desk does not quote are left to expire (the first test's offer too)
  expect(await offersToDesk(k.attacker.address, 'pending')).toHaveLength(1 + dust.length + unquoted.length);
  expect(deskSequence() - sequenceBefore).toBeLessThanOrEqual(DESK_TXS_BOUND);
});

test('flood: 120 offers worse than the quote in one tx cost the desk one cancel tx of DESK_CANCEL_BATCH; the rest are left to expire', async () => {
  const bid = await steadyBid();
  const sequenceBefore = deskSequence(); // the fee-drain test ends with the desk done
  const flood = Array.from({ length: 120 }, () => offerToDesk(k.flooder, real.assetId, WHOLE, bid * 2n));
  const tx = await world.submit(k.flooder, flood, { gas: 10_000_000n });
  expect(tx.code).toBe(0);
  const ids = tx.responses.map((r) => String(r.settlement_id));
  const verdicts = await verdictsOn(k.flooder, ids);
  const byVerdict = (v: string) => verdicts.filter((o) => o.verdict === v).map((o) => String(o.settlement_id));
  const batch = APP_SERVICES_DEFAULTS.desk.cancelBatch;
  expect(byVerdict('cancelled').sort()).toEqual(ids.slice(0, batch).sort());
  expect(byVerdict('left_to_expire').sort()).toEqual(ids.slice(batch).sort());
  expect(verdicts.every((v) => v.reason === 'worse_than_quote')).toBe(true);
  await world.waitIndexed(world.chain.height + 4); // more passes, the index past the cancel: nothing more is sent
  expect(deskSequence() - sequenceBefore).toBe(1n);
  expect(await offersToDesk(k.flooder.address, 'pending')).toHaveLength(120 - batch); // the chain's sweep ends them
});

async function offersToDesk(proposer: string, status: string): Promise<string[]> {
  await world.waitIndexed();
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { settlements: { id: string; proposer: string; counterparty: string }[]; next_cursor: string | null } =
      await world.rest(
        `/v1/settlements?party=${proposer}&status=${status}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      );
    ids.push(
      ...page.settlements.filter((s) => s.proposer === proposer && s.counterparty === k.desk.address).map((s) => s.id),
    );
    cursor = page.next_cursor;
  } while (cursor);
  return ids;
}

test('inventory squatting: RFQs from rotating addresses are refused beyond the per-address, per-client and global escrow caps; the desk still quotes and serves others', async () => {
  const free = 1000n * WHOLE; // the desk's units of each kind
  const tenth = (free / 10n).toString();
  const buy = (address: string, units = tenth) => ({ address, symbol: 'ATW', kind: -1, side: 'buy', units });
  const a = await Promise.all([0, 1, 2, 3, 4, 5, 6].map((i) => testKey(`squatter/${i}`)));

  // one client: the first address takes its 10 %, not a unit more; two more addresses, then the client's limit
  expect((await rfqFrom('127.0.0.2', buy(a[0].address))).status).toBe(200);
  const more = await rfqFrom('127.0.0.2', buy(a[0].address, WHOLE.toString()));
  expect([more.status, more.body.code]).toEqual([429, 'too_many_requests']);
  expect((await rfqFrom('127.0.0.2', buy(a[1].address))).status).toBe(200);
  expect((await rfqFrom('127.0.0.2', buy(a[2].address))).status).toBe(200);
  const client = await rfqFrom('127.0.0.2', buy(a[3].address));
  expect([client.status, client.body.code]).toEqual([429, 'too_many_requests']);
  expect(client.body.error).toMatch(/this client/);

  // other clients: 40 % escrowed, then two at once for the last 10 %: exactly one passes
  expect((await rfqFrom('127.0.0.3', buy(a[3].address))).status).toBe(200);
  const race = await Promise.all([rfqFrom('127.0.0.3', buy(a[4].address)), rfqFrom('127.0.0.4', buy(a[5].address))]);
  expect(race.map((r) => r.status).sort()).toEqual([200, 503]);
  const over = await rfqFrom('127.0.0.4', buy(a[6].address));
  expect([over.status, over.body.code]).toEqual([503, 'unavailable']);
  expect(over.body.error).toMatch(/50 %/);

  // half the units stay free: the desk still offers them, and an honest client is served
  await steadyBid();
  expect((await wholeShare())!.ask).not.toBeNull();
  const honest = await api.postJson('/api/desk/rfq', {
    address: k.honest.address,
    symbol: 'ATW',
    kind: -1,
    side: 'sell',
    units: WHOLE.toString(),
  });
  expect(honest.status).toBe(200);
  expect(honest.body.settlement_id).toBeGreaterThan(0);
});

test('an RFQ whose proposal the chain refused answers {error, code}, not the chain’s log', async () => {
  // a refusal recorded by the desk (the reservations leave no honest way to provoke one): asked again by its key
  const body = { address: k.honest.address, symbol: 'ATW', kind: -1, side: 'sell', units: '1' };
  const key = 'refused-once';
  const id = `R${createHash('sha256').update(`${k.honest.address}\n${key}`).digest('hex').slice(0, 32)}`;
  await world.pool.query(
    `INSERT INTO app.rfqs (id, requester, asset_id, symbol, kind_id, side, units, price, amount, expiry, status, error)
     VALUES ($1, $2, $3, 'ATW', -1, 'sell', 1, 1, 1, now() + interval '10 minutes', 'failed',
             'the chain refused the proposal (settlement/5): escrow: insufficient funds 0uusdc')`,
    [id, k.honest.address, real.assetId],
  );
  const r = await api.postJson('/api/desk/rfq', body, { 'idempotency-key': key });
  expect([r.status, r.body.code]).toEqual([400, 'bad_request']);
  expect(r.body.error).toMatch(/refused the desk's proposal/);
  expect(r.text).not.toMatch(/insufficient|settlement\/5|uusdc/);
});

// ---------------------------------------------------------------- exposure in one unit

interface OfferVerdict {
  settlement_id: number;
  verdict: string;
  reason: string | null;
  detail: string | null;
}

/** The desk's answers to `ids`, once every one is final (accepted, cancelled or left to expire). */
async function verdictsOn(proposer: TestKey, ids: string[]): Promise<OfferVerdict[]> {
  return until(`the desk's answers to ${ids.length} proposals`, async () => {
    const r = await api.request<{ offers: OfferVerdict[] }>('GET', `/api/desk/offers?address=${proposer.address}`);
    expect(r.status).toBe(200);
    const mine = r.body.offers.filter((o) => ids.includes(String(o.settlement_id)));
    const final = mine.filter((o) => ['accepted', 'cancelled', 'left_to_expire'].includes(o.verdict));
    return final.length === ids.length ? final : undefined;
  });
}

/** Every unit the desk holds of each kind of an asset, locked ones too (the chain's Position). */
async function deskHolds(assetId: string, kinds = KINDS): Promise<bigint[]> {
  return Promise.all(kinds.map(async (kind) => (await chain.position(assetId, kind, k.desk.address)).units));
}

const quotedBid = (symbol: string) =>
  until(`${symbol} bid`, async () => {
    const q = await wholeShare(symbol);
    return q?.bid ? q : undefined;
  });

test('batched offers: 25 in one tx are each judged with the accepts before them, so the desk buys up to its pool-share cap and no more; the issuer locking the desk’s units frees no room', async () => {
  const q = await quotedBid('BAT');
  const [bid, mid] = [BigInt(q.bid!), BigInt(q.mid)];
  // 25 offers of 10 shares at the bid: 75 stable at mid, against 30 stable of room (10 % of a 300-stable pool)
  const offers = Array.from({ length: 25 }, () => offerToDesk(k.batcher, batch.assetId, 10n * WHOLE, 10n * bid));
  const tx = await world.submit(k.batcher, offers);
  expect(tx.code).toBe(0);
  const ids = tx.responses.map((r) => String(r.settlement_id));
  const verdicts = await verdictsOn(k.batcher, ids);
  const accepted = verdicts.filter((v) => v.verdict === 'accepted');
  expect(BigInt(accepted.length)).toBe(POOL_SHARE_ROOM / (10n * mid)); // 10 offers of 3 stable at mid each
  expect(verdicts.filter((v) => v.verdict !== 'accepted').every((v) => v.reason === 'pool_share_cap')).toBe(true);
  const held = await deskHolds(batch.assetId);
  expect(held).toEqual([100n * WHOLE, 100n * WHOLE, 100n * WHOLE]);
  expect((held[0] * mid) / WHOLE).toBeLessThanOrEqual(POOL_SHARE_ROOM);

  // the issuer locks every unit the desk holds: a unit it cannot move is still a risk it holds
  const lockups = KINDS.map((kind, i) => ({
    typeUrl: '/svc.encumbrance.v1.MsgCreateEncumbrance',
    value: {
      creator: k.batcher.address,
      kind: 'ENCUMBRANCE_KIND_LOCKUP',
      asset_id: batch.assetId,
      kind_id: kind,
      holder: k.desk.address,
      units: held[i].toString(),
    },
  }));
  const locked = await world.submit(k.batcher, lockups);
  expect(locked.code).toBe(0);
  await world.waitIndexed(locked.height + 2);
  const after = await until('the book after the lockup', async () => {
    const w = await wholeShare('BAT');
    return w && w.ask === null ? w : undefined; // nothing the desk may move: no ask
  });
  // at cost: what it paid (the accepted offers at the bid) fills the room but for the spread; the lockup frees none of it
  const { rows: exposure } = await world.pool.query<{ value: string }>(
    `SELECT value::text AS value FROM app.desk_exposure WHERE asset_id = $1`,
    [batch.assetId],
  );
  expect(BigInt(exposure[0].value)).toBe(BigInt(accepted.length) * 10n * bid);
  expect(after.bid === null || (POOL_SHARE_ROOM - BigInt(exposure[0].value)) / mid >= 1n).toBe(true);
  const again = await world.submit(k.batcher, [offerToDesk(k.batcher, batch.assetId, 10n * WHOLE, 10n * bid)]);
  const [verdict] = await verdictsOn(k.batcher, [String(again.responses[0].settlement_id)]);
  expect([verdict.verdict, verdict.reason]).toEqual(['cancelled', 'pool_share_cap']);
  expect(await deskHolds(batch.assetId)).toEqual(held);

  // then the issuer mints and dumps into its pool: BAT leaves the quotes (its pool is too shallow now), but what the
  // desk paid for it stays counted: the holding's fall below its cost is charged as a loss
  const mint = KINDS.map((kind) => ({
    typeUrl: '/svc.asset.v1.MsgIssue',
    value: {
      issuer: k.batcher.address,
      asset_id: batch.assetId,
      kind_id: kind,
      recipient: k.batcher.address,
      units: (100_000n * WHOLE).toString(),
    },
  }));
  expect((await world.submit(k.batcher, mint)).code).toBe(0);
  const dump = await world.submit(k.batcher, [
    {
      typeUrl: '/svc.dex.v1.MsgSwap',
      value: {
        trader: k.batcher.address,
        pool_id: String(batch.poolId),
        sell_base: true,
        amount: (10_000n * WHOLE).toString(),
      },
    },
  ]);
  expect(dump.code).toBe(0);
  const loss = await until('the desk to charge its loss on BAT', async () => {
    const { rows } = await world.pool.query<{ amount: string | null }>(
      `SELECT sum(amount)::text AS amount FROM app.risk_losses WHERE source = 'desk' AND asset_id = $1 AND reset_at IS NULL`,
      [batch.assetId],
    );
    return rows[0].amount === null ? undefined : BigInt(rows[0].amount);
  });
  const paid = 10n * 10n * bid; // 10 offers of 10 shares at the bid
  expect(loss * 10_000n).toBeGreaterThan(paid * 2000n); // beyond RISK_DESK_LOSS_TOLERANCE_BPS of the cost
  expect(loss).toBeLessThanOrEqual(paid);
  // the room stays used: what the desk holds at mid and the loss together are what it paid, nearly
  const { rows } = await world.pool.query<{ value: string }>(
    `SELECT value::text AS value FROM app.desk_exposure WHERE asset_id = $1`,
    [batch.assetId],
  );
  expect((BigInt(rows[0].value) + loss) * 100n).toBeGreaterThanOrEqual(paid * 95n);
});

test('a first kind with 0 decimals: every kind is valued in the unit the pool prices, and the desk buys no more than its cap', async () => {
  const q = await quotedBid('ODW');
  const [bid, mid] = [BigInt(q.bid!), BigInt(q.mid)];
  expect(mid).toBe(300n); // base units of stable per base unit of each kind: PoolPrice at the first kind's 0 decimals
  // 5 offers of 40,000 base units of every kind, 12 stable each at mid, against 30 stable of room
  const units = 40_000n;
  const offers = Array.from({ length: 5 }, () => offerToDesk(k.decimal, decimals.assetId, units, units * bid));
  const tx = await world.submit(k.decimal, offers);
  const verdicts = await verdictsOn(
    k.decimal,
    tx.responses.map((r) => String(r.settlement_id)),
  );
  expect(verdicts.filter((v) => v.verdict === 'accepted')).toHaveLength(2);
  const held = await deskHolds(decimals.assetId);
  expect(held).toEqual([2n * units, 2n * units, 2n * units]);
  // the desk's exposure as it publishes it: every kind at its share of the bundle price, one unit
  const published = await until('the desk to publish its holding of ODW', async () => {
    const { rows } = await world.pool.query<{ value: string }>(
      `SELECT value::text AS value FROM app.desk_exposure WHERE asset_id = $1`,
      [decimals.assetId],
    );
    // both accepts indexed: the figure is what it paid as of the indexed height
    return rows.length && BigInt(rows[0].value) >= 2n * units * bid ? BigInt(rows[0].value) : undefined;
  });
  expect(published).toBe(2n * units * bid); // at cost: what it paid for the two offers it accepted
  expect(published).toBeLessThanOrEqual(POOL_SHARE_ROOM);
});

test('look-alikes: assets launched later with the real asset’s document, its symbol or its name are never quoted; the symbol and the document name the real one', async () => {
  const r = await api.request<{ quotes: QuoteBody[]; not_quoted: { asset_id: string; reason: string }[] }>(
    'GET',
    '/api/desk/quotes',
  );
  expect(new Set(r.body.quotes.filter((q) => q.symbol === 'ATW').map((q) => q.asset_id))).toEqual(
    new Set([real.assetId]),
  );
  expect(r.body.quotes.filter((q) => q.symbol === 'QXZ')).toEqual([]);
  for (const a of lookAlikes)
    expect(r.body.not_quoted.find((n) => n.asset_id === a.assetId)?.reason).toBe('look_alike');
  const sold = await rfqFrom('127.0.0.6', {
    address: k.squatter.address,
    symbol: 'ATW',
    kind: -1,
    side: 'sell',
    units: WHOLE.toString(),
  });
  expect(sold.status).toBe(200);
  expect((sold.body as { asset_id?: string }).asset_id).toBe(real.assetId);
  const doc = await api.request<{ asset_id: string | null }>('GET', `/api/launchpad/metadata/${metaHashOf(REAL)}`);
  expect(doc.body.asset_id).toBe(real.assetId);
});

test('after a pump ends, the desk never bids above the pool: its bid is 2 % under the lower of spot and twap', async () => {
  const before = await quotedBid('ATW');
  const p0 = (await chain.poolPrice(real.assetId, STABLE_DENOM))!.pricePerWhole;
  // spot ×1.3 (x·y = k: 14 % more stable), held until the twap has risen 4 %, then sold back
  const pump = await swap(k.attacker, false, 28_000_000_000n);
  expect(pump.code).toBe(0);
  await until('the twap to rise 4 %', async () =>
    BigInt((await wholeShare())!.mid) * 100n >= p0 * 104n ? true : undefined,
  );
  expect((await swap(k.attacker, true, BigInt(String(pump.responses[0].out)))).code).toBe(0);
  const spot = (await chain.poolPrice(real.assetId, STABLE_DENOM))!.pricePerWhole;
  const after = await until('the book of the restored pool', async () => {
    const q = await wholeShare();
    return q && q.bid !== null && BigInt(q.mid) * 100n >= spot * 102n ? q : undefined;
  });
  // the old bid, 98 % of the twap, would pay more than the pool does now; this one pays 98 % of the pool
  expect((BigInt(after.mid) * 98n) / 100n).toBeGreaterThan(spot);
  expect(BigInt(after.bid!)).toBeLessThanOrEqual((spot * 98n) / 100n);
  const offer = await world.submit(k.attacker, [offerToDesk(k.attacker, real.assetId, WHOLE, spot)]);
  const [verdict] = await verdictsOn(k.attacker, [String(offer.responses[0].settlement_id)]);
  expect([verdict.verdict, verdict.reason]).toEqual(['cancelled', 'worse_than_quote']);
  expect(BigInt(before.bid!)).toBeGreaterThan(0n);
});

test('every asset together: an RFQ outstanding counts against DESK_MAX_TOTAL as an accepted offer does, on both paths', async () => {
  await quotedBid('ATW');
  const mid = BigInt((await wholeShare())!.mid);
  const room = async () => {
    const { rows } = await world.pool.query<{ total: string }>(
      `SELECT sum(value)::text AS total FROM app.desk_exposure`,
    );
    return DESK_MAX_TOTAL - BigInt(rows[0].total);
  };
  // an RFQ for most of the room, left unaccepted: its purchase is outstanding for 10 minutes
  const shares = ((await room()) * 7n) / 10n / mid;
  const rfq = await rfqFrom('127.0.0.7', {
    address: k.batcher.address,
    asset_id: real.assetId,
    kind: -1,
    side: 'sell',
    units: (shares * WHOLE).toString(),
  });
  expect(rfq.status).toBe(200);
  // an offer for half the room more: within the pool-share and position caps, not within the total
  const bid = BigInt((await wholeShare())!.bid!);
  const half = ((await room()) / 2n / mid) * WHOLE;
  const offer = await world.submit(k.attacker, [offerToDesk(k.attacker, real.assetId, half, (half * bid) / WHOLE)]);
  const [verdict] = await verdictsOn(k.attacker, [String(offer.responses[0].settlement_id)]);
  expect([verdict.verdict, verdict.reason]).toEqual(['cancelled', 'total_cap']);
  // and the other path: an RFQ for as much is refused with the same reason
  const second = await rfqFrom('127.0.0.8', {
    address: k.squatter.address, // holds the units: a sell RFQ is judged on the caps only if it can be delivered
    asset_id: real.assetId,
    kind: -1,
    side: 'sell',
    units: half.toString(),
  });
  expect([second.status, second.body.code, (second.body as { reason?: string }).reason]).toEqual([
    400,
    'bad_request',
    'total_cap',
  ]);
});

test('a pump held for fewer than half the window: the twap up ~10 %, the desk still bids at most 98 % of a price the window printed before it (the lendable price, as the lender)', async () => {
  // a steady window first (the earlier pumps out of it): the mid within 0.1 % of spot, both sides quoted
  await until('a steady window', async () => {
    const q = await wholeShare();
    const spot = (await chain.poolPrice(real.assetId, STABLE_DENOM))!.pricePerWhole;
    if (!q?.bid || !q.ask) return undefined;
    const mid = BigInt(q.mid);
    return (mid > spot ? mid - spot : spot - mid) * 1000n <= spot ? true : undefined;
  });
  const before = (await wholeShare())!;
  // spot ×1.3 (x·y = k: 14 % more stable), held until the twap has risen 9 %: 9-10 of the window's 30 blocks
  const pump = await swap(k.attacker, false, 28_000_000_000n);
  expect(pump.code).toBe(0);
  try {
    // the highest price the window printed before the pump: the documented bound is 98 % of it ("Market")
    const prior = await Promise.all(
      Array.from({ length: MARKET.windowBlocks }, (_, i) =>
        chain.poolPriceAt(real.assetId, STABLE_DENOM, pump.height - 1 - i),
      ),
    );
    const highest = prior.reduce((m, p) => (p!.pricePerWhole > m ? p!.pricePerWhole : m), 0n);
    const bound = (highest * 98n) / 100n;
    const during = await until('the twap to rise 9 %', async () => {
      const q = await wholeShare();
      return q?.bid && BigInt(q.mid) * 100n >= BigInt(before.mid) * 109n ? q : undefined;
    });
    const held = world.chain.height - pump.height + 1; // heights closed at the pumped price, at most
    expect(held).toBeLessThan(MARKET.windowBlocks / 2);
    // 98 % of min(spot, twap) would be ~2,150,000 now; the median has not moved
    expect(BigInt(during.bid!)).toBeLessThanOrEqual(bound);
    expect(BigInt(during.bid!)).toBeLessThanOrEqual((BigInt(before.bid!) * 1001n) / 1000n);
    expect(during.ask).toBeNull(); // spot above the twap: no ask
  } finally {
    expect((await swap(k.attacker, true, BigInt(String(pump.responses[0].out)))).code).toBe(0);
  }
});

// last: its RFQs stay outstanding for their 10 minutes
test('relayed units: a sell RFQ whose requester moves its units away is withdrawn, so one lot relayed through three requesters holds the room of one RFQ, and an honest seller is served beside it', async () => {
  await quotedBid('ATW');
  const bid = BigInt((await wholeShare())!.bid!);
  // what the desk paid, and what the sell RFQs still outstanding (the earlier tests' among them) will pay
  const { rows } = await world.pool.query<{ total: string }>(
    `SELECT ((SELECT coalesce(sum(value), 0) FROM app.desk_exposure)
           + (SELECT coalesce(sum(r.buys_value), 0) FROM app.rfqs r
               WHERE r.side = 'sell' AND r.buys_value IS NOT NULL AND ${outstandingRfqSql('svc.settlements')}))::text AS total`,
  );
  const room = DESK_MAX_TOTAL - BigInt(rows[0].total);
  // 40 % of the room at the bid: three lots outstanding at once would not fit in it, two do
  const lot = ((room * 4n) / 10n / bid) * WHOLE;
  const relays = [k.relay0, k.relay1, k.relay2];
  const transfer = (from: TestKey, to: TestKey): Msg[] =>
    KINDS.map((kindId) => ({
      typeUrl: '/svc.rights.v1.MsgTransfer',
      value: {
        sender: from.address,
        recipient: to.address,
        asset_id: real.assetId,
        kind_id: kindId,
        units: lot.toString(),
      },
    }));
  const sell = (who: TestKey) => ({
    address: who.address,
    asset_id: real.assetId,
    kind: -1,
    side: 'sell',
    units: lot.toString(),
  });
  expect((await world.submit(k.attacker, transfer(k.attacker, relays[0]))).code).toBe(0);
  await world.waitIndexed();
  for (const [i, relay] of relays.entries()) {
    // each from a client address of its own: the per-client share does not join them
    const r = await rfqFrom(`127.0.0.${20 + i}`, sell(relay));
    expect(r.status).toBe(200);
    const next = relays[i + 1];
    if (!next) break;
    expect((await world.submit(relay, transfer(relay, next))).code).toBe(0);
    const [withdrawn] = await verdictsOn(relay, [String(r.body.settlement_id)]);
    expect([withdrawn.verdict, withdrawn.reason]).toEqual(['cancelled', 'undeliverable']);
    expect(withdrawn.detail).toMatch(/^the desk withdrew its proposal for your RFQ .*holds 0 units/);
    expect(await settlementStatus(r.body.settlement_id!)).toBe('STATUS_CANCELLED');
  }
  // the lot holds one RFQ's room, not three: an honest seller of as much is served
  const honest = await rfqFrom('127.0.0.30', sell(k.seller));
  expect([honest.status, honest.body.code]).toEqual([200, undefined]);
});
