/**
 * What the desk reads and writes in PostgreSQL: its RFQs and its answers to offers (app
 * schema) and, read-only, the indexer's store (assets with a pool and a launchpad document,
 * proposals to the desk, the trades it settled).
 */
import type { Pool, PoolClient } from 'pg';
import { timestampToRfc3339 } from '../../src/lib/contract';
import { indexedHeight, pendingProposalsTo, type ProposalSeen } from '../store/indexer-reads';
import { PoolSales } from '../store/pool-sales';
import { quoteIdent, tablesIn, withTransaction, type Tables } from '../../src/store';
import type { AssetKind } from '../market/units';
import { lookAlikes, type Launched } from './identity';
import type { Reason, Refusal as Why } from '../risk/reasons';
import { outstandingRfqSql, type RiskRepository } from '../risk/repository';
import { escrowRefusal, type Escrowed, type EscrowCaps, type Refusal, type Resource } from './reservations';

/** The limits an RFQ is recorded within (DESK_* settings). */
export interface RfqLimits extends EscrowCaps {
  /** DESK_RFQ_LIMIT per requester address, DESK_RFQ_IP_LIMIT per client address, in `windowMs` */
  perAddress: number;
  perIp: number;
  windowMs: number;
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
  /**
   * A sell RFQ (the desk buys): why the purchase does not fit the desk's caps, read from the
   * risk account under the risk lock (null: it fits); it is recorded in the same transaction.
   */
  purchase?: {
    value: bigint;
    issuer: string;
    check(c: PoolClient): Promise<Why | null>;
    /** the most one requester's (or one client's) outstanding sell RFQs on the asset may hold: DESK_MAX_RESERVATION_BPS of its room */
    reservationCap: bigint;
  };
}

/** An asset with a pool against the stable denom and a launchpad document, as the desk may quote it. */
export interface DeskAsset {
  asset_id: string;
  issuer: string;
  name: string;
  symbol: string;
  kinds: AssetKind[];
  /** the first asset launched with the same document, or a symbol or name that reads the same (desk/identity.ts), when this one came after it */
  look_alike_of: string | null;
}

/** What the desk did with one proposal (GET /api/desk/offers). */
export interface OfferVerdict {
  settlementId: string;
  proposer: string;
  assetId: string | null;
  issuer: string | null;
  amount: bigint | null;
  /** a purchase: what it adds to the desk's exposure, at mid */
  buysValue: bigint | null;
  verdict: 'accepting' | 'accepted' | 'refused' | 'cancelled' | 'left_to_expire';
  why: Why | null;
}

export interface OfferRow {
  settlement_id: string;
  verdict: OfferVerdict['verdict'];
  reason: Reason | null;
  detail: string | null;
  asset_id: string | null;
  amount: string | null;
  tx_hash: string | null;
}

