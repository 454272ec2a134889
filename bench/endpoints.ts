/**
 * What the bench asks for: every /v1 endpoint, with inputs sampled from the store
 * (random heights, tx and eth hashes, assets, accounts, ids) and cursors deep into
 * the big lists, so pages far from the newest are measured too.
 */
import { Pool } from 'pg';
import { encodeCursor } from '../src/lib/cursor';
import { toChecksumAddress, decodeBech32Address } from '../src/lib/address';
import { encodeTxCursor } from '../rest-adapter/paging/tx-pages';
import { SCHEMA } from './store';

export interface Endpoint {
  name: string;
  next: () => string;
}

const S = `"${SCHEMA}"`;

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

function randomInt(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}

async function column<T = string>(pool: Pool, sql: string, values: unknown[] = []): Promise<T[]> {
  const r = await pool.query(sql, values);
  return r.rows.map((row) => Object.values(row)[0] as T);
}

/** What the requests are drawn from: keys sampled from the store, and random positions in it. */
export interface StoreSample {
  height: number;
  txHashes: string[];
  ethHashes: string[];
  assets: string[];
  bigKind: { asset_id: string; kind_id: number };
  holderKeys: { units: string; holder: string }[];
  busyAccounts: string[];
  someAccounts: string[];
  evmShapedAccounts: string[];
  attesters: string[];
  settlementMax: number;
  encumbranceMax: number;
  delegationMax: number;
  routes: string[];
  methods: string[];
  svc20: string[];
  txCount: number;
  /** the real last_cursor of /v1/txs (limit 20), as the API computes it */
  lastTxCursor: string | null;
}

export async function sampleStore(pool: Pool): Promise<StoreSample> {
  const height = Number((await pool.query(`SELECT latest_height FROM ${S}.chain_totals`)).rows[0].latest_height);
  const bigKind = (await pool.query(`SELECT asset_id, kind_id FROM ${S}.kinds ORDER BY holder_count DESC LIMIT 1`))
    .rows[0] as { asset_id: string; kind_id: number };
  const someAccounts = await column(pool, `SELECT id FROM ${S}.accounts ORDER BY random() LIMIT 5000`);
  return {
    height,
    txHashes: await column(pool, `SELECT hash FROM ${S}.txes ORDER BY random() LIMIT 20000`),
    ethHashes: await column(pool, `SELECT id FROM ${S}.evm_txes ORDER BY random() LIMIT 5000`),
    assets: await column(pool, `SELECT id FROM ${S}.assets ORDER BY id`),
    bigKind,
    holderKeys: (
      await pool.query(
        `SELECT units, holder FROM ${S}.holdings WHERE kind_ref = $1 AND units > 0 ORDER BY random() LIMIT 500`,
        [`${bigKind.asset_id}-${bigKind.kind_id}`],
      )
    ).rows as { units: string; holder: string }[],
    busyAccounts: await column(
      pool,
      `SELECT substr(feed, length('account:') + 1) FROM ${S}.activity_entries WHERE feed LIKE 'account:%' GROUP BY feed ORDER BY count(*) DESC LIMIT 20`,
    ),
    someAccounts,
    // the 0x form exists for 20-byte accounts only (module and escrow accounts are 32 bytes)
    evmShapedAccounts: someAccounts
      .map((a) => decodeBech32Address(a).bytes)
      .filter((b) => b.length === 20)
      .map((b) => toChecksumAddress(b)),
    attesters: await column(pool, `SELECT DISTINCT attester FROM ${S}.attestations`),
    settlementMax: Number((await pool.query(`SELECT max(number) AS n FROM ${S}.settlements`)).rows[0].n),
    encumbranceMax: Number((await pool.query(`SELECT max(id::numeric) AS n FROM ${S}.encumbrances`)).rows[0].n),
    delegationMax: Number((await pool.query(`SELECT max(id::numeric) AS n FROM ${S}.delegations`)).rows[0].n),
    routes: await column(pool, `SELECT id FROM ${S}.bridge_routes`),
    methods: await column(pool, `SELECT method FROM ${S}.method_counts ORDER BY count DESC`),
    svc20: await column(pool, `SELECT svc20_address FROM ${S}.kinds`),
    txCount: Number((await pool.query(`SELECT tx_count FROM ${S}.chain_totals`)).rows[0].tx_count),
    lastTxCursor: await txsLastCursor(pool),
  };
}

export async function endpoints(pool: Pool): Promise<Endpoint[]> {
  return restEndpoints(await sampleStore(pool));
}

/** Random draws shared by the REST requests and their GraphQL equivalents (bench/graphql-equivalents.ts). */
export const draw = { pick, randomInt };

