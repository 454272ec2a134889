/**
 * payout: income distributions and accruals (index × 10^18 with carry).
 *
 * Per (asset, kind, denom) an accrual keeps a cumulative index; per position a
 * snapshot of the index per denom. Whenever a position's units or income
 * routing change, it is settled first: the income since the snapshot,
 * floor(units × Δindex / 10^18) per segment (own units, and each routing
 * pledge's units separately), is added to claim entries and the snapshot
 * moves to the index. Income of units under an ACTIVE pledge with
 * income_to_beneficiary goes to the beneficiary's entry keyed
 * (routed_from = holder, ref = encumbrance/<id>).
 *
 * The per-segment floor leaves a residue in the module account
 * (module_held − Σ claimable − carry), reported, never swept.
 */
import type { KvReader } from '../store';
import { keySegment, unKeySegment, KEY_MAX } from '../store';
import { Env, emitTyped, moduleAccount, requireAddress } from '../env';
import { payoutErrors, assetErrors } from '../errors';
import { distribute, pendingIncome } from '../../../src/lib/accrual';
import { requireAsset, requireKind } from './asset-state';
import { getPosition, getSupply, accountPositions } from './positions';
import { parseCoin, send } from './bank';

export interface AccrualRec {
  index: bigint;
  carry_scaled: bigint;
  total_distributed: bigint;
  total_paid: bigint;
  distributions_count: bigint;
  module_held: bigint;
  updated_height: number;
}

/** A pledge routing the income of `units` of a holder's position to a beneficiary. */
export interface RouteRec {
  ref: string;
  beneficiary: string;
  units: bigint;
}

/** proto svc.payout.v1.ClaimedEntry / ClaimableEntry core */
export interface ClaimPart {
  routed_from: string;
  ref: string;
  amount: bigint;
}

const ZERO_ACCRUAL: AccrualRec = Object.freeze({
  index: 0n,
  carry_scaled: 0n,
  total_distributed: 0n,
  total_paid: 0n,
  distributions_count: 0n,
  module_held: 0n,
  updated_height: 0,
}) as AccrualRec;

const accrualKey = (a: string, k: number, denom: string) => `payout/accrual/${a}/${k}/${keySegment(denom)}`;
const denomsKey = (a: string, k: number) => `payout/denoms/${a}/${k}`;
const snapshotKey = (a: string, k: number, holder: string) => `payout/snap/${a}/${k}/${holder}`;
const routesKey = (a: string, k: number, holder: string) => `payout/route/${a}/${k}/${holder}`;
const routedInParent = (beneficiary: string) => `payout/routein/${beneficiary}/`;
const claimParent = (claimer: string) => `payout/claim/${claimer}/`;
const claimSuffix = (a: string, k: number, denom: string, routedFrom: string, ref: string) =>
  `${a}|${k}|${keySegment(denom)}|${routedFrom}|${keySegment(ref)}`;

export const PAYOUT_MODULE = 'payout';

// ------------------------------------------------------------------ reads

export function getAccrual(kv: KvReader, a: string, k: number, denom: string): AccrualRec {
  return kv.get<AccrualRec>(accrualKey(a, k, denom)) ?? ZERO_ACCRUAL;
}

export function accrualDenoms(kv: KvReader, a: string, k: number): string[] {
  return kv.get<string[]>(denomsKey(a, k)) ?? [];
}

export function getRoutes(kv: KvReader, a: string, k: number, holder: string): RouteRec[] {
  return kv.get<RouteRec[]>(routesKey(a, k, holder)) ?? [];
}

