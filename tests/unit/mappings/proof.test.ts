/**
 * The proof of indexing the block handler keeps (src/mappings/entities/proof.ts), on a fake store:
 * one BlockProof per height over exactly the rows that height wrote, chained to the one before,
 * the same whether the mapping's cache was warm or a restart emptied it, and reproducible from
 * the rows the store holds (what the verify tool does).
 */
import { toBech32 } from '../../../src/lib/address';
import { blockProofHash, entitiesRoot, leafPrefix, rowLeaf } from '../../../src/lib/proof';
import { assetCreated, assetIssued, kind } from './harness/asset-events';
import { fakeBlock, typed, type TxSpec } from './harness/fake-block';
import { installFakeStore, type FakeStore } from './harness/fake-store';
import { proofChainBroken } from '../../../src/runtime/node-errors';

const ISSUER = toBech32(new Uint8Array(20).fill(0x11));
const ALICE = toBech32(new Uint8Array(20).fill(0x22));
const ASSET = 'ef'.repeat(32);

const created = assetCreated(ASSET, ISSUER, { kinds: [kind({ class: 'KIND_CLASS_ECONOMIC' })] });
const issued = (units: bigint, after: bigint) => assetIssued(ASSET, ALICE, units, after);
const tx = (...events: ReturnType<typeof typed>[]): TxSpec => ({ events });

/** Blocks 1..6 from `from`: an asset created, then issued to, block after block (rows rewritten every height). */
function blocks(from: number) {
  return Array.from({ length: 6 }, (_, i) =>
    fakeBlock({
      height: from + i,
      txs:
        i === 0
          ? [tx(typed('svc.asset.v1.EventAssetCreated', created))]
          : [tx(typed('svc.asset.v1.EventIssued', issued(BigInt(i), BigInt((i * (i + 1)) / 2))))],
    }),
  );
}

/** A fresh copy of the mappings, as a node restart gives (an empty block cache). */
function freshHandler(): (b: ReturnType<typeof fakeBlock>) => Promise<void> {
  let handler: ((b: ReturnType<typeof fakeBlock>) => Promise<void>) | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module registry needs a synchronous require
    handler = (require('../../../src/mappings/block') as typeof import('../../../src/mappings/block')).handleBlock;
  });
  return handler!;
}

let base = 50_000;
let store: FakeStore;
beforeEach(() => {
  base += 1_000;
  store = installFakeStore();
});

const proofs = () =>
  store
    .all('BlockProof')
    .sort((a, b) => Number(a.height) - Number(b.height))
    .map((p) => ({ ...p }));

describe('the proof of indexing the block handler keeps', () => {
  it('writes one BlockProof per height over exactly the rows of that height, chained to the one before', async () => {
    const handle = freshHandler();
    for (const b of blocks(base)) {
      const before = store.writes.length;
      await handle(b);
      const height = Number(b.header.height);
      const wrote = store.writes.slice(before);
      const proof = store.row('BlockProof', String(height))!;
      const log = JSON.parse(String(proof.writes)) as Record<string, Record<string, string>>;
      const expected: Record<string, string[]> = {};
      for (const w of wrote.filter((x) => x.entity !== 'BlockProof')) expected[w.entity] = [...w.ids].sort();
      expect(Object.fromEntries(Object.entries(log).map(([t, ids]) => [t, Object.keys(ids)]))).toEqual(
        Object.fromEntries(
          Object.keys(expected)
            .sort()
            .map((t) => [t, expected[t]]),
        ),
      );
      expect(proof.entitiesRoot).toBe(entitiesRoot(JSON.parse(String(proof.roots))));
      const previous = height === base ? '' : String(store.row('BlockProof', String(height - 1))!.hash);
      expect(proof).toMatchObject({ height, blockHash: `B${height}`, previous });
      expect(proof.hash).toBe(
        blockProofHash({ height, blockHash: `B${height}`, entitiesRoot: String(proof.entitiesRoot), previous }),
      );
    }
    expect(proofs()).toHaveLength(6);
  });

  it('gives the same proofs when a restart empties the cache midway (a crash replay) as in one run', async () => {
    const run = blocks(base);
    const warm = freshHandler();
    for (const b of run) await warm(b);
    const once = proofs();

    store = installFakeStore();
    let handle = freshHandler();
    for (const [i, b] of run.entries()) {
      if (i === 2 || i === 4) handle = freshHandler(); // a new sandbox: nothing cached
      await handle(b);
    }
    expect(proofs()).toEqual(once);
  });

  it("is reproducible from the rows the store holds: each row last written at a height has that height's leaf", async () => {
    const handle = freshHandler();
    for (const b of blocks(base)) await handle(b);
    const last = new Map<string, string>();
    for (const p of proofs()) {
      const log = JSON.parse(String(p.writes)) as Record<string, Record<string, string>>;
      for (const [type, ids] of Object.entries(log))
        for (const [id, leaf] of Object.entries(ids)) last.set(`${type}/${id}`, leaf);
    }
    expect(last.size).toBeGreaterThan(10);
    for (const [key, leaf] of last) {
      const [type, id] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
      expect([key, leafPrefix(rowLeaf(type, store.row(type, id)!))]).toEqual([key, leaf]);
    }
  });
  it("fails the block, rather than start a new chain, where the store has proofs but not h-1's", async () => {
    const run = blocks(base);
    let handle = freshHandler();
    for (const b of run.slice(0, 4)) await handle(b);
    // the proof of the 4th height removed from the store, then a restart (nothing cached)
    store.rows.get('BlockProof')!.delete(String(base + 3));
    handle = freshHandler();
    const error = (await handle(run[4]).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      `proof of indexing: the chain of proofs is broken: the proof of height ${base + 3} is missing, although this store has proofs`,
    );
    expect(store.row('BlockProof', String(base + 4))).toBeUndefined();
    // npm start's supervisor finds it in the node's JSON line (src/runtime/node-errors.ts) and reports it
    const nodeLine = JSON.stringify({
      level: 'error',
      message: `Failed to index block at height ${base + 4} handleBlock(Error: ${error.message}\n    at x.js:1:1)`,
    });
    expect(proofChainBroken(nodeLine)).toBe(error.message);
    // a store's first proved height has no previous: '' (the first test), not an error
  });
});
