/** Encumbrance objects and their timelines. */
import type { ApiSchema } from './contract';
import type { EncumbranceRow, EncumbranceTimelineRow } from '../repositories/encumbrances';
import { amountString, formatNullableTimestamp, formatTimestamp, jsonValue, str, toInt } from './values';

const ACTOR_ROLES = new Set(['holder', 'operator', 'issuer', 'releaser', 'beneficiary', 'protocol']);

export function presentEncumbrance(row: EncumbranceRow): ApiSchema<'Encumbrance'> {
  return {
    id: toInt(row.id),
    kind: row.kind,
    asset_id: row.asset_id,
    kind_id: row.kind_id,
    holder: row.holder,
    units: amountString(row.units),
    beneficiary: row.beneficiary,
    income_to_beneficiary: row.income_to_beneficiary,
    holder_release_after: formatNullableTimestamp(row.holder_release_after),
    exercisable: row.exercisable,
    expiry: formatNullableTimestamp(row.expiry),
    evidence_hash: row.evidence_hash,
    status: row.status,
    created_height: row.created_height,
    created_tx_hash: row.created_tx_hash,
    created_at: formatTimestamp(row.created_at),
    resolved_height: row.resolved_height,
    updated_height: row.updated_height,
  };
}

function timelineUnits(raw: unknown): { units: string } | null {
  const v = jsonValue<{ units?: unknown } | null>(raw);
  return v && v.units !== undefined && v.units !== null ? { units: amountString(String(v.units)) } : null;
}

export function presentEncumbranceTimeline(row: EncumbranceTimelineRow): ApiSchema<'EncumbranceTimelineEntry'> {
  const role = str(row.actor_role);
  return {
    event: row.event,
    height: row.height,
    block_time: formatTimestamp(row.block_time),
    tx_hash: row.tx_hash,
    actor: row.actor || null,
    actor_role: ACTOR_ROLES.has(role) ? role : null,
    units: timelineUnits(row.units),
  };
}
