/**
 * Stream events and their Server-Sent Events framing. The data of each kind is the object
 * the list endpoints answer, made by their presenters (one contract): `block` is a Block
 * (/v1/blocks), `tx` a Tx (/v1/txs/{hash}), `activity` an ActivityEvent (the account and
 * asset feeds). The final `close` event carries `{error, code}` (openapi StreamClose).
 */
import { toJson } from '../json';
import type { ApiSchema } from '../presenters/contract';
import type { ApiTx } from '../presenters/txs';
import { encodeEventId, type StreamPosition } from './position';

export type StreamEvent =
  | { kind: 'block'; position: StreamPosition; data: ApiSchema<'Block'> }
  | { kind: 'tx'; position: StreamPosition; data: ApiTx }
  | { kind: 'activity'; position: StreamPosition; data: ApiSchema<'ActivityEvent'> };

/** Why the server ended a stream (the `code` of the `close` event). */
export type StreamCloseCode = 'slow_client' | 'shutting_down' | 'resync' | 'unavailable';

/** Frames already written: one event goes to every connection of its filter, serialised once. */
const framed = new WeakMap<StreamEvent, string>();

/** One event as SSE text: id, event name, data on one line (JSON has no raw newline). */
export function frameEvent(event: StreamEvent): string {
  let text = framed.get(event);
  if (text === undefined) {
    text = `id: ${encodeEventId(event.position)}\nevent: ${event.kind}\ndata: ${toJson(event.data)}\n\n`;
    framed.set(event, text);
  }
  return text;
}

/** The opening lines: the reconnect delay hint, and a comment so the client sees the stream start at once. */
export function frameOpening(retryMs: number): string {
  return `retry: ${retryMs}\n: stream open\n\n`;
}

export const HEARTBEAT_FRAME = ': heartbeat\n\n';

/** The last event of a stream the server ends: no id (the client's Last-Event-ID stays its last event). */
export function frameClose(code: StreamCloseCode, message: string): string {
  return `event: close\ndata: ${JSON.stringify({ error: message, code })}\n\n`;
}
