/**
 * The cursor of each paged list: its kind (so a cursor of one list is refused by
 * another) and the element types of its keyset (src/lib/cursor.ts validates them).
 */
import { CursorFieldType, CursorValues, decodeOptionalCursor, encodeCursor } from '../../src/lib/cursor';

export interface CursorSpec<S extends readonly CursorFieldType[]> {
  kind: string;
  schema: S;
}

function spec<const S extends readonly CursorFieldType[]>(kind: string, schema: S): CursorSpec<S> {
  return { kind, schema };
}

export const CURSORS = {
  blocks: spec('blocks', ['int']), // height
  txs: spec('txs', ['string', 'int', 'int']), // direction, height, tx_index
  assets: spec('assets', ['hex64']), // id
  holders: spec('holders', ['amount', 'string']), // units, holder
  distributions: spec('distributions', ['int', 'sint', 'int']), // height, tx_index, event_index
  assetEvents: spec('asset_events', ['int', 'sint', 'int']),
  accountEvents: spec('account_events', ['int', 'sint', 'int']),
  settlements: spec('settlements', ['amount']), // id
  bridgeTransfers: spec('bridge_transfers', ['amount']), // seq (rejected attempts have no event index)
} as const;

/** Decodes the request's cursor for `list`; null for the first page; 400 when malformed. */
export function readCursor<S extends readonly CursorFieldType[]>(
  list: CursorSpec<S>,
  raw: string | undefined,
): CursorValues<S> | null {
  return decodeOptionalCursor(list.kind, raw, list.schema);
}

export function writeCursor<S extends readonly CursorFieldType[]>(
  list: CursorSpec<S>,
  values: CursorValues<S>,
): string {
  return encodeCursor(list.kind, values as readonly (string | number | bigint)[]);
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Keyset page from `limit + 1` fetched rows: the extra row only says a further page
 * exists; the cursor is the keyset of the page's last row.
 */
export function keysetPage<R>(rows: readonly R[], limit: number, cursorOf: (last: R) => string): Page<R> {
  const items = rows.slice(0, limit);
  const nextCursor = rows.length > limit && items.length > 0 ? cursorOf(items[items.length - 1]) : null;
  return { items, nextCursor };
}
