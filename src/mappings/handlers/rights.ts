/** svc.rights.v1: units moved between holders (MsgTransfer, bundles, token precompiles). */
import type { EventBundleTransferred, EventTransferred } from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, subjectAccount, subjectAsset } from '../infra/context';
import { checkPositionsAfter, moveUnits } from '../domain/positions';
import { big, int } from '../infra/values';

export async function handleRightsTransferred(ctx: EventCtx<EventTransferred>): Promise<void> {
  const e = ctx.decoded;
  await moveUnits(ctx, e.asset_id, int(e.kind_id), e.sender, e.recipient, big(e.units));
  await checkPositionsAfter(ctx, e.positions_after);
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.sender, e.recipient);
}

export async function handleRightsBundleTransferred(ctx: EventCtx<EventBundleTransferred>): Promise<void> {
  const e = ctx.decoded;
  for (const kindId of e.kind_ids ?? [])
    await moveUnits(ctx, e.asset_id, int(kindId), e.sender, e.recipient, big(e.units));
  await checkPositionsAfter(ctx, e.positions_after);
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.sender, e.recipient);
}

/** rights: typed event type → handler. */
export const rightsHandlers: HandlerTable = {
  events: {
    'svc.rights.v1.EventTransferred': handleRightsTransferred,
    'svc.rights.v1.EventBundleTransferred': handleRightsBundleTransferred,
  },
};
