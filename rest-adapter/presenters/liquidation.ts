/** AssetLiquidation: waterfall tiers, liquidation record and redemption pools. */
import type { ApiSchema } from './contract';
import type { LiquidationRow, RedemptionPoolRow } from '../repositories/assetRepository';
import { amountString, formatTimestamp, jsonValue, str } from './values';

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
