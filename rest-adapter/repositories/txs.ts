/** SQL for transactions (with their events and EVM views): txs pages, a block with its txs, /v1/stats. */
import { SqlParams } from '../db/params';
import { statement } from '../db/statement';
import { jsonList } from '../db/json-list';
import { BLOCK_COLUMNS, type BlockRow } from './blocks';
import { proofJoin, proofOf, type ProofColumns, type ProofRow } from './proofs';
import { metadataInt } from '../../src/store';
import { DAILY_SERIES_DAYS, type DayCountRow, indexedHeightSql } from './status';
import type { Sql } from '../db/sql';
import type { Tables } from '../../src/store';
import type { TxKey, TxPageRead, TxPageRequest } from '../paging/tx-pages';

/** A tx row with the EVM view of its first MsgEthereumTx joined in (null columns when it has none). */
export interface TxRow {
  hash: string;
  height: number;
  tx_index: number;
  code: number;
  codespace: string;
  raw_log: string | null;
  gas_wanted: string;
  gas_used: string;
  msgs: unknown;
  fee: unknown;
  block_time: string;
  /** JSON text: the tx's raw events in chain order (see presenters/events.ts) */
  events: unknown;
}

export interface EvmRow {
  tx_hash: string;
  eth_hash: string;
  from: string;
  to: string | null;
  value: string;
  gas_used: string;
  status: number;
  revert_reason: string | null;
}

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

/** A tx's identity and the stamp of its rendering (presenters/txs.ts), with its page key. */
export type TxStampRow = Pick<TxRow, 'hash' | 'height' | 'tx_index' | 'block_time'> & TxKey;

export interface MethodCountRow {
  method: string;
  count: number;
}

/** The `total` of a txs list (ChainTotals.tx_count, or the method's MethodCount) and the whole-chain method facet. */
export interface TxListTotals {
  total: number;
  /** most frequent first, ties by method; txs without a message type have none */
  methods: MethodCountRow[];
}

export interface BlockWithTxs {
  indexedHeight: number;
  block: (BlockRow & { events: unknown }) | undefined;
  /** in tx_index order */
  txs: TxWithEvmRow[];
  /** the height's proof of indexing (none when the store keeps no proof of it) */
  proof: ProofRow | undefined;
}

/** A row of the block statement: a tx (null columns when the block has none) with the block's columns. */
interface BlockTxRow extends TxWithEvmRow, ProofColumns {
  indexed: unknown;
  blk_height: number | null;
  blk_hash: string | null;
  blk_time: string | null;
  blk_proposer: string | null;
  blk_tx_count: number | null;
  blk_event_count: number | null;
  blk_events: unknown;
}

export interface StatsRead {
  indexedHeight: number;
  totals: { tx_count: number; latest_block_time: string } | undefined;
  /** tx counts of the days of the series that have txs */
  days: DayCountRow[];
  /** newest first */
  latest: TxWithEvmRow[];
}

/** A row of the stats statement: a tx (null columns when there is none) with the chain figures. */
interface StatsRow extends TxWithEvmRow {
  indexed: unknown;
  tx_count: number | null;
  latest_block_time: string | null;
  days: unknown;
}

/**
 * The variants of the /v1/txs page statement: `figures` reads the page's rows with the figures
 * of its height (TxPageFigures); when those are kept (reads/txs.ts), `rows` reads the rows alone
 * and `keys` only each tx's hash and the stamp of its rendering (height, tx_index, block time),
 * for a page whose txs the render cache may hold.
 */
type PageVariant = 'figures' | 'rows' | 'keys';

/** A row of the page statement: a tx (null columns on an empty page) with the page's figures (`figures` only; `keys` reads a TxStampRow). */
interface PageRow extends KeyedTxRow {
  indexed: unknown;
  past_bound: boolean;
  total: number;
  last_height: number | null;
  last_tx_index: number | null;
  methods: unknown;
}

/**
 * What a /v1/txs page carries beside its rows that is fixed per indexed height, list (all txs
 * or one method) and page size: kept per height by reads/txs.ts (reads/height-memo.ts), so a
 * page whose height's figures are kept is read without them.
 */
export type TxPageFigures = TxListTotals & Pick<TxPageRead<TxKey>, 'lastBoundary'>;

/** The rows of a page read and the indexed height of its snapshot. */
export interface TxPageAt<R extends TxKey> extends Omit<TxPageRead<R>, 'lastBoundary'> {
  indexedHeight: number;
}

/**
 * `value` on the first row (in `order`) only, null on the others: a value of the whole
 * answer (a facet, a block's events) read beside its tx rows without repeating it per row.
 */
