/**
 * Accrual and Claimable rows: their ids, lookups, and the one place each is created.
 */
import { Accrual, Claimable, Kind } from '../../types';
import { load, put } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';

export function accrualKey(assetId: string, kindId: number, denom: string): string {
  return `${assetId}-${kindId}-${denom}`;
}

export function claimableKey(
  account: string,
  routedFrom: string,
  ref: string,
  assetId: string,
  kindId: number,
  denom: string,
): string {
  return `${account}|${routedFrom}|${ref}|${assetId}|${kindId}|${denom}`;
}

export function getAccrual(assetId: string, kindId: number, denom: string): Promise<Accrual | undefined> {
  return load(Accrual, accrualKey(assetId, kindId, denom));
}

export interface EntryKey {
  account: string;
  routedFrom: string;
  ref: string;
  assetId: string;
  kindId: number;
  denom: string;
}

/** The entry, created empty (units 0, snapshot 0) when missing. */
export async function getClaimable(key: EntryKey, height: number): Promise<Claimable> {
  const id = claimableKey(key.account, key.routedFrom, key.ref, key.assetId, key.kindId, key.denom);
  const found = await load(Claimable, id);
  if (found) return found;
  return put(
    Claimable,
    Claimable.create({
      id,
      ...key,
      accrualId: accrualKey(key.assetId, key.kindId, key.denom),
      units: 0n,
      snapshotIndex: 0n,
      accrued: 0n,
      updatedHeight: height,
    }),
  );
}

/** A new accrual of (kind, denom): index 0, nothing distributed yet. */
export function newAccrual(ctx: EventCtx<unknown>, kind: Kind, denom: string): Accrual {
  return Accrual.create({
    id: accrualKey(kind.assetId, kind.kindId, denom),
    assetId: kind.assetId,
    kindId: kind.kindId,
    denom,
    index: 0n,
    carryScaled: 0n,
    totalDistributed: 0n,
    totalPaid: 0n,
    distributionsCount: 0,
    moduleHeld: 0n,
    updatedHeight: ctx.height,
  });
}
