/**
 * settlement: two-party swaps with escrowed legs.
 *
 * Propose escrows the proposer's GIVE legs at once: rights are locked in the
 * proposer's position as settlement/<id>, coins move to the settlement module
 * account. Accept (counterparty only, before expiry) moves every leg in the
 * tx or fails (the tx cache drops a partial move). Cancel by either party
 * (reason ""), by the waterfall module (reason LIQUIDATION) or the EndBlock
 * expiry sweep return the escrow.
 */
import type { KvReader } from '../store';
import { KEY_MAX } from '../store';
import { enqueue, dequeue, takeDue } from '../queue';
import {
  Env,
  emitTyped,
  moduleAccount,
  nextId,
  idNumber,
  positiveAmount,
  requireAddress,
  requireHexHash,
  rfc3339,
  timestampMs,
} from '../env';
import { settlementErrors } from '../errors';
import { AssetRec, ASSET_ACTIVE, requireAsset, requireKind } from './asset-state';
import * as rights from './rights';
import type { PositionAfter } from './rights';
import { Coin, parseCoin, send } from './bank';

export const GIVE = 'LEG_DIRECTION_GIVE';
export const ASK = 'LEG_DIRECTION_ASK';

export interface LegRec {
  direction: typeof GIVE | typeof ASK;
  right: { asset_id: string; kind_id: number; units: bigint } | null;
  coin: Coin | null;
}

export interface SettlementRec {
  id: number;
  proposer: string;
  counterparty: string;
  legs: LegRec[];
  expiry_ms: number;
  status: string;
  cancel_reason: string;
  memo_hash: string;
  created_height: number;
  updated_height: number;
}

export const STATUS_PENDING = 'STATUS_PENDING';
const QUEUE = 'settlement';
const SETTLEMENT_MODULE = 'settlement';
const settlementKey = (id: number) => `settlement/s/${id}`;
const byAssetParent = (assetId: string) => `settlement/pending_by_asset/${assetId}/`;

export function getSettlement(kv: KvReader, id: number): SettlementRec | undefined {
  return kv.get<SettlementRec>(settlementKey(id));
}

/** Proto-JSON of a stored settlement (svc.settlement.v1.Settlement). */
export function settlementProto(s: SettlementRec): Record<string, unknown> {
  return {
    id: s.id,
    proposer: s.proposer,
    counterparty: s.counterparty,
    legs: s.legs.map(legProto),
    expiry: rfc3339(s.expiry_ms),
    status: s.status,
    cancel_reason: s.cancel_reason,
    memo_hash: s.memo_hash,
  };
}

function legProto(leg: LegRec): Record<string, unknown> {
  return leg.right ? { direction: leg.direction, right: leg.right } : { direction: leg.direction, coin: leg.coin };
}

/** Ids of PENDING settlements with a right leg of the asset. */
export function pendingIdsOfAsset(kv: KvReader, assetId: string): number[] {
  const parent = byAssetParent(assetId);
  return kv.keys(parent, { lte: parent + KEY_MAX }).map((key) => Number(key.slice(parent.length)));
}

// ------------------------------------------------------------------ legs

function parseLeg(env: Env, value: Record<string, unknown>, i: number): LegRec {
  const direction = value.direction;
  if (direction !== GIVE && direction !== ASK) throw settlementErrors.invalidLegs(`legs[${i}].direction unspecified`);
  const right = value.right as Record<string, unknown> | null;
  const coin = value.coin as Record<string, unknown> | null;
  if (!!right === !!coin) throw settlementErrors.invalidLegs(`legs[${i}] needs exactly one of right, coin`);
  if (coin) return { direction, right: null, coin: parseCoin(coin, settlementErrors.invalidLegs) };
  const asset = requireAsset(env.kv, right!.asset_id);
  if (asset.status !== ASSET_ACTIVE) throw settlementErrors.assetNotActive(asset.asset_id);
  const kind = requireKind(asset, right!.kind_id);
  const units = positiveAmount(right!.units, settlementErrors.invalidLegs);
  return { direction, right: { asset_id: asset.asset_id, kind_id: kind.kind_id, units }, coin: null };
}

