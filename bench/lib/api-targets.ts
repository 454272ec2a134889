/**
 * bench:api's targets (docs/rest-adapter.md), as ratios measured side by side in one run: the API against
 * PostGraphile's equivalent query and against the HTTP floor (Express answering fixed bytes
 * under the same clients), a 304 against the floor's time, and each endpoint's
 * floor-relative throughput at the largest store against the smallest.
 */

/** REST req/s ÷ PostGraphile req/s, every endpoint with an equivalent. */
export const MIN_REST_OVER_POSTGRAPHILE = 2;
/** The time of a 304 (1 / req/s) ÷ the HTTP floor's time for a small answer. */
export const MAX_304_OVER_FLOOR_TIME = 1.2;
/** (REST / floor at the largest size) ÷ (REST / floor at the smallest): "flat" within the machine's noise. */
export const MIN_FLAT_RATIO = 0.8;

export type EndpointClass = 'heavy' | 'point' | 'other';

/** REST req/s ÷ HTTP floor req/s, by class; `other` endpoints have no floor target. */
export const MIN_FLOOR_RATIO: Record<EndpointClass, number | undefined> = {
  heavy: 0.25,
  point: 0.6,
  other: undefined,
};

/**
 * Heavy pages: txs pages, holders pages and the activity feeds (many rows, each rendered);
 * point reads: a tx, an asset, an account.
 */
export function endpointClass(name: string): EndpointClass {
  if (/^txs |^holders |events$|^distributions$/.test(name)) return 'heavy';
  if (/^tx by |^asset( \(|$)|^account \(/.test(name)) return 'point';
  return 'other';
}

/** Answers at least this large are compared with the large floor answer, smaller ones with the small one. */
export const LARGE_ANSWER_BYTES = 16_384;
