/**
 * svc.asset.v1: assets, their right kinds, issuance, issuance lock, kind
 * policies, splits, bridgeable flags, asset status.
 */
import { bundleTokenAddress, rightTokenAddress } from '../../lib/ids';
import { Asset, AnyJson, Kind } from '../../types';
import { ensureAccount } from '../entities/accounts';
import { requireAsset, touchAsset } from '../entities/assets';
import { markDirty, put } from '../infra/block-cache';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, subjectAccount, subjectAsset } from '../infra/context';
import { expectEqual } from '../domain/drift';
import {
  changeSupply,
  changeUnits,
  checkPositionsAfter,
  kindKey,
  PositionAfter,
  requireKind,
} from '../domain/positions';
import { big, enumShort, int, str } from '../infra/values';

interface KindJson {
  kind_id: number;
  class: string;
  decimals: number;
  bundle: boolean;
  transferable: boolean;
  term: AnyJson | null;
  policy_override: AnyJson | null;
  bridgeable: boolean;
  multiplier: string;
}

interface EventAssetCreated {
  asset_id: string;
  issuer: string;
  nonce: string;
  meta_hash: string;
  settlement_denom: string;
  policy: AnyJson | null;
  roles: AnyJson | null;
  kinds: KindJson[];
  liens_allowed: boolean;
  distribution_denoms: string[];
  status: string;
}

interface EventIssued {
  asset_id: string;
  kind_id: number;
  recipient: string;
  units: string;
  supply_after: string;
  positions_after: PositionAfter[];
}

interface EventIssuanceLocked {
  asset_id: string;
  issuer: string;
}

interface EventKindPolicySet {
  asset_id: string;
  kind_id: number;
  policy_override: AnyJson | null;
  cleared: boolean;
}

interface EventKindSplit {
  asset_id: string;
  kind_id: number;
  factor: string;
  multiplier_after: string;
}

interface EventKindBridgeableSet {
  asset_id: string;
  kind_id: number;
  bridgeable: boolean;
}

interface EventAssetStatusChanged {
  asset_id: string;
  status: string;
  previous: string;
}

function newKind(ctx: EventCtx<unknown>, assetId: string, position: number, k: KindJson): Kind {
  // kind ids are positions in the kind list, multipliers start at 1 (MsgCreateAsset)
  return Kind.create({
    id: kindKey(assetId, position),
    assetId,
    kindId: position,
    kindClass: enumShort(k.class, 'KIND_CLASS_', false),
    decimals: int(k.decimals),
    bundle: Boolean(k.bundle),
    transferable: Boolean(k.transferable),
    term: k.term ?? undefined,
    policyOverride: k.policy_override ?? undefined,
    bridgeable: Boolean(k.bridgeable),
    multiplier: 1n,
    supply: 0n,
    holderCount: 0,
    svc20Address: rightTokenAddress(assetId, position),
    accrualDenoms: [],
    updatedHeight: ctx.height,
  });
}

export async function handleAssetCreated(ctx: EventCtx<EventAssetCreated>): Promise<void> {
  const e = ctx.decoded;
  const issuer = await ensureAccount(e.issuer, ctx.height);
  await expectEqual(ctx, 'Account', issuer.id, 'assets_created', e.nonce, issuer.assetsCreated);
  issuer.assetsCreated += 1;
  markDirty(issuer);
  put(
    Asset,
    Asset.create({
      id: e.asset_id,
      issuer: e.issuer,
      nonce: big(e.nonce),
      status: str(e.status),
      metaHash: str(e.meta_hash),
      settlementDenom: str(e.settlement_denom),
      policy: e.policy ?? {},
      roles: e.roles ?? {},
      issuanceLocked: false,
      liensAllowed: Boolean(e.liens_allowed),
      distributionDenoms: e.distribution_denoms ?? [],
      kindCount: (e.kinds ?? []).length,
      bundleAddress: bundleTokenAddress(e.asset_id),
      createdHeight: ctx.height,
      createdTxHash: str(ctx.txHash),
      createdAt: ctx.blockTime,
      updatedHeight: ctx.height,
    }),
  );
  (e.kinds ?? []).forEach((k, position) => put(Kind, newKind(ctx, e.asset_id, position, k)));
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
  if (asset) {
    asset.issuanceLocked = true;
    asset.updatedHeight = ctx.height;
    markDirty(asset);
  }
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.issuer);
}

export async function handleAssetKindPolicySet(ctx: EventCtx<EventKindPolicySet>): Promise<void> {
  const e = ctx.decoded;
  const kind = await requireKind(ctx, e.asset_id, int(e.kind_id));
  if (kind) {
    kind.policyOverride = e.cleared ? undefined : (e.policy_override ?? undefined);
    kind.updatedHeight = ctx.height;
    markDirty(kind);
  }
  await touchAsset(ctx, e.asset_id);
  subjectAsset(ctx, e.asset_id);
}

export async function handleAssetKindSplit(ctx: EventCtx<EventKindSplit>): Promise<void> {
  const e = ctx.decoded;
  const kind = await requireKind(ctx, e.asset_id, int(e.kind_id));
  if (kind) {
    kind.multiplier *= big(e.factor);
    kind.updatedHeight = ctx.height;
    markDirty(kind);
    await expectEqual(ctx, 'Kind', kind.id, 'multiplier', e.multiplier_after, kind.multiplier);
  }
  await touchAsset(ctx, e.asset_id);
  subjectAsset(ctx, e.asset_id);
}

export async function handleAssetKindBridgeableSet(ctx: EventCtx<EventKindBridgeableSet>): Promise<void> {
  const e = ctx.decoded;
  const kind = await requireKind(ctx, e.asset_id, int(e.kind_id));
  if (kind) {
    kind.bridgeable = Boolean(e.bridgeable);
    kind.updatedHeight = ctx.height;
    markDirty(kind);
  }
  await touchAsset(ctx, e.asset_id);
  subjectAsset(ctx, e.asset_id);
}

export async function handleAssetStatusChanged(ctx: EventCtx<EventAssetStatusChanged>): Promise<void> {
  const e = ctx.decoded;
  const asset = await requireAsset(ctx, e.asset_id);
  if (asset) {
    await expectEqual(ctx, 'Asset', asset.id, 'status', e.previous, asset.status);
    asset.status = str(e.status);
    asset.updatedHeight = ctx.height;
    markDirty(asset);
  }
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
