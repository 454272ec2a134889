/** InvariantCheck objects and an asset's latest_invariant_check (openapi `InvariantCheck`, `LatestInvariantCheck`). */
import type { ApiSchema } from './contract';
import type { AccrualAnswer, InvariantCheckRead, SupplySnapshot } from '../../src/store';
import { amountString, jsonValue, toInt } from './values';

/** The reconciler's SupplySnapshot as stored (src/store/checks.ts): every field present. */
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

export function presentInvariantCheck(row: InvariantCheckRead): ApiSchema<'InvariantCheck'> {
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
  rows: readonly InvariantCheckRead[],
): ApiSchema<'LatestInvariantCheck'> | null {
  if (rows.length === 0) return null;
  return {
    height: Math.max(...rows.map((r) => r.height)),
    agree: rows.every((r) => r.agree),
    checks: rows.map(presentInvariantCheck),
  };
}
