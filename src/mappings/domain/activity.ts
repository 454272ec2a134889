/**
 * Activity feeds: one ActivityEntry per (subject, typed event) for the subjects
 * the event's "Subjects:" rule declares (proto/), and the Account row the first
 * time the chain records something about an account: a subject of a typed event,
 * or a party of any event (bank transfers, fees, the signer of a failed tx).
 */
import { decodeBech32Address } from '../../lib/address';
import { ensureAccount } from '../entities/accounts';
import { newActivityEntry } from '../entities/activity';
import { append } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';
import type { RawEvent } from '../infra/host';
import { HRP } from '../infra/values';

/** Records the activity of a handled event: written with the rest of the block. */
export async function recordActivity(ctx: EventCtx<unknown>): Promise<void> {
  for (const asset of ctx.assets) append(newActivityEntry(ctx, `asset:${asset}`));
  for (const account of ctx.accounts) {
    append(newActivityEntry(ctx, `account:${account}`));
    await ensureAccount(account, ctx.height);
  }
}

/**
 * Attributes of the SDK's own events that name an account: `message.sender`, bank's
 * `transfer` sender/recipient, `coin_spent` spender, `coin_received` receiver, `coinbase`
 * minter, `burn` burner, and the ante's `tx` fee_payer / acc_seq ("<address>/<sequence>").
 */
const PARTY_KEYS = new Set(['sender', 'recipient', 'spender', 'receiver', 'minter', 'burner', 'fee_payer', 'acc_seq']);

function accountIn(key: string, value: string): string | null {
  const candidate = key === 'acc_seq' ? value.slice(0, value.lastIndexOf('/')) : value;
  if (!candidate.startsWith(`${HRP}1`)) return null;
  try {
    decodeBech32Address(candidate, HRP);
    return candidate;
  } catch {
    return null;
  }
}

/** The Account row of every account a block's raw events name as a party (lookup `known`). */
export async function recordParties(height: number, events: readonly RawEvent[]): Promise<void> {
  for (const event of events) {
    for (const { key, value } of event.attributes) {
      if (!PARTY_KEYS.has(key)) continue;
      const account = accountIn(key, value);
      if (account) await ensureAccount(account, height);
    }
  }
}
