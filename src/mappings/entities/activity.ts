/** ActivityEntry rows: one per (feed, event); which feeds an event lands in is domain/activity.ts. */
import { ActivityEntry } from '../../types';
import type { EventCtx } from '../infra/context';

/** The entry of the event in hand in `feed` ("asset:<id>" or "account:<address>"), not yet stored. */
export function newActivityEntry(ctx: EventCtx<unknown>, feed: string): ActivityEntry {
  return ActivityEntry.create({
    id: `${feed}:${ctx.height}:${ctx.txIndex}:${ctx.eventIndex}`,
    feed,
    seq: ctx.seq,
    txHash: ctx.txHash ?? undefined,
  });
}
