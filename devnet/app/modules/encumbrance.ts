/**
 * encumbrance: pledges, liens and lockups on units, locked as
 * encumbrance/<id> in the holder's position while ACTIVE.
 *
 * Create: pledge by the holder (beneficiary required), lien by the asset's
 * operator when liens are allowed (beneficiary and 32-byte evidence hash
 * required), lockup by the holder or the issuer (no beneficiary, not
 * exercisable, no income routing). income_to_beneficiary: pledges only.
 * Release (first matching role wins): holder once holder_release_after is set
 * and reached; beneficiary; the asset's releaser; the issuer for lockups; the
 * operator for liens. Exercise: the beneficiary, when exercisable; the units
 * move to the beneficiary (its policy is checked; the kind's transferable
 * flag is not, the holder agreed at pledge time). EndBlock: expiry sweep.
 */
import type { KvReader } from '../store';
import { enqueue, dequeue, takeDue } from '../queue';
import {
  Env,
  emitTyped,
  idNumber,
  nextId,
  positiveAmount,
  requireAddress,
  requireHexHash,
  rfc3339,
  timestampMs,
  optionalAddress,
} from '../env';
import { encumbranceErrors } from '../errors';
import { AssetRec, requireAsset, requireKind } from './asset-state';
import * as rights from './rights';
import { addRoute, removeRoute } from './payout';

export const PLEDGE = 'ENCUMBRANCE_KIND_PLEDGE';
export const LIEN = 'ENCUMBRANCE_KIND_LIEN';
export const LOCKUP = 'ENCUMBRANCE_KIND_LOCKUP';
export const ACTIVE = 'ENCUMBRANCE_STATUS_ACTIVE';

export interface EncumbranceRec {
  id: number;
  kind: string;
  asset_id: string;
  kind_id: number;
  holder: string;
  units: bigint;
  beneficiary: string;
  income_to_beneficiary: boolean;
  holder_release_after_ms: number | null;
  exercisable: boolean;
  expiry_ms: number | null;
  evidence_hash: string;
  status: string;
  created_height: number;
  updated_height: number;
}

const QUEUE = 'encumbrance';
const encumbranceKey = (id: number) => `encumbrance/e/${id}`;
export const encumbranceRef = (id: number) => `encumbrance/${id}`;

export function getEncumbrance(kv: KvReader, id: number): EncumbranceRec | undefined {
  return kv.get<EncumbranceRec>(encumbranceKey(id));
}

/** Proto-JSON of a stored encumbrance (svc.encumbrance.v1.Encumbrance). */
export function encumbranceProto(e: EncumbranceRec): Record<string, unknown> {
  return {
    id: e.id,
    kind: e.kind,
    asset_id: e.asset_id,
    kind_id: e.kind_id,
    holder: e.holder,
    units: e.units,
    beneficiary: e.beneficiary,
    income_to_beneficiary: e.income_to_beneficiary,
    holder_release_after: rfc3339(e.holder_release_after_ms),
    exercisable: e.exercisable,
    expiry: rfc3339(e.expiry_ms),
    evidence_hash: e.evidence_hash,
    status: e.status,
  };
}

// ------------------------------------------------------------------ roles

function creatorRole(e: EncumbranceRec, asset: AssetRec, creator: string): string {
  if (e.kind === PLEDGE) {
    if (creator !== e.holder) throw encumbranceErrors.unauthorized('a pledge is created by the holder');
    return 'ACTOR_ROLE_HOLDER';
  }
  if (e.kind === LIEN) {
    if (!asset.liens_allowed) throw encumbranceErrors.liensNotAllowed(asset.asset_id);
    if (!asset.roles.operator || creator !== asset.roles.operator)
      throw encumbranceErrors.unauthorized('a lien is created by the operator');
    return 'ACTOR_ROLE_OPERATOR';
  }
  if (creator === e.holder) return 'ACTOR_ROLE_HOLDER';
  if (creator === asset.issuer) return 'ACTOR_ROLE_ISSUER';
  throw encumbranceErrors.unauthorized('a lockup is created by the holder or the issuer');
}

