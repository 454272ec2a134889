/**
 * The risk account in PostgreSQL (risk/exposure.ts says what it counts): read whole, as one
 * ExposureSnapshot, from the lender's loans, the desk's published holdings, its offers and
 * RFQs in flight, and the losses ledger (`risk_losses`). A check that leads to a new
 * exposure runs under the risk lock (`underRiskLock`) and records what it takes before the
 * lock is released, so two checks, in any processes, never both spend the same room.
 */
import type { Pool, PoolClient } from 'pg';
import { quoteIdent, tablesIn, withTransaction, type Tables } from '../../src/store';
import { emptySnapshot, type ExposureSnapshot } from './exposure';

type Db = Pool | PoolClient;

/** A sell RFQ (the desk buys) that still holds, or will hold, its escrow: not expired, pending, or proposed and pending as indexed. */
export const outstandingRfqSql = (settlements: string, r = 'r') =>
  `${r}.expiry > now() AND (${r}.status = 'pending' OR (${r}.status = 'proposed' AND NOT EXISTS (
  SELECT 1 FROM ${settlements} s WHERE s.id = ${r}.settlement_id::text AND s.status <> 'STATUS_PENDING')))`;

export interface LossEntry {
  source: 'lender' | 'desk';
  assetId: string;
  issuer: string;
  borrower?: string;
  amount: bigint;
  /** what took it, once: `lender/liquidate/<loan>`, `desk/<asset>/<height>` */
  ref: string;
  height: number;
}

export interface LossRow {
  id: string;
  source: 'lender' | 'desk';
  asset_id: string;
  issuer: string;
  borrower: string | null;
  amount: string;
  ref: string;
  height: string;
  created_at: Date;
}

/** Which charged losses an operator resets: all, or those of one asset, issuer or id. */
export interface LossFilter {
  assetId?: string;
  issuer?: string;
  id?: string;
}

const RISK_LOCK = 'svc-app-risk';

export class RiskRepository {
  private readonly app: {
    loans: string;
    losses: string;
    deskExposure: string;
    offers: string;
    rfqs: string;
    sales: string;
  };
  private readonly svc: Tables;

  constructor(
    private readonly pool: Pool,
    appSchema: string,
    indexerSchema: string,
  ) {
    const a = quoteIdent(appSchema);
    this.app = {
      loans: `${a}.loans`,
      losses: `${a}.risk_losses`,
      deskExposure: `${a}.desk_exposure`,
      offers: `${a}.desk_offers`,
      rfqs: `${a}.rfqs`,
      sales: `${a}.pool_sales`, // store/pool-sales.ts
    };
    this.svc = tablesIn(indexerSchema);
  }

  /** `run` in one transaction holding the risk lock (every replica, both services). */
  underRiskLock<T>(run: (c: PoolClient) => Promise<T>): Promise<T> {
    return withTransaction(this.pool, async (c) => {
      await this.lock(c);
      return run(c);
    });
  }

