/** SQL for the node's progress (_metadata), the chain counters, blocks and daily counts. */
import { SqlParams } from '../db/params';
import type { Sql } from '../db/sql';
import type { Tables } from '../db/tables';

export interface Progress {
  /** _metadata.lastProcessedHeight (0 before the first block) */
  indexedHeight: number;
  /** _metadata.targetHeight: the chain tip the node last saw */
  targetHeight: number;
}

export interface TotalsRow {
  tx_count: number;
  drift_total: number;
  latest_height: number;
  latest_block_time: string;
}

export interface BlockRow {
  height: number;
  hash: string;
  time: string;
  proposer: string;
  tx_count: number;
  event_count: number;
}

export interface DayCountRow {
  day: string;
  count: number;
}

function metadataInt(value: unknown): number {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

export function createChainRepository(t: Tables) {
  async function progress(sql: Sql): Promise<Progress> {
    const rows = await sql.rows<{ key: string; value: unknown }>(
      `SELECT key, value FROM ${t.metadata} WHERE key IN ('lastProcessedHeight', 'targetHeight')`,
    );
    const byKey = new Map(rows.map((r) => [r.key, metadataInt(r.value)]));
    return { indexedHeight: byKey.get('lastProcessedHeight') ?? 0, targetHeight: byKey.get('targetHeight') ?? 0 };
  }

  /** The chain counters row; undefined before the first block is indexed. */
  async function totals(sql: Sql): Promise<TotalsRow | undefined> {
    return sql.one<TotalsRow>(`SELECT tx_count, drift_total, latest_height, latest_block_time FROM ${t.chainTotals} WHERE id = 'chain'`);
  }

  /**
   * Reconciliation rows that disagree (written by the reconciler). Rows not evaluated
   * (older chains) are never drift. Counted per request: the reconciler has no counter yet.
   */
  async function reconciliationDisagreements(sql: Sql): Promise<number> {
    const row = await sql.one<{ n: string }>(
      `SELECT (SELECT count(*) FROM ${t.invariantChecks} WHERE NOT agree)
            + (SELECT count(*) FROM ${t.svc20Checks} WHERE evaluated AND NOT agree)
            + (SELECT count(*) FROM ${t.i8Checks} WHERE evaluated AND NOT agree) AS n`,
    );
    return Number(row?.n ?? 0);
  }

  /** Daily tx counts of the UTC days in [from, to] (YYYY-MM-DD ids). */
  async function txDays(sql: Sql, from: string, to: string): Promise<DayCountRow[]> {
    return sql.rows<DayCountRow>(`SELECT id AS day, count FROM ${t.txDays} WHERE id >= $1 AND id <= $2`, [from, to]);
  }

  const blockColumns = 'height, hash, time, proposer, tx_count, event_count';

  /** Up to n blocks below `below` (all when null), newest first. */
  async function blocksBelow(sql: Sql, below: number | null, n: number): Promise<BlockRow[]> {
    const p = new SqlParams();
    const where = below === null ? '' : `WHERE height < ${p.add(below)}`;
    return sql.rows<BlockRow>(`SELECT ${blockColumns} FROM ${t.blocks} ${where} ORDER BY height DESC LIMIT ${p.add(n)}`, p.values);
  }

  async function block(sql: Sql, height: number): Promise<BlockRow | undefined> {
    return sql.one<BlockRow>(`SELECT ${blockColumns} FROM ${t.blocks} WHERE id = $1`, [String(height)]);
  }

  /**
   * The block-level events as stored with the block (JSON text, BeginBlock then EndBlock in
   * chain order; presenters/event.ts reads them); undefined when the block is not stored.
   */
  async function blockEvents(sql: Sql, height: number): Promise<unknown> {
    return (await sql.one<{ events: unknown }>(`SELECT events FROM ${t.blocks} WHERE id = $1`, [String(height)]))?.events;
  }

  return { progress, totals, reconciliationDisagreements, txDays, blocksBelow, block, blockEvents };
}

export type ChainRepository = ReturnType<typeof createChainRepository>;
