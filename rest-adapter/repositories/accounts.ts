/** SQL for what an account holds, owes and may claim, and whether the chain knows it. */
import { statement } from '../db/statement';
import { jsonList, withTextColumns } from '../db/json-list';
import type { Tables } from '../../src/store';
import { latestBlockTimeSql } from './status';
import { DELEGATION_COLUMNS, type DelegationRow } from './delegations';
import { SETTLEMENT_COLUMNS, type SettlementRow } from './settlements';

export interface PositionRow {
  asset_id: string;
  kind_id: number;
  kind_class: string;
  decimals: number;
  units: string;
  locked: string;
  locks: unknown;
}

export interface ClaimableRow {
  routed_from: string;
  ref: string;
  asset_id: string;
  kind_id: number;
  denom: string;
  units: string;
  snapshot_index: string;
  accrued: string;
  /** the accrual's current index */
  index: string;
}

export interface VotingPowerRow {
  asset_id: string;
  kind_id: number;
  delegated_out: string;
  delegated_in: string;
}

export interface AttestationRow {
  type: string;
  attester: string;
  expiry: string;
  revoked: boolean;
  evidence_hash: string;
  updated_height: number;
}

/** Everything /v1/accounts/{addr} reads, from one statement. */
export interface AccountOverview {
  /** store text of the latest block time; null before the first block */
  latestBlockTime: string | null;
  /** every position with units or locks, by asset_id then kind_id */
  positions: PositionRow[];
  /** pending settlements with the account as either party, newest (highest number) first */
  pendingSettlements: SettlementRow[];
  /** attestations whose subject is the account, by type then attester */
  attestations: AttestationRow[];
  /** claimable entries (own and routed), each with its accrual's current index */
  claimables: ClaimableRow[];
  /** active delegations with the account as holder or delegate, newest (highest id) first */
  delegations: DelegationRow[];
  /** delegated voting units on VOTE-class kinds */
  delegatedVotes: VotingPowerRow[];
}

export function createAccountRepository(t: Tables) {
  const settlementColumns = withTextColumns(SETTLEMENT_COLUMNS, ['expiry', 'created_at']);
  const delegationColumns = withTextColumns(DELEGATION_COLUMNS, ['units', 'until']);

  const positions = `SELECT h.asset_id, h.kind_id, k.kind_class, k.decimals, h.units::text, h.locked::text, h.locks
       FROM ${t.holdings} h JOIN ${t.kinds} k ON k.id = h.kind_ref
       WHERE h.holder = $1 AND (h.units > 0 OR h.locked > 0)`;
  const pendingSettlements = `SELECT ${settlementColumns}, number::text AS number FROM ${t.settlements}
       WHERE status = 'STATUS_PENDING' AND (proposer = $1 OR counterparty = $1)`;
  const attestations = `SELECT type, attester, expiry::text, revoked, evidence_hash, updated_height FROM ${t.attestations} WHERE subject = $1`;
  const claimables = `SELECT c.routed_from, c.ref, c.asset_id, c.kind_id, c.denom, c.units::text, c.snapshot_index::text, c.accrued::text, a.index::text
       FROM ${t.claimables} c JOIN ${t.accruals} a ON a.id = c.accrual_id
       WHERE c.account = $1`;
  // Ended delegations stay reachable by id and in the account's activity feed; listing them
  // here would make the account answer grow with history (design choice `account-delegations`).
  const delegations = `SELECT ${delegationColumns} FROM ${t.delegations} WHERE (holder = $1 OR delegate = $1) AND ended = ''`;
  const delegatedVotes = `SELECT v.asset_id, v.kind_id, v.delegated_out::text, v.delegated_in::text
       FROM ${t.votingPowers} v JOIN ${t.kinds} k ON k.id = v.asset_id || '-' || v.kind_id
       WHERE v.account = $1 AND k.kind_class = 'VOTE'`;

  /** The account answer's rows in one statement (one snapshot, one round trip). */
  // every part is a walk of an index on the account; planning was 1.0 of 1.6 ms
  const overview = statement('once', async (sql, account: string): Promise<AccountOverview> => {
    const row = await sql.one<{ [K in keyof AccountOverview]: AccountOverview[K] }>(
      `SELECT ${latestBlockTimeSql(t)} AS "latestBlockTime",
              ${jsonList(positions, 'x.asset_id, x.kind_id')} AS positions,
              ${jsonList(pendingSettlements, 'x.number::numeric DESC')} AS "pendingSettlements",
              ${jsonList(attestations, 'x.type, x.attester')} AS attestations,
              ${jsonList(claimables, 'x.asset_id, x.kind_id, x.routed_from, x.ref')} AS claimables,
              ${jsonList(delegations, 'x.id::numeric DESC')} AS delegations,
              ${jsonList(delegatedVotes, 'x.asset_id, x.kind_id')} AS "delegatedVotes"`,
      [account],
    );
    if (!row) throw new Error('account overview: the statement returned no row');
    return row;
  });

  /** Attestations whose subject is the account, by type then attester, with the latest block time (one statement). */
  const attestationsWithTime = statement(
    'once',
    async (sql, subject: string): Promise<{ latestBlockTime: string | null; attestations: AttestationRow[] }> => {
      const row = await sql.one<{ latestBlockTime: string | null; attestations: AttestationRow[] }>(
        `SELECT ${latestBlockTimeSql(t)} AS "latestBlockTime",
              ${jsonList(attestations, 'x.type, x.attester')} AS attestations`,
        [subject],
      );
      return row ?? { latestBlockTime: null, attestations: [] };
    },
  );

  /**
   * True when the chain recorded something about the account: the indexer creates its
   * Account row the first time it is an activity subject or holds units (module accounts
   * such as dex pools and escrows included).
   */
  const known = statement('once', async (sql, account: string): Promise<boolean> => {
    const row = await sql.one<{ known: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ${t.accounts} WHERE id = $1) AS known`,
      [account],
    );
    return row?.known === true;
  });

  return { overview, attestationsWithTime, known };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
