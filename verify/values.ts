/**
 * A stored row back to the values the mappings wrote, so `recordText` (src/lib/proof.ts) gives
 * it the text the proof hashed: numeric → bigint, timestamp → Date, jsonb → its JSON value,
 * NULL → absent. From PostgreSQL the numeric and timestamp columns come as the server's text
 * (node-postgres would turn a timestamp without time zone into local time) and are decoded by
 * the column's own type, so a store of another schema version reads too; from GraphQL as
 * PostGraphile's strings (BigFloat, Datetime) and JSON values, by this schema's field kinds.
 */
import type { EntityModel, FieldKind } from './model';

export type StoredRow = Record<string, unknown>;

/** PostgreSQL type oids whose text is kept as it is (decoded here). */
export const RAW_TEXT_OIDS: readonly number[] = [20, 1700, 1114, 1184];

/** The kind of a column by its type oid: int8 and numeric are BigInt fields, timestamps Dates. */
export function kindOfOid(oid: number): FieldKind | undefined {
  if (oid === 20 || oid === 1700) return 'numeric';
  if (oid === 1114 || oid === 1184) return 'timestamp';
  return undefined; // the rest as node-postgres parses them (int, bool, text, json and jsonb)
}

const TIMESTAMP_RE = /^(\d{4,})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d(?::?\d\d)?)?$/;

/** A timestamp as PostgreSQL or PostGraphile writes it; one without an offset is UTC (the node runs with TZ=UTC). */
export function parseTimestamp(text: string): Date | string {
  const m = TIMESTAMP_RE.exec(text);
  if (!m) return text;
  if (m[8] && m[8] !== 'Z') {
    const d = new Date(text.replace(' ', 'T'));
    return Number.isNaN(d.getTime()) ? text : d;
  }
  const ms = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  d.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), ms);
  return d;
}

function decode(kind: FieldKind, v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  switch (kind) {
    case 'numeric':
      return typeof v === 'string' && /^-?\d+$/.test(v) ? BigInt(v) : v;
    case 'timestamp':
      return typeof v === 'string' ? parseTimestamp(v) : v;
    default:
      return v;
  }
}

const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * A row of a table, keyed by column with each column's type oid, as the mappings' field values:
 * field names from `model` (this checkout's schema) where it declares the column, else the
 * column's camelCase (the node's naming, reversed).
 */
export function fromColumns(
  model: EntityModel | undefined,
  row: Readonly<Record<string, unknown>>,
  oids: ReadonlyMap<string, number>,
): StoredRow {
  const out: StoredRow = {};
  for (const [column, value] of Object.entries(row)) {
    const name = model?.byColumn.get(column)?.name ?? camel(column);
    const kind = kindOfOid(oids.get(column) ?? 0);
    const v = kind ? decode(kind, value) : (value ?? undefined);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** A GraphQL node of `model` (its fields by name), as the mappings' field values. */
export function fromGraphql(model: EntityModel, node: Readonly<Record<string, unknown>>): StoredRow {
  const out: StoredRow = {};
  for (const field of model.fields) {
    const v = decode(field.kind, node[field.name]); // JSON as values: PostGraphile's dynamicJson, as subql-query serves it
    if (v !== undefined) out[field.name] = v;
  }
  return out;
}
