/**
 * What the lender reads and writes in PostgreSQL: its own tables in the app schema (loans,
 * loan_pledges, pledge_refusals, loan_income) and, read-only, the indexer's store (pledges
 * and proposals to the lender, pools, claimable income, assets' launchpad documents).
 */
import type { Pool, PoolClient } from 'pg';
import { indexedHeight, pendingProposalsTo, type ProposalSeen } from '../store/indexer-reads';
import { PENDING_SQL, quoteIdent, tablesIn, withTransaction, type Tables } from '../../src/store';
import { PoolSales } from '../store/pool-sales';
import type { Reason, Refusal } from '../risk/reasons';
import type { LossEntry, RiskRepository } from '../risk/repository';
import type { PledgeSeen, PledgeSet } from './pledge-sets';

export type LoanStatus = 'opening' | 'active' | 'repaid' | 'liquidated' | 'cancelled';

export interface LoanRow {
  id: string;
  borrower: string;
  asset_id: string;
  units: string;
  principal: string;
  status: LoanStatus;
  open_tx: string | null;
  close_tx: string | null;
  repay_settlement: string | null;
  /** encumbrance ids, by kind */
  pledges: string[];
  /** the asset's issuer when it opened (null: opened before it was kept) */
  issuer: string | null;
}

/** What a pledge set still inside its window lacks (the loans list's `pending` entry). */
export interface PendingSet {
  missing_kinds: number[];
  window_seconds_left: number;
  window_ends_at: string;
}

export interface LoanView extends Omit<LoanRow, 'status'> {
  status: LoanStatus | 'refused' | 'pending';
  /** a pending set only */
  pending?: PendingSet;
  reason: Reason | null;
  detail: string | null;
  limited_by: Reason | null;
  created_at: Date;
  symbol: string | null;
  /** the pool's reserves against the stable denom and the first kind's decimals, when there is a pool */
  base_reserve: string | null;
  quote_reserve: string | null;
  decimals: number | null;
  claimed: string;
  claimable: string;
}

/** A refused pledge, as the loans list shows it. */
export interface RefusedPledge {
  id: bigint;
  holder: string;
  assetId: string;
  kindId: number;
  units: bigint;
}

/** A refused pledge waiting for its release, as the release planner (release-batches.ts) needs it. */
export interface QueuedRelease {
  id: bigint;
  set: bigint;
  /** null for refusals kept before these were */
  assetId: string | null;
  units: bigint | null;
  txHash: string | null;
}

export interface ClaimedEntry {
  ref: string;
  amount: string;
}

/** The loan id of a pledge set: L and its lowest pledge id. */
export const loanIdOf = (set: PledgeSet) => `L${set.pledges.map((p) => p.id).reduce((a, b) => (a < b ? a : b))}`;

/** The most loans one address lists (newest first). */
export const MAX_LOANS_LISTED = 1000;

export class LenderRepository {
  private readonly app: {
    loans: string;
    pledges: string;
    refusals: string;
    income: string;
    claims: string;
    documents: string;
  };
  private readonly svc: Tables;

  /** its sales of the units its liquidations seized, back into the pools */
  readonly sales: PoolSales;
  constructor(
    private readonly pool: Pool,
    appSchema: string,
    indexerSchema: string,
    private readonly lender: string,
    private readonly denom: string,
  ) {
    const a = quoteIdent(appSchema);
    this.sales = new PoolSales(pool, appSchema, 'lender');
    this.app = {
      loans: `${a}.loans`,
      pledges: `${a}.loan_pledges`,
      refusals: `${a}.pledge_refusals`,
      income: `${a}.loan_income`,
      claims: `${a}.income_claims`,
      documents: `${a}.launchpad_documents`,
    };
    this.svc = tablesIn(indexerSchema);
  }

  // ---------------------------------------------------------------- indexed store (read-only)

