/**
 * What project a store was indexed with, and what npm start does when the project has changed
 * since (docs/running.md, "After a project change"). SubQuery's node keeps no such record: on a
 * changed schema.graphql it fails at its first write (`column "label" does not exist`) and a
 * changed mapping silently mixes two versions' rows in one store.
 *
 * The record is the project's fingerprint, a sha256 over schema.graphql, the manifest without
 * its network section (a chain id or endpoint copy is the same project) and the mapping bundle,
 * kept in the node's own `_metadata` table (key `svcProjectFingerprint`), so it goes wherever the
 * index goes and a force-clean removes it with the index.
 *
 * On the embedded store npm start reindexes by itself beside the serving schema and switches
 * once the new one has caught up; which schema serves is kept in DATA_DIR/store.json, beside the
 * embedded PostgreSQL's own files. Against DATABASE_URL it refuses unless started with
 * `--reindex`, which drops the node's schema and indexes afresh.
 */
import { createHash } from 'crypto';
import fs from 'fs';
import path from 'path';
import type { Pool } from 'pg';
import { parseDocument } from 'yaml';
import { isUndefinedTable, METADATA_KEY, quoteIdent, readMetadataValue } from '../store';

export const FINGERPRINT_KEY = METADATA_KEY.projectFingerprint;
const STORE_FILE = 'store.json';
const FINGERPRINT_FILES = ['schema.graphql', 'project.yaml', path.join('dist', 'index.js')];

/** sha256 (hex) over the project's schema, manifest (without `network`) and bundle. */
export function projectFingerprint(projectDir: string): string {
  const hash = createHash('sha256');
  for (const file of FINGERPRINT_FILES) {
    let text = fs.readFileSync(path.join(projectDir, file), 'utf8');
    if (file === 'project.yaml') {
      const doc = parseDocument(text);
      doc.delete('network');
      text = doc.toString();
    }
    hash.update(`${file}\n${text.length}\n`).update(text);
  }
  return hash.digest('hex');
}

/** The schema a changed project is indexed into beside the serving one: `<DB_SCHEMA>_<8 hex of its fingerprint>`. */
export function besideSchema(baseSchema: string, fingerprint: string): string {
  return `${baseSchema}_${fingerprint.slice(0, 8)}`;
}

/** The fingerprint recorded in a schema's `_metadata`; null when the node never ran there, '' for a store from before the record. */
export async function readFingerprint(pool: Pool, schema: string): Promise<string | null> {
  try {
    const value = await readMetadataValue(pool, `${quoteIdent(schema)}._metadata`, FINGERPRINT_KEY);
    return value === undefined ? '' : String(value);
  } catch (e) {
    if (isUndefinedTable(e)) return null; // no _metadata: the node never ran on it
    throw e;
  }
}

/** Records the fingerprint once the node has created the schema's `_metadata`; false while it has not. */
export async function recordFingerprint(pool: Pool, schema: string, fingerprint: string): Promise<boolean> {
  try {
    await pool.query(
      `INSERT INTO ${quoteIdent(schema)}._metadata (key, value, "createdAt", "updatedAt") VALUES ($1, to_jsonb($2::text), now(), now())
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = now()`,
      [FINGERPRINT_KEY, fingerprint],
    );
    return true;
  } catch (e) {
    if (isUndefinedTable(e)) return false;
    throw e;
  }
}

/** Schemas an earlier, unfinished reindex left (`<base>_<8 hex>`), other than those named. */
export async function staleBesideSchemas(pool: Pool, baseSchema: string, keep: string[]): Promise<string[]> {
  const r = await pool.query<{ name: string }>(
    `SELECT nspname AS name FROM pg_namespace WHERE nspname ~ ('^' || $1 || '_[0-9a-f]{8}$') ORDER BY 1`,
    [baseSchema],
  );
  return r.rows.map((row) => row.name).filter((name) => !keep.includes(name));
}

export async function dropSchema(pool: Pool, schema: string): Promise<void> {
  await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
}

/** The schema serving an embedded store (DATA_DIR/store.json), or the configured one. */
export function servingSchemaOf(dataDir: string, baseSchema: string): string {
  try {
    const saved = JSON.parse(fs.readFileSync(path.join(dataDir, STORE_FILE), 'utf8')) as { schema?: unknown };
    if (typeof saved.schema === 'string' && (saved.schema === baseSchema || saved.schema.startsWith(`${baseSchema}_`)))
      return saved.schema;
  } catch {
    // no file yet (or unreadable): the configured schema
  }
  return baseSchema;
}

/** Written after a switch, atomically (a crash leaves the old or the new file, never half of one). */
export function saveServingSchema(dataDir: string, schema: string): void {
  const file = path.join(dataDir, STORE_FILE);
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify({ schema }, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
}

export type IndexPlan =
  /** index (or resume) in the serving schema */
  | { kind: 'resume'; schema: string }
  /** drop the serving schema and index afresh in it (--reindex) */
  | { kind: 'drop'; schema: string }
  /** serve the old schema while the changed project indexes into `into`, then switch */
  | { kind: 'beside'; serving: string; into: string }
  /** refuse to start, with this one line */
  | { kind: 'refuse'; message: string };

export interface IndexFacts {
  servingSchema: string;
  baseSchema: string;
  /** readFingerprint of the serving schema */
  stored: string | null;
  current: string;
  externalDatabase: boolean;
  /** npm start -- --reindex */
  reindex: boolean;
}

/** What to do with the store, from what it was indexed with and what runs now. */
export function planIndex(f: IndexFacts): IndexPlan {
  // a fresh schema, a store from before the record (taken as this project's), or the same project
  if (f.stored === null || f.stored === '' || f.stored === f.current) {
    return f.reindex && f.stored !== null
      ? { kind: 'drop', schema: f.servingSchema }
      : { kind: 'resume', schema: f.servingSchema };
  }
  if (f.reindex) return { kind: 'drop', schema: f.servingSchema };
  if (f.externalDatabase)
    return {
      kind: 'refuse',
      message:
        `the index in schema "${f.servingSchema}" was built by another version of the project (schema.graphql, project.yaml or the mappings changed): ` +
        `start with \`npm start -- --reindex\` to drop it and index afresh (a node run by hand: \`subql-node-cosmos force-clean\`), or set another DB_SCHEMA`,
    };
  return { kind: 'beside', serving: f.servingSchema, into: besideSchema(f.baseSchema, f.current) };
}
