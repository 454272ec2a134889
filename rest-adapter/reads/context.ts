/** What the reads are made from, once per app (createRestApp): the store, the repositories and the tx renderings. */
import type { Store } from '../db/sql';
import type { ApiTx } from '../presenters/txs';
import type { Repositories } from '../repositories';
import type { TxWithEvmRow } from '../repositories/txs';

export interface ReadContext {
  store: Store;
  repos: Repositories;
  /** tx rows as Tx objects, each rendered once and reused while the render cache keeps it (presenters/render-cache.ts) */
  presentTxs(rows: readonly TxWithEvmRow[]): ApiTx[];
  /**
   * the Tx of this (upper-case consensus or lower-case EVM) hash when the render cache holds it,
   * without a store read; with `stamp` (presenters/txs.ts stampOf) only if rendered from a row of it
   */
  keptTx(hash: string, stamp?: string): ApiTx | undefined;
  /** the indexed height as the app's HeightWatcher knows it (undefined before its first poll) */
  indexedHeight(): number | undefined;
  /** calls `listener` when the watcher sees the indexed height go down (a rewind or reindex) */
  onRewind(listener: () => void): void;
}
