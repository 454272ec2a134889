/** svc.attestation.v1: credentials (attester, subject, type) and per-type attester aggregates. */
import { Attestation, AttesterTypeStat } from '../../types';
import { load, markDirty, put } from '../infra/block-cache';
import type { EventAttestationRevoked, EventAttested } from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, subjectAccount } from '../infra/context';
import { recordDrift } from '../domain/drift';
import { date, str } from '../infra/values';

function attestationKey(attester: string, subject: string, type: string): string {
  return `${attester}|${subject}|${type}`;
}

async function attesterStat(ctx: EventCtx<unknown>, attester: string, type: string): Promise<AttesterTypeStat> {
  const id = `${attester}|${type}`;
  const found = await load(AttesterTypeStat, id);
  const stat =
    found ??
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
    );
  stat.updatedHeight = ctx.height;
  markDirty(stat);
  return stat;
}

export async function handleAttestationAttested(ctx: EventCtx<EventAttested>): Promise<void> {
  const e = ctx.decoded;
  const stat = await attesterStat(ctx, e.attester, e.type);
  const id = attestationKey(e.attester, e.subject, e.type);
  const expiry = date(e.expiry) ?? new Date(0);
  let a = await load(Attestation, id);
  if (!a) {
    stat.subjects += 1;
    a = put(
      Attestation,
      Attestation.create({
        id,
        attester: e.attester,
        subject: e.subject,
        type: e.type,
        expiry,
        revoked: false,
        evidenceHash: '',
        createdHeight: ctx.height,
        updatedHeight: ctx.height,
      }),
    );
  } else if (a.revoked) {
    stat.revoked -= 1; // a renewal clears the revocation
  }
  a.expiry = expiry;
  a.revoked = false;
  a.evidenceHash = str(e.evidence_hash);
  a.updatedHeight = ctx.height;
  markDirty(a);
  stat.issued += 1;
  if (!stat.latestExpiry || stat.latestExpiry < expiry) stat.latestExpiry = expiry;
  subjectAccount(ctx, e.attester, e.subject);
}

export async function handleAttestationRevoked(ctx: EventCtx<EventAttestationRevoked>): Promise<void> {
  const e = ctx.decoded;
  const id = attestationKey(e.attester, e.subject, e.type);
  const a = await load(Attestation, id);
  if (!a) {
    await recordDrift(ctx, 'Attestation', id, 'exists', true, false);
  } else {
    const stat = await attesterStat(ctx, e.attester, e.type);
    stat.revocations += 1;
    if (!a.revoked) stat.revoked += 1;
    a.revoked = true;
    a.updatedHeight = ctx.height;
    markDirty(a);
  }
  subjectAccount(ctx, e.attester, e.subject);
}

/** attestation: typed event type → handler. */
export const attestationHandlers: HandlerTable = {
  events: {
    'svc.attestation.v1.EventAttested': handleAttestationAttested,
    'svc.attestation.v1.EventAttestationRevoked': handleAttestationRevoked,
  },
};
