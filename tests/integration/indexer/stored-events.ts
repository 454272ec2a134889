/**
 * Every event of an indexed store as one row, the way the API reads them: the raw events
 * stored with their tx (`txes.events`) and block (`blocks.events`) as JSON text, with the
 * fields the read side derives (rest-adapter/presenters/event.ts: decoded, msg_index,
 * mode, applied). Ids are `<height>-<tx_index>-<event_index>` (tx_index -1 for
 * block-level events), the key the chain record is compared by.
 */
import { BLOCK_LEVEL, presentEvents, txOrigin, type ApiEvent } from '../../../rest-adapter/presenters/event';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows are checked by value
type Row = Record<string, any>;
type Sql = (text: string, params?: unknown[]) => Promise<Row[]>;

export interface StoredEvent extends Omit<ApiEvent, 'mode'> {
  id: string;
  tx_hash: string | null;
  height: number;
  tx_index: number;
  /** null on tx events (the API leaves the field out) */
  mode: string | null;
  /** code of the tx (0 for block-level events) */
  code: number;
}

function rowsOf(height: number, txIndex: number, txHash: string | null, code: number, events: ApiEvent[]): StoredEvent[] {
  return events.map((e) => ({ ...e, id: `${height}-${txIndex}-${e.event_index}`, tx_hash: txHash, height, tx_index: txIndex, mode: e.mode ?? null, code }));
}

/** Every stored event: each tx's in (height, tx_index, event_index) order, then each block's block-level events. */
export async function storedEvents(sql: Sql, schema = 'svc'): Promise<StoredEvent[]> {
  const [txs, blocks] = await Promise.all([
    sql(`SELECT hash, height, tx_index, code, events FROM ${schema}.txes ORDER BY height, tx_index`),
    sql(`SELECT height, events FROM ${schema}.blocks ORDER BY height`),
  ]);
  return [
    ...txs.flatMap((t) => rowsOf(t.height, t.tx_index, t.hash, t.code, presentEvents(t.events, txOrigin(t.code)))),
    ...blocks.flatMap((b) => rowsOf(b.height, -1, null, 0, presentEvents(b.events, BLOCK_LEVEL))),
  ];
}
