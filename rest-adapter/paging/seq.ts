/**
 * The store's ordering key of (height, tx_index, event_index), as schema.graphql defines it
 * and src/mappings/infra/values.ts `seqOf` writes it (a unit test checks they agree):
 *   seq = height * 10^10 + (tx_index + 1) * 10^5 + (event_index + 1)
 * Keyset conditions compare `seq` so one index serves each list.
 */
export function seqOf(height: number, txIndex: number, eventIndex: number): bigint {
  return BigInt(height) * 10_000_000_000n + BigInt(txIndex + 1) * 100_000n + BigInt(eventIndex + 1);
}

/** seq of a tx row (its own key: event_index -1). */
export function txSeq(height: number, txIndex: number): bigint {
  return seqOf(height, txIndex, -1);
}
