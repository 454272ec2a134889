/** SQL for the block list (a block with its txs: repositories/txs.ts blockWithTxs). */
import { statement } from '../db/statement';
import { SqlParams } from '../db/params';
import type { Tables } from '../../src/store';

export interface BlockRow {
  height: number;
  hash: string;
  time: string;
  proposer: string;
  tx_count: number;
  event_count: number;
}

export const BLOCK_COLUMNS = ['height', 'hash', 'time', 'proposer', 'tx_count', 'event_count'] as const;
const blockColumns = BLOCK_COLUMNS.join(', ');

export function createBlockRepository(t: Tables) {
  /** Up to n blocks below `below` (all when null), newest first. */
  const blocksBelow = statement('page', async (sql, below: number | null, n: number): Promise<BlockRow[]> => {
    const p = new SqlParams();
    const where = below === null ? '' : `WHERE height < ${p.add(below)}`;
    const limit = sql.limit(p, n);
    return sql.rows<BlockRow>(
      `SELECT ${blockColumns} FROM ${t.blocks} ${where} ORDER BY height DESC LIMIT ${limit}`,
      p.values,
    );
  });
  /** The blocks with after < height <= through, oldest first. */
  const blocksBetween = statement('values', async (sql, after: number, through: number): Promise<BlockRow[]> => {
    return sql.rows<BlockRow>(
      `SELECT ${blockColumns} FROM ${t.blocks} WHERE height > $1 AND height <= $2 ORDER BY height ASC`,
      [after, through],
    );
  });

  return { blocksBelow, blocksBetween };
}

export type BlockRepository = ReturnType<typeof createBlockRepository>;
