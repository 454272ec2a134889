/** The latest indexed block time, which attestation liveness and expiries are judged against. */
import type { Sql } from '../db/sql';
import { NO_BLOCK_TIME } from '../presenters/chain';
import { formatTimestamp } from '../presenters/values';
import type { ChainRepository } from '../repositories/chainRepository';

/** Store text of the epoch: the latest block time before any block is indexed. */
const NO_BLOCK_STORE_TIME = '1970-01-01 00:00:00';

/** Latest block time as store text (comparable with timestamp columns in SQL). */
export async function latestBlockStoreTime(chain: ChainRepository, sql: Sql): Promise<string> {
  return (await chain.totals(sql))?.latest_block_time ?? NO_BLOCK_STORE_TIME;
}

/** The API form of a store time from latestBlockStoreTime. */
export function apiTime(storeText: string): string {
  return storeText === NO_BLOCK_STORE_TIME ? NO_BLOCK_TIME : formatTimestamp(storeText);
}