/** The most offers one address lists (newest first). */
export const MAX_OFFERS_LISTED = 1000;

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
  /** its sales of excess inventory into the pools (desk/inventory.ts) */
  readonly sales: PoolSales;
  private readonly salesTable: string;
  private readonly svc: Tables;

  constructor(
    private readonly pool: Pool,
    appSchema: string,
    indexerSchema: string,
  ) {
    this.rfqs = `${quoteIdent(appSchema)}.rfqs`;
    this.documents = `${quoteIdent(appSchema)}.launchpad_documents`;
    this.sales = new PoolSales(pool, appSchema, 'desk');
    this.salesTable = PoolSales.tableIn(appSchema);
    this.svc = tablesIn(indexerSchema);
  }

  /**
   * Assets with a pool against `denom` and a launchpad document, by id. A document, a symbol
   * and a name belong to the first asset launched with them (desk/identity.ts): a later one
   * is a look-alike, named with the first. Every launched asset with a document is weighed,
   * pooled or not: a look-alike is one of an earlier asset whatever that one trades.
   */
  async deskAssets(denom: string): Promise<DeskAsset[]> {
    const { rows } = await this.pool.query<
      Launched & { issuer: string; pooled: boolean; kinds: DeskAsset['kinds'] | null }
    >(
      `SELECT a.id, a.issuer, a.meta_hash, coalesce(doc ->> 'name', '') AS name, coalesce(doc ->> 'symbol', '') AS symbol,
              a.created_height, coalesce(t.tx_index, 0) AS tx_index,
              EXISTS (SELECT 1 FROM ${this.svc.dexPools} p WHERE p.asset_id = a.id AND p.quote_denom = $1) AS pooled,
              (SELECT json_agg(json_build_object('kind_id', k.kind_id, 'class', k.kind_class, 'decimals', k.decimals, 'bundle', k.bundle) ORDER BY k.kind_id)
                 FROM ${this.svc.kinds} k WHERE k.asset_id = a.id) AS kinds
         FROM ${this.svc.assets} a
         JOIN LATERAL (SELECT convert_from(d.canonical, 'UTF8')::jsonb AS doc FROM ${this.documents} d WHERE d.meta_hash = a.meta_hash) d ON true
         LEFT JOIN ${this.svc.txes} t ON t.id = a.created_tx_hash
        ORDER BY a.id`,
      [denom],
    );
    const firstOf = lookAlikes(rows);
    return rows
      .filter((r) => r.pooled)
      .map((r) => ({
        asset_id: r.id,
        issuer: r.issuer,
        name: r.name,
        symbol: r.symbol,
        look_alike_of: firstOf.get(r.id) ?? null,
        kinds: r.kinds ?? [],
      }));
  }

  /**
   * What the desk has paid, net, for each asset since `fromHeight` (stable paid for it less
   * stable received for it: settled single-asset trades of its key the index holds, and its
   * sales of excess into the pool), with the asset's issuer: its cost, what its exposure and
   * its losses are judged by. Trades before `fromHeight` are an earlier desk's.
   */
  async paid(desk: string, denom: string, fromHeight: number): Promise<Map<string, { issuer: string; paid: bigint }>> {
    const { rows } = await this.pool.query<{ asset_id: string; issuer: string | null; net: string }>(
      `WITH trades AS (
         SELECT s.asset_ids ->> 0 AS asset_id,
                sum(CASE WHEN (l ->> 'direction' = 'LEG_DIRECTION_GIVE') = (s.proposer = $1)
                         THEN (l -> 'coin' ->> 'amount')::numeric ELSE -(l -> 'coin' ->> 'amount')::numeric END) AS net
           FROM ${this.svc.settlements} s CROSS JOIN LATERAL jsonb_array_elements(s.legs) l
          WHERE (s.proposer = $1 OR s.counterparty = $1) AND s.status = 'STATUS_SETTLED' AND s.updated_height >= $3
            AND jsonb_array_length(s.asset_ids) = 1 AND l -> 'coin' ->> 'denom' = $2
          GROUP BY 1
         UNION ALL
         SELECT asset_id, -sum(proceeds) FROM ${this.salesTable} WHERE seller = 'desk' AND status = 'sold' GROUP BY 1
       )
       SELECT t.asset_id, a.issuer, sum(t.net)::text AS net
         FROM trades t LEFT JOIN ${this.svc.assets} a ON a.id = t.asset_id
        GROUP BY t.asset_id, a.issuer`,
      [desk, denom, fromHeight],
    );
    return new Map(rows.map((r) => [r.asset_id, { issuer: r.issuer ?? '', paid: BigInt(r.net) }]));
  }

  /** The kind ids of an asset (a whole share moves one unit of each). */
  async kindIds(assetId: string): Promise<number[]> {
    const { rows } = await this.pool.query<{ kind_id: number }>(
      `SELECT kind_id FROM ${this.svc.kinds} WHERE asset_id = $1 ORDER BY kind_id`,
      [assetId],
    );
    return rows.map((r) => r.kind_id);
  }

  /** The node's latest indexed height. */
  indexedHeight(): Promise<number> {
    return indexedHeight(this.pool, this.svc);
  }

  /** Pending settlements proposed to the desk, oldest first. */
  pendingProposals(desk: string): Promise<ProposalSeen[]> {
    return pendingProposalsTo(this.pool, this.svc, desk);
  }

  /**
   * For each of these proposals to the desk that the index holds: how many proposals to the
   * desk its proposer made earlier in the same tx (whatever became of them).
   */
  async earlierInTx(desk: string, ids: readonly string[]): Promise<Map<string, number>> {
    if (!ids.length) return new Map();
    const { rows } = await this.pool.query<{ id: string; earlier: string }>(
      `SELECT s.id, (SELECT count(*) FROM ${this.svc.settlements} o
                      WHERE o.proposer = s.proposer AND o.counterparty = s.counterparty
                        AND o.created_tx_hash = s.created_tx_hash AND o.number < s.number)::text AS earlier
         FROM ${this.svc.settlements} s WHERE s.id = ANY($1::text[]) AND s.counterparty = $2`,
      [ids, desk],
    );
    return new Map(rows.map((r) => [r.id, Number(r.earlier)]));
  }

  // ---------------------------------------------------------------- rfqs

  /**
   * Records the RFQ, in one transaction under one lock for every replica, unless its client
   * address or its requester already has its limit of RFQs in the last `windowMs`, or what it
   * escrows is beyond the desk's inventory, its escrow caps or (when the desk buys) its
   * position limit (desk/reservations.ts). `free` reads the chain's inventory inside the
   * lock, so every RFQ recorded before is either pending here or already on the chain.
   */
  async recordWithinLimits(
    r: NewRfq,
    clientIp: string,
    check: RfqCheck,
    risk: RiskRepository,
  ): Promise<Refusal | null> {
    return withTransaction(this.pool, async (c) => {
      await c.query(`SELECT pg_advisory_xact_lock(hashtext('svc-desk-rfq'))`);
      // always after the RFQ lock: the desk's worker takes the risk lock alone
      if (check.purchase) await risk.lock(c);
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
      const why = check.purchase ? await check.purchase.check(c) : null;
      if (why) return { code: 'bad_request', reason: why.reason, message: why.detail };
      if (check.purchase) {
        const over = await this.overReservation(c, r, clientIp, check.purchase.value, check.purchase.reservationCap);
        if (over) return over;
      }
      await c.query(
        `INSERT INTO ${this.rfqs} (id, requester, asset_id, symbol, kind_id, side, units, price, amount, expiry, status, client_ip, buys_value, issuer)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11, $12, $13) ON CONFLICT (id) DO NOTHING`,
        [
          r.id,
          r.requester,
          r.asset_id,
          r.symbol,
          r.kind_id,
          r.side,
          r.units,
          r.price,
          r.amount,
          r.expiry,
          clientIp,
          check.purchase?.value.toString() ?? null,
          check.purchase?.issuer ?? null,
        ],
      );
      return null;
    });
  }

  /**
   * Whether the requester's, or the client's, outstanding sell RFQs on the asset with this one
   * would hold more than `cap` of the desk's room: a stranger's free RFQs never lock the bid.
   */
  private async overReservation(
    c: PoolClient,
    r: NewRfq,
    clientIp: string,
    value: bigint,
    cap: bigint,
  ): Promise<Refusal | null> {
    const { rows } = await c.query<{ by_requester: string; by_client: string; first_expiry_ms: number | null }>(
      `SELECT coalesce(sum(buys_value) FILTER (WHERE requester = $2), 0)::text AS by_requester,
              coalesce(sum(buys_value) FILTER (WHERE client_ip = $3), 0)::text AS by_client,
              (extract(epoch FROM min(expiry)) * 1000)::float8 AS first_expiry_ms
         FROM ${this.rfqs} r
        WHERE r.asset_id = $1 AND r.side = 'sell' AND r.buys_value IS NOT NULL AND (r.requester = $2 OR r.client_ip = $3)
          AND ${outstandingRfqSql(this.svc.settlements)}`,
      [r.asset_id, r.requester, clientIp],
    );
    const held = [BigInt(rows[0].by_requester), BigInt(rows[0].by_client)].reduce((a, b) => (a > b ? a : b));
    // one RFQ with nothing else outstanding is always within it (the trade cap and the room bound it): an honest
    // seller's trade at DESK_MAX_TRADE fits on a pool whose room's share is just below one trade valued at mid
    if (held === 0n || held + value <= cap) return null;
    return {
      code: 'too_many_requests',
      reason: 'reservation_cap',
      message: `your outstanding sell RFQs on this asset already hold ${held} of the desk's room (${value} more asked); one requester or client may hold at most ${cap} (DESK_MAX_RESERVATION_BPS): ask again as they expire or settle`,
      retryAfterSeconds: Math.max(1, Math.ceil(((rows[0].first_expiry_ms ?? Date.now()) - Date.now()) / 1000)),
    };
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
      reason: 'rate_limit',
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
        WHERE ${filter} AND ${outstandingRfqSql(this.svc.settlements)}`,
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

  async get(id: string): Promise<RfqRow | undefined> {
    const { rows } = await this.pool.query<RfqRow>(`SELECT ${RFQ_COLUMNS} FROM ${this.rfqs} WHERE id = $1`, [id]);
    return rows[0];
  }

  /** Sell RFQs the desk has proposed that still hold room: not expired, the settlement pending as indexed. */
  async proposedSells(): Promise<RfqRow[]> {
    const { rows } = await this.pool.query<RfqRow>(
      `SELECT ${RFQ_COLUMNS} FROM ${this.rfqs} r
        WHERE r.side = 'sell' AND r.status = 'proposed' AND ${outstandingRfqSql(this.svc.settlements)}
        ORDER BY r.created_at`,
    );
    return rows;
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

// ---------------------------------------------------------------- offers

export class OfferRepository {
  private readonly offers: string;

  constructor(
    private readonly pool: Pool,
    appSchema: string,
  ) {
    this.offers = `${quoteIdent(appSchema)}.desk_offers`;
  }

  /** Records (or replaces) the desk's verdict on a proposal, in the caller's transaction when given. */
  async record(v: OfferVerdict, db: Pool | PoolClient = this.pool): Promise<void> {
    await db.query(
      `INSERT INTO ${this.offers} (settlement_id, proposer, asset_id, issuer, amount, buys_value, verdict, reason, detail)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (settlement_id) DO UPDATE SET asset_id = EXCLUDED.asset_id, issuer = EXCLUDED.issuer, amount = EXCLUDED.amount,
         buys_value = EXCLUDED.buys_value, verdict = EXCLUDED.verdict, reason = EXCLUDED.reason, detail = EXCLUDED.detail, updated_at = now()`,
      [
        v.settlementId,
        v.proposer,
        v.assetId,
        v.issuer,
        v.amount?.toString() ?? null,
        v.buysValue?.toString() ?? null,
        v.verdict,
        v.why?.reason ?? null,
        v.why?.detail ?? null,
      ],
    );
  }

  /** The accept (or cancel) of proposals committed in `txHash` at `height`. */
  async settled(
    ids: readonly string[],
    verdict: 'accepted' | 'cancelled',
    txHash: string,
    height: number | null,
  ): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.offers} SET verdict = $2, tx_hash = $3, height = $4, updated_at = now() WHERE settlement_id = ANY($1::bigint[])`,
      [ids, verdict, txHash, height],
    );
  }

  /** An accept that did not happen: no longer in flight; the proposal is judged again while it is pending. */
  async acceptFailed(id: string, detail: string): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.offers} SET verdict = 'left_to_expire', buys_value = NULL, reason = NULL, detail = $2, updated_at = now()
        WHERE settlement_id = $1 AND verdict = 'accepting'`,
      [id, detail],
    );
  }

  /** Proposals whose accept is in flight. */
  async accepting(): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT settlement_id::text AS id FROM ${this.offers} WHERE verdict = 'accepting'`,
    );
    return rows.map((r) => r.id);
  }

  /** The verdicts on a proposer's proposals, newest first. */
  async of(proposer: string): Promise<OfferRow[]> {
    const { rows } = await this.pool.query<OfferRow>(
      `SELECT settlement_id::text AS settlement_id, verdict, reason, detail, asset_id, amount::text AS amount, tx_hash
         FROM ${this.offers} WHERE proposer = $1 ORDER BY settlement_id DESC LIMIT ${MAX_OFFERS_LISTED}`,
      [proposer],
    );
    return rows;
  }
}

const RFQ_COLUMNS = `id, requester, asset_id, symbol, kind_id, side, units::text AS units, price::text AS price, amount::text AS amount, expiry, status, settlement_id::text AS settlement_id, error`;
