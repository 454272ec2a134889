/**
 * Activity feeds: one ActivityEntry per (subject, typed event) for the subjects
 * the event's "Subjects:" rule declares, plus the Account row the first time
 * the chain records something about an account (`known` in lookups).
 */
import { Account, ActivityEntry } from '../../types';
import { load, plain, put } from './block-cache';
import type { EventCtx } from './context';
import { evmAddressOf } from './values';

function entry(ctx: EventCtx<unknown>, subjectKind: 'asset' | 'account', subjectId: string, decoded: string): ActivityEntry {
  const feed = `${subjectKind}:${subjectId}`;
  return ActivityEntry.create({
    id: `${feed}:${ctx.height}:${ctx.txIndex}:${ctx.eventIndex}`,
    feed,
    seq: ctx.seq,
    subjectKind,
    subjectId,
    height: ctx.height,
    txIndex: ctx.txIndex,
    eventIndex: ctx.eventIndex,
    txHash: ctx.txHash ?? undefined,
    blockTime: ctx.blockTime,
    type: ctx.type,
    mode: ctx.mode,
    decoded,
  });
}

/** Creates the Account row of an address seen for the first time. */
export async function ensureAccount(address: string, height: number): Promise<Account> {
  const found = await load(Account, address);
  if (found) return found;
  return put(
    Account,
    Account.create({ id: address, evmAddress: evmAddressOf(address) ?? undefined, firstHeight: height, assetsCreated: 0 }),
  );
}

export async function recordActivity(ctx: EventCtx<unknown>): Promise<void> {
  const rows: ActivityEntry[] = [];
  const decoded = JSON.stringify(ctx.decoded);
  for (const asset of ctx.assets) rows.push(entry(ctx, 'asset', asset, decoded));
  for (const account of ctx.accounts) {
    rows.push(entry(ctx, 'account', account, decoded));
    await ensureAccount(account, ctx.height);
  }
  if (rows.length) await store.bulkCreate('ActivityEntry', rows.map(plain));
}
