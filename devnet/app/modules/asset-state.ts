/**
 * The asset module's stored records (assets with their kinds and policies) and the reads and
 * writes every other module uses. It imports no other module, so any module may import it.
 */
import type { KvReader } from '../store';
import { Env, emitTyped, requireAssetId } from '../env';
import { assetErrors } from '../errors';

export type TransferMode = 'TRANSFER_MODE_OPEN' | 'TRANSFER_MODE_ATTESTED' | 'TRANSFER_MODE_RESTRICTED';

export interface PolicyRec {
  transfer: TransferMode;
  attestation_type: string;
  attester: string;
  allowlist: string[];
}

export interface KindRec {
  kind_id: number;
  class: string;
  decimals: number;
  bundle: boolean;
  transferable: boolean;
  /** proto-JSON Term (RFC 3339 start/end) or null */
  term: Record<string, unknown> | null;
  policy_override: PolicyRec | null;
  bridgeable: boolean;
  multiplier: bigint;
}

export interface AssetRec {
  asset_id: string;
  issuer: string;
  nonce: bigint;
  status: string;
  meta_hash: string;
  settlement_denom: string;
  policy: PolicyRec;
  roles: { operator: string; releaser: string };
  liens_allowed: boolean;
  distribution_denoms: string[];
  issuance_locked: boolean;
  kinds: KindRec[];
  created_height: number;
  updated_height: number;
}

export const ASSET_ACTIVE = 'ASSET_STATUS_ACTIVE';
export const ASSET_LIQUIDATING = 'ASSET_STATUS_LIQUIDATING';
export const ASSET_LIQUIDATED = 'ASSET_STATUS_LIQUIDATED';

const assetKey = (id: string) => `asset/a/${id}`;
export const issuerCountKey = (issuer: string) => `asset/count/${issuer}`;

export function getAsset(kv: KvReader, assetId: string): AssetRec | undefined {
  return kv.get<AssetRec>(assetKey(assetId));
}

export function requireAsset(kv: KvReader, assetId: unknown): AssetRec {
  const asset = getAsset(kv, requireAssetId(assetId, assetErrors.invalid));
  if (!asset) throw assetErrors.notFound(String(assetId));
  return asset;
}

export function requireKind(asset: AssetRec, kindId: unknown): KindRec {
  const kind = typeof kindId === 'number' ? asset.kinds[kindId] : undefined;
  if (!kind) throw assetErrors.kindNotFound(`asset ${asset.asset_id} has no kind ${String(kindId)}`);
  return kind;
}

export function bundleKinds(asset: AssetRec): KindRec[] {
  return asset.kinds.filter((k) => k.bundle);
}

/** The kind's effective policy and the rule path a denial names. */
export function effectivePolicy(asset: AssetRec, kind: KindRec): { policy: PolicyRec; path: string } {
  return kind.policy_override
    ? { policy: kind.policy_override, path: `kinds[${kind.kind_id}].policy_override` }
    : { policy: asset.policy, path: 'policy' };
}

/** Number of assets an issuer created (the next asset's nonce). */
export function issuerAssetCount(kv: KvReader, issuer: string): bigint {
  return kv.get<bigint>(issuerCountKey(issuer)) ?? 0n;
}

export function saveAsset(env: Env, asset: AssetRec): void {
  env.kv.set(assetKey(asset.asset_id), { ...asset, updated_height: env.height });
}

/** Status change by the waterfall module (liquidation start / completion). */
export function setAssetStatus(env: Env, asset: AssetRec, status: string): AssetRec {
  const updated = { ...asset, status };
  saveAsset(env, updated);
  emitTyped(env, 'svc.asset.v1.EventAssetStatusChanged', { asset_id: asset.asset_id, status, previous: asset.status });
  return updated;
}
