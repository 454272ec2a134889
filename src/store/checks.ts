/**
 * The rows of the reconciler's check tables (schema.graphql InvariantCheck, Svc20Check,
 * I8Check): the reconciler writes them (reconciler/check-writer.ts), the rest-adapter reads
 * them back for /v1/invariants and an asset's latest check. openapi.yaml describes each.
 */

/** A denom's accrual as each side reports it (the chain's accrual query, the store's accruals row). */
export interface AccrualAnswer {
  denom: string;
  index: string;
  carry_scaled: string;
  module_held: string;
  total_distributed: string;
  total_paid: string;
  distributions_count: number;
}

/** One side's view of an (asset, kind): the `chain` and `indexer` objects of an InvariantCheck. */
export interface SupplySnapshot {
  /** false when this side does not know the kind at all */
  exists: boolean;
  supply: string;
  holder_count: number;
  /** Σ units over the kind's holders; equals supply on a consistent side */
  holders_sum: string;
  /** per denom with anything accrued, by denom */
  accruals: AccrualAnswer[];
}

export interface InvariantCheckRow {
  id: string;
  asset_id: string;
  kind_id: number;
  height: number;
  agree: boolean;
  chain: SupplySnapshot;
  indexer: SupplySnapshot;
}

export interface Svc20CheckRow {
  id: string;
  asset_id: string;
  kind_id: number | null;
  bundle: boolean;
  height: number;
  indexer_address: string;
  chain_address: string;
  evaluated: boolean;
  agree: boolean;
}

export interface I8CheckRow {
  id: string;
  route_id: string;
  height: number;
  chain_actual: string;
  indexer_actual: string;
  chain_ok: boolean;
  evaluated: boolean;
  agree: boolean;
}

/** An invariant check as read back: no id; `chain` and `indexer` as the driver returns the stored JSON. */
export type InvariantCheckRead = Omit<InvariantCheckRow, 'id' | 'chain' | 'indexer'> & {
  chain: unknown;
  indexer: unknown;
};

/** A registry check as read back: every column but the id. */
export type Svc20CheckRead = Omit<Svc20CheckRow, 'id'>;
