/**
 * svc.delegation.v1: term delegations of voting units. The units are locked
 * as delegation/<id>; voting power moves from holder to delegate while active.
 */
import { Delegation } from '../../types';
import type { EventDelegated, EventDelegationEnded } from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, subjectAccount, subjectAsset } from '../infra/context';
import { createDelegation, endDelegation, shiftVotingPower } from '../entities/delegation';
import { requireEntity } from '../entities/entity';
import { addLock, checkPositionsAfter, removeLock } from '../domain/positions';
import { str } from '../infra/values';

function lockRef(id: string): string {
  return `delegation/${id}`;
}

export async function handleDelegationDelegated(ctx: EventCtx<EventDelegated>): Promise<void> {
  const e = ctx.decoded;
  const d = createDelegation(ctx, e);
  await addLock(ctx, d.assetId, d.kindId, d.holder, lockRef(d.id), d.units);
  await shiftVotingPower(ctx, d, d.units);
  await checkPositionsAfter(ctx, e.positions_after);
  subjectAsset(ctx, d.assetId);
  subjectAccount(ctx, d.holder, d.delegate);
}

export async function handleDelegationEnded(ctx: EventCtx<EventDelegationEnded>): Promise<void> {
  const e = ctx.decoded;
  const d = await requireEntity(ctx, Delegation, 'Delegation', str(e.delegation_id));
  if (d) {
    await removeLock(ctx, d.assetId, d.kindId, d.holder, lockRef(d.id));
    await shiftVotingPower(ctx, d, -d.units);
    endDelegation(ctx, d, str(e.reason), str(e.actor) || undefined);
    subjectAsset(ctx, d.assetId);
    subjectAccount(ctx, d.holder, d.delegate);
  }
  await checkPositionsAfter(ctx, e.positions_after);
}

/** delegation: typed event type → handler. */
export const delegationHandlers: HandlerTable = {
  events: {
    'svc.delegation.v1.EventDelegated': handleDelegationDelegated,
    'svc.delegation.v1.EventDelegationEnded': handleDelegationEnded,
  },
};
