/** svc.attestation.v1: credentials (attester, subject, type) and per-type attester aggregates. */
import { Attestation } from '../../types';
import type { EventAttestationRevoked, EventAttested } from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, subjectAccount } from '../infra/context';
import { attest, revoke } from '../entities/attestation';
import { requireEntity } from '../entities/entity';

function attestationKey(attester: string, subject: string, type: string): string {
  return `${attester}|${subject}|${type}`;
}

export async function handleAttestationAttested(ctx: EventCtx<EventAttested>): Promise<void> {
  const e = ctx.decoded;
  await attest(ctx, attestationKey(e.attester, e.subject, e.type), e);
  subjectAccount(ctx, e.attester, e.subject);
}

export async function handleAttestationRevoked(ctx: EventCtx<EventAttestationRevoked>): Promise<void> {
  const e = ctx.decoded;
  const a = await requireEntity(ctx, Attestation, 'Attestation', attestationKey(e.attester, e.subject, e.type));
  if (a) await revoke(ctx, a);
  subjectAccount(ctx, e.attester, e.subject);
}

/** attestation: typed event type → handler. */
export const attestationHandlers: HandlerTable = {
  events: {
    'svc.attestation.v1.EventAttested': handleAttestationAttested,
    'svc.attestation.v1.EventAttestationRevoked': handleAttestationRevoked,
  },
};
