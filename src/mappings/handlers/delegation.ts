/**
 * svc.delegation.v1: term delegations of voting units. The units are locked
 * as delegation/<id>; voting power moves from holder to delegate while active.
 */
import { Delegation, VotingPower } from '../../types';
import { load, markDirty, put } from '../infra/block-cache';
import type { EventDelegated, EventDelegationEnded } from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, subjectAccount, subjectAsset } from '../infra/context';
import { recordDrift } from '../domain/drift';
import { addLock, checkPositionsAfter, removeLock } from '../domain/positions';
import { big, date, int, str } from '../infra/values';

function lockRef(id: string): string {
  return `delegation/${id}`;
}

async function votingPower(
  ctx: EventCtx<unknown>,
  account: string,
  assetId: string,
  kindId: number,
): Promise<VotingPower> {
  const id = `${account}|${assetId}|${kindId}`;
  const vp =
    (await load(VotingPower, id)) ??
    put(
      VotingPower,
      VotingPower.create({
        id,
        account,
        assetId,
        kindId,
        delegatedOut: 0n,
        delegatedIn: 0n,
        updatedHeight: ctx.height,
      }),
    );
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
  const d = put(
    Delegation,
    Delegation.create({
      id: str(e.delegation_id),
      holder: e.holder,
      delegate: e.delegate,
      assetId: e.asset_id,
      kindId: int(e.kind_id),
      units: big(e.units),
      until: date(e.until) ?? new Date(0),
      purposes: e.purposes ?? [],
      revocable: Boolean(e.revocable),
      ended: '',
      createdHeight: ctx.height,
      createdTxHash: str(ctx.txHash),
    }),
  );
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
