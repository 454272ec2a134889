/**
 * Records what the HTTP parts of this checkout answer on one seeded store, so two checkouts can be
 * compared byte for byte (a refactoring step must not change an answer):
 *
 *   flock /tmp/cpu.lock npx ts-node scripts/record-answers.ts /tmp/before.json   # in the old tree
 *   flock /tmp/cpu.lock npx ts-node scripts/record-answers.ts /tmp/after.json    # in the new tree
 *   npx ts-node scripts/record-answers.ts --diff /tmp/before.json /tmp/after.json
 *
 * It builds the harness's indexed devnet history (tests/harness/indexed-store.ts) on the PostgreSQL of
 * DATABASE_URL (or an embedded one), serves the rest-adapter (/v1) and the app services (/api, reads
 * only: no keys, so nothing signs) on it, and requests a fixed list: every /v1 and /api GET with ids
 * taken from the store's own answers, their error cases, and the /api POST error cases. Each answer
 * is kept as status, headers (minus the volatile Date, ETag, Keep-Alive, Connection) and body.
 */
import fs from 'fs';
import type { AddressInfo } from 'net';
import express from 'express';
import { Pool } from 'pg';
import { AppServices } from '../app-services';
import { APP_SERVICES_DEFAULTS } from '../app-services/config';
import { LAUNCH_PLANS, metadataDocument } from '../devnet/scenario/flows/launch';
import { createRestApp } from '../rest-adapter/app';
import { startIndexedStore } from '../tests/harness/indexed-store';
import { startPostgres } from '../tests/harness/postgres';

/** The wall clock the rest-adapter sees: fixed, so wall_clock_lag_seconds is the same in both runs. */
const FIXED_NOW_MS = Date.UTC(2030, 0, 1);
const VOLATILE_HEADERS = new Set(['date', 'etag', 'keep-alive', 'connection', 'retry-after']);

interface Recorded {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Probe {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

async function request(base: string, probe: Probe): Promise<Recorded> {
  const res = await fetch(base + probe.path, { method: probe.method, body: probe.body, headers: probe.headers });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!VOLATILE_HEADERS.has(name)) headers[name] = value;
  });
  return { method: probe.method, path: probe.path, status: res.status, headers, body: await res.text() };
}

/** The first `n` distinct captures of `re` in `text`. */
function harvest(text: string, re: RegExp, n = 3): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(re)) {
    found.add(m[1]);
    if (found.size >= n) break;
  }
  return [...found];
}

const BAD_LIMITS = ['0', '101', 'abc', '-1', '1.5', '0010'];

