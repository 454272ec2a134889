/**
 * JSON values for GraphQL clients. The indexer keeps raw chain payloads as JSON text (a tx's
 * `msgs`, `fee` and `events`, a block's `events`: schema.graphql says why), so through
 * PostGraphile they arrive as strings. These SQL functions are PostGraphile computed columns
 * (`<table>_<name>(row)`, STABLE, in the table's schema) that expose the same text as `json`:
 * `Tx.msgsJson`, `Tx.feeJson`, `Tx.eventsJson`, `Block.eventsJson`, and the proof of indexing's
 * `BlockProof.rootsJson` and `writesJson`, selectable as JSON values beside the string fields,
 * which stay for compatibility. `json` (not `jsonb`) keeps the stored
 * text as it is: key order (`@type` first in msgs) and numbers unchanged.
 *
 * Whoever serves GraphQL creates them, idempotently, before its schema is introspected:
 * src/runtime/graphql.ts for `npm start`, and for docker-compose the one-shot `graphql-json`
 * service (launcher/graphql-json.ts) that `subql-query` waits for. The indexer never does:
 * its tables are its own. A `--force-clean` of the node drops the schema and these with it;
 * the next GraphQL start creates them again.
 */
import type { PoolClient } from 'pg';
import { escapeIdent } from '../store';

/** [table, text column]: each becomes the computed column `<column>Json` of the table's type. */
export const JSON_TEXT_COLUMNS: readonly (readonly [table: string, column: string, what: string])[] = [
  ['txes', 'msgs', "The tx's messages as JSON (proto-JSON, each with `@type` first): the `msgs` text parsed."],
  ['txes', 'fee', "The tx's fee as JSON ([{denom, amount}]): the `fee` text parsed."],
  [
    'txes',
    'events',
    "The tx's events as JSON ([{type, attributes: [{key, value}]}] in chain order): the `events` text parsed.",
  ],
  [
    'blocks',
    'events',
    'The block-level events as JSON ([{type, attributes: [{key, value}]}] in chain order): the `events` text parsed.',
  ],
  ['block_proofs', 'roots', "The height's root per entity type as JSON ({type: root}): the `roots` text parsed."],
  [
    'block_proofs',
    'writes',
    'The rows the height wrote as JSON ({type: {id: leaf prefix}}): the `writes` text parsed.',
  ],
];

/** The statements that (re)create the functions of `schema`; each is idempotent. */
export function jsonColumnStatements(schema: string): string[] {
  const s = escapeIdent(schema);
  return JSON_TEXT_COLUMNS.flatMap(([table, column, what]) => {
    const fn = `${s}.${escapeIdent(`${table}_${column}_json`)}`;
    return [
      `CREATE OR REPLACE FUNCTION ${fn}(r ${s}.${escapeIdent(table)}) RETURNS json
         LANGUAGE sql STABLE PARALLEL SAFE AS $fn$ SELECT r.${escapeIdent(column)}::json $fn$`,
      `COMMENT ON FUNCTION ${fn}(${s}.${escapeIdent(table)}) IS '${what.replace(/'/g, "''")}'`,
    ];
  });
}

/** Lock key serialising concurrent installers (two GraphQL servers starting at once). */
const INSTALL_LOCK = 0x737663_6a73; // "svcjs"

/** Creates (or replaces) the functions in one transaction; the node's tables must exist. */
export async function installJsonColumns(client: Pick<PoolClient, 'query'>, schema: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [INSTALL_LOCK]);
    for (const statement of jsonColumnStatements(schema)) await client.query(statement);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
