/** SQL for settlements and their timelines. */
import { statement } from '../db/statement';
import { SqlParams } from '../db/params';
import { oneWithChildren } from '../db/with-children';
import type { Tables } from '../../src/store';

export interface SettlementRow {
  id: string;
  proposer: string;
  counterparty: string;
  legs: unknown;
  expiry: string;
  status: string;
  cancel_reason: string;
  memo_hash: string;
  created_height: number;
  created_tx_hash: string;
  created_at: string;
  updated_height: number;
}

export const SETTLEMENT_COLUMNS =
  'id, proposer, counterparty, legs, expiry, status, cancel_reason, memo_hash, created_height, created_tx_hash, created_at, updated_height';

export interface SettlementFilter {
  party?: string;
  status?: string;
}

export interface SettlementTimelineRow {
  event: string;
  height: number;
  block_time: string;
  tx_hash: string | null;
  actor: string | null;
  reason: string | null;
}

export function createSettlementRepository(t: Tables) {
  /**
   * Up to n settlements with id below `belowId` (all when null), newest first. A party is
   * the union of its proposer and counterparty branches, each a short walk of its own index.
   */
  const list = statement(
    // all settlements walk the number index whatever the cursor. A status or a party is served
    // by another index than the order's (SubQuery orders a composite index's fields
    // alphabetically, so neither (status, number) nor (proposer, number) can exist): only their
    // values say how rare the status or how busy the party is, so the filter chooses the index
    (filter: SettlementFilter) => (filter.status !== undefined || filter.party !== undefined ? 'values' : 'page'),
    async (sql, filter: SettlementFilter, belowId: bigint | null, n: number): Promise<SettlementRow[]> => {
      const p = new SqlParams();
      const conditions: string[] = [];
      if (filter.status !== undefined) conditions.push(`status = ${p.add(filter.status)}`);
      if (belowId !== null) conditions.push(`number < ${p.add(belowId.toString())}`);
      const limit = sql.limit(p, n);
      const select = (extra: string[]) => {
        const all = [...extra, ...conditions];
        const where = all.length ? `WHERE ${all.join(' AND ')}` : '';
        return `SELECT ${SETTLEMENT_COLUMNS}, number FROM ${t.settlements} ${where} ORDER BY number DESC LIMIT ${limit}`;
      };
      if (filter.party === undefined) return sql.rows<SettlementRow>(select([]), p.values);
      const party = p.add(filter.party);
      const union = `(${select([`proposer = ${party}`])}) UNION ALL (${select([`counterparty = ${party}`, `proposer <> ${party}`])})`;
      return sql.rows<SettlementRow>(`SELECT * FROM (${union}) s ORDER BY number DESC LIMIT ${limit}`, p.values);
    },
  );

  /** The settlement and its timeline (by seq), one statement. */
  const withTimeline = statement(
    'once',
    async (sql, id: string): Promise<{ parent: SettlementRow; children: SettlementTimelineRow[] } | undefined> => {
      return oneWithChildren<SettlementRow, SettlementTimelineRow>(
        sql,
        `SELECT ${SETTLEMENT_COLUMNS} FROM ${t.settlements} WHERE id = $1`,
        [id],
        {
          table: t.settlementTimeline,
          columns: ['event', 'height', 'block_time', 'tx_hash', 'actor', 'reason'],
          parentKey: 'settlement_id',
          orderBy: 'seq',
        },
      );
    },
  );

  return { list, withTimeline };
}

export type SettlementRepository = ReturnType<typeof createSettlementRepository>;
