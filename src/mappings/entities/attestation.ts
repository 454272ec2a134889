/** Attestation rows and the per-(attester, type) counters, and how an attestation or a revocation moves them. */
import { Attestation, AttesterTypeStat } from '../../types';
import type { EventAttested } from '../generated/proto-json';
import { load, put } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';
import { date, str } from '../infra/values';
import { touch } from './entity';

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

/** The attester's counters for `type`, changed at the event in hand. */
async function changedStat(ctx: EventCtx<unknown>, attester: string, type: string): Promise<AttesterTypeStat> {
  return touch(ctx, await getAttesterStat(ctx, attester, type));
}

/** An attestation issued or renewed (a renewal clears a revocation), counted for its attester. */
export async function attest(ctx: EventCtx<unknown>, id: string, e: EventAttested): Promise<void> {
  const stat = await changedStat(ctx, e.attester, e.type);
  const expiry = date(e.expiry) ?? new Date(0);
  let a = await load(Attestation, id);
  if (!a) {
    stat.subjects += 1;
    a = createAttestation(ctx, id, e);
  } else if (a.revoked) {
    stat.revoked -= 1;
  }
  a.expiry = expiry;
  a.revoked = false;
  a.evidenceHash = str(e.evidence_hash);
  touch(ctx, a);
  stat.issued += 1;
  if (!stat.latestExpiry || stat.latestExpiry < expiry) stat.latestExpiry = expiry;
}

/** A revocation, counted for its attester (once per attestation in `revoked`, every time in `revocations`). */
export async function revoke(ctx: EventCtx<unknown>, a: Attestation): Promise<void> {
  const stat = await changedStat(ctx, a.attester, a.type);
  stat.revocations += 1;
  if (!a.revoked) stat.revoked += 1;
  a.revoked = true;
  touch(ctx, a);
}
