/**
 * attestation: credentials attesters give subjects. Live while not revoked
 * and expiry > block time; expiry is passive (no event). Renewal (a new
 * MsgAttest) clears a revocation.
 */
import type { KvReader } from '../store';
import { keySegment } from '../store';
import { Env, emitTyped, requireAddress, requireHexHash, rfc3339, timestampMs } from '../env';
import { attestationErrors } from '../errors';

export interface AttestationRec {
  expiry_ms: number;
  revoked: boolean;
  evidence_hash: string;
  updated_height: number;
}

/** parent = one (subject, type), children = attesters, so "any attester" is one listing */
const typeParent = (subject: string, type: string) => `att/${subject}|${keySegment(type)}/`;
const attestationKey = (attester: string, subject: string, type: string) => `${typeParent(subject, type)}${attester}`;

export function getAttestation(
  kv: KvReader,
  attester: string,
  subject: string,
  type: string,
): AttestationRec | undefined {
  return kv.get<AttestationRec>(attestationKey(attester, subject, type));
}

function isLive(rec: AttestationRec | undefined, timeMs: number): boolean {
  return !!rec && !rec.revoked && rec.expiry_ms > timeMs;
}

/** A live attestation of `type` for `subject`, from `attester` when non-empty, else from anyone. */
export function hasLiveAttestation(
  kv: KvReader,
  subject: string,
  type: string,
  attester: string,
  timeMs: number,
): boolean {
  if (attester) return isLive(getAttestation(kv, attester, subject, type), timeMs);
  return kv.keys(typeParent(subject, type)).some((key) => isLive(kv.get<AttestationRec>(key), timeMs));
}

export function handleAttest(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const attester = requireAddress(env, msg.attester, 'attester');
  const subject = requireAddress(env, msg.subject, 'subject');
  const type = String(msg.type ?? '');
  if (!type) throw attestationErrors.invalid('type required');
  const expiryMs = timestampMs(msg.expiry);
  if (expiryMs === null || expiryMs <= env.timeMs)
    throw attestationErrors.invalid('expiry must be later than the block time');
  const evidence = requireHexHash(msg.evidence_hash, 32, true, attestationErrors.invalid);
  env.kv.set(attestationKey(attester, subject, type), {
    expiry_ms: expiryMs,
    revoked: false,
    evidence_hash: evidence,
    updated_height: env.height,
  });
  emitTyped(env, 'svc.attestation.v1.EventAttested', {
    attester,
    subject,
    type,
    expiry: rfc3339(expiryMs),
    evidence_hash: evidence,
  });
  return {};
}

export function handleRevokeAttestation(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const attester = requireAddress(env, msg.attester, 'attester');
  const subject = requireAddress(env, msg.subject, 'subject');
  const type = String(msg.type ?? '');
  const rec = getAttestation(env.kv, attester, subject, type);
  if (!rec || rec.revoked) throw attestationErrors.notFound(`${attester} → ${subject} ${type}`);
  env.kv.set(attestationKey(attester, subject, type), { ...rec, revoked: true, updated_height: env.height });
  emitTyped(env, 'svc.attestation.v1.EventAttestationRevoked', { attester, subject, type });
  return {};
}
