/**
 * Drift: a post-value an event carries (positions_after, supply_after, module_held_after,
 * counters_after, a status change's previous status...) that disagrees with the state the
 * indexer derived. Policy: the derived value is kept, the disagreement is stored as a Drift row
 * and counted into ChainTotals.drift_total. Never thrown: a drift must not stop the node.
 */
import { Drift } from '../../types';
import { markDirty, put } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';
import { chainTotals } from './totals';

/** Stores one drift row for the event in hand and counts it in the chain totals. */
export async function recordDrift(
  ctx: EventCtx<unknown>,
  entity: string,
  entityId: string,
  field: string,
  chainValue: unknown,
  derivedValue: unknown,
): Promise<void> {
  const n = ctx.driftCount++;
  put(
    Drift,
    Drift.create({
      id: `${ctx.height}-${ctx.txIndex}-${ctx.eventIndex}-${n}`,
      seq: ctx.seq,
      height: ctx.height,
      txIndex: ctx.txIndex,
      eventIndex: ctx.eventIndex,
      txHash: ctx.txHash ?? undefined,
      eventType: ctx.type,
      entity,
      entityId,
      field,
      chainValue: String(chainValue),
      derivedValue: String(derivedValue),
      blockTime: ctx.blockTime,
    }),
  );
  const totals = await chainTotals(ctx.height, ctx.blockTime);
  totals.driftTotal += 1;
  markDirty(totals);
}

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
