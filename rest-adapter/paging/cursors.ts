/**
 * The cursor of each paged list: its kind (so a cursor of one list is refused by
 * another) and the element types of its keyset (src/lib/cursor.ts validates them).
 */
import { CursorFieldType, CursorValues, decodeOptionalCursor, encodeCursor } from '../../src/lib/cursor';
import { InvalidInputError } from '../../src/lib/errors';

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

/**
 * The cursor of `list` for an answer at `height` (null: the head). A cursor carries the height it
 * was issued at as one more value (the head's cursors are unchanged), so that a page is never
 * continued at another height: such a cursor is a 400 that says which height it belongs to.
 */
export function readCursorAt<S extends readonly CursorFieldType[]>(
  list: CursorSpec<S>,
  raw: string | undefined,
  height: number | null,
): CursorValues<S> | null {
  const atHeight = [...list.schema, 'int'] as const;
  const issuedAt = (): number | null => {
    try {
      const v = decodeOptionalCursor(list.kind, raw, atHeight);
      return v === null ? null : (v[v.length - 1] as number);
    } catch {
      return null;
    }
  };
  if (height === null) {
    try {
      return readCursor(list, raw);
    } catch (e) {
      const at = issuedAt();
      if (at === null) throw e;
      throw new InvalidInputError(`cursor was issued at height ${at}; repeat the request with height=${at}`);
    }
  }
  let values: unknown[] | null;
  try {
    values = decodeOptionalCursor(list.kind, raw, atHeight);
  } catch (e) {
    let head = false;
    try {
      head = readCursor(list, raw) !== null;
    } catch {
      // malformed either way
    }
    if (head) throw new InvalidInputError('cursor was issued without height; repeat the request without height');
    throw e;
  }
  if (values === null) return null;
  const at = values[values.length - 1] as number;
  if (at !== height)
    throw new InvalidInputError(`cursor was issued at height ${at}; repeat the request with height=${at}`);
  return values.slice(0, -1) as CursorValues<S>;
}

/** `writeCursor`, bound to `height` when the answer is at one (null: the head, unchanged). */
export function writeCursorAt<S extends readonly CursorFieldType[]>(
  list: CursorSpec<S>,
  values: CursorValues<S>,
  height: number | null,
): string {
  const v = values as readonly (string | number | bigint)[];
  return encodeCursor(list.kind, height === null ? v : [...v, height]);
}
