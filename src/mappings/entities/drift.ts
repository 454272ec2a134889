/**
 * Drift rows: a post-value the chain stated that disagrees with the derived state (the policy is
 * in domain/drift.ts). Each row is counted into ChainTotals.drift_total.
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
