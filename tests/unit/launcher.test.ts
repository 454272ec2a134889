/**
 * The pieces of `npm start` that need no database: configuration rules, log lines, the devnet
 * journal (torn lines, identity, replay with identical hashes), the store/journal agreement
 * and readiness. The whole start runs in tests/integration/start.test.ts.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { loadLauncherConfig, loadServeConfig } from '../../src/runtime/config';
import { startEmbeddedDevnet } from '../../src/runtime/devnet';
import { checkIdentity, DevnetJournal, JournalConflict } from '../../src/runtime/devnet-journal';
import { createLogger } from '../../src/runtime/logger';
import { evaluateReadiness } from '../../src/runtime/readiness';
import { main as serveMain } from '../../launcher/serve';
import { checkChainId, checkIndexAgainstJournal } from '../../src/runtime/store-check';
import { ConfigError } from '../../src/lib/errors';

jest.setTimeout(60_000);

const load = (env: Record<string, string>, tty = false) =>
  loadLauncherConfig(env, { stdoutIsTTY: tty, cwd: '/srv/app' });
const tmpDirs: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-launcher-unit-'));
  tmpDirs.push(dir);
  return dir;
};
afterAll(() => tmpDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const quiet = createLogger({ format: 'json', level: 'error', write: () => undefined });

describe('configuration', () => {
  test('defaults: embedded everything, pretty logs on a terminal only', () => {
    const c = load({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: '/srv/app/.data',
      schema: 'svc',
      readyMaxLagBlocks: 10,
      databaseUrl: undefined,
      chain: undefined,
    });
    expect(c.devnet).toEqual({
      seed: 'svc-devnet',
      historyBlocks: 200,
      blockMs: 1000,
      txsPerBlock: 10,
      port: 26657,
      stateWindow: 1000,
      snapshotBlocks: 500,
    });
    expect(c.log).toEqual({ format: 'json', level: 'info' });
    expect(c.graphql).toEqual({
      subscriptions: true,
      maxWebsockets: 500,
      maxDepth: 10,
      maxCost: 10_000,
      statementTimeoutMs: 10_000,
    });
    expect(
      load({
        GRAPHQL_SUBSCRIPTIONS: 'FALSE',
        GRAPHQL_WS_MAX_CONNECTIONS: '20',
        GRAPHQL_MAX_DEPTH: '6',
        GRAPHQL_MAX_COST: '500',
        GRAPHQL_ALLOWLIST_FILE: '/etc/svc/ops.json',
      }).graphql,
    ).toEqual({
      subscriptions: false,
      maxWebsockets: 20,
      maxDepth: 6,
      maxCost: 500,
      statementTimeoutMs: 10_000,
      allowlistFile: '/etc/svc/ops.json',
    });
    // one budget per client address by default, biting while another client asked within 1 s; one client-address rule for every surface
    expect(c.fairShare).toEqual({
      perClient: { perSecond: 300, burst: 600 },
      keys: [],
      shedDelayMs: 500,
      contentionMs: 1000,
    });
    expect(c.trustProxy).toBe(false);
    expect(c.dbWaitMs).toBe(1000);
    expect(load({ RATE_LIMIT_PER_S: '0' }).fairShare.perClient).toBe(false);
    expect(load({}, true).log.format).toBe('pretty');
    expect(load({ DATA_DIR: 'x/y', LOG_FORMAT: 'PRETTY' }).dataDir).toBe('/srv/app/x/y');
  });

  test.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://u@h/db'],
    ['DATABASE_URL', 'not a url'],
    ['CHAIN_RPC_URL', 'ws://h:26657'],
    ['DB_SCHEMA', 'Svc-1'],
    ['DEVNET_BLOCK_MS', '10'],
    ['DEVNET_HISTORY_BLOCKS', '-1'],
    ['READY_MAX_LAG_BLOCKS', 'soon'],
    ['LOG_FORMAT', 'xml'],
    ['LOG_LEVEL', 'trace'],
    ['NODE_BATCH_SIZE', '0'],
    ['GRAPHQL_SUBSCRIPTIONS', 'yes'],
    ['GRAPHQL_WS_MAX_CONNECTIONS', '0'],
  ])('%s=%s is refused, naming the variable', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(ConfigError);
    expect(() => load({ [name]: value })).toThrow(name);
  });

  test('CHAIN_ID needs CHAIN_RPC_URL unless it is the devnet id; external endpoints are kept', () => {
    expect(() => load({ CHAIN_ID: 'other-1' })).toThrow('CHAIN_RPC_URL');
    expect(load({ CHAIN_ID: 'svc-devnet-1' }).chain).toBeUndefined();
    expect(
      load({ CHAIN_RPC_URL: 'http://h:26657/', CHAIN_ID: 'other-1', DATABASE_URL: 'postgres://u:p@h/db' }),
    ).toMatchObject({
      chain: { rpcUrl: 'http://h:26657', chainId: 'other-1' },
      databaseUrl: 'postgres://u:p@h/db',
    });
  });

  test('the container server takes DATABASE_URL or the node DB_* variables', () => {
    expect(
      loadServeConfig(
        { DB_HOST: 'postgres', DB_USER: 'svc', DB_PASS: 'p w', DB_DATABASE: 'svc' },
        { stdoutIsTTY: false },
      ).databaseUrl,
    ).toBe('postgres://svc:p%20w@postgres:5432/svc');
    expect(() => loadServeConfig({}, { stdoutIsTTY: false })).toThrow('DB_HOST');
    expect(typeof serveMain).toBe('function');
  });
});

describe('logger', () => {
  test('a notice (the ready banner) is written whatever the level', () => {
    const out: string[] = [];
    const log = createLogger({ format: 'json', level: 'error', write: (t) => out.push(t) });
    log.info('hidden');
    log.warn('hidden too');
    log.notice('ready after 1.0 s', { indexed_height: 5 });
    expect(out.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ level: 'info', msg: 'ready after 1.0 s', indexed_height: 5 }),
    ]);
  });

  test('json lines carry time, level, component, message and fields; levels below the minimum are dropped', () => {
    const out: string[] = [];
    const log = createLogger({ format: 'json', level: 'info', write: (t) => out.push(t) }).child('node');
    log.debug('hidden');
    log.warn('slow', { ms: 12, error: new Error('boom') });
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0])).toMatchObject({ level: 'warn', component: 'node', msg: 'slow', ms: 12, error: 'boom' });
  });

  test('pretty lines without colour for a pipe', () => {
    const out: string[] = [];
    createLogger({ format: 'pretty', level: 'debug', color: false, write: (t) => out.push(t) }).info('indexing 5 / 9', {
      lag_blocks: 4,
      note: 'two words',
    });
    expect(out[0]).toMatch(/^\d\d:\d\d:\d\d INFO {2}launcher indexing 5 \/ 9 {2}lag_blocks=4 note="two words"\n$/);
  });
});

describe('readiness', () => {
  test('ready only with a reachable store, committed blocks and a lag within the limit', () => {
    expect(
      evaluateReadiness({ storeReachable: true, schemaReady: true, indexedHeight: 95, chainHeight: 100 }, 10),
    ).toMatchObject({ ready: true, lag_blocks: 5 });
    expect(
      evaluateReadiness({ storeReachable: true, schemaReady: true, indexedHeight: 80, chainHeight: 100 }, 10).reasons,
    ).toEqual(['indexing lags 20 blocks behind the chain (more than 10)']);
    expect(evaluateReadiness({ storeReachable: false, schemaReady: false, error: 'ECONNREFUSED' }, 10).reasons[0]).toBe(
      'store unreachable: ECONNREFUSED',
    );
    // without the chain's own tip, the tip the node last saw counts
    expect(
      evaluateReadiness({ storeReachable: true, schemaReady: true, indexedHeight: 50, targetHeight: 52 }, 10).ready,
    ).toBe(true);
  });
});

describe('devnet journal', () => {
  const identity = { seed: 's', historyBlocks: 3, txsPerBlock: 2, chainId: 'svc-devnet-1' };

  test('a torn last line is cut off; another seed or history is a conflict naming the data dir', () => {
    const dir = tmp();
    const j = DevnetJournal.open(dir);
    j.create(identity, 1_000_000);
    j.append({ height: 1, timeMs: 1, hash: 'AA'.repeat(32), txs: [] });
    j.close();
    fs.appendFileSync(path.join(dir, 'blocks.ndjson'), '{"height":2,"ti');
    const again = DevnetJournal.open(dir);
    expect(again.height).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'blocks.ndjson'), 'utf8').endsWith('}\n')).toBe(true);
    expect(() => checkIdentity(again.meta!, { ...identity, seed: 'other' }, '/data')).toThrow(
      /seed "s" \(now "other"\).*rm -rf \/data/,
    );
    expect(() => checkIdentity(again.meta!, identity, '/data')).not.toThrow();
  });

  test('the index must hold the journal hash at its height and come from the same chain', () => {
    const j = DevnetJournal.open(tmp());
    j.create(identity, 1);
    j.append({ height: 1, timeMs: 1, hash: 'AA'.repeat(32), txs: [] });
    const hint = { dataDir: '/data', schema: 'svc', externalDatabase: false };
    expect(() => checkIndexAgainstJournal(undefined, j, hint)).not.toThrow();
    expect(() => checkIndexAgainstJournal({ indexedHeight: 1, hashAtHeight: 'AA'.repeat(32) }, j, hint)).not.toThrow();
    expect(() => checkIndexAgainstJournal({ indexedHeight: 1, hashAtHeight: 'BB' }, j, hint)).toThrow(JournalConflict);
    expect(() => checkIndexAgainstJournal({ indexedHeight: 2 }, j, hint)).toThrow(/at height 2 .* 1 blocks only/);
    expect(() => checkChainId({ chainId: 'x-1' }, 'svc-devnet-1', { ...hint, externalDatabase: true })).toThrow(
      /drop schema "svc"/,
    );
  });

  test('a restart replays the journaled live blocks to the same hashes and goes on', async () => {
    const dir = tmp();
    // no snapshots: the replay from genesis (the snapshot path is tests/unit/devnet-scenario/long-run.test.ts)
    const config = { seed: 'unit', historyBlocks: 4, blockMs: 100, txsPerBlock: 3, port: 0, snapshotBlocks: 0 };
    const first = await startEmbeddedDevnet({ config, journal: DevnetJournal.open(dir), dataDir: dir, log: quiet });
    while (first.chain.height < 8) await new Promise((r) => setTimeout(r, 50));
    await first.close();
    const saved = DevnetJournal.open(dir);
    expect(saved.height).toBe(first.chain.height);

    const second = await startEmbeddedDevnet({ config, journal: saved, dataDir: dir, log: quiet });
    try {
      expect(second.replayedBlocks).toBe(saved.height - 4);
      for (let h = 1; h <= saved.height; h++)
        expect(Buffer.from(second.chain.block(h)!.blockId.hash).toString('hex').toUpperCase()).toBe(saved.hashAt(h));
      const height = second.chain.height;
      while (second.chain.height <= height + 1) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await second.close();
    }
    expect(DevnetJournal.open(dir).height).toBe(second.chain.height);
  });

  test('a journal the devnet cannot reproduce stops the start', async () => {
    const dir = tmp();
    const config = { seed: 'unit-2', historyBlocks: 3, blockMs: 100, txsPerBlock: 2, port: 0, snapshotBlocks: 0 };
    const d = await startEmbeddedDevnet({ config, journal: DevnetJournal.open(dir), dataDir: dir, log: quiet });
    await d.close();
    // the saved hash of block 2 (hashes.bin holds 32 bytes per height) no longer matches what the history makes
    const hashes = path.join(dir, 'hashes.bin');
    const saved = fs.readFileSync(hashes);
    saved[32] ^= 0xff;
    fs.writeFileSync(hashes, saved);
    await expect(
      startEmbeddedDevnet({ config, journal: DevnetJournal.open(dir), dataDir: dir, log: quiet }),
    ).rejects.toThrow(/history block 2 differs.*rm -rf/);
  });
});
