/** Delegation rows, how one ends, and the per-(account, asset, kind) voting power they move. */
import { Delegation, VotingPower } from '../../types';
import type { EventDelegated } from '../generated/proto-json';
import { load, put } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';
import { big, date, int, str } from '../infra/values';
import { change, touch } from './entity';

export function createDelegation(ctx: EventCtx<unknown>, e: EventDelegated): Delegation {
  return put(
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
}

/** The account's voting power in (asset, kind), created at zero when missing. */
export async function getVotingPower(
  ctx: EventCtx<unknown>,
  account: string,
  assetId: string,
  kindId: number,
): Promise<VotingPower> {
  const id = `${account}|${assetId}|${kindId}`;
  return (
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
    )
  );
}

/** Moves `units` of voting power in the delegation's kind from holder to delegate (negative to move it back). */
export async function shiftVotingPower(ctx: EventCtx<unknown>, d: Delegation, units: bigint): Promise<void> {
  const out = touch(ctx, await getVotingPower(ctx, d.holder, d.assetId, d.kindId));
  out.delegatedOut += units;
  const into = touch(ctx, await getVotingPower(ctx, d.delegate, d.assetId, d.kindId));
  into.delegatedIn += units;
}

/** The delegation ended (`reason` as the chain states it), by `actor` when one acted. */
export function endDelegation(ctx: EventCtx<unknown>, d: Delegation, reason: string, actor: string | undefined): void {
  change(d, { ended: reason, endedActor: actor, endedHeight: ctx.height });
}
