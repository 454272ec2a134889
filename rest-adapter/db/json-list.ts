/**
 * Lists read as JSON values beside other columns, so that an answer made of several lists
 * (an account, an asset's graph) is one statement: one round trip and one snapshot, with no
 * BEGIN and COMMIT. JSON turns numeric and int8 into JS numbers and writes timestamps in
 * another form, so the SELECT given here must read those columns as ::text: the rows are
 * then what the driver returns for the same SELECT (int4, booleans, text and jsonb keep
 * their values).
 */

/** A comma-separated column list with the columns named in `asText` read as ::text (for a jsonList SELECT). */
export function withTextColumns(columns: string, asText: readonly string[]): string {
  return columns
    .split(', ')
    .map((c) => (asText.includes(c) ? `${c}::text` : c))
    .join(', ');
}

/** A scalar subquery: the rows of `select` as a JSON array ordered by `orderBy` (columns as x.<name>); [] when none. */
export function jsonList(select: string, orderBy: string): string {
  return `(SELECT coalesce(json_agg(x ORDER BY ${orderBy}), '[]') FROM (${select}) x)`;
}
