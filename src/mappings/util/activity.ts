/**
 * Activity feeds: one ActivityEntry per (subject, typed event) for the subjects
 * the event's "Subjects:" rule declares, plus the Account row the first time
 * the chain records something about an account (`known` in lookups).
 */
import { Account, ActivityEntry } from '../../types';
import { load, plain, put } from './block-cache';
import type { EventCtx } from './context';
import { evmAddressOf } from './values';

function entry(ctx: EventCtx<unknown>, feed: string): ActivityEntry {
  return ActivityEntry.create({
    id: `${feed}:${ctx.height}:${ctx.txIndex}:${ctx.eventIndex}`,
    feed,
    seq: ctx.seq,
    txHash: ctx.txHash ?? undefined,
  });
}

/** Creates the Account row of an address seen for the first time. */
export async function ensureAccount(address: string, height: number): Promise<Account> {
  const found = await load(Account, address);
  if (found) return found;
  return put(
    Account,
    Account.create({
      id: address,
      evmAddress: evmAddressOf(address) ?? undefined,
      firstHeight: height,
      assetsCreated: 0,
    }),
  );
}

export async function recordActivity(ctx: EventCtx<unknown>): Promise<void> {
  const rows: ActivityEntry[] = [];
  for (const asset of ctx.assets) rows.push(entry(ctx, `asset:${asset}`));
  for (const account of ctx.accounts) {
    rows.push(entry(ctx, `account:${account}`));
    await ensureAccount(account, ctx.height);
  }
  if (rows.length) await store.bulkCreate('ActivityEntry', rows.map(plain));
}
