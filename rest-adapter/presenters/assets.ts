/** Asset, Kind, Accrual, holder and graph objects (openapi `assets` schemas). */
import type { ApiSchema } from './contract';
import { carryAmount } from '../../src/lib/accrual';
import type {
  AccrualRow,
  AssetDetailRow,
  AssetRow,
  EncumbranceSummaryRow,
  HoldingRow,
  KindRow,
  LiquidationRow,
  RedemptionPoolRow,
} from '../repositories/assets';
import type { InvariantCheckRead } from '../../src/store';
import { ENCUMBRANCE_REF_PATTERN } from '../repositories/assets';
import { presentLatestInvariantCheck } from './invariants';
import { formatNullableTimestamp, formatTimestamp, amountString, byCodePoint, jsonValue, str, toInt } from './values';

export interface LockJson {
  ref: string;
  units: string;
}

export interface Policy {
  transfer: string;
  attestation_type: string;
  attester: string;
  allowlist: string[];
}

const TRANSFER_MODES = new Set(['TRANSFER_MODE_OPEN', 'TRANSFER_MODE_ATTESTED', 'TRANSFER_MODE_RESTRICTED']);

/** Policy with every field; an unspecified mode is OPEN, as the chain stores it. */
export function presentPolicy(raw: unknown): Policy & ApiSchema<'Policy'> {
  const p = (jsonValue<Record<string, unknown> | null>(raw) ?? {}) as Record<string, unknown>;
  const transfer = str(p.transfer);
  return {
    transfer: TRANSFER_MODES.has(transfer) ? transfer : 'TRANSFER_MODE_OPEN',
    attestation_type: str(p.attestation_type),
    attester: str(p.attester),
    allowlist: Array.isArray(p.allowlist) ? p.allowlist.map(String) : [],
  };
}

export function presentRoles(raw: unknown): ApiSchema<'Roles'> {
  const r = (jsonValue<Record<string, unknown> | null>(raw) ?? {}) as Record<string, unknown>;
  return { operator: str(r.operator), releaser: str(r.releaser) };
}

function presentTerm(raw: unknown): ApiSchema<'Term'> | null {
  const term = jsonValue<Record<string, unknown> | null>(raw);
  if (!term) return null;
  const time = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
  return { start: time(term.start), end: time(term.end), label: str(term.label) };
}

function isSet(raw: unknown): boolean {
  const v = jsonValue(raw);
  return v !== null && v !== undefined;
}

export function presentKind(row: KindRow, assetPolicy: unknown): ApiSchema<'Kind'> {
  const overridden = isSet(row.policy_override);
  const multiplier = BigInt(row.multiplier);
  const supply = BigInt(row.supply);
  return {
    kind_id: row.kind_id,
    class: row.kind_class,
    decimals: row.decimals,
    bundle: row.bundle,
    transferable: row.transferable,
    term: presentTerm(row.term),
    policy_override: overridden ? presentPolicy(row.policy_override) : null,
    effective_policy: presentPolicy(overridden ? row.policy_override : assetPolicy),
    policy_source: overridden ? 'KIND_OVERRIDE' : 'ASSET',
    multiplier: Number(multiplier),
    supply: supply.toString(),
    effective_supply: {
      raw: supply.toString(),
      multiplier: Number(multiplier),
      effective: (supply * multiplier).toString(),
    },
    holder_count: row.holder_count,
    bridgeable: row.bridgeable,
    svc20_address: row.svc20_address,
  };
}

/** Accrual with residue = module_held − Σ claimable − carry (signed: a drift shows). */
export function presentAccrual(row: AccrualRow): ApiSchema<'Accrual'> {
  const moduleHeld = BigInt(row.module_held);
  const sumClaimable = BigInt(row.sum_claimable);
  const carry = carryAmount(BigInt(row.carry_scaled));
  return {
    kind_id: row.kind_id,
    denom: row.denom,
    index: amountString(row.index),
    carry_scaled: amountString(row.carry_scaled),
    total_distributed: amountString(row.total_distributed),
    total_paid: amountString(row.total_paid),
    distributions_count: row.distributions_count,
    module_held: moduleHeld.toString(),
    sum_claimable: sumClaimable.toString(),
    carry: carry.toString(),
    residue: (moduleHeld - sumClaimable - carry).toString(),
    updated_height: row.updated_height,
  };
}

export function presentAssetSummary(row: AssetRow): ApiSchema<'AssetSummary'> {
  return {
    id: row.id,
    issuer: row.issuer,
    status: row.status,
    kind_count: row.kind_count,
    issuance_locked: row.issuance_locked,
    meta_hash: row.meta_hash,
    created_height: row.created_height,
    created_at: formatTimestamp(row.created_at),
  };
}

