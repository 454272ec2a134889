/**
 * Before the node starts: does the index already in the store belong to this chain? The node
 * would fail later with less helpful words (or, for the devnet, index on top of a different
 * history), so a mismatch stops the start with what to do about it.
 */
import type { Pool } from 'pg';
import { isUndefinedTable, METADATA_KEY, quoteIdent, readMetadata } from '../store';
import { JournalConflict, type DevnetJournal } from './devnet-journal';

export interface StoredIndex {
  chainId?: string;
  indexedHeight?: number;
  /** block hash the index holds at indexedHeight (upper-case hex) */
  hashAtHeight?: string;
}

export interface ResetHint {
  dataDir: string;
  schema: string;
  /** DATABASE_URL is set: removing DATA_DIR does not clear the index */
  externalDatabase: boolean;
}

/** What the store holds; undefined when the node never ran on this schema. */
export async function readStoredIndex(pool: Pool, schema: string): Promise<StoredIndex | undefined> {
  const s = quoteIdent(schema);
  let by: Map<string, unknown>;
  try {
    by = await readMetadata(pool, `${s}._metadata`, [METADATA_KEY.chain, METADATA_KEY.indexedHeight]);
  } catch (e) {
    if (isUndefinedTable(e)) return undefined; // no _metadata: fresh
    throw e;
  }
  const height = by.has('lastProcessedHeight') ? Number(by.get('lastProcessedHeight')) : undefined;
  let hash: string | undefined;
  if (height !== undefined) {
    const r = await pool
      .query<{ hash: string }>(`SELECT hash FROM ${s}.blocks WHERE id = $1`, [String(height)])
      .catch(() => ({ rows: [] as { hash: string }[] }));
    hash = r.rows[0]?.hash;
  }
  return { chainId: by.has('chain') ? String(by.get('chain')) : undefined, indexedHeight: height, hashAtHeight: hash };
}

function howToReset(h: ResetHint): string {
  const fresh = `remove ${h.dataDir} (rm -rf ${h.dataDir}) or pass a new DATA_DIR`;
  return h.externalDatabase
    ? `Start afresh: drop schema "${h.schema}" in DATABASE_URL or set another DB_SCHEMA, and ${fresh}.`
    : `Start afresh: ${fresh}.`;
}

export function checkChainId(index: StoredIndex | undefined, chainId: string, h: ResetHint): void {
  if (index?.chainId !== undefined && index.chainId !== chainId) {
    throw new JournalConflict(
      `the index in schema "${h.schema}" was built from chain "${index.chainId}", not "${chainId}". ${howToReset(h)}`,
    );
  }
}

/** The index must be a prefix of the journaled devnet: same block hash at the indexed height. */
export function checkIndexAgainstJournal(index: StoredIndex | undefined, journal: DevnetJournal, h: ResetHint): void {
  const height = index?.indexedHeight;
  if (height === undefined || height <= 0) return;
  const savedHash = journal.hashAt(height);
  if (!savedHash) {
    const what = journal.height === 0 ? 'no saved devnet' : `a saved devnet of ${journal.height} blocks only`;
    throw new JournalConflict(
      `the index in schema "${h.schema}" is at height ${height} but there is ${what} in ${h.dataDir}/devnet. ${howToReset(h)}`,
    );
  }
  if (index!.hashAtHeight !== undefined && index!.hashAtHeight !== savedHash) {
    throw new JournalConflict(
      `the index in schema "${h.schema}" holds block ${height} ${index!.hashAtHeight.slice(0, 12)}… but the saved devnet has ${savedHash.slice(0, 12)}… ` +
        `(another seed or history?). ${howToReset(h)}`,
    );
  }
}
