/** Settlement rows (pending at proposal, closed when settled, cancelled or expired) and their timeline entries. */
import { AnyJson, Settlement, SettlementTimelineEntry } from '../../types';
import type { EventSettlementProposed, Leg as LegJson } from '../generated/proto-json';
import { put } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';
import { big, date, str } from '../infra/values';
import { update } from './entity';

/** A proposed settlement; `assetIds` are the assets of its right legs. */
export function createSettlement(ctx: EventCtx<unknown>, e: EventSettlementProposed, assetIds: string[]): Settlement {
  const id = str(e.settlement_id);
  return put(
    Settlement,
    Settlement.create({
      id,
      number: big(id),
      proposer: e.proposer,
      counterparty: e.counterparty,
      legs: (e.legs ?? []) as unknown as AnyJson[],
      expiry: date(e.expiry) ?? new Date(0),
      status: 'STATUS_PENDING',
      cancelReason: '',
      memoHash: str(e.memo_hash),
      assetIds,
      createdHeight: ctx.height,
      createdTxHash: str(ctx.txHash),
      createdAt: ctx.blockTime,
      updatedHeight: ctx.height,
    }),
  );
}

/** One step of a settlement's life (`what`: proposed, settled, cancelled, expired) at the event in hand. */
export function addSettlementTimeline(
  ctx: EventCtx<unknown>,
  settlementId: string,
  what: string,
  actor?: string,
  reason?: string,
): void {
  put(
    SettlementTimelineEntry,
    SettlementTimelineEntry.create({
      id: `${settlementId}-${ctx.height}-${ctx.txIndex}-${ctx.eventIndex}`,
      settlementId,
      seq: ctx.seq,
      event: what,
      height: ctx.height,
      txIndex: ctx.txIndex,
      eventIndex: ctx.eventIndex,
      blockTime: ctx.blockTime,
      txHash: ctx.txHash ?? undefined,
      actor: actor || undefined,
      reason,
      mode: ctx.mode,
    }),
  );
}

/** The settlement's legs, as Settlement.legs stores them (the event's proto-JSON). */
export function legsOf(s: Settlement): LegJson[] {
  return s.legs as unknown as LegJson[];
}

/** The settlement ended (`status`: STATUS_SETTLED, STATUS_CANCELLED with its reason, STATUS_EXPIRED). */
export function closeSettlement(ctx: EventCtx<unknown>, s: Settlement, status: string, cancelReason?: string): void {
  update(ctx, s, cancelReason === undefined ? { status } : { cancelReason, status });
}
