/** SQL for transactions, their events and EVM views, and the tx counters. */
import { SqlParams } from '../db/params';
import type { Sql } from '../db/sql';
import type { Tables } from '../db/tables';
import type { TxKey, TxOrder } from '../paging/tx-pages';
import { ApiTx, EvmRow, presentEvm, presentTx, TxRow } from '../presenters/tx';

export interface KeyedTxRow extends TxRow, TxKey {}

export interface MethodCountRow {
  method: string;
  count: number;
}

export function createTxRepository(t: Tables, gasDenom: string) {
  const columns = `hash, height, tx_index, tx_index AS "txIndex", code, codespace, raw_log, gas_wanted, gas_used, msgs, fee, block_time, events`;

  /**
   * The tx ordering, optionally restricted to one first-message type. With a method the
   * ORDER BY names it too (equal in every row): that is the order of the (method, seq)
   * index, so the planner walks it instead of scanning (seq) and filtering, which for a
   * rare method below a deep cursor meant reading most of the table.
   */
  function order(sql: Sql, method: string | undefined): TxOrder<KeyedTxRow> {
    const scoped = (p: SqlParams, condition?: string): string => {
      const parts = method === undefined ? [] : [`method = ${p.add(method)}`];
      if (condition) parts.push(condition);
      return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
    };
    const orderBy = (direction: 'ASC' | 'DESC') => (method === undefined ? `seq ${direction}` : `method ${direction}, seq ${direction}`);
    const select = (p: SqlParams, where: string, direction: 'ASC' | 'DESC', n: number) =>
      sql.rows<KeyedTxRow>(`SELECT ${columns} FROM ${t.txes} ${where} ORDER BY ${orderBy(direction)} LIMIT ${p.add(n)}`, p.values);
    // ORDER BY keeps the probe on the index: without it the planner may pick a sequential
    // scan ("any row will do"), and the rows above a cursor sit at the end of the heap
    const exists = async (p: SqlParams, where: string, direction: 'ASC' | 'DESC') =>
      (await sql.one(`SELECT 1 FROM ${t.txes} ${where} ORDER BY ${orderBy(direction)} LIMIT 1`, p.values)) !== undefined;
    return {
      olderThan(below, n) {
        const p = new SqlParams();
        return select(p, scoped(p, below === null ? undefined : `seq < ${p.add(below.toString())}`), 'DESC', n);
      },
      newerThan(above, n) {
        const p = new SqlParams();
        return select(p, scoped(p, `seq > ${p.add(above.toString())}`), 'ASC', n);
      },
      existsBelow(seq) {
        const p = new SqlParams();
        return exists(p, scoped(p, `seq < ${p.add(seq.toString())}`), 'DESC');
      },
      existsAbove(seq) {
        const p = new SqlParams();
        return exists(p, scoped(p, `seq > ${p.add(seq.toString())}`), 'ASC');
      },
      async keyFromOldest(offset) {
        const p = new SqlParams();
        const where = scoped(p);
        const row = await sql.one<TxKey>(`SELECT height, tx_index AS "txIndex" FROM ${t.txes} ${where} ORDER BY ${orderBy('ASC')} LIMIT 1 OFFSET ${p.add(offset)}`, p.values);
        return row ?? null;
      },
    };
  }

  async function byHash(sql: Sql, hash: string): Promise<TxRow | undefined> {
    return sql.one<TxRow>(`SELECT ${columns} FROM ${t.txes} WHERE id = $1`, [hash]);
  }

  async function byEthHash(sql: Sql, ethHash: string): Promise<TxRow | undefined> {
    const evm = await sql.one<{ tx_hash: string }>(`SELECT tx_hash FROM ${t.evmTxes} WHERE id = $1`, [ethHash]);
    return evm ? byHash(sql, evm.tx_hash) : undefined;
  }

  async function ofBlock(sql: Sql, height: number): Promise<TxRow[]> {
    return sql.rows<TxRow>(`SELECT ${columns} FROM ${t.txes} WHERE height = $1 ORDER BY tx_index`, [height]);
  }

  /** Each row as a full Tx: its events (stored with the row) by event_index, the EVM view of its first MsgEthereumTx. */
  async function details(sql: Sql, rows: readonly TxRow[]): Promise<ApiTx[]> {
    if (rows.length === 0) return [];
    const evms = await sql.rows<EvmRow>(
      `SELECT DISTINCT ON (tx_hash) tx_hash, eth_hash, "from", "to", value, gas_used, status, revert_reason FROM ${t.evmTxes} WHERE tx_hash = ANY($1) ORDER BY tx_hash, msg_index`,
      [rows.map((r) => r.hash)],
    );
    const evmByTx = new Map(evms.map((e) => [e.tx_hash, presentEvm(e, gasDenom)]));
    return rows.map((r) => presentTx(r, evmByTx.get(r.hash) ?? null));
  }

  async function methodCount(sql: Sql, method: string): Promise<number> {
    return (await sql.one<{ count: number }>(`SELECT count FROM ${t.methodCounts} WHERE id = $1`, [method]))?.count ?? 0;
  }

  /** The whole-chain facet, most frequent first, ties by method (txs without a message type have none). */
  async function methods(sql: Sql): Promise<MethodCountRow[]> {
    return sql.rows<MethodCountRow>(`SELECT method, count FROM ${t.methodCounts} WHERE method <> '' AND count > 0 ORDER BY count DESC, method ASC`);
  }

  return { order, byHash, byEthHash, ofBlock, details, methodCount, methods };
}

export type TxRepository = ReturnType<typeof createTxRepository>;
