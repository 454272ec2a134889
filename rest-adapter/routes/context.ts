/** What every route file receives from createRestApp. */
import type { Store } from '../db/sql';
import type { GetJson } from '../http/respond';
import type { Repositories } from '../repositories';

export interface RouteContext {
  /** registers a JSON GET route (http/respond.ts) */
  get: GetJson;
  store: Store;
  repos: Repositories;
  /** bech32 prefix of account addresses */
  hrp: string;
  /** gas denom, the denom of an EVM tx's `value` */
  gasDenom: string;
  /** wall clock (ms), injectable for tests */
  now(): number;
}
