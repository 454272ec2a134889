/**
 * Income accrual math (the payout module's index scheme), mirrored exactly so the
 * indexer can recompute the chain's numbers and report drift.
 *
 * Each (asset, kind, denom) keeps a cumulative `index` of income per unit, scaled by
 * 10^18, plus `carry_scaled`, the scaled remainder that did not divide evenly by the
 * supply. A distribution of `amount` over `supply` units:
 *
 *   total       = amount * SCALE + carry_scaled
 *   index_delta = floor(total / supply)
 *   carry'      = total mod supply            (always < supply, carried to the next one)
 *
 * A holder's income between two index values is floor(units * Δindex / SCALE): each
 * holder floors separately, so the sum over holders can fall short of what the index
 * covers by less than one base unit per holder. That shortfall stays in the module
 * account as `residue` = module_held − Σ claimable − carry; it is reported, not swept.
 *
 * Conservation (exact, in scaled units), over a run of distributions d starting from carry c0:
 *   c0 + Σ_d amount_d * SCALE = Σ_d supply_d * index_delta_d + final carry_scaled.
 */
import { InvalidInputError } from './errors';

/** Fixed-point scale of the income index. */
export const INDEX_SCALE = 10n ** 18n;

export interface DistributeInput {
  /** current cumulative index (scaled) */
  index: bigint;
  /** scaled remainder carried from the previous distribution */
  carryScaled: bigint;
  /** units of the kind outstanding at distribution time */
  supply: bigint;
  /** amount distributed, in base units of the denom */
  amount: bigint;
}

export interface DistributeResult {
  newIndex: bigint;
  carryScaled: bigint;
  indexDelta: bigint;
}

function assertBigint(name: string, v: unknown): asserts v is bigint {
  if (typeof v !== 'bigint') throw new InvalidInputError(`${name} must be a bigint`);
}

/** Applies one distribution to an accrual (see module comment). */
export function distribute({ index, carryScaled, supply, amount }: DistributeInput): DistributeResult {
  assertBigint('index', index);
  assertBigint('carryScaled', carryScaled);
  assertBigint('supply', supply);
  assertBigint('amount', amount);
  if (supply <= 0n) throw new InvalidInputError('supply must be positive');
  if (amount <= 0n) throw new InvalidInputError('amount must be positive');
  if (index < 0n) throw new InvalidInputError('index must be non-negative');
  // carry is not required to be < supply here: supply may have shrunk since it was computed.
  if (carryScaled < 0n) throw new InvalidInputError('carryScaled must be non-negative');
  const total = amount * INDEX_SCALE + carryScaled;
  const indexDelta = total / supply;
  return { newIndex: index + indexDelta, carryScaled: total % supply, indexDelta };
}

/** Income earned by `units` since `snapshotIndex`: floor(units * (index − snapshot) / SCALE). */
export function pendingIncome(units: bigint, index: bigint, snapshotIndex: bigint): bigint {
  assertBigint('units', units);
  assertBigint('index', index);
  assertBigint('snapshotIndex', snapshotIndex);
  if (units < 0n) throw new InvalidInputError('units must be non-negative');
  if (index < snapshotIndex) throw new InvalidInputError('index must not be below the snapshot index');
  return (units * (index - snapshotIndex)) / INDEX_SCALE;
}

/** Whole base units held back by the carry: floor(carryScaled / SCALE). */
export function carryAmount(carryScaled: bigint): bigint {
  assertBigint('carryScaled', carryScaled);
  if (carryScaled < 0n) throw new InvalidInputError('carryScaled must be non-negative');
  return carryScaled / INDEX_SCALE;
}

export interface ResidueInput {
  /** balance of the denom held by the payout module for this accrual */
  moduleHeld: bigint;
  /** Σ over holders of (pending + accrued) */
  sumClaimable: bigint;
  /** carryAmount(carryScaled) */
  carry: bigint;
}

/**
 * Per-holder floor residue = moduleHeld − sumClaimable − carry. Not clamped: a negative
 * value means the books disagree and must be visible as such.
 */
export function residue({ moduleHeld, sumClaimable, carry }: ResidueInput): bigint {
  assertBigint('moduleHeld', moduleHeld);
  assertBigint('sumClaimable', sumClaimable);
  assertBigint('carry', carry);
  return moduleHeld - sumClaimable - carry;
}
