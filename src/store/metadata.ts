/**
 * The SubQuery node's `_metadata` table (key → jsonb value): its keys and the statements that read
 * them, written once. The node commits a flush's entities and `lastProcessedHeight` in one
 * transaction, so a reader that reads the height beside its rows (in one statement, or in one
 * snapshot transaction) sees both from the same flush: the statements are handed out as SQL for
 * each reader to run on its own connection, and `readMetadata`/`readMetadataValue` run them on a
 * pg pool, client or transaction. What a missing table means (42P01: the node has not created the
 * schema yet) is the reader's to decide, so errors pass through.
 */
import type { QueryResult, QueryResultRow } from 'pg';

/** The keys the project reads or writes (the node writes all but the fingerprint). */
export const METADATA_KEY = {
  /** the last height the node committed */
  indexedHeight: 'lastProcessedHeight',
  /** the chain tip the node last saw */
  targetHeight: 'targetHeight',
  /** the chain id the node indexes */
  chain: 'chain',
  /** the project build an index was made with (src/runtime/index-version.ts) */
  projectFingerprint: 'svcProjectFingerprint',
} as const;
export type MetadataKey = (typeof METADATA_KEY)[keyof typeof METADATA_KEY];

export interface MetadataRow {
  key: string;
  value: unknown;
}

/** A pg Pool, Client or PoolClient. */
export interface MetadataQueryable {
  query<R extends QueryResultRow>(text: string): Promise<QueryResult<R>>;
}

/** One key's value as a scalar subquery, to read beside a statement's rows. `table`: the schema-qualified `_metadata`. */
export function metadataValueSql(table: string, key: MetadataKey): string {
  return `(SELECT value FROM ${table} WHERE key = '${key}')`;
}

/** One key's value as text (`value #>> '{}'`: a number or string without JSON quotes) as a scalar subquery. */
export function metadataTextSql(table: string, key: MetadataKey): string {
  return `(SELECT value #>> '{}' FROM ${table} WHERE key = '${key}')`;
}

/** The statement reading one key: one row `{value}`, none when the key is absent. */
export function selectMetadataValue(table: string, key: MetadataKey): string {
  return `SELECT value FROM ${table} WHERE key = '${key}'`;
}

/** The statement reading some keys (every key without `keys`): rows `{key, value}`. */
export function selectMetadata(table: string, keys?: readonly MetadataKey[]): string {
  const all = `SELECT key, value FROM ${table}`;
  return keys ? `${all} WHERE key IN (${keys.map((k) => `'${k}'`).join(', ')})` : all;
}

/** One key's stored value; undefined when the key is absent. */
export async function readMetadataValue(db: MetadataQueryable, table: string, key: MetadataKey): Promise<unknown> {
  const { rows } = await db.query<{ value: unknown }>(selectMetadataValue(table, key));
  return rows.length ? rows[0].value : undefined;
}

/** The stored values of some keys (every key without `keys`), by key; absent keys are not in the map. */
export async function readMetadata(
  db: MetadataQueryable,
  table: string,
  keys?: readonly MetadataKey[],
): Promise<Map<string, unknown>> {
  const { rows } = await db.query<MetadataRow>(selectMetadata(table, keys));
  return new Map(rows.map((r) => [r.key, r.value]));
}

/** A height value as a number (0 when absent or not a positive safe integer). */
export function metadataInt(value: unknown): number {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}