function rightAssets(s: SettlementRec): string[] {
  return [...new Set(s.legs.filter((l) => l.right).map((l) => l.right!.asset_id))];
}

const escrowRef = (id: number) => `settlement/${id}`;

/** Escrows the proposer's GIVE legs. */
function escrow(env: Env, s: SettlementRec): PositionAfter[] {
  const touched: PositionAfter[] = [];
  for (const leg of s.legs.filter((l) => l.direction === GIVE)) {
    if (leg.coin) send(env, s.proposer, moduleAccount(env.config, SETTLEMENT_MODULE), [leg.coin]);
    else {
      const asset = requireAsset(env.kv, leg.right!.asset_id);
      const kind = requireKind(asset, leg.right!.kind_id);
      // fail early: the units could never be delivered
      if (!kind.transferable)
        throw settlementErrors.invalidLegs(`kind ${kind.kind_id} of ${asset.asset_id} is not transferable`);
      rights.lock(env, asset.asset_id, kind.kind_id, s.proposer, escrowRef(s.id), leg.right!.units);
      touched.push(rights.positionAfter(env.kv, asset.asset_id, kind.kind_id, s.proposer));
    }
  }
  return touched;
}

/** Returns the escrow to the proposer (cancel, expiry). */
function refund(env: Env, s: SettlementRec): PositionAfter[] {
  const touched: PositionAfter[] = [];
  const unlocked = new Set<string>();
  for (const leg of s.legs.filter((l) => l.direction === GIVE)) {
    if (leg.coin) send(env, moduleAccount(env.config, SETTLEMENT_MODULE), s.proposer, [leg.coin]);
    else {
      const key = `${leg.right!.asset_id}/${leg.right!.kind_id}`;
      if (unlocked.has(key)) continue;
      unlocked.add(key);
      rights.unlock(env, leg.right!.asset_id, leg.right!.kind_id, s.proposer, escrowRef(s.id));
      touched.push(rights.positionAfter(env.kv, leg.right!.asset_id, leg.right!.kind_id, s.proposer));
    }
  }
  return touched;
}

/** Moves every leg between the parties (accept). */
function deliver(env: Env, s: SettlementRec): PositionAfter[] {
  const touched: PositionAfter[] = [];
  for (const leg of s.legs.filter((l) => l.right && l.direction === GIVE)) {
    rights.unlock(env, leg.right!.asset_id, leg.right!.kind_id, s.proposer, escrowRef(s.id));
  }
  for (const leg of s.legs) {
    const [from, to] = leg.direction === GIVE ? [s.proposer, s.counterparty] : [s.counterparty, s.proposer];
    if (leg.coin) {
      const payer = leg.direction === GIVE ? moduleAccount(env.config, SETTLEMENT_MODULE) : from;
      send(env, payer, to, [leg.coin]);
      continue;
    }
    const asset = requireAsset(env.kv, leg.right!.asset_id);
    const kind = requireKind(asset, leg.right!.kind_id);
    touched.push(...rights.move(env, asset, kind, from, to, leg.right!.units));
  }
  return touched;
}

function close(env: Env, s: SettlementRec, status: string, reason: string): SettlementRec {
  const closed = { ...s, status, cancel_reason: reason, updated_height: env.height };
  env.kv.set(settlementKey(s.id), closed);
  dequeue(env.kv, QUEUE, s.expiry_ms, s.id);
  for (const assetId of rightAssets(s)) env.kv.delete(`${byAssetParent(assetId)}${String(s.id).padStart(12, '0')}`);
  return closed;
}

function requirePending(env: Env, id: unknown): SettlementRec {
  const s = getSettlement(env.kv, idNumber(id));
  if (!s) throw settlementErrors.notFound(String(id));
  if (s.status !== STATUS_PENDING) throw settlementErrors.notPending(`${s.id} is ${s.status}`);
  return s;
}

// ------------------------------------------------------------------ messages

