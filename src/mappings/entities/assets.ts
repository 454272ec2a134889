/**
 * Asset rows and their Kind rows: created together by EventAssetCreated, looked up by the handlers
 * that change an asset or one of its kinds.
 */
import { bundleTokenAddress, rightTokenAddress } from '../../lib/ids';
import { Asset, Kind } from '../../types';
import type { EventAssetCreated, Kind as KindJson } from '../generated/proto-json';
import type { EventCtx } from '../infra/context';
import { load, put } from '../infra/block-cache';
import { big, enumShort, int, jsonValue, str } from '../infra/values';
import { requireEntity, touch } from './entity';
import { kindKey } from './holdings';

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
    term: jsonValue(k.term),
    policyOverride: jsonValue(k.policy_override),
    bridgeable: Boolean(k.bridgeable),
    multiplier: 1n,
    supply: 0n,
    holderCount: 0,
    svc20Address: rightTokenAddress(assetId, position),
    accrualDenoms: [],
    updatedHeight: ctx.height,
  });
}

/** A new asset (issuance open) and its kinds, in the order the event lists them. */
export function createAsset(ctx: EventCtx<unknown>, e: EventAssetCreated): Asset {
  const asset = put(
    Asset,
    Asset.create({
      id: e.asset_id,
      issuer: e.issuer,
      nonce: big(e.nonce),
      status: str(e.status),
      metaHash: str(e.meta_hash),
      settlementDenom: str(e.settlement_denom),
      policy: jsonValue(e.policy) ?? {},
      roles: jsonValue(e.roles) ?? {},
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
  return asset;
}

/** The asset, or undefined after recording that the chain refers to an unknown asset. */
export function requireAsset(ctx: EventCtx<unknown>, assetId: string): Promise<Asset | undefined> {
  return requireEntity(ctx, Asset, 'Asset', assetId);
}

/**
 * Moves the asset's updated_height: its kinds are part of it (openapi.yaml `Asset.kinds`), so an
 * issue, a kind policy, a split or a bridgeable flag changes the asset too.
 */
export async function touchAsset(ctx: EventCtx<unknown>, assetId: string): Promise<void> {
  const asset = await load(Asset, assetId);
  if (asset && asset.updatedHeight !== ctx.height) touch(ctx, asset);
}
