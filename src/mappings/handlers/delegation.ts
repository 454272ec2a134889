/**
 * svc.delegation.v1: term delegations of voting units. The units are locked
 * as delegation/<id>; voting power moves from holder to delegate while active.
 */
import { Delegation, VotingPower } from '../../types';
import { load, markDirty } from '../infra/block-cache';
import type { EventDelegated, EventDelegationEnded } from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, subjectAccount, subjectAsset } from '../infra/context';
import { createDelegation, getVotingPower } from '../entities/delegation';
import { recordDrift } from '../entities/drift';
import { addLock, checkPositionsAfter, removeLock } from '../domain/positions';
import { str } from '../infra/values';

function lockRef(id: string): string {
  return `delegation/${id}`;
}

async function votingPower(
  ctx: EventCtx<unknown>,
  account: string,
  assetId: string,
  kindId: number,
): Promise<VotingPower> {
  const vp = await getVotingPower(ctx, account, assetId, kindId);
  vp.updatedHeight = ctx.height;
  markDirty(vp);
  return vp;
}

/** Moves `units` of voting power from holder to delegate (negative to move it back). */
async function shiftVotingPower(ctx: EventCtx<unknown>, d: Delegation, units: bigint): Promise<void> {
  (await votingPower(ctx, d.holder, d.assetId, d.kindId)).delegatedOut += units;
  (await votingPower(ctx, d.delegate, d.assetId, d.kindId)).delegatedIn += units;
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
  const id = str(e.delegation_id);
  const d = await load(Delegation, id);
  if (!d) {
    await recordDrift(ctx, 'Delegation', id, 'exists', true, false);
  } else {
    await removeLock(ctx, d.assetId, d.kindId, d.holder, lockRef(d.id));
    await shiftVotingPower(ctx, d, -d.units);
    d.ended = str(e.reason);
    d.endedActor = str(e.actor) || undefined;
    d.endedHeight = ctx.height;
    markDirty(d);
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
