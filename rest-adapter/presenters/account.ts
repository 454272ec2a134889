/** Account parts: positions, locks, claimable income, voting power, attestations, delegations, settlements. */
import type { ApiSchema } from './contract';
import { pendingIncome } from '../../src/lib/accrual';
import { fromBaseUnits } from '../../src/lib/amount';
import { amountString, byCodePoint, formatTimestamp, jsonValue, str, timestampMs, toInt } from './values';
import { LockJson, presentLocks } from './asset';

export interface PositionRow {
  asset_id: string;
  kind_id: number;
  kind_class: string;
  decimals: number;
  units: string;
  locked: string;
  locks: unknown;
}

export interface ClaimableRow {
  routed_from: string;
  ref: string;
  asset_id: string;
  kind_id: number;
  denom: string;
  units: string;
  snapshot_index: string;
  accrued: string;
  /** the accrual's current index */
  index: string;
}

export interface VotingPowerRow {
  asset_id: string;
  kind_id: number;
  delegated_out: string;
  delegated_in: string;
}

export interface AttestationRow {
  type: string;
  attester: string;
  expiry: string;
  revoked: boolean;
  evidence_hash: string;
  updated_height: number;
}

export interface DelegationRow {
  id: string;
  holder: string;
  asset_id: string;
  delegate: string;
  kind_id: number;
  units: string;
  until: string;
  purposes: unknown;
  revocable: boolean;
  ended: string;
  created_height: number;
  created_tx_hash: string;
  ended_height: number | null;
}

export interface SettlementRow {
  id: string;
  proposer: string;
  counterparty: string;
  legs: unknown;
  expiry: string;
  status: string;
  cancel_reason: string;
  memo_hash: string;
  created_height: number;
  created_tx_hash: string;
  created_at: string;
  updated_height: number;
}

/** Positions with units > 0 grouped by asset (asset_id, then kind_id order from the query). */
export function presentAssets(rows: readonly PositionRow[]): ApiSchema<'AccountAsset'>[] {
  const byAsset = new Map<string, ReturnType<typeof presentPosition>[]>();
  for (const row of rows) {
    if (BigInt(row.units) <= 0n) continue;
    const list = byAsset.get(row.asset_id) ?? [];
    list.push(presentPosition(row));
    byAsset.set(row.asset_id, list);
  }
  return [...byAsset.entries()].map(([asset_id, positions]) => ({ asset_id, positions }));
}

function presentPosition(row: PositionRow): ApiSchema<'AccountPosition'> {
  return {
    kind_id: row.kind_id,
    class: row.kind_class,
    units: amountString(row.units),
    encumbered: amountString(row.locked),
    whole_units: fromBaseUnits(BigInt(row.units), row.decimals),
    locks: presentLocks(row.locks),
  };
}

/** Every lock of the account, by asset_id, kind_id, ref. */
export function presentAccountLocks(rows: readonly PositionRow[]): ApiSchema<'AccountLock'>[] {
  return rows
    .flatMap((row) =>
      presentLocks(row.locks).map((l: LockJson) => ({
        asset_id: row.asset_id,
        kind_id: row.kind_id,
        ref: l.ref,
        units: l.units,
      })),
    )
    .sort((a, b) => byCodePoint(a.asset_id, b.asset_id) || a.kind_id - b.kind_id || byCodePoint(a.ref, b.ref));
}

/**
 * Claimable entries: pending = floor(units × (index − snapshot) / 10^18) (src/lib/accrual),
 * total = accrued + pending; entries with nothing to claim are left out, as the chain's
 * Claimable query does. By asset_id, kind_id, denom, routed_from.
 */
export function presentClaimable(rows: readonly ClaimableRow[]): ApiSchema<'ClaimableEntry'>[] {
  return rows
    .map((r) => {
      const index = BigInt(r.index);
      const snapshot = BigInt(r.snapshot_index);
      const pending = index > snapshot ? pendingIncome(BigInt(r.units), index, snapshot) : 0n;
      const accrued = BigInt(r.accrued);
      return {
        routed_from: r.routed_from,
        ref: r.ref,
        asset_id: r.asset_id,
        denom: r.denom,
        kind_id: r.kind_id,
        pending,
        accrued,
        total: pending + accrued,
      };
    })
    .filter((e) => e.total > 0n)
    .sort(
      (a, b) =>
        byCodePoint(a.asset_id, b.asset_id) ||
        a.kind_id - b.kind_id ||
        byCodePoint(a.denom, b.denom) ||
        byCodePoint(a.routed_from, b.routed_from) ||
        byCodePoint(a.ref, b.ref),
    )
    .map((e) => ({ ...e, pending: e.pending.toString(), accrued: e.accrued.toString(), total: e.total.toString() }));
}

interface KindPower {
  kind_id: number;
  own: bigint;
  delegated_out: bigint;
  delegated_in: bigint;
}

