/**
 * A stream event's place in the chain, and its `id:` (an opaque cursor, src/lib/cursor.ts).
 * Inside a height the order is: the block, then its txs by tx_index, then activity items by
 * their feed key seq (block-level items, tx_index -1, first: the feeds' own order). The order
 * is the chain's, not a connection's, so an id is valid on any stream and after a restart.
 */
import { decodeOptionalCursor, encodeCursor } from '../../src/lib/cursor';
import { InvalidInputError } from '../../src/lib/errors';

export const PART = { block: 0, tx: 1, activity: 2 } as const;
/** Past every event of a height: where a stream that has sent the whole height stands (never an id). */
const HEIGHT_END = 3;

export interface StreamPosition {
  height: number;
  part: number;
  txIndex: number;
  eventIndex: number;
}

const CURSOR_KIND = 'stream';
const SCHEMA = ['int', 'int', 'sint', 'int'] as const;

export const blockPosition = (height: number): StreamPosition => ({
  height,
  part: PART.block,
  txIndex: 0,
  eventIndex: 0,
});
export const txPosition = (height: number, txIndex: number): StreamPosition => ({
  height,
  part: PART.tx,
  txIndex,
  eventIndex: 0,
});
export const activityPosition = (height: number, txIndex: number, eventIndex: number): StreamPosition => ({
  height,
  part: PART.activity,
  txIndex,
  eventIndex,
});
/** After every event of `height`. */
export const endOfHeight = (height: number): StreamPosition => ({
  height,
  part: HEIGHT_END,
  txIndex: 0,
  eventIndex: 0,
});

/** Whether `p` stands after a whole height rather than at an event. */
export const isHeightEnd = (p: StreamPosition) => p.part === HEIGHT_END;

export function comparePositions(a: StreamPosition, b: StreamPosition): number {
  return a.height - b.height || a.part - b.part || a.txIndex - b.txIndex || a.eventIndex - b.eventIndex;
}

export const laterOf = (a: StreamPosition, b: StreamPosition) => (comparePositions(a, b) >= 0 ? a : b);

export function encodeEventId(p: StreamPosition): string {
  return encodeCursor(CURSOR_KIND, [p.height, p.part, p.txIndex, p.eventIndex]);
}

/** Whether the values are those of a position some event has (one spelling per position). */
function isEventPosition(p: StreamPosition): boolean {
  if (p.part === PART.block) return p.txIndex === 0 && p.eventIndex === 0;
  if (p.part === PART.tx) return p.txIndex >= 0 && p.eventIndex === 0;
  if (p.part === PART.activity) return p.txIndex >= -1;
  return false;
}

/** An event id from Last-Event-ID or `after`; null when absent; 400 when it is not one this stream wrote. */
export function decodeEventId(raw: string | undefined): StreamPosition | null {
  const values = decodeOptionalCursor(CURSOR_KIND, raw, SCHEMA);
  if (!values) return null;
  const [height, part, txIndex, eventIndex] = values;
  const position = { height, part, txIndex, eventIndex };
  if (!isEventPosition(position)) throw new InvalidInputError('malformed cursor');
  return position;
}
