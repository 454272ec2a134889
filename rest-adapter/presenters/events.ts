/**
 * openapi `Event` objects from the raw events the indexer stores with their tx or block
 * (`txes.events`, `blocks.events`: JSON text, [{type, attributes: [{key, value}]}] in chain
 * order, see schema.graphql). The derived fields are computed here, as the indexer did
 * when it stored one row per event: event_index = position, decoded = the typed svc event
 * (null otherwise), msg_index from the `msg_index` attribute, mode (block-level events
 * only) from the `mode` attribute, applied = a typed event of a successful tx, or any
 * block-level event.
 */
import { decodeTypedEvent, type EventAttribute } from '../../src/lib/typed-event';
import type { RawEvent } from '../db/raw-event';
import { jsonValue } from './values';
import type { ApiSchema } from './contract';

/** openapi `Event`. */
export type ApiEvent = ApiSchema<'Event'>;

/** Where events come from: a tx (with its result code) or the block itself (finalize_block_events). */
export type EventOrigin = { kind: 'tx'; code: number } | { kind: 'block' };

export const BLOCK_LEVEL: EventOrigin = Object.freeze({ kind: 'block' });

export function txOrigin(code: number): EventOrigin {
  return { kind: 'tx', code };
}

function attributeValue(attributes: readonly EventAttribute[], key: string): string | undefined {
  return attributes.find((a) => a.key === key)?.value;
}

/** The API view of the raw event at position `eventIndex` of a tx's or a block's event list. */
export function deriveEvent(raw: RawEvent, eventIndex: number, origin: EventOrigin): ApiEvent {
  const type = String(raw.type);
  const attributes = (raw.attributes ?? []).map((a) => ({ key: String(a.key), value: String(a.value) }));
  const decoded = decodeTypedEvent(type, attributes);
  const msgIndex = attributeValue(attributes, 'msg_index');
  const blockLevel = origin.kind === 'block';
  const mode = blockLevel ? attributeValue(attributes, 'mode') : undefined;
  return {
    event_index: eventIndex,
    type,
    msg_index: msgIndex === undefined ? null : Number(msgIndex),
    ...(mode ? { mode } : {}), // block-level events only
    attributes,
    decoded,
    applied: blockLevel || (decoded !== null && origin.code === 0),
  };
}

/** Every event of a stored `events` column (JSON text, or parsed when the column is jsonb), in chain order. */
export function presentEvents(stored: unknown, origin: EventOrigin): ApiEvent[] {
  return jsonValue<RawEvent[]>(stored).map((e, i) => deriveEvent(e, i, origin));
}
