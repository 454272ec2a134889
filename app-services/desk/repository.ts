/**
 * What the desk reads and writes in PostgreSQL: its RFQs (app schema) and, read-only, the
 * indexer's store (assets with a pool and a launchpad document, proposals to the desk).
 */
import type { Pool, PoolClient } from 'pg';
import { timestampToRfc3339 } from '../../src/lib/contract';
import { pendingProposalsTo, type ProposalSeen } from '../store/indexer-reads';
import { quoteIdent, tablesIn, withTransaction, type Tables } from '../../src/store';
import type { KindInfo } from './pricing';
import {
  escrowRefusal,
  positionRefusal,
  type Escrowed,
  type EscrowCaps,
  type Refusal,
  type Resource,
} from './reservations';

/** The limits an RFQ is recorded within (DESK_* settings). */
export interface RfqLimits extends EscrowCaps {
  /** DESK_RFQ_LIMIT per requester address, DESK_RFQ_IP_LIMIT per client address, in `windowMs` */
  perAddress: number;
  perIp: number;
  windowMs: number;
  maxPosition: bigint;
}

export interface RfqCheck {
  limits: RfqLimits;
  /** what the RFQ escrows: the stable denom, or each kind it moves */
  resources: Resource[];
  /** of each, in base units */
  need: bigint;
  /** how the desk's inventory is named in a refusal */
  what: string;
  /** the chain's free balance of a resource now */
  free(resource: Resource): Promise<bigint>;
  /** the desk's holding of the asset valued at mid (its book), for a sell RFQ */
  position: bigint;
}

/** Not expired; pending, or proposed and not settled, cancelled or expired as indexed (a lagging index counts it a little longer). */
const outstanding = (
  settlements: string,
) => `r.expiry > now() AND (r.status = 'pending' OR (r.status = 'proposed' AND NOT EXISTS (
  SELECT 1 FROM ${settlements} s WHERE s.id = r.settlement_id::text AND s.status <> 'STATUS_PENDING')))`;

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
   * Records the RFQ, in one transaction under one lock for every replica, unless its client
   * address or its requester already has its limit of RFQs in the last `windowMs`, or what it
   * escrows is beyond the desk's inventory, its escrow caps or (when the desk buys) its
   * position limit (desk/reservations.ts). `free` reads the chain's inventory inside the
   * lock, so every RFQ recorded before is either pending here or already on the chain.
   */
  async recordWithinLimits(r: NewRfq, clientIp: string, check: RfqCheck): Promise<Refusal | null> {
    return withTransaction(this.pool, async (c) => {
      await c.query(`SELECT pg_advisory_xact_lock(hashtext('svc-desk-rfq'))`);
      const limited =
        (await this.overLimit(c, 'client_ip', clientIp, check.limits.perIp, check.limits.windowMs, 'this client')) ??
        (await this.overLimit(
          c,
          'requester',
          r.requester,
          check.limits.perAddress,
          check.limits.windowMs,
          r.requester,
        ));
      if (limited) return limited;
      for (const resource of check.resources) {
        const escrowed = await this.escrowed(c, resource, r.requester);
        const refusal = escrowRefusal(check.need, await check.free(resource), escrowed, check.limits, check.what);
        if (refusal) return refusal;
      }
      if (r.side === 'sell') {
        const buying = await this.outstandingPurchases(c, r.asset_id);
        const refusal = positionRefusal(check.position, buying, BigInt(r.amount), check.limits.maxPosition);
        if (refusal) return refusal;
      }
      await c.query(
        `INSERT INTO ${this.rfqs} (id, requester, asset_id, symbol, kind_id, side, units, price, amount, expiry, status, client_ip)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11) ON CONFLICT (id) DO NOTHING`,
        [r.id, r.requester, r.asset_id, r.symbol, r.kind_id, r.side, r.units, r.price, r.amount, r.expiry, clientIp],
      );
      return null;
    });
  }

  private async overLimit(
    c: PoolClient,
    column: 'client_ip' | 'requester',
    value: string,
    limit: number,
    windowMs: number,
    who: string,
  ): Promise<Refusal | null> {
    const { rows } = await c.query<{ count: number; oldest_ms: number | null }>(
      `SELECT count(*)::int AS count, (extract(epoch FROM min(created_at)) * 1000)::float8 AS oldest_ms
         FROM ${this.rfqs} WHERE ${column} = $1 AND created_at > now() - make_interval(secs => $2)`,
      [value, windowMs / 1000],
    );
    if (rows[0].count < limit) return null;
    return {
      code: 'too_many_requests',
      message: `too many RFQs from ${who}: at most ${limit} per ${windowMs / 60_000} minutes`,
      retryAfterSeconds: Math.max(1, Math.ceil((rows[0].oldest_ms! + windowMs - Date.now()) / 1000)),
    };
  }

  /** RFQs that still hold (or will hold once proposed) some of `resource`: not expired, pending or proposed and pending on the chain as indexed. */
  private async escrowed(c: PoolClient, resource: Resource, requester: string): Promise<Escrowed> {
    const [measure, filter, params] =
      resource.side === 'sell'
        ? ['amount', `side = 'sell'`, []]
        : ['units', `side = 'buy' AND asset_id = $2 AND kind_id IN ($3, -1)`, [resource.assetId, resource.kindId]];
    const { rows } = await c.query<{ pending: string; proposed: string; requester: string; first_ms: number | null }>(
      `SELECT coalesce(sum(${measure}) FILTER (WHERE status = 'pending'), 0)::text AS pending,
              coalesce(sum(${measure}) FILTER (WHERE status = 'proposed'), 0)::text AS proposed,
              coalesce(sum(${measure}) FILTER (WHERE requester = $1), 0)::text AS requester,
              (extract(epoch FROM min(expiry)) * 1000)::float8 AS first_ms
         FROM ${this.rfqs} r
        WHERE ${filter} AND ${outstanding(this.svc.settlements)}`,
      [requester, ...params],
    );
    const row = rows[0];
    return {
      pending: BigInt(row.pending),
      proposed: BigInt(row.proposed),
      requester: BigInt(row.requester),
      firstExpiryMs: row.first_ms,
    };
  }

  /** What outstanding sell RFQs of the asset will pay for it (the desk buys). */
  private async outstandingPurchases(c: PoolClient, assetId: string): Promise<bigint> {
    const { rows } = await c.query<{ amount: string }>(
      `SELECT coalesce(sum(amount), 0)::text AS amount FROM ${this.rfqs} r
        WHERE side = 'sell' AND asset_id = $1 AND ${outstanding(this.svc.settlements)}`,
      [assetId],
    );
    return BigInt(rows[0].amount);
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
