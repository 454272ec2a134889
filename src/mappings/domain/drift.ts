/**
 * Drift: a post-value an event carries (positions_after, supply_after,
 * module_held_after, counters_after...) that disagrees with the state the
 * indexer derived. Policy: the derived value is kept, the disagreement is
 * stored as a Drift row (entities/drift.ts) and counted into
 * ChainTotals.drift_total. Never thrown: a drift must not stop the node.
 */
import type { EventCtx } from '../infra/context';
import { recordDrift } from '../entities/drift';

/** Compares a chain post-value with the derived one; records a drift when they differ. Skips absent post-values. */
export async function expectEqual(
  ctx: EventCtx<unknown>,
  entity: string,
  entityId: string,
  field: string,
  chainValue: bigint | number | string | boolean | undefined | null,
  derivedValue: bigint | number | string | boolean,
): Promise<void> {
  if (chainValue === undefined || chainValue === null) return;
  if (String(chainValue) !== String(derivedValue))
    await recordDrift(ctx, entity, entityId, field, chainValue, derivedValue);
}