/** The role in which `sender` may release, or a rights error explaining why not. */
function releaseRole(e: EncumbranceRec, asset: AssetRec, sender: string, timeMs: number): string {
  const holderMayRelease = e.holder_release_after_ms !== null && timeMs >= e.holder_release_after_ms;
  if (sender === e.holder && holderMayRelease) return 'ACTOR_ROLE_HOLDER';
  if (e.beneficiary && sender === e.beneficiary) return 'ACTOR_ROLE_BENEFICIARY';
  if (asset.roles.releaser && sender === asset.roles.releaser) return 'ACTOR_ROLE_RELEASER';
  if (e.kind === LOCKUP && sender === asset.issuer) return 'ACTOR_ROLE_ISSUER';
  if (e.kind === LIEN && asset.roles.operator && sender === asset.roles.operator) return 'ACTOR_ROLE_OPERATOR';
  if (sender === e.holder) {
    throw encumbranceErrors.unauthorized(
      e.holder_release_after_ms === null
        ? 'the holder may never release this encumbrance'
        : `the holder may release after ${rfc3339(e.holder_release_after_ms)}`,
    );
  }
  throw encumbranceErrors.unauthorized(`${sender} may not release encumbrance ${e.id}`);
}

// ------------------------------------------------------------------ lifecycle

function parseRequest(env: Env, msg: Record<string, unknown>): EncumbranceRec {
  const kind = String(msg.kind);
  if (![PLEDGE, LIEN, LOCKUP].includes(kind)) throw encumbranceErrors.invalid('kind unspecified');
  const asset = requireAsset(env.kv, msg.asset_id);
  const kindRec = requireKind(asset, msg.kind_id);
  const beneficiary = optionalAddress(env, msg.beneficiary, 'beneficiary');
  const holder = requireAddress(env, msg.holder, 'holder');
  if (kind === LOCKUP && (beneficiary || msg.income_to_beneficiary || msg.exercisable)) {
    throw encumbranceErrors.invalid('a lockup has no beneficiary, income routing or exercise');
  }
  if (kind !== LOCKUP && !beneficiary) throw encumbranceErrors.invalid('beneficiary required');
  if (beneficiary === holder) throw encumbranceErrors.invalid('beneficiary is the holder');
  if (kind !== PLEDGE && msg.income_to_beneficiary)
    throw encumbranceErrors.invalid('income_to_beneficiary is for pledges');
  const expiryMs = timestampMs(msg.expiry);
  if (expiryMs !== null && expiryMs <= env.timeMs)
    throw encumbranceErrors.invalid('expiry must be later than the block time');
  return {
    id: 0,
    kind,
    asset_id: asset.asset_id,
    kind_id: kindRec.kind_id,
    holder,
    units: positiveAmount(msg.units, encumbranceErrors.invalid),
    beneficiary,
    income_to_beneficiary: Boolean(msg.income_to_beneficiary),
    holder_release_after_ms: timestampMs(msg.holder_release_after),
    exercisable: Boolean(msg.exercisable),
    expiry_ms: expiryMs,
    evidence_hash: requireHexHash(msg.evidence_hash, 32, kind !== LIEN, encumbranceErrors.invalid),
    status: ACTIVE,
    created_height: env.height,
    updated_height: env.height,
  };
}

/** Ends an ACTIVE encumbrance: lock and income route end, status set. */
function end(env: Env, e: EncumbranceRec, status: string): void {
  if (e.income_to_beneficiary) removeRoute(env, e.asset_id, e.kind_id, e.holder, encumbranceRef(e.id));
  rights.unlock(env, e.asset_id, e.kind_id, e.holder, encumbranceRef(e.id));
  if (e.expiry_ms !== null) dequeue(env.kv, QUEUE, e.expiry_ms, e.id);
  env.kv.set(encumbranceKey(e.id), { ...e, status, updated_height: env.height });
}

function requireActive(env: Env, id: unknown): EncumbranceRec {
  const e = getEncumbrance(env.kv, idNumber(id));
  if (!e) throw encumbranceErrors.notFound(String(id));
  if (e.status !== ACTIVE) throw encumbranceErrors.notActive(`${e.id} is ${e.status}`);
  return e;
}

