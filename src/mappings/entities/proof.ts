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

/** Puts the proof of `block` over every row it writes; call it after the block's last change, before the flush. */
export async function recordBlockProof(block: BlockData): Promise<void> {
  if (!enabled) return;
  const writes = proveWrites(
    pendingWrites().map((e) => ({ type: e._name, id: e.id, fields: e as unknown as Record<string, unknown> })),
  );
  const previous = (await load(BlockProof, String(block.height - 1)))?.hash ?? '';
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
