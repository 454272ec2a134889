/**
 * asset: assets, their right kinds and transfer policies.
 *
 * asset_id = deriveAssetId(issuer, n) with n = the issuer's earlier assets;
 * kind_id = position in the kind list; multiplier starts at 1; status ACTIVE.
 * A policy whose transfer mode is unspecified is stored as OPEN.
 */
import { deriveAssetId } from '../../../src/lib/ids';
import { isValidDenom } from '../../../src/lib/config';
import {
  Env,
  emitTyped,
  optionalAddress,
  positiveAmount,
  requireAddress,
  requireHexHash,
  versionAtLeast,
} from '../env';
import { assetErrors, sdkErrors } from '../errors';
import {
  ASSET_ACTIVE,
  AssetRec,
  KindRec,
  PolicyRec,
  TransferMode,
  issuerAssetCount,
  issuerCountKey,
  requireAsset,
  requireKind,
  saveAsset,
} from './asset-state';
import * as rights from './rights';
import { registerAssetTokens } from './evm';

const KIND_CLASSES = ['KIND_CLASS_ECONOMIC', 'KIND_CLASS_INCOME', 'KIND_CLASS_VOTE', 'KIND_CLASS_REDEMPTION'];
const MAX_KINDS = 64;

function requireIssuer(asset: AssetRec, sender: string): void {
  if (asset.issuer !== sender) throw assetErrors.unauthorized(`${sender} is not the issuer of ${asset.asset_id}`);
}

// ------------------------------------------------------------------ validation

function normalizePolicy(env: Env, value: unknown, field: string): PolicyRec {
  const p = (value ?? {}) as Record<string, unknown>;
  const transfer = (
    p.transfer === 'TRANSFER_MODE_UNSPECIFIED' || !p.transfer ? 'TRANSFER_MODE_OPEN' : p.transfer
  ) as TransferMode;
  if (transfer === 'TRANSFER_MODE_ATTESTED' && !p.attestation_type) {
    throw assetErrors.invalid(`${field}.attestation_type required for ATTESTED`);
  }
  const allowlist = ((p.allowlist as string[]) ?? []).map((a, i) => requireAddress(env, a, `${field}.allowlist[${i}]`));
  return {
    transfer,
    attestation_type: String(p.attestation_type ?? ''),
    attester: optionalAddress(env, p.attester, `${field}.attester`),
    allowlist: [...new Set(allowlist)],
  };
}

function normalizeKinds(env: Env, kinds: unknown): KindRec[] {
  const list = (kinds as Record<string, unknown>[]) ?? [];
  if (list.length === 0 || list.length > MAX_KINDS) throw assetErrors.invalid(`1..${MAX_KINDS} kinds required`);
  return list.map((k, i) => {
    if (!KIND_CLASSES.includes(String(k.class))) throw assetErrors.invalid(`kinds[${i}].class unspecified`);
    return {
      kind_id: i,
      class: String(k.class),
      decimals: Number(k.decimals ?? 0),
      bundle: Boolean(k.bundle),
      transferable: Boolean(k.transferable),
      term: (k.term as Record<string, unknown>) ?? null,
      policy_override: k.policy_override
        ? normalizePolicy(env, k.policy_override, `kinds[${i}].policy_override`)
        : null,
      // the bridgeable flag only exists from 0.12.0 on
      bridgeable: versionAtLeast(env.config.version, '0.12.0') && Boolean(k.bridgeable),
      multiplier: 1n,
    };
  });
}

function normalizeDenoms(denoms: unknown): string[] {
  const list = (denoms as string[]) ?? [];
  for (const d of list)
    if (!isValidDenom(d)) throw assetErrors.invalid(`invalid distribution denom ${JSON.stringify(d)}`);
  return [...new Set(list)];
}

// ------------------------------------------------------------------ messages

export function handleCreateAsset(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const issuer = requireAddress(env, msg.issuer, 'issuer');
  const settlementDenom = String(msg.settlement_denom ?? '');
  if (!isValidDenom(settlementDenom))
    throw assetErrors.invalid(`invalid settlement_denom ${JSON.stringify(settlementDenom)}`);
  const nonce = issuerAssetCount(env.kv, issuer);
  const roles = (msg.roles ?? {}) as Record<string, unknown>;
  const asset: AssetRec = {
    asset_id: deriveAssetId(issuer, nonce, env.config.chain.hrp),
    issuer,
    nonce,
    status: ASSET_ACTIVE,
    meta_hash: requireHexHash(msg.meta_hash, 32, true, assetErrors.invalid),
    settlement_denom: settlementDenom,
    policy: normalizePolicy(env, msg.policy, 'policy'),
    roles: {
      operator: optionalAddress(env, roles.operator, 'roles.operator'),
      releaser: optionalAddress(env, roles.releaser, 'roles.releaser'),
    },
    liens_allowed: Boolean(msg.liens_allowed),
    distribution_denoms: normalizeDenoms(msg.distribution_denoms),
    issuance_locked: false,
    kinds: normalizeKinds(env, msg.kinds),
    created_height: env.height,
    updated_height: env.height,
  };
  env.kv.set(issuerCountKey(issuer), nonce + 1n);
  saveAsset(env, asset);
  registerAssetTokens(env, asset);
  emitTyped(env, 'svc.asset.v1.EventAssetCreated', {
    asset_id: asset.asset_id,
    issuer,
    nonce,
    meta_hash: asset.meta_hash,
    settlement_denom: asset.settlement_denom,
    policy: asset.policy,
    roles: asset.roles,
    kinds: asset.kinds,
    liens_allowed: asset.liens_allowed,
    distribution_denoms: asset.distribution_denoms,
    status: asset.status,
  });
  return { asset_id: asset.asset_id };
}

