/** What every route file receives from createRestApp. */
import type { GetJson } from '../http/respond';
import type { ActivityRow } from '../repositories/activity';
import type { ApiSchema } from '../presenters/contract';
import type { LiveStatus } from '../presenters/status';
import type { Reads, ReadContext } from '../reads';

/** The store, the repositories and the tx renderings the reads are made from (reads/context.ts), and: */
export interface RouteContext extends ReadContext {
  /** registers a JSON GET route (http/respond.ts) */
  get: GetJson;
  /** the reads that keep what they read and choose their statements (reads/) */
  reads: Reads;
  /** bech32 prefix of account addresses */
  hrp: string;
  /** gas denom, the denom of an EVM tx's `value` */
  gasDenom: string;
  /** feed rows as ActivityEvent objects */
  presentActivities(rows: readonly ActivityRow[]): ApiSchema<'ActivityEvent'>[];
  /** whether the render cache holds the tx of this (upper-case consensus or lower-case EVM) hash: it was committed, without a store read */
  rendered(hash: string): boolean;
  /** wall clock (ms), injectable for tests */
  now(): number;
  /** the chain tip and a reindex's progress as the serving process knows them (RestAppOptions.live) */
  live(): LiveStatus;
}
