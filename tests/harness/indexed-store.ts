/**
 * The store the REAL node builds from a seeded devnet history, once per jest run.
 *
 * Integration globalSetup (global-setup.ts) calls startIndexedStore(): it starts the devnet
 * (devnet/cli.ts startDevnet, history mode), builds the project when dist/ is stale,
 * runs @subql/node-cosmos (tests/harness/subql-node.ts) into a fresh database until the
 * indexed height equals the chain height, stops the node and publishes where the store is.
 * The devnet keeps serving RPC until globalTeardown, so tests can compare with the chain.
 *
 * Test files call getIndexedStore() for { pool, schema, devnetUrl, chainHeight, summary }.
 * The devnet's in-process handles (chain, app, engine) live in the globalSetup process:
 * tests reach the chain through devnetUrl (RPC, abci_query), which works in band and in workers.
 */
import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Pool } from 'pg';
import type { Devnet } from '../../devnet/cli';
import type { ScenarioSummary } from '../../devnet/scenario';
import { projectIsStale } from '../../src/runtime/project';
import { createDatabase, subqlDbEnv, TestDatabase, uniqueName } from './postgres';
import { startNode } from './subql-node';

const ROOT = path.resolve(__dirname, '..', '..');

/** Env var naming the JSON file of the store's IndexedStoreInfo (jest hands env to workers and in-band runs). */
export const INDEXED_STORE_ENV = 'SVC_TEST_INDEXED_STORE';
/** Set to 0 to skip building the store, 1 to build it whatever tests are selected. */
export const INDEXED_STORE_SWITCH_ENV = 'SVC_TEST_WITH_INDEXED_STORE';

export interface IndexedStoreOptions {
  seed?: string;
  blocks?: number;
  txsPerBlock?: number;
  schema?: string;
  /** milliseconds to wait for the node to reach the chain height */
  indexTimeoutMs?: number;
  log?: (line: string) => void;
}

export const DEFAULT_STORE_OPTIONS = { seed: 'rest-adapter-it', blocks: 150, txsPerBlock: 10, schema: 'svc' } as const;

/** Where the store is: plain data, passed from globalSetup to the tests. */
export interface IndexedStoreInfo {
  databaseUrl: string;
  schema: string;
  devnetUrl: string;
  chainHeight: number;
  indexedHeight: number;
  seed: string;
  summary: ScenarioSummary;
  timings: { devnetMs: number; buildMs: number; indexMs: number };
}

/** What globalSetup keeps: the info plus the live devnet handles and a stop(). */
export interface RunningIndexedStore {
  info: IndexedStoreInfo;
  devnet: Devnet;
  stop(): Promise<void>;
}

/** What a test file gets. */
export interface IndexedStore extends IndexedStoreInfo {
  pool: Pool;
  close(): Promise<void>;
}

export function storeInfoFile(jestPid: number): string {
  return path.join(os.tmpdir(), `svc-test-store-${jestPid}.json`);
}

/** `npm run build` when dist/ is stale (the launcher's rule: older than src/, schema.graphql, project.yaml or proto/); false when it was up to date. */
export function ensureProjectBuilt(): boolean {
  if (!projectIsStale()) return false;
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore', timeout: 300_000 });
  return true;
}

async function indexedHeightOf(pool: Pool, schema: string): Promise<number> {
  const r = await pool.query<{ value: unknown }>(
    `SELECT value FROM "${schema}"._metadata WHERE key = 'lastProcessedHeight'`,
  );
  return Number(r.rows[0]?.value ?? -1);
}

/** Runs the node on `devnetUrl` into `db` until it reaches `height`; stops it (the history is final). */
async function indexInto(
  db: TestDatabase,
  devnetUrl: string,
  schema: string,
  height: number,
  timeoutMs: number,
): Promise<void> {
  const node = await startNode({ dbEnv: subqlDbEnv(db), endpoint: devnetUrl, schema });
  try {
    await node.waitForHeight(height, timeoutMs);
  } finally {
    await node.stop();
  }
}