// ------------------------------------------------------------------ messages

export function handleCreateEncumbrance(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const creator = requireAddress(env, msg.creator, 'creator');
  const request = parseRequest(env, msg);
  const asset = requireAsset(env.kv, request.asset_id);
  const role = creatorRole(request, asset, creator);
  const e = { ...request, id: nextId(env.kv, 'encumbrance/next_id') };
  rights.lock(env, e.asset_id, e.kind_id, e.holder, encumbranceRef(e.id), e.units);
  if (e.income_to_beneficiary)
    addRoute(env, e.asset_id, e.kind_id, e.holder, encumbranceRef(e.id), e.beneficiary, e.units);
  if (e.expiry_ms !== null) enqueue(env.kv, QUEUE, e.expiry_ms, e.id);
  env.kv.set(encumbranceKey(e.id), e);
  const proto = encumbranceProto(e);
  emitTyped(env, 'svc.encumbrance.v1.EventEncumbranceCreated', {
    encumbrance_id: e.id,
    kind: e.kind,
    asset_id: e.asset_id,
    kind_id: e.kind_id,
    holder: e.holder,
    units: e.units,
    beneficiary: e.beneficiary,
    income_to_beneficiary: e.income_to_beneficiary,
    holder_release_after: proto.holder_release_after,
    exercisable: e.exercisable,
    expiry: proto.expiry,
    evidence_hash: e.evidence_hash,
    actor: creator,
    actor_role: role,
    positions_after: [rights.positionAfter(env.kv, e.asset_id, e.kind_id, e.holder)],
  });
  return { encumbrance_id: e.id };
}

export function handleRelease(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const sender = requireAddress(env, msg.sender, 'sender');
  const e = requireActive(env, msg.encumbrance_id);
  const role = releaseRole(e, requireAsset(env.kv, e.asset_id), sender, env.timeMs);
  end(env, e, 'ENCUMBRANCE_STATUS_RELEASED');
  emitTyped(env, 'svc.encumbrance.v1.EventEncumbranceReleased', {
    encumbrance_id: e.id,
    actor: sender,
    actor_role: role,
    positions_after: [rights.positionAfter(env.kv, e.asset_id, e.kind_id, e.holder)],
  });
  return {};
}

export function handleExercise(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const sender = requireAddress(env, msg.sender, 'sender');
  const e = requireActive(env, msg.encumbrance_id);
  if (!e.exercisable) throw encumbranceErrors.notExercisable(String(e.id));
  if (sender !== e.beneficiary) throw encumbranceErrors.unauthorized('only the beneficiary exercises');
  end(env, e, 'ENCUMBRANCE_STATUS_EXERCISED');
  const asset = requireAsset(env.kv, e.asset_id);
  const positions = rights.move(env, asset, requireKind(asset, e.kind_id), e.holder, e.beneficiary, e.units, {
    requireTransferableKind: false,
    checkPolicy: true,
  });
  emitTyped(env, 'svc.encumbrance.v1.EventEncumbranceExercised', {
    encumbrance_id: e.id,
    actor: sender,
    actor_role: 'ACTOR_ROLE_BENEFICIARY',
    beneficiary: e.beneficiary,
    units: e.units,
    positions_after: positions,
  });
  return {};
}

// ------------------------------------------------------------------ EndBlock

export function sweepExpired(env: Env): void {
  for (const id of takeDue(env.kv, QUEUE, env.timeMs)) {
    const e = getEncumbrance(env.kv, id);
    if (!e || e.status !== ACTIVE) continue;
    end(env, e, 'ENCUMBRANCE_STATUS_EXPIRED');
    emitTyped(env, 'svc.encumbrance.v1.EventEncumbranceExpired', {
      encumbrance_id: e.id,
      expiry: rfc3339(e.expiry_ms),
      positions_after: [rights.positionAfter(env.kv, e.asset_id, e.kind_id, e.holder)],
    });
  }
}
