/** SQL for settlements and their timelines. */
import { SqlParams } from '../db/params';
import type { Sql } from '../db/sql';
import type { Tables } from '../db/tables';
import type { SettlementRow } from '../presenters/account';
import { SETTLEMENT_COLUMNS } from './accountRepository';

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
  /** Up to n settlements with id below `belowId` (all when null), newest first. */
  async function list(sql: Sql, filter: SettlementFilter, belowId: bigint | null, n: number): Promise<SettlementRow[]> {
    const p = new SqlParams();
    const conditions: string[] = [];
    if (filter.party !== undefined) {
      const party = p.add(filter.party);
      conditions.push(`(proposer = ${party} OR counterparty = ${party})`);
    }
    if (filter.status !== undefined) conditions.push(`status = ${p.add(filter.status)}`);
    if (belowId !== null) conditions.push(`number < ${p.add(belowId.toString())}`);
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    return sql.rows<SettlementRow>(`SELECT ${SETTLEMENT_COLUMNS} FROM ${t.settlements} ${where} ORDER BY number DESC LIMIT ${p.add(n)}`, p.values);
  }

  async function get(sql: Sql, id: string): Promise<SettlementRow | undefined> {
    return sql.one<SettlementRow>(`SELECT ${SETTLEMENT_COLUMNS} FROM ${t.settlements} WHERE id = $1`, [id]);
  }

  async function timeline(sql: Sql, id: string): Promise<SettlementTimelineRow[]> {
    return sql.rows<SettlementTimelineRow>(
      `SELECT event, height, block_time, tx_hash, actor, reason FROM ${t.settlementTimeline} WHERE settlement_id = $1 ORDER BY seq`,
      [id],
    );
  }

  async function exists(sql: Sql, id: string): Promise<boolean> {
    return (await sql.one(`SELECT 1 FROM ${t.settlements} WHERE id = $1`, [id])) !== undefined;
  }

  return { list, get, timeline, exists };
}

export type SettlementRepository = ReturnType<typeof createSettlementRepository>;
