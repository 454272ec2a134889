/**
 * rights: positions (units of one kind held by one account), locks by ref,
 * supply and holder counts, and the moves every other module builds on.
 *
 * transferable = units − locked. A position record exists while it has units
 * or locks. Every change of units first settles the position's income
 * (payout.settlePosition), so accrual is exact across changes.
 *
 * Policy on receipt (transfer, bundle transfer, settlement, exercise, EVM,
 * dex, bridge in): the recipient must pass the kind's effective policy.
 * Exempt: 32-byte module accounts (bridge escrows, dex pools), which only
 * ever pass units on to recipients that are checked themselves.
 */
import type { KvReader } from '../store';
import { Env, emitTyped, positiveAmount, requireAddress } from '../env';
import { rightsErrors } from '../errors';
import { decodeBech32Address, MODULE_ACCOUNT_LENGTH } from '../../../src/lib/address';
import type { AssetRec, KindRec } from './asset-state';
import { bundleKinds, effectivePolicy, requireAsset, requireKind } from './asset-state';
import { settlePosition } from './payout';
import { hasLiveAttestation } from './attestation';
import {
  PositionAfter,
  PositionRec,
  accountPositionsParent,
  getPosition,
  getSupply,
  positionAfter,
  positionKey,
  supplyKey,
  transferable,
} from './positions';

export type { LockRec, PositionAfter, PositionRec, SupplyRec } from './positions';
export { accountPositions, getPosition, getSupply, positionAfter, positionParent, transferable } from './positions';

// ------------------------------------------------------------------ writes

function savePosition(env: Env, a: string, k: number, holder: string, before: PositionRec, after: PositionRec): void {
  const exists = after.units > 0n || after.locks.length > 0;
  if (exists) env.kv.set(positionKey(a, k, holder), after);
  else env.kv.delete(positionKey(a, k, holder));
  const indexKey = `${accountPositionsParent(holder)}${a}|${k}`;
  if (exists) {
    if (!env.kv.has(indexKey)) env.kv.set(indexKey, true);
  } else env.kv.delete(indexKey);
  const holderDelta = (after.units > 0n ? 1 : 0) - (before.units > 0n ? 1 : 0);
  if (holderDelta !== 0) {
    const s = getSupply(env.kv, a, k);
    env.kv.set(supplyKey(a, k), { ...s, holder_count: s.holder_count + holderDelta });
  }
}

function changeUnits(env: Env, a: string, k: number, holder: string, delta: bigint): void {
  settlePosition(env, a, k, holder);
  const before = getPosition(env.kv, a, k, holder);
  savePosition(env, a, k, holder, before, { ...before, units: before.units + delta });
}

function changeSupply(env: Env, a: string, k: number, delta: bigint): void {
  const s = getSupply(env.kv, a, k);
  env.kv.set(supplyKey(a, k), { ...s, supply: s.supply + delta });
}

function requireTransferable(env: Env, a: string, k: number, holder: string, units: bigint): void {
  const have = transferable(env.kv, a, k, holder);
  if (have < units)
    throw rightsErrors.insufficient(`${holder} has ${have} transferable units of ${a}/${k}, needs ${units}`);
}

/** Creates units (issuance). */
export function mint(env: Env, a: string, k: number, to: string, units: bigint): void {
  changeUnits(env, a, k, to, units);
  changeSupply(env, a, k, units);
}

/** Destroys transferable units (redemption). */
export function burn(env: Env, a: string, k: number, from: string, units: bigint): void {
  requireTransferable(env, a, k, from, units);
  changeUnits(env, a, k, from, -units);
  changeSupply(env, a, k, -units);
}

/** Adds `units` to the lock `ref` of a position; they must be transferable. */
export function lock(env: Env, a: string, k: number, holder: string, ref: string, units: bigint): void {
  requireTransferable(env, a, k, holder, units);
  const before = getPosition(env.kv, a, k, holder);
  const existing = before.locks.find((l) => l.ref === ref);
  const locks = existing
    ? before.locks.map((l) => (l.ref === ref ? { ref, units: l.units + units } : l))
    : [...before.locks, { ref, units }].sort((x, y) => (x.ref < y.ref ? -1 : 1));
  savePosition(env, a, k, holder, before, { units: before.units, locked: before.locked + units, locks });
}

/** Removes the lock `ref`; returns its units (0 when there was none). */
export function unlock(env: Env, a: string, k: number, holder: string, ref: string): bigint {
  const before = getPosition(env.kv, a, k, holder);
  const existing = before.locks.find((l) => l.ref === ref);
  if (!existing) return 0n;
  const locks = before.locks.filter((l) => l.ref !== ref);
  savePosition(env, a, k, holder, before, { units: before.units, locked: before.locked - existing.units, locks });
  return existing.units;
}

// ------------------------------------------------------------------ policy

/** 32-byte accounts have longer bech32 strings than 20-byte ones (hrp + 1 + 52 vs 32 data chars + 6 checksum). */
function isModuleAccount(address: string): boolean {
  try {
    return address.length > 50 && decodeBech32Address(address).bytes.length === MODULE_ACCOUNT_LENGTH;
  } catch {
    return false;
  }
}

