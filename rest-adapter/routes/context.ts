/** What every route file receives from createRestApp. */
import type { Store } from '../db/sql';
import type { GetJson } from '../http/respond';
import type { Repositories } from '../repositories';
import type { ApiTx } from '../presenters/txs';
import type { TxWithEvmRow } from '../repositories/txs';
import type { ActivityRow } from '../repositories/activity';
import type { ApiSchema } from '../presenters/contract';

export interface RouteContext {
  /** registers a JSON GET route (http/respond.ts) */
  get: GetJson;
  store: Store;
  repos: Repositories;
  /** bech32 prefix of account addresses */
  hrp: string;
  /** gas denom, the denom of an EVM tx's `value` */
  gasDenom: string;
  /** tx rows as Tx objects, each rendered once and reused while the render cache keeps it (presenters/render-cache.ts) */
  presentTxs(rows: readonly TxWithEvmRow[]): ApiTx[];
  /** feed rows as ActivityEvent objects */
  presentActivities(rows: readonly ActivityRow[]): ApiSchema<'ActivityEvent'>[];
  /** whether the render cache holds the tx of this (upper-case consensus or lower-case EVM) hash: it was committed, without a store read */
  rendered(hash: string): boolean;
  /**
   * the Tx of this (upper-case consensus or lower-case EVM) hash when the render cache holds it,
   * without a store read; with `stamp` (presenters/txs.ts stampOf) only if rendered from a row of it
   */
  keptTx(hash: string, stamp?: string): ApiTx | undefined;
  /** the indexed height as the app's HeightWatcher knows it (undefined before its first poll) */
  indexedHeight(): number | undefined;
  /** calls `listener` when the watcher sees the indexed height go down (a rewind or reindex) */
  onRewind(listener: () => void): void;
  /** wall clock (ms), injectable for tests */
  now(): number;
}
