/** SQL for what an account holds, owes and may claim, and whether the chain knows it. */
import type { Sql } from '../db/sql';
import type { Tables } from '../db/tables';
import type { AttestationRow, ClaimableRow, DelegationRow, PositionRow, SettlementRow, VotingPowerRow } from '../presenters/account';

export const SETTLEMENT_COLUMNS =
  'id, proposer, counterparty, legs, expiry, status, cancel_reason, memo_hash, created_height, created_tx_hash, created_at, updated_height';
export const DELEGATION_COLUMNS =
  'id, holder, asset_id, delegate, kind_id, units, until, purposes, revocable, ended, created_height, created_tx_hash, ended_height';

export function createAccountRepository(t: Tables) {
  /** Every position of the account with units or locks, by asset_id then kind_id. */
  async function positions(sql: Sql, account: string): Promise<PositionRow[]> {
    return sql.rows<PositionRow>(
      `SELECT h.asset_id, h.kind_id, k.kind_class, k.decimals, h.units, h.locked, h.locks
       FROM ${t.holdings} h JOIN ${t.kinds} k ON k.id = h.kind_ref
       WHERE h.holder = $1 AND (h.units > 0 OR h.locked > 0)
       ORDER BY h.asset_id, h.kind_id`,
      [account],
    );
  }

  /** Pending settlements with the account as either party, newest (highest id) first. */
  async function pendingSettlements(sql: Sql, account: string): Promise<SettlementRow[]> {
    return sql.rows<SettlementRow>(
      `SELECT ${SETTLEMENT_COLUMNS} FROM ${t.settlements}
       WHERE status = 'STATUS_PENDING' AND (proposer = $1 OR counterparty = $1)
       ORDER BY number DESC`,
      [account],
    );
  }

  /** Attestations whose subject is the account, by type then attester. */
  async function attestations(sql: Sql, subject: string): Promise<AttestationRow[]> {
    return sql.rows<AttestationRow>(
      `SELECT type, attester, expiry, revoked, evidence_hash, updated_height FROM ${t.attestations}
       WHERE subject = $1 ORDER BY type, attester`,
      [subject],
    );
  }

  /** Claimable entries of the account (own and routed), each with its accrual's current index. */
  async function claimables(sql: Sql, account: string): Promise<ClaimableRow[]> {
    return sql.rows<ClaimableRow>(
      `SELECT c.routed_from, c.ref, c.asset_id, c.kind_id, c.denom, c.units, c.snapshot_index, c.accrued, a.index
       FROM ${t.claimables} c JOIN ${t.accruals} a ON a.id = c.accrual_id
       WHERE c.account = $1`,
      [account],
    );
  }

  /**
   * Active delegations with the account as holder or delegate, newest (highest id) first.
   * Ended ones stay reachable by id and in the account's activity feed; listing them here
   * would make the account answer grow with history (design choice `account-delegations`).
   */
  async function delegations(sql: Sql, account: string): Promise<DelegationRow[]> {
    return sql.rows<DelegationRow>(
      `SELECT ${DELEGATION_COLUMNS} FROM ${t.delegations}
       WHERE (holder = $1 OR delegate = $1) AND ended = '' ORDER BY id::numeric DESC`,
      [account],
    );
  }

  /** Delegated voting units of the account on VOTE-class kinds. */
  async function delegatedVotes(sql: Sql, account: string): Promise<VotingPowerRow[]> {
    return sql.rows<VotingPowerRow>(
      `SELECT v.asset_id, v.kind_id, v.delegated_out, v.delegated_in
       FROM ${t.votingPowers} v JOIN ${t.kinds} k ON k.id = v.asset_id || '-' || v.kind_id
       WHERE v.account = $1 AND k.kind_class = 'VOTE'`,
      [account],
    );
  }

  /**
   * True when the chain recorded something about the account: the indexer creates its
   * Account row the first time it is an activity subject or holds units (module accounts
   * such as dex pools and escrows included).
   */
  async function known(sql: Sql, account: string): Promise<boolean> {
    const row = await sql.one<{ known: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${t.accounts} WHERE id = $1) AS known`, [account]);
    return row?.known === true;
  }

  return { positions, pendingSettlements, attestations, claimables, delegations, delegatedVotes, known };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
