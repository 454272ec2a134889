/** SQL for encumbrances and their timelines. */
import { statement } from '../db/statement';
import { oneWithChildren } from '../db/with-children';
import type { Tables } from '../../src/store';

export interface EncumbranceRow {
  id: string;
  kind: string;
  asset_id: string;
  kind_id: number;
  holder: string;
  units: string;
  beneficiary: string;
  income_to_beneficiary: boolean;
  holder_release_after: string | null;
  exercisable: boolean;
  expiry: string | null;
  evidence_hash: string;
  status: string;
  created_height: number;
  created_tx_hash: string;
  created_at: string;
  resolved_height: number | null;
  updated_height: number;
}

export interface EncumbranceTimelineRow {
  event: string;
  height: number;
  block_time: string;
  tx_hash: string | null;
  actor: string | null;
  actor_role: string | null;
  units: unknown;
}

export function createEncumbranceRepository(t: Tables) {
  /** The encumbrance and its timeline (by seq), one statement. */
  const withTimeline = statement(
    'once',
    async (sql, id: string): Promise<{ parent: EncumbranceRow; children: EncumbranceTimelineRow[] } | undefined> => {
      return oneWithChildren<EncumbranceRow, EncumbranceTimelineRow>(
        sql,
        `SELECT id, kind, asset_id, kind_id, holder, units, beneficiary, income_to_beneficiary, holder_release_after, exercisable, expiry,
              evidence_hash, status, created_height, created_tx_hash, created_at, resolved_height, updated_height
       FROM ${t.encumbrances} WHERE id = $1`,
        [id],
        {
          table: t.encumbranceTimeline,
          columns: ['event', 'height', 'block_time', 'tx_hash', 'actor', 'actor_role', 'units'],
          parentKey: 'encumbrance_id',
          orderBy: 'seq',
        },
      );
    },
  );

  return { withTimeline };
}

export type EncumbranceRepository = ReturnType<typeof createEncumbranceRepository>;
