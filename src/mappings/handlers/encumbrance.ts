/**
 * svc.encumbrance.v1: pledges, liens and lockups. Units are locked as
 * encumbrance/<id> while active; a pledge with income_to_beneficiary routes
 * their income to the beneficiary until it ends.
 */
import { Encumbrance } from '../../types';
import type {
  EventEncumbranceCreated,
  EventEncumbranceExercised,
  EventEncumbranceExpired,
  EventEncumbranceReleased,
} from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, subjectAccount, subjectAsset } from '../infra/context';
import { requireEntity } from '../entities/entity';
import { addEncumbranceTimeline, createEncumbrance, resolveEncumbrance } from '../entities/encumbrance';
import { isIncomeRoute, startRouting, stopRouting } from '../domain/income';
import { addLock, checkPositionsAfter, moveUnits, removeLock } from '../domain/positions';
import { getKind } from '../entities/holdings';
import { big, enumShort, str } from '../infra/values';

function lockRef(id: string): string {
  return `encumbrance/${id}`;
}

function role(v: unknown): string {
  return enumShort(v, 'ACTOR_ROLE_');
}

function requireEncumbrance(ctx: EventCtx<unknown>, id: string): Promise<Encumbrance | undefined> {
  return requireEntity(ctx, Encumbrance, 'Encumbrance', id);
}

/** Ends an active encumbrance: lock removed, income routing stopped, status set. */
async function resolve(ctx: EventCtx<unknown>, enc: Encumbrance, status: string): Promise<void> {
  await removeLock(ctx, enc.assetId, enc.kindId, enc.holder, lockRef(enc.id));
  if (isIncomeRoute(enc)) {
    const kind = await getKind(enc.assetId, enc.kindId);
    if (kind) await stopRouting(ctx, kind, enc);
  }
  resolveEncumbrance(ctx, enc, status);
}

function declareSubjects(ctx: EventCtx<unknown>, enc: Encumbrance, actor?: string): void {
  subjectAsset(ctx, enc.assetId);
  subjectAccount(ctx, enc.holder, enc.beneficiary, actor);
}

export async function handleEncumbranceCreated(ctx: EventCtx<EventEncumbranceCreated>): Promise<void> {
  const e = ctx.decoded;
  const enc = createEncumbrance(ctx, e);
  await addLock(ctx, enc.assetId, enc.kindId, enc.holder, lockRef(enc.id), enc.units);
  if (isIncomeRoute(enc)) {
    const kind = await getKind(enc.assetId, enc.kindId);
    if (kind) await startRouting(ctx, kind, enc);
  }
  addEncumbranceTimeline(ctx, enc, 'created', e.actor, role(e.actor_role));
  await checkPositionsAfter(ctx, e.positions_after);
  declareSubjects(ctx, enc, e.actor);
}

export async function handleEncumbranceReleased(ctx: EventCtx<EventEncumbranceReleased>): Promise<void> {
  const e = ctx.decoded;
  const enc = await requireEncumbrance(ctx, str(e.encumbrance_id));
  if (enc) {
    await resolve(ctx, enc, 'released');
    addEncumbranceTimeline(ctx, enc, 'released', e.actor, role(e.actor_role));
    declareSubjects(ctx, enc, e.actor);
  }
  await checkPositionsAfter(ctx, e.positions_after);
}

export async function handleEncumbranceExercised(ctx: EventCtx<EventEncumbranceExercised>): Promise<void> {
  const e = ctx.decoded;
  const enc = await requireEncumbrance(ctx, str(e.encumbrance_id));
  if (enc) {
    await resolve(ctx, enc, 'exercised');
    const beneficiary = str(e.beneficiary) || enc.beneficiary;
    await moveUnits(ctx, enc.assetId, enc.kindId, enc.holder, beneficiary, big(e.units || enc.units.toString()));
    addEncumbranceTimeline(ctx, enc, 'exercised', e.actor, role(e.actor_role));
    declareSubjects(ctx, enc, e.actor);
  }
  await checkPositionsAfter(ctx, e.positions_after);
}

export async function handleEncumbranceExpired(ctx: EventCtx<EventEncumbranceExpired>): Promise<void> {
  const e = ctx.decoded;
  const enc = await requireEncumbrance(ctx, str(e.encumbrance_id));
  if (enc) {
    await resolve(ctx, enc, 'expired');
    addEncumbranceTimeline(ctx, enc, 'expired', null, 'protocol');
    declareSubjects(ctx, enc);
  }
  await checkPositionsAfter(ctx, e.positions_after);
}

/** encumbrance: typed event type → handler. */
export const encumbranceHandlers: HandlerTable = {
  events: {
    'svc.encumbrance.v1.EventEncumbranceCreated': handleEncumbranceCreated,
    'svc.encumbrance.v1.EventEncumbranceReleased': handleEncumbranceReleased,
    'svc.encumbrance.v1.EventEncumbranceExercised': handleEncumbranceExercised,
    'svc.encumbrance.v1.EventEncumbranceExpired': handleEncumbranceExpired,
  },
};
