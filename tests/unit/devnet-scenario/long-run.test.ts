/**
 * A devnet that runs for days, at CI size: with a state window and a block archive the state
 * versions stay bounded, a query below the window gets the pruned-height error, off-loaded
 * blocks are served byte for byte as an all-in-memory chain serves them, and the embedded
 * devnet of `npm start` restarts from its snapshot replaying only the journal's tail (with
 * the crash image of a kill: a torn journal line and a half-written snapshot beside it).
 * Counts, not timings. The full-size run is `npm run soak:devnet` (docs/running.md).
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { startEmbeddedDevnet, type EmbeddedDevnet } from '../../../src/runtime/devnet';
import { DevnetJournal } from '../../../src/runtime/devnet-journal';
import { readSnapshot } from '../../../src/runtime/devnet-snapshot';
import { createLogger } from '../../../src/runtime/logger';
import { queryJson } from '../../../devnet/app';
import { BlockArchive, startRpcServer, upperHex, type DevnetRpcServer } from '../../../devnet/chain';
import { generateHistory, type History } from '../../../devnet/scenario';

const WINDOW = 40;
const PRUNE_EVERY = 5;
const RECENT_BLOCKS = 16;
const BLOCKS = 2 * WINDOW + 20;

const dirs: string[] = [];
function tmp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-long-run-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function rpcText(url: string, method: string, params: Record<string, unknown>): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return response.text();
}

describe('a bounded devnet (state window, block archive)', () => {
  let bounded: History;
  let reference: History;
  let archive: BlockArchive;
  const referenceVersions: number[] = [];
  const servers: DevnetRpcServer[] = [];

  beforeAll(async () => {
    archive = BlockArchive.open(tmp());
    const options = { seed: 'long-run', blocks: BLOCKS, txsPerBlock: 4, skipSignatureVerification: true };
    reference = await generateHistory({
      ...options,
      onBlock: (height, _ms, engine) => (referenceVersions[height] = engine.app.stateStats().versions),
    });
    bounded = await generateHistory({
      ...options,
      memory: { stateRetention: { keepRecent: WINDOW, pruneEvery: PRUNE_EVERY }, archive, recentBlocks: RECENT_BLOCKS },
    });
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    archive.close();
  });

  it('makes the same chain as a devnet that keeps everything', () => {
    expect(bounded.chain.height).toBe(BLOCKS);
    expect(upperHex(bounded.chain.latestBlock()!.blockId.hash)).toBe(
      upperHex(reference.chain.latestBlock()!.blockId.hash),
    );
  });

  it('holds only the versions the window reads, and the recent blocks', () => {
    const kept = bounded.app.stateStats();
    const all = reference.app.stateStats();
    const earliest = bounded.app.earliestStateHeight;
    expect(earliest).toBeGreaterThan(BLOCKS - WINDOW - PRUNE_EVERY);
    // each key's one version at or below the earliest height, plus at most every version written above it
    expect(kept.versions).toBeLessThanOrEqual(kept.keys + referenceVersions[BLOCKS] - referenceVersions[earliest]);
    expect(kept.versions).toBeLessThan(all.versions);
    expect(bounded.chain.memoryStats().blocks).toBe(RECENT_BLOCKS);
  });

  it('answers a query below the window with the pruned-height error, inside it as before', () => {
    const below = bounded.app.earliestStateHeight - 1;
    const path = '/cosmos.bank.v1beta1.Query/Balance';
    const request = { address: bounded.engine.world.cast.holders[0].address, denom: 'usvc' };
    const pruned = queryJson(bounded.app, path, request, below);
    expect(pruned.code).toBe(18);
    expect(pruned.log).toBe(
      `invalid request: failed to load state at height ${below}; version does not exist (latest height: ${BLOCKS})`,
    );
    // the same answer as the prunedBelow fault switch gives on the chain that kept everything
    reference.app.queryFaults.prunedBelow = below + 1;
    try {
      expect(queryJson(reference.app, path, request, below)).toEqual(pruned);
    } finally {
      reference.app.queryFaults.prunedBelow = 0;
    }
    const inside = bounded.app.earliestStateHeight;
    expect(queryJson(bounded.app, path, request, inside)).toEqual(queryJson(reference.app, path, request, inside));
  });

  it('serves off-loaded blocks, results, txs and metas byte for byte as the in-memory chain', async () => {
    const [ours, theirs] = await Promise.all([startRpcServer(bounded.chain), startRpcServer(reference.chain)]);
    servers.push(ours, theirs);
    const tx = reference.chain.block(3)!.txHashes[0];
    const calls: [string, Record<string, unknown>][] = [
      ['status', {}],
      ['blockchain', { minHeight: '1', maxHeight: '30' }],
      ['block_by_hash', { hash: Buffer.from(reference.chain.block(2)!.blockId.hash).toString('base64') }],
      ['tx', { hash: Buffer.from(tx, 'hex').toString('base64'), prove: true }],
      ['tx_search', { query: 'tx.height<=5', per_page: '100' }],
    ];
    for (const height of [1, 2, BLOCKS - RECENT_BLOCKS, BLOCKS - RECENT_BLOCKS + 1, BLOCKS])
      for (const method of ['block', 'block_results', 'header', 'commit'])
        calls.push([method, { height: String(height) }]);
    // status names each server's own address
    const answer = async (url: string, method: string, params: Record<string, unknown>) =>
      (await rpcText(url, method, params)).replace(/"rpc_address":"[^"]*"/, '"rpc_address":"…"');
    for (const [method, params] of calls)
      expect([method, params, await answer(ours.url, method, params)]).toEqual([
        method,
        params,
        await answer(theirs.url, method, params),
      ]);
  });
});

describe('the embedded devnet restarted after a kill', () => {
  /** warnings and errors of the devnets (a dropped flow, a failed live block) */
  const problems: string[] = [];
  const quiet = createLogger({ format: 'json', level: 'warn', write: (line) => problems.push(line) });
  const config = {
    seed: 'long-run-restart',
    historyBlocks: 20,
    blockMs: 100,
    txsPerBlock: 3,
    port: 0,
    stateWindow: 30,
    snapshotBlocks: 15,
  };

  async function waitFor(devnet: EmbeddedDevnet, height: number): Promise<void> {
    while (devnet.chain.height < height) await new Promise((r) => setTimeout(r, 20));
  }

  it('resumes from its snapshot, replays only the tail, with the same hashes, and blocks and txs go on', async () => {
    const dir = tmp();
    const first = await startEmbeddedDevnet({ config, journal: DevnetJournal.open(dir), dataDir: dir, log: quiet });
    const crashed = tmp();
    let hashes: string[];
    try {
      // a kill between blocks at least 5 after the latest snapshot: the data dir as it is then
      const liveSnapshot = () => readSnapshot(dir).snapshot?.scenario.height ?? 0;
      await waitFor(first, config.historyBlocks + 2 * config.snapshotBlocks);
      while (liveSnapshot() <= config.historyBlocks || first.chain.height - liveSnapshot() < 5)
        await new Promise((r) => setTimeout(r, 20));
      fs.cpSync(dir, crashed, { recursive: true });
      hashes = Array.from({ length: first.chain.height }, (_, i) => upperHex(first.chain.block(i + 1)!.blockId.hash));
    } finally {
      await first.close();
    }
    // what a kill during writes leaves: half a journal line, half a snapshot in its temp file
    fs.appendFileSync(path.join(crashed, 'blocks.ndjson'), '{"height":');
    fs.writeFileSync(path.join(crashed, 'snapshot.json.tmp'), '{"version":1,"jour');
    const { snapshot } = readSnapshot(crashed);
    const journal = DevnetJournal.open(crashed);
    expect(journal.height).toBe(hashes.length);
    const snapshotHeight = snapshot!.scenario.height;
    expect(snapshotHeight).toBeGreaterThan(config.historyBlocks);

    const second = await startEmbeddedDevnet({ config, journal, dataDir: crashed, log: quiet });
    try {
      expect(second.resumedFrom).toBe(snapshotHeight);
      expect(second.replayedBlocks).toBe(hashes.length - snapshotHeight);
      expect(second.replayedBlocks).toBeLessThan(config.snapshotBlocks);
      for (let h = 1; h <= hashes.length; h++)
        expect([h, upperHex(second.chain.block(h)!.blockId.hash)]).toEqual([h, hashes[h - 1]]);
      // state below the snapshot is gone, as on a pruned node
      expect(second.engine.app.earliestStateHeight).toBe(snapshotHeight);
      const resumedAt = second.chain.height;
      await waitFor(second, resumedAt + 10);
      const newBlocks = Array.from({ length: 10 }, (_, i) => second.chain.block(resumedAt + 1 + i)!);
      const txs = newBlocks.flatMap((b) => b.txHashes.map((h) => second.chain.tx(h)!));
      expect(txs.length).toBeGreaterThanOrEqual(10);
      // the scenario's accounts sign at the restored sequences: no tx fails its ante (sdk/32 or sdk/4)
      expect(txs.filter((t) => t.result.codespace === 'sdk' && [4, 32].includes(t.result.code))).toEqual([]);
      // nothing failed after the restart: no live block, no flow dropped
      expect(problems).toEqual([]);
    } finally {
      await second.close();
    }
    // the close wrote a snapshot at the tip: the next start replays nothing (the tip read before
    // it starts, as its live blocks go on being journaled meanwhile)
    const closedAt = DevnetJournal.open(crashed).height;
    const third = await startEmbeddedDevnet({
      config,
      journal: DevnetJournal.open(crashed),
      dataDir: crashed,
      log: quiet,
    });
    try {
      expect(third.replayedBlocks).toBe(0);
      expect(third.resumedFrom).toBe(closedAt);
    } finally {
      await third.close();
    }
  }, 120_000);
});