function v1Probes(ids: {
  assets: string[];
  hashes: string[];
  ethHashes: string[];
  heights: string[];
  accounts: string[];
  settlements: string[];
  encumbrances: string[];
  delegations: string[];
  routes: string[];
  kinds: string[];
}): string[] {
  const paths = [
    '/openapi.yaml',
    '/v1/status',
    '/v1/stats',
    '/v1/stats?limit=3',
    '/v1/blocks',
    '/v1/blocks?limit=5',
    '/v1/blocks/0',
    '/v1/blocks/99999999',
    '/v1/blocks/abc',
    '/v1/txs',
    '/v1/txs?limit=7',
    '/v1/txs?limit=3&limit=4',
    '/v1/txs?method=bad',
    '/v1/txs?method=/svc.asset.v1.MsgTransfer',
    '/v1/txs?cursor=garbage',
    '/v1/txs/' + '0'.repeat(64),
    '/v1/txs/xyz',
    '/v1/assets',
    '/v1/assets?limit=2',
    '/v1/assets/' + 'f'.repeat(64),
    '/v1/assets/ABC',
    '/v1/settlements',
    '/v1/settlements?status=pending',
    '/v1/settlements?status=STATUS_SETTLED&limit=3',
    '/v1/settlements?status=nope',
    '/v1/settlements?party=bad',
    '/v1/settlements/18446744073709551616',
    '/v1/settlements/99999',
    '/v1/encumbrances/99999',
    '/v1/encumbrances/x',
    '/v1/delegations/99999',
    '/v1/bridge/routes',
    '/v1/bridge/routes/nope',
    '/v1/bridge/transfers',
    '/v1/bridge/transfers?status=completed',
    '/v1/bridge/transfers?status=bad',
    '/v1/bridge/transfers?message_id=bad',
    '/v1/bridge/transfers?account=bad',
    '/v1/lookup/nothing',
    '/v1/lookup/12',
    '/v1/invariants',
    '/v1/invariants?asset=bad',
    '/v1/accounts/bad',
    '/v1/attesters/bad',
    '/v1/unknown',
    '/V1/status',
    '/v1/status/',
    '/v1/blocks/%E0%A4%A',
    '/v1/lookup/%E0%A4%A',
  ];
  for (const l of BAD_LIMITS) paths.push(`/v1/blocks?limit=${l}`, `/v1/assets?limit=${l}`);
  for (const h of ids.heights) paths.push(`/v1/blocks/${h}`, `/v1/lookup/${h}`);
  for (const h of [...ids.hashes, ...ids.ethHashes])
    paths.push(`/v1/txs/${h}`, `/v1/txs/${h.toLowerCase()}`, `/v1/lookup/${h}`);
  for (const a of ids.assets) {
    paths.push(
      `/v1/assets/${a}`,
      `/v1/assets/${a}/graph`,
      `/v1/assets/${a}/distributions`,
      `/v1/assets/${a}/distributions?limit=2`,
      `/v1/assets/${a}/liquidation`,
      `/v1/assets/${a}/events`,
      `/v1/assets/${a}/events?limit=3`,
      `/v1/assets/${a}/kinds/99/holders`,
      `/v1/assets/${a}/kinds/4294967296/holders`,
      `/v1/lookup/${a}`,
      `/v1/invariants?asset=${a}`,
    );
    for (const k of ids.kinds)
      paths.push(`/v1/assets/${a}/kinds/${k}/holders`, `/v1/assets/${a}/kinds/${k}/holders?limit=2`);
  }
  for (const a of ids.accounts)
    paths.push(
      `/v1/accounts/${a}`,
      `/v1/accounts/${a}/attestations`,
      `/v1/accounts/${a}/events`,
      `/v1/accounts/${a}/events?limit=2`,
      `/v1/attesters/${a}`,
      `/v1/settlements?party=${a}`,
      `/v1/bridge/transfers?account=${a}`,
      `/v1/lookup/${a}`,
    );
  for (const s of ids.settlements) paths.push(`/v1/settlements/${s}`);
  for (const e of ids.encumbrances) paths.push(`/v1/encumbrances/${e}`);
  for (const d of ids.delegations) paths.push(`/v1/delegations/${d}`);
  for (const r of ids.routes) paths.push(`/v1/bridge/routes/${encodeURIComponent(r)}`);
  return paths;
}

const API_GETS = [
  '/api/openapi.yaml',
  '/api/lender/terms',
  '/api/lender/loans',
  '/api/lender/loans?address=bad',
  '/api/lender/loans?address=a&address=b',
  '/api/desk/quotes',
  '/api/launchpad/metadata/bad',
  '/api/launchpad/metadata/' + '0'.repeat(64),
  '/api/launchpad/metadata/%E0%A4%A',
  '/api/nothing',
];

const JSON_HEADERS = { 'content-type': 'application/json' };
const API_POSTS: Probe[] = [
  { method: 'POST', path: '/api/launchpad/metadata', body: 'not json', headers: JSON_HEADERS },
  { method: 'POST', path: '/api/launchpad/metadata', body: '{}', headers: { 'content-type': 'text/plain' } },
  { method: 'POST', path: '/api/launchpad/metadata', body: '{}', headers: JSON_HEADERS },
  { method: 'POST', path: '/api/launchpad/metadata', body: '{"name":"x"}', headers: JSON_HEADERS },
  { method: 'POST', path: '/api/launchpad/metadata', body: '[]', headers: JSON_HEADERS },
  { method: 'POST', path: '/api/launchpad/metadata', body: 'x'.repeat(300_000), headers: JSON_HEADERS },
  { method: 'POST', path: '/api/desk/rfq', body: '{}', headers: JSON_HEADERS },
  { method: 'POST', path: '/api/desk/rfq', body: 'nope', headers: JSON_HEADERS },
  { method: 'POST', path: '/api/lender/terms', body: '{}', headers: JSON_HEADERS },
  { method: 'DELETE', path: '/api/launchpad/metadata' },
  { method: 'GET', path: '/api/desk/rfq' },
  { method: 'PUT', path: '/api/openapi.yaml' },
  { method: 'POST', path: '/api/launchpad/metadata/%E0%A4%A' },
];

