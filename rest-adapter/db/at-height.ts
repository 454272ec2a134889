/**
 * SQL of an answer at a past height H (docs/indexer.md, "State at a past height: mechanism"): a
 * versioned table at H is its current rows written at or below H, UNION ALL its versions valid
 * at H (`from_height <= H < to_height`). The two sets are disjoint and give one row per id that
 * existed at H.
 */

/** The current branch's condition: the row was last written at or below `h` (a bound parameter). */
export function currentAt(h: string): string {
  return `updated_height <= ${h}`;
}

/** The version branch's condition: the version was the row's state at `h`. */
export function versionAt(h: string): string {
  return `from_height <= ${h} AND to_height > ${h}`;
}
