/** SQL for delegations. */
import type { Sql } from '../db/sql';
import type { Tables } from '../db/tables';
import type { DelegationRow } from '../presenters/account';
import { DELEGATION_COLUMNS } from './accountRepository';

export function createDelegationRepository(t: Tables) {
  async function get(sql: Sql, id: string): Promise<DelegationRow | undefined> {
    return sql.one<DelegationRow>(`SELECT ${DELEGATION_COLUMNS} FROM ${t.delegations} WHERE id = $1`, [id]);
  }

  return { get };
}

export type DelegationRepository = ReturnType<typeof createDelegationRepository>;
