/**
 * Kind and Holding rows: their ids, lookups, and the one place a Holding is created (a zero
 * position, stored once it changes).
 */
import { Holding, Kind } from '../../types';
import { recordDrift } from './drift';
import { adopt, load } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';

/** A lock on a position, as stored in Holding.locks (units as a decimal string). */
export interface LockJson {
  ref: string;
  units: string;
}

export function kindKey(assetId: string, kindId: number): string {
  return `${assetId}-${kindId}`;
}

export function holdingKey(assetId: string, kindId: number, holder: string): string {
  return `${assetId}-${kindId}-${holder}`;
}

export function getKind(assetId: string, kindId: number): Promise<Kind | undefined> {
  return load(Kind, kindKey(assetId, kindId));
}

/** The kind, or undefined after recording that the chain refers to a kind the indexer does not know. */
export async function requireKind(ctx: EventCtx<unknown>, assetId: string, kindId: number): Promise<Kind | undefined> {
  const kind = await getKind(assetId, kindId);
  if (!kind) await recordDrift(ctx, 'Kind', kindKey(assetId, kindId), 'exists', true, false);
  return kind;
}

/** The holder's position; a zero position (not yet stored) when it has none. */
export async function getHolding(assetId: string, kindId: number, holder: string, height: number): Promise<Holding> {
  const id = holdingKey(assetId, kindId, holder);
  const found = await load(Holding, id);
  if (found) return found;
  return adopt(
    Holding,
    Holding.create({
      id,
      kindRef: kindKey(assetId, kindId),
      assetId,
      kindId,
      holder,
      units: 0n,
      locked: 0n,
      locks: [],
      routedOut: 0n,
      updatedHeight: height,
    }),
  );
}

/** Kinds of an asset that belong to its whole-share bundle, in kind order. */
export async function bundleKindIds(assetId: string, kindCount: number): Promise<number[]> {
  const ids: number[] = [];
  for (let k = 0; k < kindCount; k++) {
    const kind = await getKind(assetId, k);
    if (kind?.bundle) ids.push(k);
  }
  return ids;
}
