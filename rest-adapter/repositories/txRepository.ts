/** SQL for transactions, their events and EVM views, and the tx counters. */
import { SqlParams } from '../db/params';
import type { Sql } from '../db/sql';
import type { Tables } from '../db/tables';
import type { TxKey, TxOrder } from '../paging/tx-pages';
import { ApiTx, EvmRow, presentEvm, presentTx, TxRow } from '../presenters/tx';

/** A tx row with the EVM view of its first MsgEthereumTx joined in (null columns when it has none). */
export interface TxWithEvmRow extends TxRow {
  evm_eth_hash: string | null;
  evm_from: string;
  evm_to: string | null;
  evm_value: string;
  evm_gas_used: string;
  evm_status: number;
  evm_revert_reason: string | null;
}

export interface KeyedTxRow extends TxWithEvmRow, TxKey {}

export interface MethodCountRow {
  method: string;
  count: number;
}

function evmOf(r: TxWithEvmRow): EvmRow {
  return {
    tx_hash: r.hash,
    eth_hash: r.evm_eth_hash ?? '',
    from: r.evm_from,
    to: r.evm_to,
    value: r.evm_value,
    gas_used: r.evm_gas_used,
    status: r.evm_status,
    revert_reason: r.evm_revert_reason,
  };
}

export function createTxRepository(t: Tables, gasDenom: string) {
  const txColumns = ['hash', 'height', 'tx_index', 'code', 'codespace', 'raw_log', 'gas_wanted', 'gas_used', 'msgs', 'fee', 'block_time', 'events'];
  const evmColumns = ['eth_hash', '"from"', '"to"', 'value', 'gas_used', 'status', 'revert_reason'];
  /**
   * The tx rows of `from` (a table or subquery aliased x, with its own WHERE/ORDER BY/LIMIT
   * text in `rest`), each with the EVM view of its first MsgEthereumTx: one statement for
   * a page and its EVM views.
   */
  const withEvm = (from: string, rest = '') =>
    `SELECT ${txColumns.map((c) => `x.${c}`).join(', ')}, x.tx_index AS "txIndex", ${evmColumns.map((c) => `e.${c} AS "evm_${c.replace(/"/g, '')}"`).join(', ')}
     FROM ${from} x
     LEFT JOIN LATERAL (SELECT ${evmColumns.join(', ')} FROM ${t.evmTxes} WHERE tx_hash = x.hash ORDER BY msg_index LIMIT 1) e ON true
     ${rest}`;

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
      sql.rows<KeyedTxRow>(withEvm(`(SELECT * FROM ${t.txes} ${where} ORDER BY ${orderBy(direction)} LIMIT ${p.add(n)})`, `ORDER BY x.seq ${direction}`), p.values);
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

  async function byHash(sql: Sql, hash: string): Promise<TxWithEvmRow | undefined> {
    return sql.one<TxWithEvmRow>(withEvm(t.txes, 'WHERE x.id = $1'), [hash]);
  }

  async function byEthHash(sql: Sql, ethHash: string): Promise<TxWithEvmRow | undefined> {
    return sql.one<TxWithEvmRow>(withEvm(`(SELECT * FROM ${t.txes} WHERE id = (SELECT tx_hash FROM ${t.evmTxes} WHERE id = $1))`), [ethHash]);
  }

  async function ofBlock(sql: Sql, height: number): Promise<TxWithEvmRow[]> {
    return sql.rows<TxWithEvmRow>(withEvm(t.txes, 'WHERE x.height = $1 ORDER BY x.tx_index'), [height]);
  }

  /** Each row as a full Tx: its events (stored with the row) by event_index, the EVM view joined in. */
  function present(rows: readonly TxWithEvmRow[]): ApiTx[] {
    return rows.map((r) => presentTx(r, r.evm_eth_hash === null ? null : presentEvm(evmOf(r), gasDenom)));
  }

  /**
   * The `total` of a txs list (ChainTotals.tx_count, or the method's MethodCount; never
   * count(*)) and the whole-chain method facet, most frequent first, ties by method (txs
   * without a message type have none): one statement.
   */
  async function totalAndMethods(sql: Sql, method: string | undefined): Promise<{ total: number; methods: MethodCountRow[] }> {
    const total = method === undefined ? `(SELECT tx_count FROM ${t.chainTotals} WHERE id = 'chain')` : `(SELECT count FROM ${t.methodCounts} WHERE id = $1)`;
    const rows = await sql.rows<{ total: number | null; method: string | null; count: number | null }>(
      `SELECT ${total} AS total, m.method, m.count
       FROM (SELECT 1) one
       LEFT JOIN LATERAL (SELECT method, count FROM ${t.methodCounts} WHERE method <> '' AND count > 0) m ON true
       ORDER BY m.count DESC, m.method ASC`,
      method === undefined ? [] : [method],
    );
    const methods = rows.filter((r): r is { total: number | null; method: string; count: number } => r.method !== null);
    return { total: rows[0]?.total ?? 0, methods: methods.map((r) => ({ method: r.method, count: r.count })) };
  }

  return { order, byHash, byEthHash, ofBlock, present, totalAndMethods };
}

export type TxRepository = ReturnType<typeof createTxRepository>;
