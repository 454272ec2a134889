/**
 * Page sizes of the paged lists (openapi.yaml `Limit`, `StatsLimit`): what a client may ask
 * for (http/params.ts) and the sizes the statements are planned with (db/params.ts).
 */

/** `limit` when absent */
export const DEFAULT_PAGE_LIMIT = 20;
/** /v1/stats `limit` when absent */
export const DEFAULT_STATS_LIMIT = 6;
/** the largest `limit` a client may ask for (never clamped: a larger one is a 400) */
export const MAX_LIMIT = 100;