  /** Active pledges to the lender from `fromHeight` on that belong to no loan and were not refused (given, of one holder). */
  async unassignedPledges(fromHeight: number, holder?: string): Promise<PledgeSeen[]> {
    const { rows } = await this.pool.query<Record<string, string | number | boolean | null>>(
      `SELECT e.id, e.asset_id, e.kind_id, e.holder, e.units::text AS units, e.exercisable, e.income_to_beneficiary,
              e.holder_release_after::text AS holder_release_after, e.expiry::text AS expiry, e.created_tx_hash,
              (extract(epoch FROM e.created_at) * 1000)::float8 AS created_ms, a.kind_count
         FROM ${this.svc.encumbrances} e JOIN ${this.svc.assets} a ON a.id = e.asset_id
        WHERE e.beneficiary = $1 AND e.kind = 'pledge' AND e.status = 'active' AND e.created_height >= $2
          AND NOT EXISTS (SELECT 1 FROM ${this.app.pledges} lp WHERE lp.encumbrance_id = e.id::bigint)
          AND NOT EXISTS (SELECT 1 FROM ${this.app.refusals} r WHERE r.encumbrance_id = e.id::bigint)
          AND ($3::text IS NULL OR e.holder = $3)`,
      [this.lender, fromHeight, holder ?? null],
    );
    return rows.map((r) => ({
      id: BigInt(String(r.id)),
      assetId: String(r.asset_id),
      kindId: Number(r.kind_id),
      holder: String(r.holder),
      units: BigInt(String(r.units)),
      exercisable: r.exercisable === true,
      incomeToBeneficiary: r.income_to_beneficiary === true,
      holderReleaseAfter: r.holder_release_after === null ? null : String(r.holder_release_after),
      expiry: r.expiry === null ? null : String(r.expiry),
      txHash: String(r.created_tx_hash),
      createdMs: Number(r.created_ms),
      kindCount: Number(r.kind_count),
    }));
  }

  /** The node's latest indexed height. */
  indexedHeight(): Promise<number> {
    return indexedHeight(this.pool, this.svc);
  }

