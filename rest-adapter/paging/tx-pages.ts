/**
 * /v1/txs paging (SPEC parameter rule 3): newest first on (height, tx_index);
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

/** Access to the (possibly method-filtered) tx ordering; rows carry their key. */
export interface TxOrder<R extends TxKey> {
  /** up to n rows with seq below `below` (all when null), newest first */
  olderThan(below: bigint | null, n: number): Promise<R[]>;
  /** up to n rows with seq above `above`, oldest first */
  newerThan(above: bigint, n: number): Promise<R[]>;
  existsBelow(seq: bigint): Promise<boolean>;
  existsAbove(seq: bigint): Promise<boolean>;
  /** key of the row at 0-based position `offset` from the oldest; null when there are fewer rows */
  keyFromOldest(offset: number): Promise<TxKey | null>;
}

export interface TxPageResult<R> {
  rows: R[];
  nextCursor: string | null;
  prevCursor: string | null;
  lastCursor: string | null;
}

const DIRECTIONS: Record<string, TxDirection> = { o: 'older', n: 'newer' };

export function encodeTxCursor(position: TxPosition): string {
  return writeCursor(CURSORS.txs, [position.direction === 'older' ? 'o' : 'n', position.key.height, position.key.txIndex]);
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

async function lastCursor<R extends TxKey>(order: TxOrder<R>, total: number, limit: number): Promise<string | null> {
  if (total <= limit) return null;
  const boundary = await order.keyFromOldest(lastPageSize(total, limit));
  return boundary ? encodeTxCursor({ direction: 'older', key: boundary }) : null;
}

async function olderPage<R extends TxKey>(order: TxOrder<R>, below: bigint | null, limit: number) {
  const fetched = await order.olderThan(below, limit + 1);
  const rows = fetched.slice(0, limit);
  const newest = rows[0];
  const oldest = rows[rows.length - 1];
  const nextCursor = fetched.length > limit ? encodeTxCursor({ direction: 'older', key: keyOf(oldest) }) : null;
  const hasNewer = below !== null && newest !== undefined && (await order.existsAbove(seqOfKey(newest)));
  const prevCursor = hasNewer ? encodeTxCursor({ direction: 'newer', key: keyOf(newest) }) : null;
  return { rows, nextCursor, prevCursor };
}

async function newerPage<R extends TxKey>(order: TxOrder<R>, above: bigint, limit: number) {
  const fetched = await order.newerThan(above, limit + 1);
  const rows = fetched.slice(0, limit).reverse();
  const newest = rows[0];
  const oldest = rows[rows.length - 1];
  const prevCursor = fetched.length > limit ? encodeTxCursor({ direction: 'newer', key: keyOf(newest) }) : null;
  const hasOlder = oldest !== undefined && (await order.existsBelow(seqOfKey(oldest)));
  const nextCursor = hasOlder ? encodeTxCursor({ direction: 'older', key: keyOf(oldest) }) : null;
  return { rows, nextCursor, prevCursor };
}

/** One page of txs for `position` (null = the newest page) with its three cursors. */
export async function txPage<R extends TxKey>(order: TxOrder<R>, position: TxPosition | null, limit: number, total: number): Promise<TxPageResult<R>> {
  const page =
    position?.direction === 'newer'
      ? await newerPage(order, seqOfKey(position.key), limit)
      : await olderPage(order, position ? seqOfKey(position.key) : null, limit);
  return { ...page, lastCursor: await lastCursor(order, total, limit) };
}
