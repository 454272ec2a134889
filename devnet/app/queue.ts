/**
 * Expiry queues for the end-of-block sweeps: entries keyed by (time, id) so
 * the sweep reads only the due range after its cursor — no scan over every
 * settlement, encumbrance or delegation per block.
 *
 * Entries are always later than the block that adds them (expiry must be in
 * the future), so everything at or before the cursor has been swept.
 */
import type { KvWriter } from './store';
import { padNumber } from './store';

const queueParent = (name: string) => `${name}/queue/`;
const entryKey = (name: string, timeMs: number, id: number) =>
  `${queueParent(name)}${padNumber(timeMs)}.${padNumber(id, 12)}`;
const cursorKey = (name: string) => `${name}/queue_cursor`;

export function enqueue(kv: KvWriter, name: string, timeMs: number, id: number): void {
  kv.set(entryKey(name, timeMs, id), id);
}

export function dequeue(kv: KvWriter, name: string, timeMs: number, id: number): void {
  kv.delete(entryKey(name, timeMs, id));
}

/** Ids due at `nowMs` (time ≤ now) in (time, id) order; removes them and advances the cursor. */
export function takeDue(kv: KvWriter, name: string, nowMs: number): number[] {
  const cursor = kv.get<number>(cursorKey(name)) ?? -1;
  if (nowMs <= cursor) return [];
  const keys = kv.keys(queueParent(name), {
    gt: `${queueParent(name)}${padNumber(cursor)}.~`,
    lte: `${queueParent(name)}${padNumber(nowMs)}.~`,
  });
  const ids = keys.map((key) => kv.get<number>(key) as number);
  for (const key of keys) kv.delete(key);
  kv.set(cursorKey(name), nowMs);
  return ids;
}