export function handlePropose(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const proposer = requireAddress(env, msg.proposer, 'proposer');
  const counterparty = requireAddress(env, msg.counterparty, 'counterparty');
  if (proposer === counterparty) throw settlementErrors.invalid('proposer and counterparty are the same account');
  const legs = ((msg.legs as Record<string, unknown>[]) ?? []).map((l, i) => parseLeg(env, l, i));
  if (legs.length === 0) throw settlementErrors.invalidLegs('at least one leg');
  const expiryMs = timestampMs(msg.expiry);
  if (expiryMs === null || expiryMs <= env.timeMs)
    throw settlementErrors.invalid('expiry must be later than the block time');
  const s: SettlementRec = {
    id: nextId(env.kv, 'settlement/next_id'),
    proposer,
    counterparty,
    legs,
    expiry_ms: expiryMs,
    status: STATUS_PENDING,
    cancel_reason: '',
    memo_hash: requireHexHash(msg.memo_hash, 32, true, settlementErrors.invalid),
    created_height: env.height,
    updated_height: env.height,
  };
  const positions = escrow(env, s);
  env.kv.set(settlementKey(s.id), s);
  enqueue(env.kv, QUEUE, expiryMs, s.id);
  for (const assetId of rightAssets(s)) env.kv.set(`${byAssetParent(assetId)}${String(s.id).padStart(12, '0')}`, true);
  emitTyped(env, 'svc.settlement.v1.EventSettlementProposed', {
    settlement_id: s.id,
    proposer,
    counterparty,
    legs: legs.map(legProto),
    expiry: rfc3339(expiryMs),
    memo_hash: s.memo_hash,
    positions_after: positions,
  });
  return { settlement_id: s.id };
}

export function handleAccept(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const sender = requireAddress(env, msg.counterparty, 'counterparty');
  const s = requirePending(env, msg.settlement_id);
  if (sender !== s.counterparty) throw settlementErrors.unauthorized(`${sender} is not the counterparty of ${s.id}`);
  if (env.timeMs >= s.expiry_ms)
    throw settlementErrors.expired(`settlement ${s.id} expired at ${rfc3339(s.expiry_ms)}`);
  const positions = deliver(env, s);
  close(env, s, 'STATUS_SETTLED', '');
  emitTyped(env, 'svc.settlement.v1.EventSettlementSettled', {
    settlement_id: s.id,
    accepted_by: sender,
    positions_after: positions,
  });
  return {};
}

/** Cancels a PENDING settlement and refunds its escrow (party cancel or liquidation). */
export function cancel(env: Env, s: SettlementRec, by: string, reason: string): void {
  const positions = refund(env, s);
  close(env, s, 'STATUS_CANCELLED', reason);
  emitTyped(env, 'svc.settlement.v1.EventSettlementCancelled', {
    settlement_id: s.id,
    cancelled_by: by,
    reason,
    positions_after: positions,
  });
}

export function handleCancel(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const sender = requireAddress(env, msg.sender, 'sender');
  const s = requirePending(env, msg.settlement_id);
  if (sender !== s.proposer && sender !== s.counterparty)
    throw settlementErrors.unauthorized(`${sender} is not a party of ${s.id}`);
  cancel(env, s, sender, '');
  return {};
}

/** Waterfall: cancels every PENDING settlement with a right leg of a liquidating asset. */
export function cancelForLiquidation(env: Env, asset: AssetRec, by: string): void {
  for (const id of pendingIdsOfAsset(env.kv, asset.asset_id)) {
    const s = getSettlement(env.kv, id);
    if (s && s.status === STATUS_PENDING) cancel(env, s, by, 'LIQUIDATION');
  }
}

// ------------------------------------------------------------------ EndBlock

export function sweepExpired(env: Env): void {
  for (const id of takeDue(env.kv, QUEUE, env.timeMs)) {
    const s = getSettlement(env.kv, id);
    if (!s || s.status !== STATUS_PENDING) continue;
    const positions = refund(env, s);
    close(env, s, 'STATUS_EXPIRED', '');
    emitTyped(env, 'svc.settlement.v1.EventSettlementExpired', { settlement_id: s.id, positions_after: positions });
  }
}
