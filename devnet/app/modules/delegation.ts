/**
 * delegation: term delegations of VOTE-class units, locked as
 * delegation/<id> until they end. END_REASON_REVOKED: the holder, only when
 * revocable; END_REASON_RETURNED: the delegate, always; END_REASON_EXPIRED:
 * EndBlock sweep once `until` is reached.
 */
import type { KvReader } from '../store';
import { enqueue, dequeue, takeDue } from '../queue';
import { Env, emitTyped, idNumber, nextId, positiveAmount, requireAddress, rfc3339, timestampMs } from '../env';
import { delegationErrors } from '../errors';
import { requireAsset, requireKind } from './asset-state';
import * as rights from './rights';

export interface DelegationRec {
  id: number;
  holder: string;
  delegate: string;
  asset_id: string;
  kind_id: number;
  units: bigint;
  until_ms: number;
  purposes: string[];
  revocable: boolean;
  /** '' while active, else the EndReason name */
  ended: string;
  created_height: number;
  ended_height: number | null;
}

const QUEUE = 'delegation';
const delegationKey = (id: number) => `delegation/d/${id}`;
const delegationRef = (id: number) => `delegation/${id}`;

export function getDelegation(kv: KvReader, id: number): DelegationRec | undefined {
  return kv.get<DelegationRec>(delegationKey(id));
}

function endDelegation(env: Env, d: DelegationRec, reason: string, actor: string): void {
  rights.unlock(env, d.asset_id, d.kind_id, d.holder, delegationRef(d.id));
  dequeue(env.kv, QUEUE, d.until_ms, d.id);
  env.kv.set(delegationKey(d.id), { ...d, ended: reason, ended_height: env.height });
  emitTyped(env, 'svc.delegation.v1.EventDelegationEnded', {
    delegation_id: d.id,
    reason,
    actor,
    positions_after: [rights.positionAfter(env.kv, d.asset_id, d.kind_id, d.holder)],
  });
}

function requireActive(env: Env, id: unknown): DelegationRec {
  const d = getDelegation(env.kv, idNumber(id));
  if (!d) throw delegationErrors.notFound(String(id));
  if (d.ended) throw delegationErrors.ended(`${d.id}: ${d.ended}`);
  return d;
}

export function handleDelegate(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const holder = requireAddress(env, msg.holder, 'holder');
  const delegate = requireAddress(env, msg.delegate, 'delegate');
  if (holder === delegate) throw delegationErrors.invalid('delegate is the holder');
  const asset = requireAsset(env.kv, msg.asset_id);
  const kind = requireKind(asset, msg.kind_id);
  if (kind.class !== 'KIND_CLASS_VOTE') throw delegationErrors.notVoteKind(`kind ${kind.kind_id} is ${kind.class}`);
  const units = positiveAmount(msg.units, delegationErrors.invalid);
  const untilMs = timestampMs(msg.until);
  if (untilMs === null || untilMs <= env.timeMs)
    throw delegationErrors.invalid('until must be later than the block time');
  const d: DelegationRec = {
    id: nextId(env.kv, 'delegation/next_id'),
    holder,
    delegate,
    asset_id: asset.asset_id,
    kind_id: kind.kind_id,
    units,
    until_ms: untilMs,
    purposes: ((msg.purposes as string[]) ?? []).map(String),
    revocable: Boolean(msg.revocable),
    ended: '',
    created_height: env.height,
    ended_height: null,
  };
  rights.lock(env, d.asset_id, d.kind_id, holder, delegationRef(d.id), units);
  env.kv.set(delegationKey(d.id), d);
  enqueue(env.kv, QUEUE, untilMs, d.id);
  emitTyped(env, 'svc.delegation.v1.EventDelegated', {
    delegation_id: d.id,
    holder,
    delegate,
    asset_id: d.asset_id,
    kind_id: d.kind_id,
    units,
    until: rfc3339(untilMs),
    purposes: d.purposes,
    revocable: d.revocable,
    positions_after: [rights.positionAfter(env.kv, d.asset_id, d.kind_id, holder)],
  });
  return { delegation_id: d.id };
}

export function handleRevokeDelegation(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const holder = requireAddress(env, msg.holder, 'holder');
  const d = requireActive(env, msg.delegation_id);
  if (holder !== d.holder) throw delegationErrors.unauthorized('only the holder revokes');
  if (!d.revocable) throw delegationErrors.notRevocable(String(d.id));
  endDelegation(env, d, 'END_REASON_REVOKED', holder);
  return {};
}

export function handleReturnDelegation(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const delegate = requireAddress(env, msg.delegate, 'delegate');
  const d = requireActive(env, msg.delegation_id);
  if (delegate !== d.delegate) throw delegationErrors.unauthorized('only the delegate returns');
  endDelegation(env, d, 'END_REASON_RETURNED', delegate);
  return {};
}

export function sweepExpired(env: Env): void {
  for (const id of takeDue(env.kv, QUEUE, env.timeMs)) {
    const d = getDelegation(env.kv, id);
    if (d && !d.ended) endDelegation(env, d, 'END_REASON_EXPIRED', '');
  }
}
