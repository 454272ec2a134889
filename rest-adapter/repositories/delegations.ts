/** SQL for delegations. */
import { statement } from '../db/statement';
import type { Tables } from '../../src/store';

export interface DelegationRow {
  id: string;
  holder: string;
  asset_id: string;
  delegate: string;
  kind_id: number;
  units: string;
  until: string;
  purposes: unknown;
  revocable: boolean;
  ended: string;
  created_height: number;
  created_tx_hash: string;
  ended_height: number | null;
}

export const DELEGATION_COLUMNS =
  'id, holder, asset_id, delegate, kind_id, units, until, purposes, revocable, ended, created_height, created_tx_hash, ended_height';

export function createDelegationRepository(t: Tables) {
  const get = statement('once', async (sql, id: string): Promise<DelegationRow | undefined> => {
    return sql.one<DelegationRow>(`SELECT ${DELEGATION_COLUMNS} FROM ${t.delegations} WHERE id = $1`, [id]);
  });

  return { get };
}

export type DelegationRepository = ReturnType<typeof createDelegationRepository>;
