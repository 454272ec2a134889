/**
 * /v1/txs paging (openapi.yaml listTxs, design choice `orderings`): newest first on (height, tx_index);
 * `next_cursor` older, `prev_cursor` newer, `last_cursor` the oldest page holding
 * total mod limit txs (a full page when exact), null when everything fits one page.
 *
 * A txs cursor is a direction and an exclusive boundary key: `older` = the `limit`
 * txs just below the key, `newer` = the `limit` txs just above it. Pages are anchored
 * at the newest tx, so walking `next` ends on a page of total mod limit txs; `last`
 * is an `older` cursor whose boundary is the (r+1)-th oldest tx (r = that page size),
 * found with a short index scan from the oldest end (OFFSET r < limit <= 100).
 */
import { InvalidInputError } from '../../src/lib/errors';
import { CURSORS, readCursor, writeCursor } from './cursors';
import { txSeq } from './seq';

export type TxDirection = 'older' | 'newer';

export interface TxKey {
  height: number;
  txIndex: number;
}

export interface TxPosition {
  direction: TxDirection;
  key: TxKey;
}

/**
 * One page read, in one statement (one snapshot): `limit` + 1 rows beyond the bound, so
 * the page knows whether more follow in its direction.
 */
export interface TxPageRequest {
  direction: TxDirection;
  /** exclusive seq bound; null = from the newest tx (direction older) */
  bound: bigint | null;
  limit: number;
}

/** What the store returns for a TxPageRequest (rows carry their key). */
export interface TxPageRead<R extends TxKey> {
  /** up to limit + 1 rows beyond the bound: newest first for `older`, oldest first for `newer` */
  rows: R[];
  /**
   * whether a row lies on the other side of the bound (seq >= bound for `older`, seq <= bound
   * for `newer`; false without a bound). The page holds the rows nearest the bound, so this
   * is "a row exists past the page's near end", which is what prev/next need.
   */
  beyondBound: boolean;
  /** key of the row at 0-based position lastPageSize(total, limit) from the oldest; null when total <= limit */
  lastBoundary: TxKey | null;
}

export interface TxPageResult<R> {
  /** newest first */
  rows: R[];
  nextCursor: string | null;
  prevCursor: string | null;
  lastCursor: string | null;
}

const DIRECTIONS: Record<string, TxDirection> = { o: 'older', n: 'newer' };

export function encodeTxCursor(position: TxPosition): string {
  return writeCursor(CURSORS.txs, [
    position.direction === 'older' ? 'o' : 'n',
    position.key.height,
    position.key.txIndex,
  ]);
}

export function decodeTxCursor(raw: string | undefined): TxPosition | null {
  const values = readCursor(CURSORS.txs, raw);
  if (!values) return null;
  const [dir, height, txIndex] = values;
  const direction = DIRECTIONS[dir];
  if (!direction) throw new InvalidInputError('malformed cursor');
  return { direction, key: { height, txIndex } };
}

function keyOf(row: TxKey): TxKey {
  return { height: row.height, txIndex: row.txIndex };
}

function seqOfKey(k: TxKey): bigint {
  return txSeq(k.height, k.txIndex);
}

/** Size of the oldest page: total mod limit, or a full page when the division is exact. */
export function lastPageSize(total: number, limit: number): number {
  return total % limit || limit;
}

/** The read a position asks for (null = the newest page). */
export function txPageRequest(position: TxPosition | null, limit: number): TxPageRequest {
  if (!position) return { direction: 'older', bound: null, limit };
  return { direction: position.direction, bound: seqOfKey(position.key), limit };
}

/** The page and its three cursors from the read of `request`. */
export function txPageOf<R extends TxKey>(request: TxPageRequest, read: TxPageRead<R>): TxPageResult<R> {
  const { limit } = request;
  const more = read.rows.length > limit;
  const inDirection = read.rows.slice(0, limit);
  const rows = request.direction === 'older' ? inDirection : inDirection.reverse();
  const newest = rows[0];
  const oldest = rows[rows.length - 1];
  const olderFollow = request.direction === 'older' ? more : oldest !== undefined && read.beyondBound;
  const newerFollow =
    request.direction === 'newer' ? more : newest !== undefined && request.bound !== null && read.beyondBound;
  return {
    rows,
    nextCursor: olderFollow ? encodeTxCursor({ direction: 'older', key: keyOf(oldest) }) : null,
    prevCursor: newerFollow ? encodeTxCursor({ direction: 'newer', key: keyOf(newest) }) : null,
    lastCursor: read.lastBoundary ? encodeTxCursor({ direction: 'older', key: read.lastBoundary }) : null,
  };
}
