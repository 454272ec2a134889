/**
 * svc.settlement.v1: two-party swaps. The proposer's GIVE right legs are
 * locked as settlement/<id> at proposal; on settle every right leg moves, on
 * cancel or expiry the locks end. Coin legs are recorded, not tracked.
 */
import { Settlement } from '../../types';
import type {
  EventSettlementCancelled,
  EventSettlementExpired,
  EventSettlementProposed,
  EventSettlementSettled,
  Leg as LegJson,
} from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, subjectAccount, subjectAsset } from '../infra/context';
import { requireEntity } from '../entities/entity';
import { addSettlementTimeline, closeSettlement, createSettlement, legsOf } from '../entities/settlement';
import { addLock, checkPositionsAfter, moveUnits, removeLock } from '../domain/positions';
import { big, int, str } from '../infra/values';

const GIVE = 'LEG_DIRECTION_GIVE';

function escrowRef(id: string): string {
  return `settlement/${id}`;
}

function rightLegs(legs: readonly LegJson[]): { give: boolean; assetId: string; kindId: number; units: bigint }[] {
  return legs
    .filter((l) => l.right)
    .map((l) => ({
      give: l.direction === GIVE,
      assetId: l.right!.asset_id,
      kindId: int(l.right!.kind_id),
      units: big(l.right!.units),
    }));
}

function requireSettlement(ctx: EventCtx<unknown>, id: string): Promise<Settlement | undefined> {
  return requireEntity(ctx, Settlement, 'Settlement', id);
}

function declareSubjects(ctx: EventCtx<unknown>, s: Settlement): void {
  subjectAsset(ctx, ...(s.assetIds as string[]));
  subjectAccount(ctx, s.proposer, s.counterparty);
}

/** Ends the escrow locks of the proposer's GIVE right legs (cancel, expiry, settle). */
async function releaseEscrow(ctx: EventCtx<unknown>, s: Settlement): Promise<void> {
  const done = new Set<string>();
  for (const leg of rightLegs(legsOf(s))) {
    const key = `${leg.assetId}-${leg.kindId}`;
    if (!leg.give || done.has(key)) continue; // one lock per position, whatever the number of legs
    done.add(key);
    await removeLock(ctx, leg.assetId, leg.kindId, s.proposer, escrowRef(s.id));
  }
}

export async function handleSettlementProposed(ctx: EventCtx<EventSettlementProposed>): Promise<void> {
  const e = ctx.decoded;
  const id = str(e.settlement_id);
  const legs = e.legs ?? [];
  const s = createSettlement(ctx, e, [...new Set(rightLegs(legs).map((l) => l.assetId))]);
  for (const leg of rightLegs(legs)) {
    if (leg.give) await addLock(ctx, leg.assetId, leg.kindId, e.proposer, escrowRef(id), leg.units);
  }
  addSettlementTimeline(ctx, id, 'proposed', e.proposer);
  await checkPositionsAfter(ctx, e.positions_after);
  declareSubjects(ctx, s);
}

export async function handleSettlementSettled(ctx: EventCtx<EventSettlementSettled>): Promise<void> {
  const e = ctx.decoded;
  const s = await requireSettlement(ctx, str(e.settlement_id));
  if (s) {
    await releaseEscrow(ctx, s);
    for (const leg of rightLegs(legsOf(s))) {
      const [from, to] = leg.give ? [s.proposer, s.counterparty] : [s.counterparty, s.proposer];
      await moveUnits(ctx, leg.assetId, leg.kindId, from, to, leg.units);
    }
    closeSettlement(ctx, s, 'STATUS_SETTLED');
    addSettlementTimeline(ctx, s.id, 'settled', e.accepted_by);
    declareSubjects(ctx, s);
  }
  await checkPositionsAfter(ctx, e.positions_after);
}

export async function handleSettlementCancelled(ctx: EventCtx<EventSettlementCancelled>): Promise<void> {
  const e = ctx.decoded;
  const s = await requireSettlement(ctx, str(e.settlement_id));
  if (s) {
    await releaseEscrow(ctx, s);
    closeSettlement(ctx, s, 'STATUS_CANCELLED', str(e.reason));
    addSettlementTimeline(ctx, s.id, 'cancelled', e.cancelled_by, str(e.reason));
    declareSubjects(ctx, s);
  }
  await checkPositionsAfter(ctx, e.positions_after);
}

export async function handleSettlementExpired(ctx: EventCtx<EventSettlementExpired>): Promise<void> {
  const e = ctx.decoded;
  const s = await requireSettlement(ctx, str(e.settlement_id));
  if (s) {
    await releaseEscrow(ctx, s);
    closeSettlement(ctx, s, 'STATUS_EXPIRED');
    addSettlementTimeline(ctx, s.id, 'expired');
    declareSubjects(ctx, s);
  }
  await checkPositionsAfter(ctx, e.positions_after);
}

/** settlement: typed event type → handler. */
export const settlementHandlers: HandlerTable = {
  events: {
    'svc.settlement.v1.EventSettlementProposed': handleSettlementProposed,
    'svc.settlement.v1.EventSettlementSettled': handleSettlementSettled,
    'svc.settlement.v1.EventSettlementCancelled': handleSettlementCancelled,
    'svc.settlement.v1.EventSettlementExpired': handleSettlementExpired,
  },
};