function onFirstRow(value: string, order: string): string {
  return `CASE WHEN row_number() OVER (ORDER BY ${order}) = 1 THEN ${value} END`;
}

export function createTxRepository(t: Tables) {
  const txColumns = [
    'hash',
    'height',
    'tx_index',
    'code',
    'codespace',
    'raw_log',
    'gas_wanted',
    'gas_used',
    'msgs',
    'fee',
    'block_time',
    'events',
  ];
  const evmColumns = ['eth_hash', '"from"', '"to"', 'value', 'gas_used', 'status', 'revert_reason'];
  const txSelect = txColumns.map((c) => `x.${c}`).join(', ');
  // the EVM view of a tx row x (its first MsgEthereumTx), as evm_* columns
  const evmSelect = evmColumns.map((c) => `e.${c} AS "evm_${c.replace(/"/g, '')}"`).join(', ');
  const evmJoin = `LEFT JOIN LATERAL (SELECT ${evmColumns.join(', ')} FROM ${t.evmTxes} WHERE tx_hash = x.hash ORDER BY msg_index LIMIT 1) e ON true`;
  /**
   * The tx rows of `from` (a table or subquery aliased x, with its own WHERE/ORDER BY/LIMIT
   * text in `rest`), each with the EVM view of its first MsgEthereumTx: one statement for
   * rows and their EVM views.
   */
  const withEvm = (from: string, rest = '') =>
    `SELECT ${txSelect}, x.tx_index AS "txIndex", ${evmSelect}
     FROM ${from} x
     ${evmJoin}
     ${rest}`;

  /**
   * The statement of a /v1/txs page (the list of one method or of all txs), in three variants
   * (`PageVariant`), each with its snapshot's indexed height and whether a row lies past the
   * request's bound. With a method the ORDER BYs name it too (equal in every row): that is the
   * order of the (method, seq) index, so the planner walks it instead of scanning (seq) and
   * filtering, which for a rare method below a deep cursor meant reading most of the table. The
   * probes keep ORDER BY … LIMIT 1 for the same reason: "any row will do" may otherwise become a
   * sequential scan, and the rows above a cursor sit at the end of the heap.
   */
  const pageStatement = statement(
    // all txs walk the seq index whatever the cursor. A method's page may walk the (method, seq)
    // or the (seq) index, which both give its order; a plan made without knowing the method
    // weighs them by the average method's share, and with few methods the seq walk (its heap in
    // seq order) looks cheaper: for a rare method it reads most of the table (bench/explain.ts
    // showed this for a route's transfers)
    (method: string | undefined) => (method === undefined ? 'page' : 'values'),
    async (sql, method: string | undefined, request: TxPageRequest, variant: PageVariant): Promise<PageRow[]> => {
      const p = new SqlParams();
      const methodParam = method === undefined ? undefined : p.add(method);
      const where = (...conditions: string[]) => {
        const all = methodParam === undefined ? conditions : [`method = ${methodParam}`, ...conditions];
        return all.length ? `WHERE ${all.join(' AND ')}` : '';
      };
      const orderBy = (direction: 'ASC' | 'DESC') =>
        methodParam === undefined ? `seq ${direction}` : `method ${direction}, seq ${direction}`;
      const older = request.direction === 'older';
      const dir = older ? 'DESC' : 'ASC';
      const bound = request.bound === null ? undefined : p.add(request.bound.toString());
      const limit = sql.limit(p, request.limit);
      const pastBound =
        bound === undefined
          ? 'false'
          : `(SELECT 1 FROM ${t.txes} ${where(`seq ${older ? '>=' : '<='} ${bound}`)} ORDER BY ${orderBy(older ? 'ASC' : 'DESC')} LIMIT 1) IS NOT NULL`;
      const withFigures = variant === 'figures';
      const total =
        methodParam === undefined
          ? `(SELECT tx_count FROM ${t.chainTotals} WHERE id = 'chain')`
          : `(SELECT count FROM ${t.methodCounts} WHERE id = ${methodParam})`;
      // the figures: the total (the counters, never count(*)), the last page's boundary key (at
      // total mod limit from the oldest) and the whole-chain method facet (on the first row only)
      const figureColumns = withFigures
        ? `m.total, m.last_height, m.last_tx_index, ${onFirstRow('m.methods', `x.seq ${dir}`)} AS methods, `
        : '';
      const figures = withFigures
        ? `, n.total, k.height AS last_height, k.tx_index AS last_tx_index,
                    (SELECT coalesce(json_agg(json_build_object('method', method, 'count', count) ORDER BY count DESC, method ASC), '[]')
                     FROM ${t.methodCounts} WHERE method <> '' AND count > 0) AS methods
             FROM (SELECT coalesce(${total}, 0) AS total) n
             LEFT JOIN LATERAL (SELECT height, tx_index FROM ${t.txes} ${where()} ORDER BY ${orderBy('ASC')} LIMIT 1
                                OFFSET CASE WHEN n.total % ${limit} = 0 THEN ${limit} ELSE n.total % ${limit} END) k ON n.total > ${limit}`
        : '';
      const rowColumns =
        variant === 'keys'
          ? 'x.hash, x.height, x.tx_index, x.block_time, x.tx_index AS "txIndex"'
          : `${txSelect}, x.tx_index AS "txIndex", ${evmSelect}`;
      return sql.rows<PageRow>(
        `SELECT m.indexed, m.past_bound, ${figureColumns}${rowColumns}
       FROM (SELECT ${indexedHeightSql(t)} AS indexed, ${pastBound} AS past_bound${figures}) m
       LEFT JOIN LATERAL (SELECT * FROM ${t.txes} ${where(...(bound === undefined ? [] : [`seq ${older ? '<' : '>'} ${bound}`]))}
                          ORDER BY ${orderBy(dir)} LIMIT ${limit} + 1) x ON true
       ${variant === 'keys' ? '' : evmJoin}
       ORDER BY x.seq ${dir}`,
        p.values,
      );
    },
  );

  /** A page read from its statement's rows (null columns on an empty page), each with the snapshot's figures. */
  function pageAt<R extends TxKey & { hash: string | null }>(
    rows: (R & { indexed: unknown; past_bound: boolean })[],
  ): TxPageAt<R> {
    const first = rows[0];
    return {
      rows: rows.filter((r) => r.hash !== null),
      beyondBound: first?.past_bound ?? false,
      indexedHeight: metadataInt(first?.indexed),
    };
  }

  /** A /v1/txs page with everything its answer needs, in one statement (the `figures` variant). */
  async function page(
    sql: Sql,
    method: string | undefined,
    request: TxPageRequest,
  ): Promise<TxPageAt<KeyedTxRow> & TxPageFigures> {
    const read = await pageStatement(sql, method, request, 'figures');
    const first = read[0];
    return {
      ...pageAt(read),
      lastBoundary:
        first && first.last_height !== null
          ? { height: first.last_height, txIndex: first.last_tx_index as number }
          : null,
      total: first?.total ?? 0,
      methods: (first?.methods as MethodCountRow[] | null) ?? [],
    };
  }

  /** The rows of a /v1/txs page in one statement, without its figures (the `rows` variant). */
  async function pageRows(sql: Sql, method: string | undefined, request: TxPageRequest): Promise<TxPageAt<KeyedTxRow>> {
    return pageAt(await pageStatement(sql, method, request, 'rows'));
  }

  /** The keys of a /v1/txs page in one statement (the `keys` variant); `byHashes` reads the txs the render cache does not hold (reads/txs.ts). */
  async function pageKeys(sql: Sql, method: string | undefined, request: TxPageRequest): Promise<TxPageAt<TxStampRow>> {
    return pageAt<TxStampRow>(await pageStatement(sql, method, request, 'keys'));
  }

  /** The txs of these hashes with their EVM views, in no particular order (absent ones left out). */
  const byHashes = statement('once', async (sql, hashes: readonly string[]): Promise<TxWithEvmRow[]> => {
    return sql.rows<TxWithEvmRow>(withEvm(t.txes, 'WHERE x.id = ANY($1)'), [hashes]);
  });

  /**
   * /v1/stats in one statement: the indexed height, the tx counter and latest block time,
   * the daily tx counts of the DAILY_SERIES_DAYS UTC days ending on the latest block's day,
   * and the n newest txs (newest first) with their EVM views.
   */
  const stats = statement('page', async (sql, n: number): Promise<StatsRead> => {
    const p = new SqlParams();
    const limit = sql.limit(p, n);
    const rows = await sql.rows<StatsRow>(
      `SELECT m.indexed, m.tx_count, m.latest_block_time,
              ${onFirstRow('m.days', 'x.seq DESC')} AS days,
              ${txSelect}, ${evmSelect}
       FROM (SELECT ${indexedHeightSql(t)} AS indexed, c.tx_count, c.latest_block_time,
                    ${jsonList(
                      `SELECT id AS day, count FROM ${t.txDays}
                       WHERE id >= to_char(c.latest_block_time::date - ${DAILY_SERIES_DAYS - 1}, 'YYYY-MM-DD') AND id <= to_char(c.latest_block_time::date, 'YYYY-MM-DD')`,
                      'x.day',
                    )} AS days
             FROM (SELECT 1) one LEFT JOIN ${t.chainTotals} c ON c.id = 'chain') m
       LEFT JOIN LATERAL (SELECT * FROM ${t.txes} ORDER BY seq DESC LIMIT ${limit}) x ON true
       ${evmJoin}
       ORDER BY x.seq DESC`,
      p.values,
    );
    const first = rows[0];
    return {
      indexedHeight: metadataInt(first?.indexed),
      // no ChainTotals row before the first block: the LEFT JOIN leaves its columns null
      totals:
        first && first.tx_count !== null
          ? { tx_count: first.tx_count, latest_block_time: first.latest_block_time as string }
          : undefined,
      days: (first?.days as DayCountRow[] | null) ?? [],
      latest: rows.filter((r) => r.hash !== null),
    };
  });

  const byHash = statement('once', async (sql, hash: string): Promise<TxWithEvmRow | undefined> => {
    return sql.one<TxWithEvmRow>(withEvm(t.txes, 'WHERE x.id = $1'), [hash]);
  });

  const byEthHash = statement('once', async (sql, ethHash: string): Promise<TxWithEvmRow | undefined> => {
    return sql.one<TxWithEvmRow>(
      withEvm(`(SELECT * FROM ${t.txes} WHERE id = (SELECT tx_hash FROM ${t.evmTxes} WHERE id = $1))`),
      [ethHash],
    );
  });

  /**
   * The indexed height, the block at `height` (undefined when not stored) with its
   * block-level events (JSON text, on the first row only) and its txs in order, with
   * their EVM views: one statement.
   */
  const blockProof = proofJoin(t, 'p', '$1', (roots) => onFirstRow(roots, 'x.tx_index'));

  const blockWithTxs = statement('once', async (sql, height: bigint): Promise<BlockWithTxs> => {
    const rows = await sql.rows<BlockTxRow>(
      `SELECT ${indexedHeightSql(t)} AS indexed, ${BLOCK_COLUMNS.map((c) => `b.${c} AS blk_${c}`).join(', ')},
              ${onFirstRow('b.events', 'x.tx_index')} AS blk_events, ${blockProof.select},
              ${txSelect}, ${evmSelect}
       FROM (SELECT 1) one
       LEFT JOIN ${t.blocks} b ON b.id = $1
       ${blockProof.join}
       LEFT JOIN LATERAL (SELECT * FROM ${t.txes} WHERE height = b.height ORDER BY tx_index) x ON true
       ${evmJoin}
       ORDER BY x.tx_index`,
      [height.toString()],
    );
    const first = rows[0];
    const block: (BlockRow & { events: unknown }) | undefined =
      first && first.blk_height !== null
        ? {
            height: first.blk_height,
            hash: first.blk_hash!,
            time: first.blk_time!,
            proposer: first.blk_proposer!,
            tx_count: first.blk_tx_count!,
            event_count: first.blk_event_count!,
            events: first.blk_events,
          }
        : undefined;
    return {
      indexedHeight: metadataInt(first?.indexed),
      block,
      txs: rows.filter((r) => r.hash !== null),
      proof: proofOf(first),
    };
  });

  /**
   * The txs holding an entry of activity feed `feed` with fromSeq <= seq < toSeq (a tx's
   * entries sit in its own seq range), each once, in chain order, with their EVM views.
   */
  const ofFeedInRange = statement(
    'values',
    async (sql, feed: string, fromSeq: bigint, toSeq: bigint): Promise<TxWithEvmRow[]> => {
      return sql.rows<TxWithEvmRow>(
        withEvm(
          `(SELECT * FROM ${t.txes} WHERE id IN (SELECT tx_hash FROM ${t.activityEntries}
           WHERE feed = $1 AND seq >= $2 AND seq < $3 AND tx_hash IS NOT NULL))`,
          'ORDER BY x.seq',
        ),
        [feed, fromSeq.toString(), toSeq.toString()],
      );
    },
  );

  /** The txs whose method is `method` with fromSeq <= seq < toSeq, in chain order, with their EVM views (the (method, seq) index). */
  const ofMethodInRange = statement(
    'values',
    async (sql, method: string, fromSeq: bigint, toSeq: bigint): Promise<TxWithEvmRow[]> => {
      return sql.rows<TxWithEvmRow>(
        withEvm(
          `(SELECT * FROM ${t.txes} WHERE method = $1 AND seq >= $2 AND seq < $3 ORDER BY method, seq)`,
          'ORDER BY x.seq',
        ),
        [method, fromSeq.toString(), toSeq.toString()],
      );
    },
  );

  return { page, pageRows, pageKeys, byHashes, stats, byHash, byEthHash, blockWithTxs, ofFeedInRange, ofMethodInRange };
}

export type TxRepository = ReturnType<typeof createTxRepository>;
