/**
 * Positions (Holding rows) and the kind counters they drive: units, locks,
 * holder counts, supply. Every change of units settles the holder's income
 * first (payout index scheme), so accruals stay exact.
 */
import type { Kind } from '../../types';
import type { PositionAfter } from '../generated/proto-json';
import { ensureAccount } from '../entities/accounts';
import { addLockUnits, getHolding, removeLockUnits, requireKind } from '../entities/holdings';
import type { EventCtx } from '../infra/context';
import { expectEqual, recordDrift } from '../entities/drift';
import { update } from '../entities/entity';
import { settlePosition, syncOwnUnits } from './income';
import { int } from '../infra/values';

/** Adds `delta` (may be negative) to a holder's units: income settled first, holder count kept. */
export async function changeUnits(
  ctx: EventCtx<unknown>,
  assetId: string,
  kindId: number,
  holder: string,
  delta: bigint,
): Promise<void> {
  if (delta === 0n || !holder) return;
  const kind = await requireKind(ctx, assetId, kindId);
  const h = await getHolding(assetId, kindId, holder, ctx.height);
  if (kind) await settlePosition(ctx, kind, h);
  const before = h.units;
  update(ctx, h, { units: before + delta });
  if (!kind) return;
  const holderDelta = (before <= 0n && h.units > 0n ? 1 : 0) - (before > 0n && h.units <= 0n ? 1 : 0);
  if (holderDelta > 0) await ensureAccount(holder, ctx.height); // every holder is a known account (pools and escrows too)
  if (holderDelta !== 0) {
    // the kind row changes only when its holder count does (most moves leave it as it is: no write)
    update(ctx, kind, { holderCount: kind.holderCount + holderDelta });
  }
  await syncOwnUnits(ctx, kind, h);
}

/** Moves units between two holders of one kind. */
export async function moveUnits(
  ctx: EventCtx<unknown>,
  assetId: string,
  kindId: number,
  from: string,
  to: string,
  units: bigint,
): Promise<void> {
  await changeUnits(ctx, assetId, kindId, from, -units);
  await changeUnits(ctx, assetId, kindId, to, units);
}

/** Adds `delta` to a kind's supply. */
export function changeSupply(ctx: EventCtx<unknown>, kind: Kind, delta: bigint): void {
  update(ctx, kind, { supply: kind.supply + delta });
}

/** Adds a lock (or adds to the lock with the same ref). */
export async function addLock(
  ctx: EventCtx<unknown>,
  assetId: string,
  kindId: number,
  holder: string,
  ref: string,
  units: bigint,
): Promise<void> {
  addLockUnits(ctx, await getHolding(assetId, kindId, holder, ctx.height), ref, units);
}

/** Removes the lock `ref`; records a drift when the position has no such lock. Returns the units it held. */
export async function removeLock(
  ctx: EventCtx<unknown>,
  assetId: string,
  kindId: number,
  holder: string,
  ref: string,
): Promise<bigint> {
  const h = await getHolding(assetId, kindId, holder, ctx.height);
  const units = removeLockUnits(ctx, h, ref);
  if (units === undefined) {
    await recordDrift(ctx, 'Holding', h.id, `locks[${ref}]`, 'present', 'absent');
    return 0n;
  }
  return units;
}

/** Compares every PositionAfter of an event with the derived position. */
export async function checkPositionsAfter(
  ctx: EventCtx<unknown>,
  positions: readonly PositionAfter[] | undefined,
): Promise<void> {
  for (const p of positions ?? []) {
    const h = await getHolding(p.asset_id, int(p.kind_id), p.holder, ctx.height);
    await expectEqual(ctx, 'Holding', h.id, 'units', p.units, h.units);
    await expectEqual(ctx, 'Holding', h.id, 'locked', p.locked, h.locked);
  }
}