  /** Of these pledges (seen on the chain), those a loan or a refusal already holds. */
  async settledPledges(ids: readonly bigint[]): Promise<Set<string>> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT encumbrance_id::text AS id FROM ${this.app.pledges} WHERE encumbrance_id = ANY($1::bigint[])
       UNION SELECT encumbrance_id::text FROM ${this.app.refusals} WHERE encumbrance_id = ANY($1::bigint[])`,
      [ids.map(String)],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** How many kinds each asset has, as indexed (absent: not indexed yet). */
  async kindCounts(assetIds: readonly string[]): Promise<Map<string, number>> {
    const { rows } = await this.pool.query<{ id: string; kind_count: number }>(
      `SELECT id, kind_count FROM ${this.svc.assets} WHERE id = ANY($1::text[])`,
      [assetIds],
    );
    return new Map(rows.map((r) => [r.id, Number(r.kind_count)]));
  }

  /** Pending settlements proposed to the lender, oldest first. */
  pendingProposals(): Promise<ProposalSeen[]> {
    return pendingProposalsTo(this.pool, this.svc, this.lender);
  }

  /** The launchpad symbol of each asset that has one, by id. */
  async symbolsOf(assetIds: readonly string[]): Promise<Map<string, string>> {
    const { rows } = await this.pool.query<{ id: string; symbol: string | null }>(
      `SELECT a.id, convert_from(d.canonical, 'UTF8')::jsonb ->> 'symbol' AS symbol
         FROM ${this.svc.assets} a JOIN ${this.app.documents} d ON d.meta_hash = a.meta_hash
        WHERE a.id = ANY($1::text[])`,
      [assetIds],
    );
    return new Map(rows.filter((r) => r.symbol !== null).map((r) => [r.id, r.symbol!]));
  }

  /** Assets with a pool against the stable denom, by id, with their launchpad symbol (the terms' capacity). */
  async pooledAssets(): Promise<{ asset_id: string; symbol: string | null }[]> {
    const { rows } = await this.pool.query<{ asset_id: string; symbol: string | null }>(
      `SELECT p.asset_id, convert_from(d.canonical, 'UTF8')::jsonb ->> 'symbol' AS symbol
         FROM ${this.svc.dexPools} p
         LEFT JOIN ${this.svc.assets} a ON a.id = p.asset_id
         LEFT JOIN ${this.app.documents} d ON d.meta_hash = a.meta_hash
        WHERE p.quote_denom = $1 ORDER BY p.asset_id`,
      [this.denom],
    );
    return rows;
  }

  // ---------------------------------------------------------------- loans

  /**
   * Records a complete set as an opening loan (once: a second call for the same set is a
   * no-op), in the caller's transaction: the one holding the risk lock its caps were checked
   * under, so its principal counts for the next check at once.
   */
  async insertOpening(
    c: PoolClient,
    set: PledgeSet,
    principal: bigint,
    o: { issuer: string; limitedBy: Refusal | null },
  ): Promise<void> {
    const id = loanIdOf(set);
    const { rowCount } = await c.query(
      `INSERT INTO ${this.app.loans} (id, borrower, asset_id, units, principal, status, issuer, limited_by, detail)
       VALUES ($1, $2, $3, $4, $5, 'opening', $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
      [
        id,
        set.borrower,
        set.assetId,
        set.units.toString(),
        principal.toString(),
        o.issuer,
        o.limitedBy?.reason ?? null,
        o.limitedBy?.detail ?? null,
      ],
    );
    if (rowCount !== 1) return;
    for (const p of set.pledges)
      await c.query(`INSERT INTO ${this.app.pledges} (encumbrance_id, loan_id, kind_id) VALUES ($1, $2, $3)`, [
        p.id.toString(),
        id,
        p.kindId,
      ]);
  }

  async loan(id: string): Promise<LoanRow | undefined> {
    const { rows } = await this.pool.query<LoanRow>(
      `SELECT ${this.loanColumns('l')} FROM ${this.app.loans} l WHERE l.id = $1`,
      [id],
    );
    return rows[0];
  }

  async openLoans(): Promise<LoanRow[]> {
    const { rows } = await this.pool.query<LoanRow>(
      `SELECT ${this.loanColumns('l')} FROM ${this.app.loans} l WHERE l.status IN ('opening', 'active') ORDER BY l.created_at`,
    );
    return rows;
  }

  async setStatus(
    id: string,
    status: LoanStatus,
    tx: { open_tx?: string; close_tx?: string } = {},
    why?: Refusal,
    db: Pool | PoolClient = this.pool,
  ): Promise<void> {
    await db.query(
      `UPDATE ${this.app.loans} SET status = $2, open_tx = COALESCE($3, open_tx), close_tx = COALESCE($4, close_tx), repay_settlement = NULL,
              reason = COALESCE($5, reason), detail = COALESCE($6, detail), updated_at = now() WHERE id = $1`,
      [id, status, tx.open_tx ?? null, tx.close_tx ?? null, why?.reason ?? null, why?.detail ?? null],
    );
  }

  /** The loan liquidated by `closeTx`: its seized units are now to be sold (its recovery is open). */
  async closeLiquidated(id: string, closeTx: string): Promise<void> {
    await this.setStatus(id, 'liquidated', { close_tx: closeTx });
  }

  /** Liquidated loans whose seized units are still being sold, oldest first. */
  async recovering(): Promise<LoanRow[]> {
    const { rows } = await this.pool.query<LoanRow>(
      `SELECT ${this.loanColumns('l')} FROM ${this.app.loans} l
        WHERE l.status = 'liquidated' AND l.recovery_closed_at IS NULL ORDER BY l.updated_at, l.id`,
    );
    return rows;
  }

  /** Ends a loan's recovery and charges what it fell short of the principal (once), together; false when it had ended. */
  async closeRecovery(id: string, loss: LossEntry | null, risk: RiskRepository): Promise<boolean> {
    return withTransaction(this.pool, async (c) => {
      const { rowCount } = await c.query(
        `UPDATE ${this.app.loans} SET recovery_closed_at = now(), updated_at = now()
          WHERE id = $1 AND status = 'liquidated' AND recovery_closed_at IS NULL`,
        [id],
      );
      if (rowCount !== 1) return false;
      if (loss) await risk.recordLoss(loss, c);
      return true;
    });
  }

  async setRepaySettlement(id: string, settlementId: bigint | null): Promise<void> {
    await this.pool.query(`UPDATE ${this.app.loans} SET repay_settlement = $2, updated_at = now() WHERE id = $1`, [
      id,
      settlementId?.toString() ?? null,
    ]);
  }

  /** The borrower's loans and refused pledge sets, newest first, with what GET /api/lender/loans shows. */
  async loansOf(borrower: string, intentsTable: string): Promise<LoanView[]> {
    const [loans, refused] = await Promise.all([
      this.openedLoansOf(borrower),
      this.refusedSetsOf(borrower, intentsTable),
    ]);
    return [...loans, ...refused]
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1))
      .slice(0, MAX_LOANS_LISTED);
  }

  private async openedLoansOf(borrower: string): Promise<LoanView[]> {
    const { rows } = await this.pool.query<LoanView>(
      `SELECT ${this.loanColumns('l')}, l.reason, l.detail, l.limited_by, l.created_at,
              convert_from(d.canonical, 'UTF8')::jsonb ->> 'symbol' AS symbol,
              p.base_reserve::text AS base_reserve, p.quote_reserve::text AS quote_reserve, k.decimals,
              COALESCE((SELECT sum(i.amount) FROM ${this.app.income} i JOIN ${this.app.pledges} lp ON lp.encumbrance_id = i.encumbrance_id WHERE lp.loan_id = l.id), 0)::text AS claimed,
              COALESCE((SELECT sum(c.accrued + ${PENDING_SQL('c', 'acc')})
                          FROM ${this.svc.claimables} c JOIN ${this.svc.accruals} acc ON acc.id = c.accrual_id
                          JOIN ${this.app.pledges} lp ON c.ref = 'encumbrance/' || lp.encumbrance_id
                         WHERE c.account = $2 AND lp.loan_id = l.id), 0)::text AS claimable
         FROM ${this.app.loans} l
         LEFT JOIN ${this.svc.assets} a ON a.id = l.asset_id
         LEFT JOIN ${this.app.documents} d ON d.meta_hash = a.meta_hash
         LEFT JOIN ${this.svc.dexPools} p ON p.asset_id = l.asset_id AND p.quote_denom = $3
         LEFT JOIN ${this.svc.kinds} k ON k.id = l.asset_id || '-0'
        WHERE l.borrower = $1
        ORDER BY l.created_at DESC, l.id DESC
        LIMIT ${MAX_LOANS_LISTED}`,
      [borrower, this.lender, this.denom],
    );
    return rows;
  }

  /**
   * The borrower's pledge sets that opened no loan (a set whose loan was cancelled shows as
   * that loan), each with its reason and the tx that released it once committed.
   */
  private async refusedSetsOf(borrower: string, intentsTable: string): Promise<LoanView[]> {
    const { rows } = await this.pool.query<LoanView>(
      `SELECT 'L' || r.refusal_set AS id, min(r.holder) AS borrower, min(r.asset_id) AS asset_id, max(r.units)::text AS units,
              '0' AS principal, 'refused' AS status, NULL AS open_tx, min(i.tx_hash) AS close_tx, NULL AS repay_settlement,
              array_agg(r.encumbrance_id::text ORDER BY r.kind_id) AS pledges, NULL AS issuer,
              coalesce(min(r.reason_code), 'pledge_terms') AS reason, min(r.reason) AS detail, NULL AS limited_by,
              min(r.created_at) AS created_at,
              min(convert_from(d.canonical, 'UTF8')::jsonb ->> 'symbol') AS symbol,
              NULL AS base_reserve, NULL AS quote_reserve, NULL::int AS decimals, '0' AS claimed, '0' AS claimable
         FROM ${this.app.refusals} r
         LEFT JOIN ${intentsTable} i ON i.id = r.release_intent AND i.status = 'committed'
         LEFT JOIN ${this.svc.assets} a ON a.id = r.asset_id
         LEFT JOIN ${this.app.documents} d ON d.meta_hash = a.meta_hash
        WHERE r.holder = $1
          AND NOT EXISTS (SELECT 1 FROM ${this.app.pledges} lp WHERE lp.encumbrance_id = r.encumbrance_id)
        GROUP BY r.refusal_set
        ORDER BY min(r.created_at) DESC
        LIMIT ${MAX_LOANS_LISTED}`,
      [borrower],
    );
    return rows;
  }

  // ---------------------------------------------------------------- refusals and income

  /**
   * Records the refusal of a set of pledges (once each), to be released together, with what
   * the loans list shows of them: the lender may refuse pledges it saw on the chain before the
   * index has them.
   */
  async refuse(pledges: readonly RefusedPledge[], why: Refusal): Promise<void> {
    if (!pledges.length) return;
    const set = pledges.map((p) => p.id).reduce((a, b) => (a < b ? a : b));
    await this.pool.query(
      `INSERT INTO ${this.app.refusals} (encumbrance_id, reason, reason_code, refusal_set, holder, asset_id, kind_id, units)
       SELECT e, $2, $3, $4, h, a, k, u FROM unnest($1::bigint[], $5::text[], $6::text[], $7::int[], $8::numeric[]) AS t(e, h, a, k, u)
       ON CONFLICT DO NOTHING`,
      [
        pledges.map((p) => p.id.toString()),
        why.detail,
        why.reason,
        set.toString(),
        pledges.map((p) => p.holder),
        pledges.map((p) => p.assetId),
        pledges.map((p) => p.kindId),
        pledges.map((p) => p.units.toString()),
      ],
    );
  }

  /**
   * The refused pledges still to release, oldest first: not released, not left, and in no
   * open release tx of the lender (`kinds`), with the tx that created each (null while the
   * index has not seen it) and what values it.
   */
  async releaseQueue(intentsTable: string, kinds: readonly string[]): Promise<QueuedRelease[]> {
    const { rows } = await this.pool.query<{
      id: string;
      refusal_set: string;
      asset_id: string | null;
      units: string | null;
      tx_hash: string | null;
    }>(
      `SELECT r.encumbrance_id::text AS id, r.refusal_set::text AS refusal_set, r.asset_id, r.units::text AS units,
              e.created_tx_hash AS tx_hash
         FROM ${this.app.refusals} r
         LEFT JOIN ${this.svc.encumbrances} e ON e.id = r.encumbrance_id::text
        WHERE r.release_intent IS NULL
          AND r.encumbrance_id NOT IN (${this.openReleasesSql(intentsTable)})
        ORDER BY r.encumbrance_id`,
      [this.lender, kinds],
    );
    return rows.map((r) => ({
      id: BigInt(r.id),
      set: BigInt(r.refusal_set),
      assetId: r.asset_id,
      units: r.units === null ? null : BigInt(r.units),
      txHash: r.tx_hash,
    }));
  }

  /** Of these creating txs, those one of whose pledges a dust release (`dustPrefix`) carried, or an open one of `dustKind` carries. */
  async dustTxsTaken(
    intentsTable: string,
    dustPrefix: string,
    dustKind: string,
    txs: readonly string[],
  ): Promise<Set<string>> {
    if (!txs.length) return new Set();
    const { rows } = await this.pool.query<{ tx_hash: string }>(
      `SELECT DISTINCT e.created_tx_hash AS tx_hash
         FROM ${this.app.refusals} r JOIN ${this.svc.encumbrances} e ON e.id = r.encumbrance_id::text
        WHERE e.created_tx_hash = ANY($3::text[])
          AND (r.release_intent LIKE $4 OR r.encumbrance_id IN (${this.openReleasesSql(intentsTable)}))`,
      [this.lender, [dustKind], txs, `${dustPrefix}%`],
    );
    return new Set(rows.map((r) => r.tx_hash));
  }

  /**
   * Marks the pledges of every committed release tx of `kinds` not marked yet (a pass that
   * moved on to another batch, or a crash, between the commit and the mark).
   */
  async settleCommittedReleases(intentsTable: string, kinds: readonly string[]): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.app.refusals} r SET release_intent = c.id
         FROM (SELECT i.id, (m -> 'value' ->> 'encumbrance_id')::bigint AS encumbrance_id
                 FROM ${intentsTable} i, jsonb_array_elements(i.messages) m
                WHERE i.actor = $1 AND i.kind = ANY($2::text[]) AND i.status = 'committed'
                  AND i.updated_at > now() - interval '1 day') c
        WHERE r.encumbrance_id = c.encumbrance_id AND r.release_intent IS NULL`,
      [this.lender, kinds],
    );
  }

  /** The pledge ids of the lender's open release txs of the kinds in $2 (the lender is $1). */
  private openReleasesSql(intentsTable: string): string {
    return `SELECT (m -> 'value' ->> 'encumbrance_id')::bigint
              FROM ${intentsTable} i, jsonb_array_elements(i.messages) m
             WHERE i.actor = $1 AND i.kind = ANY($2::text[]) AND i.status IN ('pending', 'signed')
               AND m -> 'value' ->> 'encumbrance_id' IS NOT NULL`;
  }

  /**
   * Marks refused pledges as carried by a release intent, or by none: `nothing-to-release`
   * (gone from the chain already), `left-to-holder` (dust the lender does not release).
   */
  async markReleased(pledges: readonly bigint[], intentId: string): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.app.refusals} SET release_intent = $2 WHERE encumbrance_id = ANY($1::bigint[]) AND release_intent IS NULL`,
      [pledges.map(String), intentId],
    );
  }

  /** Whether an intent of this kind is still open (pending or signed): a batch in flight. */
  async openIntentOf(intentsTable: string, kind: string): Promise<boolean> {
    const { rows } = await this.pool.query(
      `SELECT 1 FROM ${intentsTable} WHERE actor = $1 AND kind = $2 AND status IN ('pending', 'signed') LIMIT 1`,
      [this.lender, kind],
    );
    return rows.length > 0;
  }

  /** Committed claim txs whose entries are not recorded yet. */
  async unrecordedClaims(intentsTable: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ tx_hash: string }>(
      `SELECT i.tx_hash FROM ${intentsTable} i
        WHERE i.kind = 'lender.claim' AND i.status = 'committed' AND NOT EXISTS (SELECT 1 FROM ${this.app.claims} c WHERE c.claim_tx = i.tx_hash)`,
    );
    return rows.map((r) => r.tx_hash);
  }

  /** Stores the routed entries of one claim tx (each pledge's share), once. */
  async recordClaim(claimTx: string, entries: ClaimedEntry[]): Promise<void> {
    await withTransaction(this.pool, async (c) => {
      const { rowCount } = await c.query(
        `INSERT INTO ${this.app.claims} (claim_tx) VALUES ($1) ON CONFLICT DO NOTHING`,
        [claimTx],
      );
      if (rowCount !== 1) return;
      for (const e of entries) {
        const m = /^encumbrance\/(\d+)$/.exec(e.ref);
        if (!m) continue;
        await c.query(
          `INSERT INTO ${this.app.income} (claim_tx, encumbrance_id, amount) VALUES ($1, $2, $3) ON CONFLICT (claim_tx, encumbrance_id) DO UPDATE SET amount = ${this.app.income}.amount + EXCLUDED.amount`,
          [claimTx, m[1], e.amount],
        );
      }
    });
  }

  // ---------------------------------------------------------------- helpers

  private loanColumns(l: string): string {
    return `${l}.id, ${l}.borrower, ${l}.asset_id, ${l}.units::text AS units, ${l}.principal::text AS principal, ${l}.status, ${l}.open_tx, ${l}.close_tx,
            ${l}.repay_settlement::text AS repay_settlement, ${l}.issuer,
            ARRAY(SELECT lp.encumbrance_id::text FROM ${this.app.pledges} lp WHERE lp.loan_id = ${l}.id ORDER BY lp.kind_id) AS pledges`;
  }
}
