/** Asset rows: looked up by the handlers that change an asset or one of its kinds. */
import { Asset } from '../../types';
import type { EventCtx } from '../infra/context';
import { load, markDirty } from '../infra/block-cache';
import { recordDrift } from '../domain/drift';

/** The asset, or undefined after recording that the chain refers to an unknown asset. */
export async function requireAsset(ctx: EventCtx<unknown>, assetId: string): Promise<Asset | undefined> {
  const asset = await load(Asset, assetId);
  if (!asset) await recordDrift(ctx, 'Asset', assetId, 'exists', true, false);
  return asset;
}

/**
 * Moves the asset's updated_height: its kinds are part of it (openapi.yaml `Asset.kinds`), so an
 * issue, a kind policy, a split or a bridgeable flag changes the asset too.
 */
export async function touchAsset(ctx: EventCtx<unknown>, assetId: string): Promise<void> {
  const asset = await load(Asset, assetId);
  if (!asset || asset.updatedHeight === ctx.height) return;
  asset.updatedHeight = ctx.height;
  markDirty(asset);
}
