/** Attestation rows and the per-(attester, type) counters. */
import { Attestation, AttesterTypeStat } from '../../types';
import type { EventAttested } from '../generated/proto-json';
import { load, put } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';
import { date } from '../infra/values';

/** The attester's counters for `type`, created at zero when missing. */
export async function getAttesterStat(
  ctx: EventCtx<unknown>,
  attester: string,
  type: string,
): Promise<AttesterTypeStat> {
  const id = `${attester}|${type}`;
  return (
    (await load(AttesterTypeStat, id)) ??
    put(
      AttesterTypeStat,
      AttesterTypeStat.create({
        id,
        attester,
        type,
        subjects: 0,
        issued: 0,
        revocations: 0,
        revoked: 0,
        updatedHeight: ctx.height,
      }),
    )
  );
}

/** A first attestation of (attester, subject, type): not revoked, no evidence yet. */
export function createAttestation(ctx: EventCtx<unknown>, id: string, e: EventAttested): Attestation {
  return put(
    Attestation,
    Attestation.create({
      id,
      attester: e.attester,
      subject: e.subject,
      type: e.type,
      expiry: date(e.expiry) ?? new Date(0),
      revoked: false,
      evidenceHash: '',
      createdHeight: ctx.height,
      updatedHeight: ctx.height,
    }),
  );
}
