/** The latest indexed block time, which attestation liveness and expiries are judged against. */
import { NO_BLOCK_TIME } from '../presenters/status';
import { formatTimestamp } from '../presenters/values';

/** The API form of the latest block time read as store text (null before the first block). */
export function apiTime(storeText: string | null): string {
  return storeText === null ? NO_BLOCK_TIME : formatTimestamp(storeText);
}