/** Income since the position's snapshot, per segment (own units first, then each route). */
function pendingParts(
  kv: KvReader,
  a: string,
  k: number,
  holder: string,
  denom: string,
): { own: bigint; routes: { route: RouteRec; amount: bigint }[] } {
  const index = getAccrual(kv, a, k, denom).index;
  const snapshot = kv.get<Record<string, bigint>>(snapshotKey(a, k, holder))?.[denom] ?? 0n;
  const routes = getRoutes(kv, a, k, holder);
  if (index === snapshot) return { own: 0n, routes: routes.map((route) => ({ route, amount: 0n })) };
  const units = getPosition(kv, a, k, holder).units;
  const routed = routes.reduce((sum, r) => sum + r.units, 0n);
  return {
    own: pendingIncome(units - routed, index, snapshot),
    routes: routes.map((route) => ({ route, amount: pendingIncome(route.units, index, snapshot) })),
  };
}

function claimEntry(kv: KvReader, claimer: string, suffix: string): bigint {
  return kv.get<bigint>(claimParent(claimer) + suffix) ?? 0n;
}

// ------------------------------------------------------------------ settlement of positions

function addToClaim(env: Env, claimer: string, suffix: string, amount: bigint): void {
  if (amount === 0n) return;
  env.kv.set(claimParent(claimer) + suffix, claimEntry(env.kv, claimer, suffix) + amount);
}

/** Settles a position's income into claim entries (call before its units or routes change). */
export function settlePosition(env: Env, a: string, k: number, holder: string): void {
  const denoms = accrualDenoms(env.kv, a, k);
  if (denoms.length === 0) return;
  const snapshot = env.kv.get<Record<string, bigint>>(snapshotKey(a, k, holder)) ?? {};
  let next: Record<string, bigint> | null = null;
  for (const denom of denoms) {
    const index = getAccrual(env.kv, a, k, denom).index;
    if ((snapshot[denom] ?? 0n) === index) continue;
    const parts = pendingParts(env.kv, a, k, holder, denom);
    addToClaim(env, holder, claimSuffix(a, k, denom, '', ''), parts.own);
    for (const { route, amount } of parts.routes) {
      addToClaim(env, route.beneficiary, claimSuffix(a, k, denom, holder, route.ref), amount);
    }
    next = { ...(next ?? snapshot), [denom]: index };
  }
  if (next) env.kv.set(snapshotKey(a, k, holder), next);
}

/** Starts routing the income of `units` of a holder's position to `beneficiary` under `ref`. */
export function addRoute(
  env: Env,
  a: string,
  k: number,
  holder: string,
  ref: string,
  beneficiary: string,
  units: bigint,
): void {
  settlePosition(env, a, k, holder);
  const routes = [...getRoutes(env.kv, a, k, holder), { ref, beneficiary, units }].sort((x, y) =>
    x.ref < y.ref ? -1 : 1,
  );
  env.kv.set(routesKey(a, k, holder), routes);
  env.kv.set(`${routedInParent(beneficiary)}${a}|${k}|${holder}|${keySegment(ref)}`, true);
}

/** Stops the route `ref` (income up to now stays with the beneficiary). */
export function removeRoute(env: Env, a: string, k: number, holder: string, ref: string): void {
  const routes = getRoutes(env.kv, a, k, holder);
  const route = routes.find((r) => r.ref === ref);
  if (!route) return;
  settlePosition(env, a, k, holder);
  const rest = routes.filter((r) => r.ref !== ref);
  if (rest.length) env.kv.set(routesKey(a, k, holder), rest);
  else env.kv.delete(routesKey(a, k, holder));
  env.kv.delete(`${routedInParent(route.beneficiary)}${a}|${k}|${holder}|${keySegment(ref)}`);
}

/** Holders whose routes send income of (a, k) to `beneficiary`. */
function routedInHolders(kv: KvReader, beneficiary: string, a: string, k: number): string[] {
  const parent = routedInParent(beneficiary);
  const prefix = `${parent}${a}|${k}|`;
  const holders = kv
    .keys(parent, { gt: prefix, lte: prefix + KEY_MAX })
    .map((key) => key.slice(prefix.length).split('|')[0]);
  return [...new Set(holders)];
}

// ------------------------------------------------------------------ claimable (read-only)