export function presentAsset(
  row: AssetDetailRow,
  kinds: readonly KindRow[],
  accruals: readonly AccrualRow[],
  checks: readonly InvariantCheckRead[],
): ApiSchema<'Asset'> {
  return {
    id: row.id,
    issuer: row.issuer,
    status: row.status,
    policy: presentPolicy(row.policy),
    roles: presentRoles(row.roles),
    meta_hash: row.meta_hash,
    settlement_denom: row.settlement_denom,
    nonce: toInt(row.nonce),
    kind_count: row.kind_count,
    issuance_locked: row.issuance_locked,
    liens_allowed: row.liens_allowed,
    distribution_denoms: (jsonValue<unknown[] | null>(row.distribution_denoms) ?? []).map(String),
    accruals: accruals.map(presentAccrual),
    created_height: row.created_height,
    created_tx_hash: row.created_tx_hash,
    created_at: formatTimestamp(row.created_at),
    updated_height: row.updated_height,
    kinds: kinds.map((k) => presentKind(k, row.policy)),
    latest_invariant_check: presentLatestInvariantCheck(checks),
    bundle_address: row.bundle_address,
  };
}

/** A position's locks as stored ([{ref, units}]), ordered by ref. */
export function presentLocks(raw: unknown): LockJson[] {
  const locks = jsonValue<LockJson[] | null>(raw) ?? [];
  return locks
    .map((l) => ({ ref: String(l.ref), units: amountString(l.units) }))
    .sort((a, b) => byCodePoint(a.ref, b.ref));
}

export function presentPositionEncumbrance(row: EncumbranceSummaryRow): ApiSchema<'PositionEncumbrance'> {
  return {
    id: toInt(row.id),
    kind: row.kind,
    beneficiary: row.beneficiary,
    units: amountString(row.units),
    status: row.status,
    expiry: formatNullableTimestamp(row.expiry),
    holder_release_after: formatNullableTimestamp(row.holder_release_after),
  };
}

const ENCUMBRANCE_REF_RE = new RegExp(ENCUMBRANCE_REF_PATTERN);

/** Ids of the encumbrances behind a position's `encumbrance/<id>` locks. */
export function encumbranceIdsOf(locks: readonly LockJson[]): string[] {
  return locks.map((l) => ENCUMBRANCE_REF_RE.exec(l.ref)?.[1]).filter((id): id is string => id !== undefined);
}

/** The fields a graph holder and a Holder share (openapi GraphHolder is their open form). */
function holderFields(row: HoldingRow) {
  return {
    holder: row.holder,
    units: amountString(row.units),
    encumbered: amountString(row.locked),
    locks: presentLocks(row.locks),
  };
}

export function presentGraphHolder(row: HoldingRow): ApiSchema<'GraphHolder'> {
  return holderFields(row);
}

/** Holder with the typed breakdown of its ACTIVE encumbrances (by id). */
export function presentHolder(
  row: HoldingRow,
  encumbrances: ReadonlyMap<string, EncumbranceSummaryRow>,
): ApiSchema<'Holder'> {
  const locks = presentLocks(row.locks);
  const active = encumbranceIdsOf(locks)
    .map((id) => encumbrances.get(id))
    .filter((e): e is EncumbranceSummaryRow => e !== undefined && e.status === 'active')
    .sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
  return { ...holderFields(row), locks, encumbrances: active.map(presentPositionEncumbrance) };
}

// ---- AssetLiquidation: waterfall tiers, liquidation record and redemption pools

interface StoredTier {
  rank?: unknown;
  kind_id?: unknown;
  claim_per_unit?: unknown;
  owed?: unknown;
  paid?: unknown;
  cumulative_paid?: unknown;
}

const amountOr0 = (v: unknown) => amountString(str(v) || '0');

/** Tiers by rank; owed/paid/cumulative_paid "0" before a liquidation. */
export function presentWaterfall(raw: unknown): ApiSchema<'WaterfallTier'>[] {
  const tiers = jsonValue<StoredTier[] | null | undefined>(raw) ?? [];
  return tiers
    .map((t) => ({
      rank: Number(t.rank ?? 0),
      kind_id: Number(t.kind_id ?? 0),
      claim_per_unit: amountOr0(t.claim_per_unit),
      owed: amountOr0(t.owed),
      paid: amountOr0(t.paid),
      cumulative_paid: amountOr0(t.cumulative_paid),
    }))
    .sort((a, b) => a.rank - b.rank);
}

export function presentLiquidationRecord(row: LiquidationRow | undefined): ApiSchema<'Liquidation'> | null {
  if (!row) return null;
  return {
    status: row.completed_height === null ? 'started' : 'completed',
    denom: row.denom,
    proceeds: amountString(row.proceeds),
    surplus: amountString(row.surplus),
    started_height: row.started_height,
    started_at: formatTimestamp(row.started_at),
    completed_height: row.completed_height,
  };
}

export function presentRedemptionPool(row: RedemptionPoolRow): ApiSchema<'RedemptionPool'> {
  return {
    kind_id: row.kind_id,
    denom: row.denom,
    amount: amountString(row.amount),
    units_outstanding: amountString(row.units_outstanding),
  };
}
