/**
 * Kind and Holding rows: their ids, lookups, and the one place a Holding is created (a zero
 * position, stored once it changes), and its versions (HoldingVersion: the holders of record at a
 * past height read them, docs/indexer.md "State at a past height: mechanism").
 */
import { Holding, HoldingVersion, Kind } from '../../types';
import { requireEntity, touch } from './entity';
import { big } from '../infra/values';
import { adopt, keepVersions, load } from '../infra/block-cache';
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

keepVersions(Holding, (h, toHeight) =>
  HoldingVersion.create({
    id: `${h.id}@${h.updatedHeight}`,
    of: h.id,
    kindRef: h.kindRef,
    assetId: h.assetId,
    kindId: h.kindId,
    holder: h.holder,
    units: h.units,
    locked: h.locked,
    locks: h.locks,
    routedOut: h.routedOut,
    fromHeight: h.updatedHeight,
    toHeight,
  }),
);

export function getKind(assetId: string, kindId: number): Promise<Kind | undefined> {
  return load(Kind, kindKey(assetId, kindId));
}

/** The kind, or undefined after recording that the chain refers to a kind the indexer does not know. */
export function requireKind(ctx: EventCtx<unknown>, assetId: string, kindId: number): Promise<Kind | undefined> {
  return requireEntity(ctx, Kind, 'Kind', kindKey(assetId, kindId));
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

/** The locks on a position, as Holding.locks stores them. */
export function locksOf(h: Holding): LockJson[] {
  return h.locks as unknown as LockJson[];
}

/** Adds a lock to the position (or adds to the lock with the same ref). */
export function addLockUnits(ctx: EventCtx<unknown>, h: Holding, ref: string, units: bigint): void {
  const locks = locksOf(h);
  const existing = locks.find((l) => l.ref === ref);
  if (existing) existing.units = (big(existing.units) + units).toString();
  else locks.push({ ref, units: units.toString() });
  h.locks = [...locks] as unknown as Holding['locks'];
  h.locked += units;
  touch(ctx, h);
}

/** Removes the lock `ref` from the position; undefined (nothing changed) when it has no such lock. Returns the units it held. */
export function removeLockUnits(ctx: EventCtx<unknown>, h: Holding, ref: string): bigint | undefined {
  const locks = locksOf(h);
  const lock = locks.find((l) => l.ref === ref);
  if (!lock) return undefined;
  const units = big(lock.units);
  h.locks = locks.filter((l) => l !== lock) as unknown as Holding['locks'];
  h.locked -= units;
  touch(ctx, h);
  return units;
}