export function handleIssue(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const issuer = requireAddress(env, msg.issuer, 'issuer');
  const asset = requireAsset(env.kv, msg.asset_id);
  requireIssuer(asset, issuer);
  if (asset.issuance_locked) throw assetErrors.issuanceLocked(`asset ${asset.asset_id} issuance is locked for ever`);
  if (asset.status !== ASSET_ACTIVE) throw assetErrors.notActive(asset.status);
  const kind = requireKind(asset, msg.kind_id);
  const recipient = requireAddress(env, msg.recipient, 'recipient');
  const units = positiveAmount(msg.units, assetErrors.invalid);
  // issuance is the issuer's own choice of recipient: the transfer policy is not applied
  rights.mint(env, asset.asset_id, kind.kind_id, recipient, units);
  emitTyped(env, 'svc.asset.v1.EventIssued', {
    asset_id: asset.asset_id,
    kind_id: kind.kind_id,
    recipient,
    units,
    supply_after: rights.getSupply(env.kv, asset.asset_id, kind.kind_id).supply,
    positions_after: [rights.positionAfter(env.kv, asset.asset_id, kind.kind_id, recipient)],
  });
  return {};
}

export function handleLockIssuance(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const issuer = requireAddress(env, msg.issuer, 'issuer');
  const asset = requireAsset(env.kv, msg.asset_id);
  requireIssuer(asset, issuer);
  if (asset.issuance_locked) throw assetErrors.issuanceLocked('already locked');
  saveAsset(env, { ...asset, issuance_locked: true });
  emitTyped(env, 'svc.asset.v1.EventIssuanceLocked', { asset_id: asset.asset_id, issuer });
  return {};
}

function updateKind(env: Env, asset: AssetRec, kindId: number, change: Partial<KindRec>): KindRec {
  const kind = { ...asset.kinds[kindId], ...change };
  saveAsset(env, { ...asset, kinds: asset.kinds.map((k) => (k.kind_id === kindId ? kind : k)) });
  return kind;
}

function issuerKind(env: Env, msg: Record<string, unknown>): { asset: AssetRec; kind: KindRec } {
  const issuer = requireAddress(env, msg.issuer, 'issuer');
  const asset = requireAsset(env.kv, msg.asset_id);
  requireIssuer(asset, issuer);
  return { asset, kind: requireKind(asset, msg.kind_id) };
}

export function handleSetKindPolicy(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const { asset, kind } = issuerKind(env, msg);
  const cleared = Boolean(msg.clear);
  if (!cleared && !msg.policy_override) throw assetErrors.invalid('policy_override required unless clear');
  const override = cleared ? null : normalizePolicy(env, msg.policy_override, `kinds[${kind.kind_id}].policy_override`);
  updateKind(env, asset, kind.kind_id, { policy_override: override });
  emitTyped(env, 'svc.asset.v1.EventKindPolicySet', {
    asset_id: asset.asset_id,
    kind_id: kind.kind_id,
    policy_override: override,
    cleared,
  });
  return {};
}

export function handleSplitKind(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const { asset, kind } = issuerKind(env, msg);
  const factor = BigInt(String(msg.factor ?? '0'));
  if (factor < 2n) throw assetErrors.invalid('factor must be at least 2');
  const updated = updateKind(env, asset, kind.kind_id, { multiplier: kind.multiplier * factor });
  emitTyped(env, 'svc.asset.v1.EventKindSplit', {
    asset_id: asset.asset_id,
    kind_id: kind.kind_id,
    factor,
    multiplier_after: updated.multiplier,
  });
  return {};
}

export function handleSetBridgeable(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  if (!versionAtLeast(env.config.version, '0.12.0'))
    throw sdkErrors.unknownRequest('MsgSetBridgeable needs chain 0.12.0');
  const { asset, kind } = issuerKind(env, msg);
  const bridgeable = Boolean(msg.bridgeable);
  updateKind(env, asset, kind.kind_id, { bridgeable });
  emitTyped(env, 'svc.asset.v1.EventKindBridgeableSet', {
    asset_id: asset.asset_id,
    kind_id: kind.kind_id,
    bridgeable,
  });
  return {};
}