export interface ClaimableRow {
  routed_from: string;
  ref: string;
  asset_id: string;
  kind_id: number;
  denom: string;
  pending: bigint;
  accrued: bigint;
}

function rowKey(r: { asset_id: string; kind_id: number; denom: string; routed_from: string; ref: string }): string {
  return `${r.asset_id}|${r.kind_id}|${r.denom}|${r.routed_from}|${r.ref}`;
}

/** Everything an account may claim (own and routed; pending + accrued), sorted. */
export function claimableRows(kv: KvReader, address: string): ClaimableRow[] {
  const rows = new Map<string, ClaimableRow>();
  const add = (base: Omit<ClaimableRow, 'pending' | 'accrued'>, pending: bigint, accrued: bigint) => {
    const key = rowKey(base);
    const row = rows.get(key) ?? { ...base, pending: 0n, accrued: 0n };
    rows.set(key, { ...row, pending: row.pending + pending, accrued: row.accrued + accrued });
  };
  for (const { assetId, kindId } of accountPositions(kv, address)) {
    for (const denom of accrualDenoms(kv, assetId, kindId)) {
      const own = pendingParts(kv, assetId, kindId, address, denom).own;
      add({ routed_from: '', ref: '', asset_id: assetId, kind_id: kindId, denom }, own, 0n);
    }
  }
  const inParent = routedInParent(address);
  for (const key of kv.keys(inParent)) {
    const [assetId, kind, holder, refSeg] = key.slice(inParent.length).split('|');
    const ref = unKeySegment(refSeg);
    const kindId = Number(kind);
    for (const denom of accrualDenoms(kv, assetId, kindId)) {
      const part = pendingParts(kv, assetId, kindId, holder, denom).routes.find((r) => r.route.ref === ref);
      add({ routed_from: holder, ref, asset_id: assetId, kind_id: kindId, denom }, part?.amount ?? 0n, 0n);
    }
  }
  const parent = claimParent(address);
  for (const key of kv.keys(parent)) {
    const [assetId, kind, denomSeg, routedFrom, refSeg] = key.slice(parent.length).split('|');
    const base = {
      routed_from: routedFrom,
      ref: unKeySegment(refSeg),
      asset_id: assetId,
      kind_id: Number(kind),
      denom: unKeySegment(denomSeg),
    };
    add(base, 0n, kv.get<bigint>(key) ?? 0n);
  }
  return [...rows.entries()]
    .filter(([, r]) => r.pending + r.accrued > 0n)
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([, r]) => r);
}

/** Total an account could claim now of (a, k, denom), without writing. */
export function claimableTotal(kv: KvReader, claimer: string, a: string, k: number, denom: string): bigint {
  let total = pendingParts(kv, a, k, claimer, denom).own;
  for (const holder of routedInHolders(kv, claimer, a, k)) {
    for (const part of pendingParts(kv, a, k, holder, denom).routes)
      if (part.route.beneficiary === claimer) total += part.amount;
  }
  const parent = claimParent(claimer);
  const prefix = `${parent}${a}|${k}|${keySegment(denom)}|`;
  for (const key of kv.keys(parent, { gt: prefix, lte: prefix + KEY_MAX })) total += kv.get<bigint>(key) ?? 0n;
  return total;
}

// ------------------------------------------------------------------ collecting (claim and escrow sweep)

/**
 * Settles the claimer's own and routed-in positions of (a, k), empties its
 * claim entries of the denom and pays them out of the module account.
 */
