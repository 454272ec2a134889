/**
 * The rights module's stored records (positions, locks, supplies) and their reads: what the
 * payout module and the queries read without going through rights' moves. Imports no module.
 */
import type { KvReader } from '../store';

export interface LockRec {
  ref: string;
  units: bigint;
}

export interface PositionRec {
  units: bigint;
  locked: bigint;
  locks: LockRec[];
}

export interface SupplyRec {
  supply: bigint;
  holder_count: number;
}

/** proto svc.rights.v1.PositionAfter */
export interface PositionAfter {
  asset_id: string;
  kind_id: number;
  holder: string;
  units: bigint;
  locked: bigint;
}

const EMPTY: PositionRec = Object.freeze({ units: 0n, locked: 0n, locks: [] }) as PositionRec;

export const positionParent = (assetId: string, kindId: number) => `rights/pos/${assetId}/${kindId}/`;
export const positionKey = (a: string, k: number, holder: string) => `${positionParent(a, k)}${holder}`;
export const supplyKey = (a: string, k: number) => `rights/supply/${a}/${k}`;
/** per-account index of positions: parent rights/acct/<holder>/, key suffix <asset>|<kind> */
export const accountPositionsParent = (holder: string) => `rights/acct/${holder}/`;

export function getPosition(kv: KvReader, assetId: string, kindId: number, holder: string): PositionRec {
  return kv.get<PositionRec>(positionKey(assetId, kindId, holder)) ?? EMPTY;
}

export function transferable(kv: KvReader, assetId: string, kindId: number, holder: string): bigint {
  const p = getPosition(kv, assetId, kindId, holder);
  return p.units - p.locked;
}

export function getSupply(kv: KvReader, assetId: string, kindId: number): SupplyRec {
  return kv.get<SupplyRec>(supplyKey(assetId, kindId)) ?? { supply: 0n, holder_count: 0 };
}

export function positionAfter(kv: KvReader, assetId: string, kindId: number, holder: string): PositionAfter {
  const p = getPosition(kv, assetId, kindId, holder);
  return { asset_id: assetId, kind_id: kindId, holder, units: p.units, locked: p.locked };
}

/** (asset, kind) pairs an account holds or has locks in. */
export function accountPositions(kv: KvReader, holder: string): { assetId: string; kindId: number }[] {
  const parent = accountPositionsParent(holder);
  return kv.keys(parent).map((key) => {
    const [assetId, kind] = key.slice(parent.length).split('|');
    return { assetId, kindId: Number(kind) };
  });
}
