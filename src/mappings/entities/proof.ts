/**
 * The block's proof of indexing (BlockProof, one row per height; src/lib/proof.ts has the
 * encoding). Computed over what the block is about to write (infra/block-cache pendingWrites)
 * and written with it, so the node commits a height's proof in the same transaction as its
 * rows, and a crash replay recomputes it from the replayed block.
 *
 * The previous proof is read through the block cache: the row the last block put is still
 * there, so a catch-up reads the store only after a restart.
 *
 * PROOF_OF_INDEXING=false in the project's `.env` (the node hands the mappings that file as
 * process.env) turns it off; an invalid value fails the node at start, naming the setting.
 */
import { BlockProof } from '../../types';
import { blockProofHash, proofEnabled, proveWrites } from '../../lib/proof';
import { load, pendingWrites, put } from '../infra/block-cache';
import type { BlockData } from '../infra/host';

const enabled = proofEnabled(typeof process !== 'undefined' && process.env ? process.env : {});

/** Thrown where a height's proof cannot be chained: the node fails the block (and its supervisor reports it) rather than start a new chain. */
export const PROOF_CHAIN_BROKEN = 'proof of indexing: the chain of proofs is broken';

/**
 * The proof of h-1, to chain h to. '' only at the first height a store proves (it has no
 * BlockProof at all): where the store has proofs but not h-1's (a row removed, a store copied
 * in part), falling back to '' would silently start a new chain mid-store, so it throws.
 */
async function previousProof(height: number): Promise<string> {
  const hash = (await load(BlockProof, String(height - 1)))?.hash;
  if (hash !== undefined) return hash;
  const [any] = await BlockProof.getByFields([], { limit: 1, offset: 0 });
  if (!any) return '';
  throw new Error(
    `${PROOF_CHAIN_BROKEN}: the proof of height ${height - 1} is missing, although this store has proofs ` +
      `(e.g. at ${any.height}), so height ${height} cannot be chained to it. ` +
      'Restore the BlockProof row, or reindex (npm start -- --reindex)',
  );
}

/** Puts the proof of `block` over every row it writes; call it after the block's last change, before the flush. */
export async function recordBlockProof(block: BlockData): Promise<void> {
  if (!enabled) return;
  const writes = proveWrites(
    pendingWrites().map((e) => ({ type: e._name, id: e.id, fields: e as unknown as Record<string, unknown> })),
  );
  const previous = await previousProof(block.height);
  const parts = { height: block.height, blockHash: block.hash, entitiesRoot: writes.entitiesRoot, previous };
  put(
    BlockProof,
    BlockProof.create({
      id: String(block.height),
      ...parts,
      hash: blockProofHash(parts),
      roots: JSON.stringify(writes.roots),
      writes: writes.writesLog,
    }),
  );
}