/** Throws rights/4 "policy denied: <rule path>" when `recipient` may not receive units of the kind. */
export function checkReceipt(env: Env, asset: AssetRec, kind: KindRec, recipient: string): void {
  if (isModuleAccount(recipient)) return;
  const { policy, path } = effectivePolicy(asset, kind);
  const allowed =
    policy.transfer === 'TRANSFER_MODE_OPEN' ||
    (policy.transfer === 'TRANSFER_MODE_RESTRICTED' &&
      (recipient === asset.issuer || policy.allowlist.includes(recipient))) ||
    (policy.transfer === 'TRANSFER_MODE_ATTESTED' &&
      hasLiveAttestation(env.kv, recipient, policy.attestation_type, policy.attester, env.timeMs));
  if (!allowed) throw rightsErrors.policyDenied(`${path}.transfer`);
}

export interface MoveOptions {
  /** refuse kinds whose transferable flag is false (voluntary transfers) */
  requireTransferableKind: boolean;
  /** apply the recipient's policy check */
  checkPolicy: boolean;
}

export const VOLUNTARY: MoveOptions = { requireTransferableKind: true, checkPolicy: true };

/** Moves transferable units between accounts; returns [from, to] positions after. */
export function move(
  env: Env,
  asset: AssetRec,
  kind: KindRec,
  from: string,
  to: string,
  units: bigint,
  opts: MoveOptions = VOLUNTARY,
): PositionAfter[] {
  if (opts.requireTransferableKind && !kind.transferable) {
    throw rightsErrors.notTransferable(`kind ${kind.kind_id} of ${asset.asset_id}`);
  }
  if (opts.checkPolicy) checkReceipt(env, asset, kind, to);
  requireTransferable(env, asset.asset_id, kind.kind_id, from, units);
  changeUnits(env, asset.asset_id, kind.kind_id, from, -units);
  changeUnits(env, asset.asset_id, kind.kind_id, to, units);
  return [
    positionAfter(env.kv, asset.asset_id, kind.kind_id, from),
    positionAfter(env.kv, asset.asset_id, kind.kind_id, to),
  ];
}

/** Moves `units` of every bundle kind (all or none: the caller's cache drops a partial move). */
export function moveBundle(
  env: Env,
  asset: AssetRec,
  from: string,
  to: string,
  units: bigint,
  opts: MoveOptions = VOLUNTARY,
): { kindIds: number[]; positions: PositionAfter[] } {
  const kinds = bundleKinds(asset);
  if (kinds.length === 0) throw rightsErrors.noBundleKinds(asset.asset_id);
  const positions = kinds.flatMap((kind) => move(env, asset, kind, from, to, units, opts));
  return { kindIds: kinds.map((k) => k.kind_id), positions };
}

/** Whole bundles an account can move: the least transferable units over the bundle kinds. */
export function transferableBundles(kv: KvReader, asset: AssetRec, holder: string): bigint {
  const kinds = bundleKinds(asset);
  if (kinds.length === 0) return 0n;
  return kinds.map((k) => transferable(kv, asset.asset_id, k.kind_id, holder)).reduce((m, v) => (v < m ? v : m));
}

/** Emits EventTransferred. */
export function emitTransferred(
  env: Env,
  asset: AssetRec,
  kind: KindRec,
  from: string,
  to: string,
  units: bigint,
  positions: PositionAfter[],
): void {
  emitTyped(env, 'svc.rights.v1.EventTransferred', {
    asset_id: asset.asset_id,
    kind_id: kind.kind_id,
    sender: from,
    recipient: to,
    units,
    positions_after: positions,
  });
}

/** Emits EventBundleTransferred. */
export function emitBundleTransferred(
  env: Env,
  asset: AssetRec,
  from: string,
  to: string,
  units: bigint,
  moved: { kindIds: number[]; positions: PositionAfter[] },
): void {
  emitTyped(env, 'svc.rights.v1.EventBundleTransferred', {
    asset_id: asset.asset_id,
    sender: from,
    recipient: to,
    units,
    kind_ids: moved.kindIds,
    positions_after: moved.positions,
  });
}

// ------------------------------------------------------------------ messages

export function handleTransfer(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const sender = requireAddress(env, msg.sender, 'sender');
  const recipient = requireAddress(env, msg.recipient, 'recipient');
  const asset = requireAsset(env.kv, msg.asset_id);
  const kind = requireKind(asset, msg.kind_id);
  const units = positiveAmount(msg.units, rightsErrors.invalidAmount);
  const positions = move(env, asset, kind, sender, recipient, units);
  emitTransferred(env, asset, kind, sender, recipient, units, positions);
  return {};
}

export function handleTransferBundle(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const sender = requireAddress(env, msg.sender, 'sender');
  const recipient = requireAddress(env, msg.recipient, 'recipient');
  const asset = requireAsset(env.kv, msg.asset_id);
  const units = positiveAmount(msg.units, rightsErrors.invalidAmount);
  const moved = moveBundle(env, asset, sender, recipient, units);
  emitBundleTransferred(env, asset, sender, recipient, units, moved);
  return {};
}
