/**
 * Encumbrance rows (active when created, resolved when they end), their timeline entries, and
 * their versions (EncumbranceVersion: a holder's encumbrances at a past height read them).
 */
import { AnyJson, Encumbrance, EncumbranceTimelineEntry, EncumbranceVersion } from '../../types';
import type { EventEncumbranceCreated } from '../generated/proto-json';
import { keepVersions, put } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';
import { big, date, enumShort, int, str } from '../infra/values';
import { update } from './entity';

keepVersions(Encumbrance, (e, toHeight) => {
  const { id, updatedHeight, ...fields } = e;
  return EncumbranceVersion.create({
    ...fields,
    id: `${id}@${updatedHeight}`,
    of: id,
    fromHeight: updatedHeight,
    toHeight,
  });
});

export function createEncumbrance(ctx: EventCtx<unknown>, e: EventEncumbranceCreated): Encumbrance {
  return put(
    Encumbrance,
    Encumbrance.create({
      id: str(e.encumbrance_id),
      kind: enumShort(e.kind, 'ENCUMBRANCE_KIND_'),
      assetId: e.asset_id,
      kindId: int(e.kind_id),
      holder: e.holder,
      units: big(e.units),
      beneficiary: str(e.beneficiary),
      incomeToBeneficiary: Boolean(e.income_to_beneficiary),
      holderReleaseAfter: date(e.holder_release_after),
      exercisable: Boolean(e.exercisable),
      expiry: date(e.expiry),
      evidenceHash: str(e.evidence_hash),
      status: 'active',
      createdHeight: ctx.height,
      createdTxHash: str(ctx.txHash),
      createdAt: ctx.blockTime,
      updatedHeight: ctx.height,
    }),
  );
}

/** One step of an encumbrance's life (`what`: created, released, exercised, expired) at the event in hand. */
export function addEncumbranceTimeline(
  ctx: EventCtx<unknown>,
  enc: Encumbrance,
  what: string,
  actor: string | null,
  actorRole: string,
): void {
  put(
    EncumbranceTimelineEntry,
    EncumbranceTimelineEntry.create({
      id: `${enc.id}-${ctx.height}-${ctx.txIndex}-${ctx.eventIndex}`,
      encumbranceId: enc.id,
      seq: ctx.seq,
      event: what,
      height: ctx.height,
      txIndex: ctx.txIndex,
      eventIndex: ctx.eventIndex,
      blockTime: ctx.blockTime,
      txHash: ctx.txHash ?? undefined,
      actor: actor || undefined,
      actorRole: actorRole || undefined,
      units: { asset_id: enc.assetId, kind_id: enc.kindId, units: enc.units.toString() } as AnyJson,
    }),
  );
}

/** The encumbrance ended at the event in hand (`status`: released, exercised, expired). */
export function resolveEncumbrance(ctx: EventCtx<unknown>, enc: Encumbrance, status: string): void {
  update(ctx, enc, { status, resolvedHeight: ctx.height });
}
