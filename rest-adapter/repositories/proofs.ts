/**
 * The proof of indexing of a height (entity BlockProof, one row per height, written with the
 * block's rows): read beside the rows of another statement (the status, a block), so an answer
 * and its proof come from one snapshot.
 */
import type { Tables } from '../../src/store';

/** The proof columns as another statement selects them (`proof_` + column; null without a proof). */
export interface ProofColumns {
  proof_height: number | null;
  proof_hash: string | null;
  proof_previous: string | null;
  proof_block_hash: string | null;
  proof_entities_root: string | null;
  /** JSON text {entity type: root} */
  proof_roots: string | null;
}

export interface ProofRow {
  height: number;
  hash: string;
  /** '' where the store has no proof of the height before */
  previous: string;
  block_hash: string;
  entities_root: string;
  roots: Record<string, string>;
}

const COLUMNS = ['height', 'hash', 'previous', 'block_hash', 'entities_root', 'roots'] as const;

/**
 * `LEFT JOIN` of the proof whose id is `idSql` (a height as text), aliased `alias`, and its
 * select list; `wide` wraps the columns that are worth sending once (roots), e.g. on a
 * statement's first row only.
 */
export function proofJoin(
  t: Tables,
  alias: string,
  idSql: string,
  wide: (value: string) => string = (v) => v,
): { join: string; select: string } {
  return {
    join: `LEFT JOIN ${t.blockProofs} ${alias} ON ${alias}.id = ${idSql}`,
    select: COLUMNS.map((c) => `${c === 'roots' ? wide(`${alias}.${c}`) : `${alias}.${c}`} AS proof_${c}`).join(', '),
  };
}

/** The proof a statement's row carries, or undefined (no proof at that height). */
export function proofOf(row: ProofColumns | undefined): ProofRow | undefined {
  if (!row || row.proof_hash === null) return undefined;
  return {
    height: row.proof_height!,
    hash: row.proof_hash,
    previous: row.proof_previous ?? '',
    block_hash: row.proof_block_hash!,
    entities_root: row.proof_entities_root!,
    roots: JSON.parse(row.proof_roots ?? '{}') as Record<string, string>,
  };
}
