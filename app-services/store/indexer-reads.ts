/** Reads of the indexer's store that more than one service makes (read-only; tables from rest-adapter/db/tables.ts). */
import type { Pool } from 'pg';
import type { Tables } from '../../rest-adapter/db/tables';

/** A pending settlement as indexed: its legs are proto-JSON Leg objects (the proposer's directions). */
export interface ProposalSeen {
  id: string;
  proposer: string;
  legs: {
    direction?: string;
    coin?: { denom?: string; amount?: string };
    right?: { asset_id?: string; kind_id?: number; units?: string };
  }[];
}

/** Pending settlements proposed to `counterparty`, oldest first. */
export async function pendingProposalsTo(pool: Pool, svc: Tables, counterparty: string): Promise<ProposalSeen[]> {
  const { rows } = await pool.query<ProposalSeen>(
    `SELECT id, proposer, legs FROM ${svc.settlements} WHERE counterparty = $1 AND status = 'STATUS_PENDING' ORDER BY number`,
    [counterparty],
  );
  return rows;
}

/** The node's latest indexed height (0 before the first block). */
export async function indexedHeight(pool: Pool, svc: Tables): Promise<number> {
  const { rows } = await pool.query<{ value: unknown }>(
    `SELECT value FROM ${svc.metadata} WHERE key = 'lastProcessedHeight'`,
  );
  const n = Number(rows[0]?.value);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}
