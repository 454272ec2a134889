/** svc.rights.v1: units moved between holders (MsgTransfer, bundles, token precompiles). */
import type { CosmosEvent } from '@subql/types-cosmos';
import { finish, subjectAccount, subjectAsset, typedEventContext } from './util/context';
import { checkPositionsAfter, moveUnits, PositionAfter } from './util/positions';
import { big, int } from './util/values';

interface EventTransferred {
  asset_id: string;
  kind_id: number;
  sender: string;
  recipient: string;
  units: string;
  positions_after: PositionAfter[];
}

interface EventBundleTransferred {
  asset_id: string;
  sender: string;
  recipient: string;
  units: string;
  kind_ids: number[];
  positions_after: PositionAfter[];
}

export async function handleRightsTransferred(event: CosmosEvent): Promise<void> {
  const ctx = typedEventContext<EventTransferred>(event);
  if (!ctx) return;
  const e = ctx.decoded;
  await moveUnits(ctx, e.asset_id, int(e.kind_id), e.sender, e.recipient, big(e.units));
  await checkPositionsAfter(ctx, e.positions_after);
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.sender, e.recipient);
  await finish(ctx);
}

export async function handleRightsBundleTransferred(event: CosmosEvent): Promise<void> {
  const ctx = typedEventContext<EventBundleTransferred>(event);
  if (!ctx) return;
  const e = ctx.decoded;
  for (const kindId of e.kind_ids ?? [])
    await moveUnits(ctx, e.asset_id, int(kindId), e.sender, e.recipient, big(e.units));
  await checkPositionsAfter(ctx, e.positions_after);
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.sender, e.recipient);
  await finish(ctx);
}
