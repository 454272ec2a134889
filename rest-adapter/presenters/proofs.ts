/** The proof of indexing of a height (openapi `Proof`, an extension of Status and BlockDetail). */
import type { ApiSchema } from './contract';
import type { ProofRow } from '../repositories/proofs';

export function presentProof(row: ProofRow | undefined): ApiSchema<'Proof'> | null {
  if (!row) return null;
  return {
    height: row.height,
    hash: row.hash,
    previous: row.previous === '' ? null : row.previous,
    block_hash: row.block_hash,
    entities_root: row.entities_root,
    roots: row.roots,
  };
}
