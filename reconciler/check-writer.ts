/**
 * Writes a pass's rows into the node's check tables (schema.graphql InvariantCheck, Svc20Check,
 * I8Check), in one transaction with the pruning of rows the pass supersedes.
 *
 * Retention: the latest row of every check stays, and so does every row that disagreed (the
 * record `drift_total` counts); an agreeing or not-evaluated row is deleted once a later pass
 * has checked again. So the tables grow with disagreements, not with time.
 */
import type { Pool, PoolClient } from 'pg';
import {
  withTransaction,
  type I8CheckRow,
  type InvariantCheckRow,
  type Svc20CheckRow,
  type Tables,
} from '../src/store';

/** The rows of one pass, one per check. */
export interface PassRows {
  invariants: InvariantCheckRow[];
  registry: Svc20CheckRow[];
  routes: I8CheckRow[];
}

/** Rows per INSERT statement (one JSON parameter each). */
const CHUNK = 1000;

interface Target {
  table: string;
  columns: string[];
  /** rows of earlier heights this pass supersedes */
  superseded: string;
}

function targets(t: Tables): { invariants: Target; registry: Target; routes: Target } {
  return {
    invariants: {
      table: t.invariantChecks,
      columns: ['id', 'asset_id', 'kind_id', 'height', 'agree', 'chain', 'indexer'],
      superseded: 'agree',
    },
    registry: {
      table: t.svc20Checks,
      columns: [
        'id',
        'asset_id',
        'kind_id',
        'bundle',
        'height',
        'indexer_address',
        'chain_address',
        'evaluated',
        'agree',
      ],
      superseded: '(agree OR NOT evaluated)',
    },
    routes: {
      table: t.i8Checks,
      columns: ['id', 'route_id', 'height', 'chain_actual', 'indexer_actual', 'chain_ok', 'evaluated', 'agree'],
      superseded: '(agree OR NOT evaluated)',
    },
  };
}

async function insert(client: PoolClient, target: Target, rows: readonly object[]): Promise<void> {
  const columns = target.columns.join(', ');
  for (let i = 0; i < rows.length; i += CHUNK) {
    await client.query(
      `INSERT INTO ${target.table} (${columns})
       SELECT ${columns} FROM json_populate_recordset(NULL::${target.table}, $1::json)
       ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(rows.slice(i, i + CHUNK))],
    );
  }
}

/** Inserts the rows of a pass at `height` and prunes what they supersede. A height checked before keeps its first rows. */
export async function writeChecks(pool: Pool, t: Tables, height: number, rows: PassRows): Promise<void> {
  const all = targets(t);
  await withTransaction(pool, async (client) => {
    for (const key of ['invariants', 'registry', 'routes'] as const) {
      await insert(client, all[key], rows[key]);
      await client.query(`DELETE FROM ${all[key].table} WHERE ${all[key].superseded} AND height < $1`, [height]);
    }
  });
}
