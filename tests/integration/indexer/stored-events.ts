/**
 * Every event of an indexed store as one row, the way the API reads them: the raw events
 * stored with their tx (`txes.events`) and block (`blocks.events`) as JSON text, with the
 * fields the read side derives (rest-adapter/presenters/events.ts: decoded, msg_index,
 * mode, applied). Ids are `<height>-<tx_index>-<event_index>` (tx_index -1 for
 * block-level events), the key the chain record is compared by.
 */
import { BLOCK_LEVEL, presentEvents, txOrigin, type ApiEvent } from '../../../rest-adapter/presenters/events';

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

function rowsOf(
  height: number,
  txIndex: number,
  txHash: string | null,
  code: number,
  events: ApiEvent[],
): StoredEvent[] {
  return events.map((e) => ({
    ...e,
    id: `${height}-${txIndex}-${e.event_index}`,
    tx_hash: txHash,
    height,
    tx_index: txIndex,
    mode: e.mode ?? null,
    code,
  }));
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

/** An ActivityEntry row (id, feed, seq, tx_hash) with the fields the API derives for it (activityRepository). */
export interface StoredActivity {
  id: string;
  feed: string;
  seq: string;
  tx_hash: string | null;
  /** from seq: height * 10^10 + (tx_index + 1) * 10^5 + (event_index + 1) */
  height: number;
  tx_index: number;
  event_index: number;
  /** the block's time, Unix ms as text; null when the block is not stored */
  time_ms: string | null;
  /** from the raw event at event_index of the tx (tx_hash) or the block (block-level); null when not found */
  type: string | null;
  mode: string | null;
  decoded: Record<string, unknown> | null;
  /** why the event was not found (null when it was) */
  problem: string | null;
}

/** Position of a seq (numeric text) as the read side derives it. */
export function positionOfSeq(seq: string): { height: number; tx_index: number; event_index: number } {
  const s = BigInt(seq);
  return {
    height: Number(s / 10_000_000_000n),
    tx_index: Number((s / 100_000n) % 100_000n) - 1,
    event_index: Number(s % 100_000n) - 1,
  };
}

/**
 * Every activity entry read the way the API reads it: position from seq, the time from the
 * block, the event from the tx named by tx_hash (which must sit at that position) or, for
 * block-level entries, from the block's events.
 */
export async function storedActivity(sql: Sql, schema = 'svc'): Promise<StoredActivity[]> {
  // one after the other: `sql` may be a single client
  const entries = await sql(`SELECT id, feed, seq::text AS seq, tx_hash FROM ${schema}.activity_entries`);
  const txs = await sql(`SELECT hash, height, tx_index, code, events FROM ${schema}.txes`);
  const blocks = await sql(
    `SELECT id, floor(extract(epoch from time) * 1000)::bigint::text AS time_ms, events FROM ${schema}.blocks`,
  );
  const txByHash = new Map(txs.map((t) => [t.hash as string, t]));
  const blockById = new Map(blocks.map((b) => [b.id as string, b]));
  const parsed = new Map<Row, ApiEvent[]>();
  const eventsOf = (row: Row, origin: Parameters<typeof presentEvents>[1]) => {
    let events = parsed.get(row);
    if (!events) parsed.set(row, (events = presentEvents(row.events, origin)));
    return events;
  };
  return entries.map((a) => {
    const pos = positionOfSeq(a.seq);
    const block = blockById.get(String(pos.height));
    let event: ApiEvent | undefined;
    let problem: string | null = null;
    if (a.tx_hash === null) {
      if (pos.tx_index !== -1) problem = `no tx_hash but tx_index ${pos.tx_index}`;
      else if (!block) problem = `block ${pos.height} not stored`;
      else event = eventsOf(block, BLOCK_LEVEL)[pos.event_index];
    } else {
      const tx = txByHash.get(a.tx_hash);
      if (!tx) problem = `tx ${a.tx_hash} not stored`;
      else if (tx.height !== pos.height || tx.tx_index !== pos.tx_index)
        problem = `tx ${a.tx_hash} is at ${tx.height}/${tx.tx_index}, seq says ${pos.height}/${pos.tx_index}`;
      else event = eventsOf(tx, txOrigin(tx.code))[pos.event_index];
    }
    if (!problem && !event) problem = `no event at index ${pos.event_index}`;
    return {
      id: a.id,
      feed: a.feed,
      seq: a.seq,
      tx_hash: a.tx_hash,
      ...pos,
      time_ms: block ? block.time_ms : null,
      type: event ? event.type : null,
      mode: event?.mode ?? null,
      decoded: event ? event.decoded : null,
      problem,
    };
  });
}