/** globalSetup side: devnet history -> real node -> fresh database on the run's server. */
export async function startIndexedStore(
  serverUrl: string,
  options: IndexedStoreOptions = {},
): Promise<RunningIndexedStore> {
  const o = { ...DEFAULT_STORE_OPTIONS, indexTimeoutMs: 600_000, ...options };
  const log = options.log ?? (() => undefined);
  let t = Date.now();
  // loaded lazily: the devnet pulls in the whole app, only needed when the store is built
  const { startDevnet } = await import('../../devnet/cli');
  // without CheckTx's secp256k1 check: the scenario's txs are signed all the same and the blocks identical,
  // generated in a third of the time; the tests only read this devnet
  const devnet = await startDevnet({
    seed: o.seed,
    blocks: o.blocks,
    txsPerBlock: o.txsPerBlock,
    skipSignatureVerification: true,
  });
  const devnetMs = Date.now() - t;
  log(`devnet: ${devnet.generation.blocks} blocks, ${devnet.generation.txs} txs in ${devnetMs} ms at ${devnet.url}`);
  let db: TestDatabase | undefined;
  try {
    t = Date.now();
    const built = ensureProjectBuilt();
    const buildMs = Date.now() - t;
    if (built) log(`project built in ${buildMs} ms`);
    db = await createDatabase(serverUrl, uniqueName('rest_store'));
    t = Date.now();
    await indexInto(db, devnet.url, o.schema, devnet.chain.height, o.indexTimeoutMs);
    const indexMs = Date.now() - t;
    const pool = new Pool({ connectionString: db.url, max: 1 });
    const indexedHeight = await indexedHeightOf(pool, o.schema).finally(() => pool.end());
    if (indexedHeight !== devnet.chain.height)
      throw new Error(`indexed height ${indexedHeight} != chain height ${devnet.chain.height}`);
    log(`indexed ${indexedHeight} blocks in ${indexMs} ms into ${db.name}.${o.schema}`);
    const info: IndexedStoreInfo = {
      databaseUrl: db.url,
      schema: o.schema,
      devnetUrl: devnet.url,
      chainHeight: devnet.chain.height,
      indexedHeight,
      seed: o.seed,
      summary: devnet.summary,
      timings: { devnetMs, buildMs, indexMs },
    };
    const database = db;
    return {
      info,
      devnet,
      async stop() {
        await devnet.close();
        await database.drop().catch(() => undefined);
      },
    };
  } catch (e) {
    await devnet.close();
    await db?.drop().catch(() => undefined);
    throw e;
  }
}

/** Test files outside tests/integration/rest-adapter/ that read the store too. */
const STORE_USERS_ELSEWHERE = ['tests/integration/proof-of-indexing.test.ts'];

/**
 * Whether this jest run selects the rest-adapter integration tests, or another user of the store
 * (it costs ~20 s): yes for a full run, or when a path pattern matches them;
 * SVC_TEST_WITH_INDEXED_STORE forces.
 */
export function runNeedsIndexedStore(
  globalConfig: { testPathPattern?: string; testPathPatterns?: unknown } | undefined,
): boolean {
  const forced = process.env[INDEXED_STORE_SWITCH_ENV];
  if (forced === '0' || forced === '1') return forced === '1';
  const raw = globalConfig?.testPathPatterns ?? globalConfig?.testPathPattern;
  const patterns = (Array.isArray(raw) ? raw : [raw]).filter((p): p is string => typeof p === 'string' && p !== '');
  if (patterns.length === 0) return true;
  const dir = path.join(ROOT, 'tests', 'integration', 'rest-adapter');
  const files = [
    ...(fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .filter((f) => f.endsWith('.test.ts'))
          .map((f) => path.join(dir, f))
      : []),
    ...STORE_USERS_ELSEWHERE.map((f) => path.join(ROOT, f)),
  ];
  return patterns.some((p) => {
    try {
      const re = new RegExp(p, 'i');
      return files.some((f) => re.test(f));
    } catch {
      return true; // not a regex jest would accept either: build rather than guess
    }
  });
}

function readInfo(): IndexedStoreInfo {
  const candidates = [process.env[INDEXED_STORE_ENV], storeInfoFile(process.pid), storeInfoFile(process.ppid)];
  for (const file of candidates) {
    if (!file) continue;
    let info: IndexedStoreInfo & { error?: string };
    try {
      info = JSON.parse(fs.readFileSync(file, 'utf8')) as IndexedStoreInfo & { error?: string };
    } catch {
      continue; // not there
    }
    if (info.error) throw new Error(`the indexed store could not be built in globalSetup: ${info.error}`);
    return info;
  }
  throw new Error(
    `no indexed store: run the rest-adapter integration tests through jest (integration globalSetup builds it), or set ${INDEXED_STORE_SWITCH_ENV}=1`,
  );
}

/** Test side: a pool on the node-built store and where the devnet is. */
export async function getIndexedStore(poolMax = 4): Promise<IndexedStore> {
  const info = readInfo();
  const pool = new Pool({ connectionString: info.databaseUrl, max: poolMax });
  pool.on('error', () => undefined); // the run's server may go away first at teardown
  return { ...info, pool, close: () => pool.end() };
}