/** The /v1 requests of every endpoint, drawn from `sample`. */
export function restEndpoints(sample: StoreSample): Endpoint[] {
  const {
    height,
    txHashes,
    ethHashes,
    assets,
    bigKind,
    holderKeys,
    busyAccounts,
    someAccounts,
    evmShapedAccounts,
    attesters,
    settlementMax,
    encumbranceMax,
    delegationMax,
    routes,
    methods,
    svc20,
  } = sample;
  const desk = busyAccounts[0];
  const olderCursor = () => encodeTxCursor({ direction: 'older', key: { height: randomInt(2, height), txIndex: 0 } });
  const newerCursor = () =>
    encodeTxCursor({ direction: 'newer', key: { height: randomInt(1, height - 1), txIndex: 0 } });
  const feedCursor = (kind: string) => encodeCursor(kind, [randomInt(2, height), 0, 0]);
  const holderCursor = () => {
    const k = pick(holderKeys);
    return encodeCursor('holders', [k.units, k.holder]);
  };
  const bigAsset = bigKind.asset_id;
  const lastTxCursor = sample.lastTxCursor ?? olderCursor();

  return [
    { name: 'status', next: () => '/v1/status' },
    { name: 'stats', next: () => '/v1/stats' },
    { name: 'blocks', next: () => `/v1/blocks?cursor=${encodeCursor('blocks', [randomInt(2, height)])}` },
    { name: 'block', next: () => `/v1/blocks/${randomInt(1, height)}` },
    { name: 'txs (first page)', next: () => '/v1/txs' },
    { name: 'txs limit=100', next: () => '/v1/txs?limit=100' },
    { name: 'txs deep next', next: () => `/v1/txs?cursor=${olderCursor()}` },
    { name: 'txs deep prev', next: () => `/v1/txs?cursor=${newerCursor()}` },
    { name: 'txs last page', next: () => `/v1/txs?cursor=${lastTxCursor}` },
    { name: 'txs method', next: () => `/v1/txs?method=${encodeURIComponent(pick(methods))}&cursor=${olderCursor()}` },
    { name: 'tx by hash', next: () => `/v1/txs/${pick(txHashes)}` },
    { name: 'tx by eth hash', next: () => `/v1/txs/${pick(ethHashes)}` },
    { name: 'assets', next: () => '/v1/assets' },
    { name: 'asset', next: () => `/v1/assets/${pick(assets)}` },
    { name: 'asset (big kind)', next: () => `/v1/assets/${bigAsset}` },
    { name: 'graph (big kind)', next: () => `/v1/assets/${bigAsset}/graph` },
    { name: 'holders first page', next: () => `/v1/assets/${bigAsset}/kinds/${bigKind.kind_id}/holders` },
    {
      name: 'holders deep',
      next: () => `/v1/assets/${bigAsset}/kinds/${bigKind.kind_id}/holders?cursor=${holderCursor()}`,
    },
    {
      name: 'distributions',
      next: () => `/v1/assets/${pick(assets)}/distributions?cursor=${feedCursor('distributions')}`,
    },
    { name: 'liquidation', next: () => `/v1/assets/${pick(assets)}/liquidation` },
    { name: 'asset events', next: () => `/v1/assets/${pick(assets)}/events?cursor=${feedCursor('asset_events')}` },
    { name: 'account (busy)', next: () => `/v1/accounts/${pick(busyAccounts)}` },
    { name: 'account (any, 0x)', next: () => `/v1/accounts/${pick(evmShapedAccounts)}` },
    { name: 'account attestations', next: () => `/v1/accounts/${pick(busyAccounts)}/attestations` },
    {
      name: 'account events',
      next: () => `/v1/accounts/${pick(busyAccounts)}/events?cursor=${feedCursor('account_events')}`,
    },
    { name: 'attester', next: () => `/v1/attesters/${pick(attesters.length ? attesters : busyAccounts)}` },
    {
      name: 'settlements',
      next: () => `/v1/settlements?cursor=${encodeCursor('settlements', [BigInt(randomInt(2, settlementMax))])}`,
    },
    { name: 'settlements pending', next: () => '/v1/settlements?status=pending' },
    {
      name: 'settlements party',
      next: () =>
        `/v1/settlements?party=${desk}&cursor=${encodeCursor('settlements', [BigInt(randomInt(2, settlementMax))])}`,
    },
    { name: 'settlement', next: () => `/v1/settlements/${randomInt(1, settlementMax)}` },
    { name: 'encumbrance', next: () => `/v1/encumbrances/${randomInt(1, encumbranceMax)}` },
    { name: 'delegation', next: () => `/v1/delegations/${randomInt(1, delegationMax)}` },
    { name: 'bridge routes', next: () => '/v1/bridge/routes' },
    { name: 'bridge route', next: () => `/v1/bridge/routes/${pick(routes)}` },
    {
      name: 'bridge transfers',
      next: () =>
        `/v1/bridge/transfers?cursor=${encodeCursor('bridge_transfers', [BigInt(randomInt(2, height)) * 10_000_000_000n])}`,
    },
    { name: 'bridge transfers route', next: () => `/v1/bridge/transfers?route=${pick(routes)}` },
    { name: 'lookup tx', next: () => `/v1/lookup/${pick(txHashes)}` },
    { name: 'lookup account', next: () => `/v1/lookup/${pick(someAccounts)}` },
    { name: 'lookup token', next: () => `/v1/lookup/${pick(svc20)}` },
    { name: 'lookup eth', next: () => `/v1/lookup/${pick(ethHashes)}` },
    { name: 'lookup integer', next: () => `/v1/lookup/${randomInt(1, height)}` },
    { name: 'invariants', next: () => '/v1/invariants' },
  ];
}

/** The real last_cursor of /v1/txs (limit 20), as the API computes it. */
async function txsLastCursor(pool: Pool): Promise<string | null> {
  const total = Number((await pool.query(`SELECT tx_count FROM ${S}.chain_totals`)).rows[0].tx_count);
  const r = total % 20 || 20;
  const row = (await pool.query(`SELECT height, tx_index FROM ${S}.txes ORDER BY seq ASC OFFSET $1 LIMIT 1`, [r]))
    .rows[0];
  return row ? encodeTxCursor({ direction: 'older', key: { height: row.height, txIndex: row.tx_index } }) : null;
}