async function record(outFile: string): Promise<void> {
  const pg = await startPostgres();
  const store = await startIndexedStore(pg.url, { log: (line) => console.error(`[store] ${line}`) });
  const pool = new Pool({ connectionString: store.info.databaseUrl, max: 4 });
  const services = new AppServices({
    pool,
    databaseUrl: store.info.databaseUrl,
    settings: { ...APP_SERVICES_DEFAULTS, keys: {}, schema: 'app' },
    hrp: 'svc',
    gasDenom: 'usvc',
    stableDenom: 'uusdc',
    indexerSchema: store.info.schema,
    devnetDocuments: LAUNCH_PLANS.map((plan) => metadataDocument(plan).doc),
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  try {
    await services.start();
    const app = express();
    app.disable('x-powered-by');
    app.use('/api', services.router);
    app.use(
      createRestApp({
        pool,
        schema: store.info.schema,
        hrp: 'svc',
        now: () => FIXED_NOW_MS,
        logger: { error: () => undefined },
      }),
    );
    const server = await new Promise<import('http').Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = async (path: string) => (await request(base, { method: 'GET', path })).body;
    const lists = [
      await get('/v1/assets?limit=100'),
      await get('/v1/txs?limit=100'),
      await get('/v1/settlements?limit=100'),
      await get('/v1/bridge/routes'),
      await get('/v1/bridge/transfers?limit=100'),
      await get('/v1/stats'),
    ].join('\n');
    const assets = harvest(lists, /"(?:asset_)?id":"([0-9a-f]{64})"/g, 4);
    const assetText = (await Promise.all(assets.map((a) => get(`/v1/assets/${a}`)))).join('\n');
    const metaHashes = harvest(assetText, /"meta_hash":"([0-9a-f]{64})"/g, 3);
    const all = lists + assetText;
    const probes: Probe[] = [
      ...v1Probes({
        assets,
        hashes: harvest(all, /"hash":"([0-9A-F]{64})"/g),
        ethHashes: harvest(all, /"eth_hash":"(0x[0-9a-f]{64})"/g, 2),
        heights: harvest(all, /"height":"?([0-9]+)"?/g),
        accounts: harvest(all, /"(svc1[02-9ac-hj-np-z]{38,58})"/g, 6),
        settlements: harvest(await get('/v1/settlements?limit=100'), /"id":"([0-9]+)"/g),
        encumbrances: harvest(assetText, /"encumbrance_id":"([0-9]+)"/g),
        delegations: harvest(all, /"delegation_id":"([0-9]+)"/g),
        routes: harvest(await get('/v1/bridge/routes'), /"id":"([^"]+)"/g),
        kinds: harvest(assetText, /"kind_id":([0-9]+)/g),
      }).map((path) => ({ method: 'GET', path })),
      { method: 'POST', path: '/v1/status' },
      { method: 'HEAD', path: '/v1/status' },
      { method: 'DELETE', path: '/v1/blocks/%E0%A4%A' },
      ...API_GETS.map((path) => ({ method: 'GET', path })),
      ...metaHashes.map((h) => ({ method: 'GET', path: `/api/launchpad/metadata/${h}` })),
      ...API_POSTS,
    ];
    const answers: Recorded[] = [];
    for (const probe of probes) answers.push(await request(base, probe));
    fs.writeFileSync(outFile, JSON.stringify(answers, null, 1) + '\n');
    console.error(`recorded ${answers.length} answers into ${outFile}`);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  } finally {
    await services.stop();
    await pool.end();
    await store.stop();
    await pg.stop();
  }
}

/** Pairs the answers of two recordings by position, method and path; prints each difference and the counts. */
function diff(beforeFile: string, afterFile: string): number {
  const read = (file: string) =>
    new Map(
      (JSON.parse(fs.readFileSync(file, 'utf8')) as Recorded[]).map((r, i) => [`#${i} ${r.method} ${r.path}`, r]),
    );
  const before = read(beforeFile);
  const after = read(afterFile);
  let identical = 0;
  let different = 0;
  for (const [k, b] of before) {
    const a = after.get(k);
    if (!a) {
      different++;
      console.log(`only before: ${k}`);
    } else if (JSON.stringify(a) === JSON.stringify(b)) identical++;
    else {
      different++;
      console.log(`different: ${k}\n  before: ${b.status} ${JSON.stringify(b.headers)} ${b.body.slice(0, 300)}`);
      console.log(`  after:  ${a.status} ${JSON.stringify(a.headers)} ${a.body.slice(0, 300)}`);
    }
  }
  for (const k of after.keys())
    if (!before.has(k)) {
      different++;
      console.log(`only after: ${k}`);
    }
  console.log(`${identical} identical, ${different} different`);
  return different;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--diff' && args.length === 3) {
    process.exitCode = diff(args[1], args[2]) === 0 ? 0 : 1;
    return;
  }
  if (args.length !== 1) {
    console.error('usage: record-answers.ts <out.json> | --diff <before.json> <after.json>');
    process.exitCode = 2;
    return;
  }
  await record(args[0]);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
