/**
 * A row and its child rows (a settlement and its timeline…) in one statement: the parent
 * LEFT JOINed to its children, split back apart here. Each database round trip costs more
 * than the few repeated parent columns, and one statement is one snapshot, so no
 * transaction is needed either. Values keep their column types (no JSON aggregation,
 * which would turn numeric and int8 into JS numbers).
 */
import type { Sql, StatementOptions } from './sql';

export interface ChildrenSpec {
  /** the child table (schema-qualified) */
  table: string;
  /** child columns to read, plain names */
  columns: readonly string[];
  /** the child's column that holds the parent's id */
  parentKey: string;
  /** child order, a child column */
  orderBy: string;
}

const CHILD_PREFIX = 'child_';

/**
 * `parentSelect` is a complete SELECT of at most one row that includes an `id` column;
 * its own parameters are `values`. Returns undefined when it finds no row.
 */
export async function oneWithChildren<P extends object, C extends object>(
  sql: Sql,
  parentSelect: string,
  values: readonly unknown[],
  child: ChildrenSpec,
  options?: StatementOptions,
): Promise<{ parent: P; children: C[] } | undefined> {
  const childColumns = child.columns.map((c) => `c.${c} AS "${CHILD_PREFIX}${c}"`).join(', ');
  const rows = await sql.rows<Record<string, unknown>>(
    `SELECT p.*, c.${child.parentKey} IS NOT NULL AS "${CHILD_PREFIX}present", ${childColumns}
     FROM (${parentSelect}) p
     LEFT JOIN ${child.table} c ON c.${child.parentKey} = p.id
     ORDER BY c.${child.orderBy}`,
    values,
    options,
  );
  if (rows.length === 0) return undefined;
  const parent: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rows[0])) if (!key.startsWith(CHILD_PREFIX)) parent[key] = value;
  const children = rows
    .filter((r) => r[`${CHILD_PREFIX}present`] === true)
    .map((r) => Object.fromEntries(child.columns.map((c) => [c, r[`${CHILD_PREFIX}${c}`]])) as C);
  return { parent: parent as P, children };
}
