/**
 * What the desk reads and writes in PostgreSQL: its RFQs (app schema) and, read-only, the
 * indexer's store (assets with a pool and a launchpad document, proposals to the desk).
 */
import type { Pool } from 'pg';
import { tablesIn, type Tables } from '../../rest-adapter/db/tables';
import { timestampToRfc3339 } from '../../src/lib/contract';
import { pendingProposalsTo, type ProposalSeen } from '../store/indexer-reads';
import { quoteIdent, withTransaction } from '../store/sql';
import type { KindInfo } from './pricing';

export interface QuotedAsset {
  asset_id: string;
  name: string;
  symbol: string;
  kinds: KindInfo[];
}

export interface RfqRow {
  id: string;
  requester: string;
  asset_id: string;
  symbol: string;
  kind_id: number;
  side: 'sell' | 'buy';
  units: string;
  price: string;
  amount: string;
  expiry: Date;
  status: 'pending' | 'proposed' | 'failed';
  settlement_id: string | null;
  error: string | null;
}

export type NewRfq = Omit<RfqRow, 'status' | 'settlement_id' | 'error'>;

/** The RFQ's expiry in RFC 3339 (whole seconds): as proposed to the chain and as answered. */
export const rfqExpiry = (r: Pick<RfqRow, 'expiry'>) =>
  timestampToRfc3339(Math.floor(new Date(r.expiry).getTime() / 1000), 0);

export class DeskRepository {
  private readonly rfqs: string;
  private readonly documents: string;
  private readonly svc: Tables;

  constructor(
    private readonly pool: Pool,
    appSchema: string,
    indexerSchema: string,
  ) {
    this.rfqs = `${quoteIdent(appSchema)}.rfqs`;
    this.documents = `${quoteIdent(appSchema)}.launchpad_documents`;
    this.svc = tablesIn(indexerSchema);
  }

  /** Assets with a pool against `denom` and a launchpad document, by id. */
  async quotedAssets(denom: string): Promise<QuotedAsset[]> {
    const { rows } = await this.pool.query<QuotedAsset>(
      `SELECT a.id AS asset_id, doc ->> 'name' AS name, doc ->> 'symbol' AS symbol,
              (SELECT json_agg(json_build_object('kind_id', k.kind_id, 'class', k.kind_class, 'decimals', k.decimals) ORDER BY k.kind_id)
                 FROM ${this.svc.kinds} k WHERE k.asset_id = a.id) AS kinds
         FROM ${this.svc.assets} a
         JOIN LATERAL (SELECT convert_from(d.canonical, 'UTF8')::jsonb AS doc FROM ${this.documents} d WHERE d.meta_hash = a.meta_hash) d ON true
        WHERE EXISTS (SELECT 1 FROM ${this.svc.dexPools} p WHERE p.asset_id = a.id AND p.quote_denom = $1)
        ORDER BY a.id`,
      [denom],
    );
    return rows;
  }

  /** The kind ids of an asset (a whole share moves one unit of each). */
  async kindIds(assetId: string): Promise<number[]> {
    const { rows } = await this.pool.query<{ kind_id: number }>(
      `SELECT kind_id FROM ${this.svc.kinds} WHERE asset_id = $1 ORDER BY kind_id`,
      [assetId],
    );
    return rows.map((r) => r.kind_id);
  }

  /** Pending settlements proposed to the desk, oldest first. */
  pendingProposals(desk: string): Promise<ProposalSeen[]> {
    return pendingProposalsTo(this.pool, this.svc, desk);
  }

  // ---------------------------------------------------------------- rfqs

  /**
   * Records the RFQ unless the requester already has `limit` in the last `windowMs` (counted
   * across every replica, under a per-requester lock). Returns the seconds to wait when over.
   */
  async insertWithinLimit(r: NewRfq, limit: number, windowMs: number): Promise<{ retryAfterSeconds: number } | null> {
    return withTransaction(this.pool, async (c) => {
      await c.query(`SELECT pg_advisory_xact_lock(hashtext('svc-desk-rfq/' || $1))`, [r.requester]);
      const { rows } = await c.query<{ count: number; oldest_ms: number | null }>(
        `SELECT count(*)::int AS count, (extract(epoch FROM min(created_at)) * 1000)::float8 AS oldest_ms
           FROM ${this.rfqs} WHERE requester = $1 AND created_at > now() - make_interval(secs => $2)`,
        [r.requester, windowMs / 1000],
      );
      if (rows[0].count >= limit)
        return { retryAfterSeconds: Math.max(1, Math.ceil((rows[0].oldest_ms! + windowMs - Date.now()) / 1000)) };
      await c.query(
        `INSERT INTO ${this.rfqs} (id, requester, asset_id, symbol, kind_id, side, units, price, amount, expiry, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending') ON CONFLICT (id) DO NOTHING`,
        [r.id, r.requester, r.asset_id, r.symbol, r.kind_id, r.side, r.units, r.price, r.amount, r.expiry],
      );
      return null;
    });
  }

  async get(id: string): Promise<RfqRow | undefined> {
    const { rows } = await this.pool.query<RfqRow>(`SELECT ${RFQ_COLUMNS} FROM ${this.rfqs} WHERE id = $1`, [id]);
    return rows[0];
  }

  async pending(): Promise<RfqRow[]> {
    const { rows } = await this.pool.query<RfqRow>(
      `SELECT ${RFQ_COLUMNS} FROM ${this.rfqs} WHERE status = 'pending' ORDER BY created_at`,
    );
    return rows;
  }

  async settle(
    id: string,
    outcome: { status: 'proposed'; settlementId: string } | { status: 'failed'; error: string },
  ): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.rfqs} SET status = $2, settlement_id = $3, error = $4 WHERE id = $1 AND status = 'pending'`,
      [
        id,
        outcome.status,
        outcome.status === 'proposed' ? outcome.settlementId : null,
        outcome.status === 'failed' ? outcome.error : null,
      ],
    );
  }
}

const RFQ_COLUMNS = `id, requester, asset_id, symbol, kind_id, side, units::text AS units, price::text AS price, amount::text AS amount, expiry, status, settlement_id::text AS settlement_id, error`;
