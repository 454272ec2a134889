/**
 * Activity feeds: one ActivityEntry per (subject, typed event) for the subjects
 * the event's "Subjects:" rule declares (proto/), and the Account row the first
 * time the chain records something about an account.
 */
import { ActivityEntry } from '../../types';
import { ensureAccount } from '../entities/accounts';
import { append } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';

function entry(ctx: EventCtx<unknown>, feed: string): ActivityEntry {
  return ActivityEntry.create({
    id: `${feed}:${ctx.height}:${ctx.txIndex}:${ctx.eventIndex}`,
    feed,
    seq: ctx.seq,
    txHash: ctx.txHash ?? undefined,
  });
}

/** Records the activity of a handled event: written with the rest of the block. */
export async function recordActivity(ctx: EventCtx<unknown>): Promise<void> {
  for (const asset of ctx.assets) append(entry(ctx, `asset:${asset}`));
  for (const account of ctx.accounts) {
    append(entry(ctx, `account:${account}`));
    await ensureAccount(account, ctx.height);
  }
}
