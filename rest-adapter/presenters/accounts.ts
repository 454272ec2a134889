/** Account parts: positions, locks, claimable income, voting power, attestations (delegations and settlements: their own presenters). */
import type { ApiSchema } from './contract';
import { pendingIncome } from '../../src/lib/accrual';
import { fromBaseUnits } from '../../src/lib/amount';
import { amountString, byCodePoint, formatTimestamp, timestampMs } from './values';
import { LockJson, presentLocks } from './assets';
import type { AttestationRow, ClaimableRow, PositionRow, VotingPowerRow } from '../repositories/accounts';

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