/**
 * Voting power per asset over its VOTE-class kinds: own units (locked ones included),
 * minus what is delegated out, plus what is delegated in. One entry per asset with any
 * of the three non-zero, by asset_id; kinds by kind_id.
 */
export function presentVotingPower(
  positions: readonly PositionRow[],
  delegated: readonly VotingPowerRow[],
): ApiSchema<'VotingPower'>[] {
  const kinds = new Map<string, KindPower>();
  const kindOf = (assetId: string, kindId: number): KindPower => {
    const key = `${assetId}|${kindId}`;
    const found = kinds.get(key) ?? { kind_id: kindId, own: 0n, delegated_out: 0n, delegated_in: 0n };
    kinds.set(key, found);
    return found;
  };
  for (const p of positions)
    if (p.kind_class === 'VOTE' && BigInt(p.units) > 0n) kindOf(p.asset_id, p.kind_id).own += BigInt(p.units);
  for (const d of delegated) {
    const k = kindOf(d.asset_id, d.kind_id);
    k.delegated_out += BigInt(d.delegated_out);
    k.delegated_in += BigInt(d.delegated_in);
  }
  const byAsset = new Map<string, KindPower[]>();
  for (const [key, k] of kinds) {
    if (k.own === 0n && k.delegated_out === 0n && k.delegated_in === 0n) continue;
    const assetId = key.split('|')[0];
    byAsset.set(assetId, [...(byAsset.get(assetId) ?? []), k]);
  }
  return [...byAsset.keys()].sort(byCodePoint).map((assetId) => votingPowerOf(assetId, byAsset.get(assetId)!));
}

function votingPowerOf(assetId: string, kinds: KindPower[]) {
  const sum = (f: (k: KindPower) => bigint) => kinds.reduce((acc, k) => acc + f(k), 0n);
  const own = sum((k) => k.own);
  const out = sum((k) => k.delegated_out);
  const inn = sum((k) => k.delegated_in);
  return {
    asset_id: assetId,
    own: own.toString(),
    delegated_out: out.toString(),
    delegated_in: inn.toString(),
    voting_power: {
      total: (own - out + inn).toString(),
      by_kind: kinds
        .sort((a, b) => a.kind_id - b.kind_id)
        .map((k) => ({
          kind_id: k.kind_id,
          own: k.own.toString(),
          delegated_out: k.delegated_out.toString(),
          delegated_in: k.delegated_in.toString(),
          total: (k.own - k.delegated_out + k.delegated_in).toString(),
        })),
    },
  };
}

/** live = not revoked and expiry later than the latest block time. */
export function presentAttestation(row: AttestationRow, latestBlockTimeMs: number): ApiSchema<'Attestation'> {
  return {
    type: row.type,
    attester: row.attester,
    expiry: formatTimestamp(row.expiry),
    revoked: row.revoked,
    evidence_hash: row.evidence_hash,
    live: !row.revoked && timestampMs(row.expiry) > latestBlockTimeMs,
    updated_height: row.updated_height,
  };
}

export function presentDelegation(row: DelegationRow): ApiSchema<'Delegation'> {
  return {
    id: toInt(row.id),
    holder: row.holder,
    asset_id: row.asset_id,
    delegate: row.delegate,
    kind_id: row.kind_id,
    units: amountString(row.units),
    until: formatTimestamp(row.until),
    purposes: (jsonValue<unknown[] | null>(row.purposes) ?? []).map(String),
    revocable: row.revocable,
    ended: row.ended,
    created_height: row.created_height,
    created_tx_hash: row.created_tx_hash,
    ended_height: row.ended_height,
  };
}

interface StoredLeg {
  direction?: unknown;
  right?: { asset_id?: unknown; kind_id?: unknown; units?: unknown } | null;
  coin?: { denom?: unknown; amount?: unknown } | null;
}

/** A Leg with exactly one of `right` or `coin` (proto-JSON may carry the unset one as null). */
function presentLeg(leg: StoredLeg): ApiSchema<'Leg'> {
  if (leg.right) {
    const r = leg.right;
    return {
      direction: str(leg.direction),
      right: { asset_id: str(r.asset_id), kind_id: Number(r.kind_id ?? 0), units: amountString(str(r.units) || '0') },
    };
  }
  const c = leg.coin ?? {};
  return { direction: str(leg.direction), coin: { denom: str(c.denom), amount: amountString(str(c.amount) || '0') } };
}

export function presentSettlement(row: SettlementRow): ApiSchema<'Settlement'> {
  return {
    id: toInt(row.id),
    proposer: row.proposer,
    counterparty: row.counterparty,
    legs: (jsonValue<StoredLeg[] | null>(row.legs) ?? []).map(presentLeg),
    expiry: formatTimestamp(row.expiry),
    status: row.status,
    cancel_reason: row.cancel_reason,
    memo_hash: row.memo_hash,
    created_height: row.created_height,
    created_tx_hash: row.created_tx_hash,
    created_at: formatTimestamp(row.created_at),
    updated_height: row.updated_height,
  };
}