  /** Takes the risk lock in a transaction the caller holds (released at its end). */
  async lock(c: PoolClient): Promise<void> {
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [RISK_LOCK]);
  }

  /** Everything both services have out, and when each asset and issuer last cost a loss. */
  async snapshot(db: Db = this.pool): Promise<ExposureSnapshot> {
    const s = emptySnapshot();
    // one after another: `db` may be the one connection of a transaction holding the risk lock
    const lender = await db.query<{ asset_id: string; issuer: string | null; borrower: string | null; amount: string }>(
      `SELECT l.asset_id, coalesce(l.issuer, a.issuer) AS issuer, l.borrower, l.principal::text AS amount
           FROM ${this.app.loans} l LEFT JOIN ${this.svc.assets} a ON a.id = l.asset_id
          WHERE l.status IN ('opening', 'active')
         UNION ALL
         -- a liquidated loan whose seized units are still being sold: the principal less what they fetched so far
         SELECT l.asset_id, coalesce(l.issuer, a.issuer), l.borrower,
                greatest(l.principal - coalesce((SELECT sum(s.proceeds) FROM ${this.app.sales} s
                                                  WHERE s.loan_id = l.id AND s.status = 'sold'), 0), 0)::text
           FROM ${this.app.loans} l LEFT JOIN ${this.svc.assets} a ON a.id = l.asset_id
          WHERE l.status = 'liquidated' AND l.recovery_closed_at IS NULL
         UNION ALL
         SELECT asset_id, issuer, borrower, amount::text FROM ${this.app.losses} WHERE source = 'lender' AND reset_at IS NULL`,
    );
    const desk = await db.query<{ asset_id: string; issuer: string | null; amount: string }>(
      `SELECT asset_id, issuer, value::text AS amount FROM ${this.app.deskExposure}
         UNION ALL
         SELECT r.asset_id, r.issuer, r.buys_value::text FROM ${this.app.rfqs} r
          WHERE r.side = 'sell' AND r.buys_value IS NOT NULL AND ${outstandingRfqSql(this.svc.settlements)}
         UNION ALL
         -- an accept counts until the desk's published cost is read at or after its block
         SELECT o.asset_id, o.issuer, o.buys_value::text FROM ${this.app.offers} o
           LEFT JOIN ${this.app.deskExposure} e ON e.asset_id = o.asset_id
          WHERE o.buys_value IS NOT NULL
            AND (o.verdict = 'accepting' OR (o.verdict = 'accepted' AND (e.height IS NULL OR o.height > e.height)))`,
    );
    const losses = await db.query<{ asset_id: string; issuer: string; amount: string; last_ms: number; last: string }>(
      `SELECT asset_id, issuer, sum(amount)::text AS amount, (extract(epoch FROM max(created_at)) * 1000)::float8 AS last_ms,
              ((array_agg(amount ORDER BY created_at DESC, id DESC))[1])::text AS last
         FROM ${this.app.losses} WHERE reset_at IS NULL GROUP BY asset_id, issuer`,
    );
    for (const r of lender.rows)
      s.lender.add(BigInt(r.amount), { assetId: r.asset_id, issuer: r.issuer, borrower: r.borrower });
    for (const r of desk.rows) s.desk.add(BigInt(r.amount), { assetId: r.asset_id, issuer: r.issuer });
    for (const r of losses.rows) {
      s.losses.add(BigInt(r.amount), { assetId: r.asset_id, issuer: r.issuer });
      if (r.last_ms >= (s.lastLossMs.get(r.asset_id) ?? 0)) {
        s.lastLossMs.set(r.asset_id, r.last_ms);
        s.lastLoss.set(r.asset_id, BigInt(r.last));
      }
    }
    return s;
  }

  /** Charges a loss once (its ref is its identity); false when it was charged before. */
  async recordLoss(loss: LossEntry, db: Db = this.pool): Promise<boolean> {
    const { rowCount } = await db.query(
      `INSERT INTO ${this.app.losses} (source, asset_id, issuer, borrower, amount, ref, height)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (ref) DO NOTHING`,
      [loss.source, loss.assetId, loss.issuer, loss.borrower ?? null, loss.amount.toString(), loss.ref, loss.height],
    );
    return rowCount === 1;
  }

  /**
   * The desk's losses per asset: every one it was charged (`charged`, reset ones too: a loss
   * is charged once, and a reset does not make it chargeable again) and those an operator
   * wrote off (`writtenOff`: no longer part of what it paid).
   */
  async deskLosses(db: Db = this.pool): Promise<{ charged: Map<string, bigint>; writtenOff: Map<string, bigint> }> {
    const { rows } = await db.query<{ asset_id: string; charged: string; written_off: string }>(
      `SELECT asset_id, sum(amount)::text AS charged,
              coalesce(sum(amount) FILTER (WHERE reset_at IS NOT NULL), 0)::text AS written_off
         FROM ${this.app.losses} WHERE source = 'desk' GROUP BY asset_id`,
    );
    return {
      charged: new Map(rows.map((r) => [r.asset_id, BigInt(r.charged)])),
      writtenOff: new Map(rows.map((r) => [r.asset_id, BigInt(r.written_off)])),
    };
  }

  /** The desk's exposure at cost per asset, as of an indexed height (an older height never overwrites a newer one). */
  async publishDeskHoldings(rows: { assetId: string; issuer: string; value: bigint }[], height: number): Promise<void> {
    if (!rows.length) return;
    await this.pool.query(
      `INSERT INTO ${this.app.deskExposure} (asset_id, issuer, value, height)
       SELECT a, i, v, $4 FROM unnest($1::text[], $2::text[], $3::numeric[]) AS t(a, i, v)
       ON CONFLICT (asset_id) DO UPDATE SET issuer = EXCLUDED.issuer, value = EXCLUDED.value, height = EXCLUDED.height, updated_at = now()
       WHERE ${this.app.deskExposure}.height <= EXCLUDED.height`,
      [rows.map((r) => r.assetId), rows.map((r) => r.issuer), rows.map((r) => r.value.toString()), height],
    );
  }

  /** Charged losses, newest first (for operators: npm run risk). */
  async charged(): Promise<LossRow[]> {
    const { rows } = await this.pool.query<LossRow>(
      `SELECT id::text AS id, source, asset_id, issuer, borrower, amount::text AS amount, ref, height::text AS height, created_at
         FROM ${this.app.losses} WHERE reset_at IS NULL ORDER BY id DESC`,
    );
    return rows;
  }

  /**
   * Resets the charged losses the filter names; how many. A reset writes the loss off: it no
   * longer counts against any cap, its cool-off ends, and it is never charged again (the
   * lender's loss is gone with its loan; the desk's leaves what it paid, net, for good).
   */
  async reset(filter: LossFilter, note: string): Promise<number> {
    const { rowCount } = await this.pool.query(
      `UPDATE ${this.app.losses} SET reset_at = now(), reset_note = $4
        WHERE reset_at IS NULL AND ($1::text IS NULL OR asset_id = $1) AND ($2::text IS NULL OR issuer = $2)
          AND ($3::bigint IS NULL OR id = $3)`,
      [filter.assetId ?? null, filter.issuer ?? null, filter.id ?? null, note],
    );
    return rowCount ?? 0;
  }
}
