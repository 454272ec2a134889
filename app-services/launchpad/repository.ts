/** Stored launchpad documents (`<app schema>.launchpad_documents`), keyed by meta_hash. */
import type { Pool } from 'pg';
import { quoteIdent } from '../../src/store';

export type DocumentSource = 'api' | 'devnet';

export interface StoredDocumentRow {
  meta_hash: string;
  /** the canonical document bytes, exactly as hashed */
  canonical: Buffer;
}

export class LaunchpadRepository {
  private readonly table: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
  ) {
    this.table = `${quoteIdent(schema)}.launchpad_documents`;
  }

  /** Stores the document once; a repeat of the same bytes is a no-op. Returns whether it was new. */
  async save(metaHash: string, canonical: Uint8Array, source: DocumentSource): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO ${this.table} (meta_hash, canonical, source) VALUES ($1, $2, $3) ON CONFLICT (meta_hash) DO NOTHING`,
      [metaHash, Buffer.from(canonical), source],
    );
    return rowCount === 1;
  }

  async find(metaHash: string): Promise<StoredDocumentRow | undefined> {
    const { rows } = await this.pool.query<StoredDocumentRow>(
      `SELECT meta_hash, canonical FROM ${this.table} WHERE meta_hash = $1`,
      [metaHash],
    );
    return rows[0];
  }
}
