/** Asset, Kind, Accrual, holder and graph objects (openapi `assets` schemas). */
import type { ApiSchema } from './contract';
import { carryAmount } from '../../src/lib/accrual';
import type { SupplySnapshot } from '../../reconciler/checks';
import type { AccrualAnswer } from '../../reconciler/chain-at-height';
import { formatNullableTimestamp, formatTimestamp, amountString, byCodePoint, jsonValue, str, toInt } from './values';

export interface AssetRow {
  id: string;
  issuer: string;
  status: string;
  kind_count: number;
  issuance_locked: boolean;
  meta_hash: string;
  created_height: number;
  created_at: string;
}

export interface AssetDetailRow extends AssetRow {
  nonce: string;
  policy: unknown;
  roles: unknown;
  settlement_denom: string;
  liens_allowed: boolean;
  distribution_denoms: unknown;
  bundle_address: string;
  created_tx_hash: string;
  updated_height: number;
}

export interface KindRow {
  kind_id: number;
  kind_class: string;
  decimals: number;
  bundle: boolean;
  transferable: boolean;
  term: unknown;
  policy_override: unknown;
  bridgeable: boolean;
  multiplier: string;
  supply: string;
  holder_count: number;
  svc20_address: string;
}

export interface AccrualRow {
  kind_id: number;
  denom: string;
  index: string;
  carry_scaled: string;
  total_distributed: string;
  total_paid: string;
  distributions_count: number;
  module_held: string;
  /** Σ over the accrual's claimable entries of accrued + pending, computed in SQL */
  sum_claimable: string;
  updated_height: number;
}

export interface InvariantCheckRow {
  asset_id: string;
  kind_id: number;
  height: number;
  agree: boolean;
  chain: unknown;
  indexer: unknown;
}

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

/** The reconciler's SupplySnapshot as stored (reconciler/checks.ts writes it): every field present. */
function supplySnapshot(raw: unknown): SupplySnapshot & ApiSchema<'SupplySnapshot'> {
  const s = (jsonValue<Record<string, unknown> | null>(raw) ?? {}) as Record<string, unknown>;
  return {
    exists: s.exists !== false,
    supply: amountString(String(s.supply ?? '0')),
    holder_count: toInt(String(s.holder_count ?? 0)),
    holders_sum: amountString(String(s.holders_sum ?? '0')),
    accruals: Array.isArray(s.accruals) ? (s.accruals as (AccrualAnswer & Record<string, unknown>)[]) : [],
  };
}

export function presentInvariantCheck(row: InvariantCheckRow): ApiSchema<'InvariantCheck'> {
  return {
    asset_id: row.asset_id,
    kind_id: row.kind_id,
    height: row.height,
    agree: row.agree,
    chain: supplySnapshot(row.chain),
    indexer: supplySnapshot(row.indexer),
  };
}

/** The latest check of each kind; agree = every kind agrees; null before the first check. */
export function presentLatestInvariantCheck(
  rows: readonly InvariantCheckRow[],
): ApiSchema<'LatestInvariantCheck'> | null {
  if (rows.length === 0) return null;
  return {
    height: Math.max(...rows.map((r) => r.height)),
    agree: rows.every((r) => r.agree),
    checks: rows.map(presentInvariantCheck),
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
  checks: readonly InvariantCheckRow[],
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

export interface HoldingRow {
  holder: string;
  units: string;
  locked: string;
  locks: unknown;
}

export interface EncumbranceSummaryRow {
  id: string;
  kind: string;
  beneficiary: string;
  units: string;
  status: string;
  expiry: string | null;
  holder_release_after: string | null;
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

/** A lock held by an encumbrance: `encumbrance/<id>` (the id is the first group; also read in SQL, see assetRepository.holdersPage). */
export const ENCUMBRANCE_REF_PATTERN = '^encumbrance/([0-9]+)$';
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