export function collect(
  env: Env,
  claimer: string,
  a: string,
  k: number,
  denom: string,
): { amount: bigint; entries: ClaimPart[]; accrual: AccrualRec } {
  settlePosition(env, a, k, claimer);
  for (const holder of routedInHolders(env.kv, claimer, a, k)) settlePosition(env, a, k, holder);
  const parent = claimParent(claimer);
  const prefix = `${parent}${a}|${k}|${keySegment(denom)}|`;
  const entries: ClaimPart[] = [];
  for (const key of env.kv.keys(parent, { gt: prefix, lte: prefix + KEY_MAX })) {
    const [routedFrom, refSeg] = key.slice(prefix.length).split('|');
    entries.push({ routed_from: routedFrom, ref: unKeySegment(refSeg), amount: env.kv.get<bigint>(key) ?? 0n });
    env.kv.delete(key);
  }
  const amount = entries.reduce((s, e) => s + e.amount, 0n);
  const before = getAccrual(env.kv, a, k, denom);
  if (amount === 0n) return { amount, entries, accrual: before };
  send(env, moduleAccount(env.config, PAYOUT_MODULE), claimer, [{ denom, amount }]);
  const accrual = {
    ...before,
    total_paid: before.total_paid + amount,
    module_held: before.module_held - amount,
    updated_height: env.height,
  };
  env.kv.set(accrualKey(a, k, denom), accrual);
  return { amount, entries, accrual };
}

// ------------------------------------------------------------------ messages

export function handleDistribute(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const payer = requireAddress(env, msg.payer, 'payer');
  const asset = requireAsset(env.kv, msg.asset_id);
  const kind = requireKind(asset, msg.kind_id);
  const coin = parseCoin(msg.amount, payoutErrors.invalidAmount);
  if (!asset.distribution_denoms.includes(coin.denom)) throw payoutErrors.denomNotAllowed(coin.denom);
  const supply = getSupply(env.kv, asset.asset_id, kind.kind_id).supply;
  if (supply === 0n) throw payoutErrors.zeroSupply(`${asset.asset_id}/${kind.kind_id}`);
  send(env, payer, moduleAccount(env.config, PAYOUT_MODULE), [coin]);
  const before = getAccrual(env.kv, asset.asset_id, kind.kind_id, coin.denom);
  const math = distribute({ index: before.index, carryScaled: before.carry_scaled, supply, amount: coin.amount });
  const accrual: AccrualRec = {
    index: math.newIndex,
    carry_scaled: math.carryScaled,
    total_distributed: before.total_distributed + coin.amount,
    total_paid: before.total_paid,
    distributions_count: before.distributions_count + 1n,
    module_held: before.module_held + coin.amount,
    updated_height: env.height,
  };
  env.kv.set(accrualKey(asset.asset_id, kind.kind_id, coin.denom), accrual);
  const denoms = accrualDenoms(env.kv, asset.asset_id, kind.kind_id);
  if (!denoms.includes(coin.denom)) env.kv.set(denomsKey(asset.asset_id, kind.kind_id), [...denoms, coin.denom].sort());
  emitTyped(env, 'svc.payout.v1.EventDistributed', {
    asset_id: asset.asset_id,
    kind_id: kind.kind_id,
    payer,
    denom: coin.denom,
    amount: coin.amount,
    supply,
    new_index: accrual.index,
    carry_scaled: accrual.carry_scaled,
    module_held_after: accrual.module_held,
    total_distributed_after: accrual.total_distributed,
  });
  return {};
}

export function handleClaim(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const claimer = requireAddress(env, msg.claimer, 'claimer');
  const asset = requireAsset(env.kv, msg.asset_id);
  const kind = requireKind(asset, msg.kind_id);
  const denom = String(msg.denom ?? '');
  if (!denom) throw assetErrors.invalid('denom required');
  const { amount, entries, accrual } = collect(env, claimer, asset.asset_id, kind.kind_id, denom);
  if (amount === 0n) throw payoutErrors.nothingToClaim(`${claimer} on ${asset.asset_id}/${kind.kind_id} ${denom}`);
  emitTyped(env, 'svc.payout.v1.EventClaimed', {
    claimer,
    asset_id: asset.asset_id,
    kind_id: kind.kind_id,
    denom,
    amount,
    entries: entries.filter((e) => e.amount > 0n),
    module_held_after: accrual.module_held,
    total_paid_after: accrual.total_paid,
  });
  return { amount };
}
