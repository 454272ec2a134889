/**
 * svc.asset.v1: assets, their right kinds, issuance, issuance lock, kind
 * policies, splits, bridgeable flags, asset status.
 */
import { ensureAccount } from '../entities/accounts';
import { createAsset, requireAsset, touchAsset } from '../entities/assets';
import type {
  EventAssetCreated,
  EventAssetStatusChanged,
  EventIssuanceLocked,
  EventIssued,
  EventKindBridgeableSet,
  EventKindPolicySet,
  EventKindSplit,
} from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, subjectAccount, subjectAsset } from '../infra/context';
import { expectEqual } from '../entities/drift';
import { change, changeStatus, update } from '../entities/entity';
import { changeSupply, changeUnits, checkPositionsAfter } from '../domain/positions';
import { requireKind } from '../entities/holdings';
import { big, int, jsonValue, str } from '../infra/values';

export async function handleAssetCreated(ctx: EventCtx<EventAssetCreated>): Promise<void> {
  const e = ctx.decoded;
  const issuer = await ensureAccount(e.issuer, ctx.height);
  await expectEqual(ctx, 'Account', issuer.id, 'assets_created', e.nonce, issuer.assetsCreated);
  change(issuer, { assetsCreated: issuer.assetsCreated + 1 });
  createAsset(ctx, e);
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.issuer);
}

export async function handleAssetIssued(ctx: EventCtx<EventIssued>): Promise<void> {
  const e = ctx.decoded;
  const kind = await requireKind(ctx, e.asset_id, int(e.kind_id));
  if (kind) {
    changeSupply(ctx, kind, big(e.units));
    await expectEqual(ctx, 'Kind', kind.id, 'supply', e.supply_after, kind.supply);
  }
  await changeUnits(ctx, e.asset_id, int(e.kind_id), e.recipient, big(e.units));
  await checkPositionsAfter(ctx, e.positions_after);
  await touchAsset(ctx, e.asset_id);
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.recipient);
}

export async function handleAssetIssuanceLocked(ctx: EventCtx<EventIssuanceLocked>): Promise<void> {
  const e = ctx.decoded;
  const asset = await requireAsset(ctx, e.asset_id);
  if (asset) update(ctx, asset, { issuanceLocked: true });
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.issuer);
}

export async function handleAssetKindPolicySet(ctx: EventCtx<EventKindPolicySet>): Promise<void> {
  const e = ctx.decoded;
  const kind = await requireKind(ctx, e.asset_id, int(e.kind_id));
  if (kind) update(ctx, kind, { policyOverride: e.cleared ? undefined : jsonValue(e.policy_override) });
  await touchAsset(ctx, e.asset_id);
  subjectAsset(ctx, e.asset_id);
}

export async function handleAssetKindSplit(ctx: EventCtx<EventKindSplit>): Promise<void> {
  const e = ctx.decoded;
  const kind = await requireKind(ctx, e.asset_id, int(e.kind_id));
  if (kind) {
    update(ctx, kind, { multiplier: kind.multiplier * big(e.factor) });
    await expectEqual(ctx, 'Kind', kind.id, 'multiplier', e.multiplier_after, kind.multiplier);
  }
  await touchAsset(ctx, e.asset_id);
  subjectAsset(ctx, e.asset_id);
}

export async function handleAssetKindBridgeableSet(ctx: EventCtx<EventKindBridgeableSet>): Promise<void> {
  const e = ctx.decoded;
  const kind = await requireKind(ctx, e.asset_id, int(e.kind_id));
  if (kind) update(ctx, kind, { bridgeable: Boolean(e.bridgeable) });
  await touchAsset(ctx, e.asset_id);
  subjectAsset(ctx, e.asset_id);
}

export async function handleAssetStatusChanged(ctx: EventCtx<EventAssetStatusChanged>): Promise<void> {
  const e = ctx.decoded;
  const asset = await requireAsset(ctx, e.asset_id);
  if (asset) await changeStatus(ctx, 'Asset', asset, e.previous, str(e.status));
  subjectAsset(ctx, e.asset_id);
}

/** asset: typed event type → handler. */
export const assetHandlers: HandlerTable = {
  events: {
    'svc.asset.v1.EventAssetCreated': handleAssetCreated,
    'svc.asset.v1.EventIssued': handleAssetIssued,
    'svc.asset.v1.EventIssuanceLocked': handleAssetIssuanceLocked,
    'svc.asset.v1.EventKindPolicySet': handleAssetKindPolicySet,
    'svc.asset.v1.EventKindSplit': handleAssetKindSplit,
    'svc.asset.v1.EventKindBridgeableSet': handleAssetKindBridgeableSet,
    'svc.asset.v1.EventAssetStatusChanged': handleAssetStatusChanged,
  },
};
