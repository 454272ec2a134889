/** svc.attestation.v1: credentials (attester, subject, type) and per-type attester aggregates. */
import { Attestation, AttesterTypeStat } from '../../types';
import { load, markDirty } from '../infra/block-cache';
import type { EventAttestationRevoked, EventAttested } from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, subjectAccount } from '../infra/context';
import { createAttestation, getAttesterStat } from '../entities/attestation';
import { recordDrift } from '../entities/drift';
import { date, str } from '../infra/values';

function attestationKey(attester: string, subject: string, type: string): string {
  return `${attester}|${subject}|${type}`;
}

async function attesterStat(ctx: EventCtx<unknown>, attester: string, type: string): Promise<AttesterTypeStat> {
  const stat = await getAttesterStat(ctx, attester, type);
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
    a = createAttestation(ctx, id, e);
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
