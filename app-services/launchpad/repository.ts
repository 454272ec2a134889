/** Stored launchpad documents (`<app schema>.launchpad_documents`), keyed by meta_hash. */
import type { Pool } from 'pg';
import { isUndefinedTable, quoteIdent, tablesIn, type Tables } from '../../src/store';

export type DocumentSource = 'api' | 'devnet';

export interface StoredDocumentRow {
  meta_hash: string;
  /** the canonical document bytes, exactly as hashed */
  canonical: Buffer;
  /** the first indexed asset created with this meta_hash, the one the document is bound to */
  asset_id: string | null;
}

export class LaunchpadRepository {
  private readonly table: string;
  private readonly svc: Tables;

  constructor(
    private readonly pool: Pool,
    schema: string,
    indexerSchema: string,
  ) {
    this.table = `${quoteIdent(schema)}.launchpad_documents`;
    this.svc = tablesIn(indexerSchema);
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
    try {
      const { rows } = await this.pool.query<StoredDocumentRow>(
        `SELECT d.meta_hash, d.canonical,
                (SELECT a.id FROM ${this.svc.assets} a LEFT JOIN ${this.svc.txes} t ON t.id = a.created_tx_hash
                  WHERE a.meta_hash = d.meta_hash ORDER BY a.created_height, coalesce(t.tx_index, 0), a.id LIMIT 1) AS asset_id
           FROM ${this.table} d WHERE d.meta_hash = $1`,
        [metaHash],
      );
      return rows[0];
    } catch (e) {
      // the node has not created its tables yet: no asset is bound to anything
      if (!isUndefinedTable(e)) throw e;
      const { rows } = await this.pool.query<StoredDocumentRow>(
        `SELECT meta_hash, canonical, NULL AS asset_id FROM ${this.table} WHERE meta_hash = $1`,
        [metaHash],
      );
      return rows[0];
    }
  }
}
