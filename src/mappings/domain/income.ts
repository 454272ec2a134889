/**
 * Income accrual (payout index scheme, src/lib/accrual.ts), per Claimable entry:
 *   pending = floor(units * (index - snapshot_index) / 10^18)
 * Entries are settled (pending moved into `accrued`, snapshot := index) exactly
 * when the chain settles: the chain keeps one snapshot per position and settles
 * every segment of it (the holder's own units - routed_out, and each active
 * pledge route: beneficiary, routed_from = holder, ref = encumbrance/<id>) for
 * every denom of the kind at once — before the position's units change, when a
 * route starts or ends, and on a claim (the claimer's position and every
 * position routing income to the claimer). Each settlement floors, so settling
 * one segment alone (or skipping a zero-amount one) drifts by a unit now and then.
 *
 * Invariant kept so that no entry is ever missing: when a denom is first
 * distributed to a kind, entries (snapshot 0) are created for every position
 * and active income route earning at that moment; afterwards every change of
 * earning units goes through settle(), which creates missing entries.
 */
import { pendingIncome } from '../../lib/accrual';
import { Accrual, Claimable, Encumbrance, Holding, Kind } from '../../types';
import { load, put, queryAll } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';
import { EntryKey, getAccrual, getClaimable, newAccrual } from '../entities/accruals';
import { expectEqual } from '../entities/drift';
import { change, update } from '../entities/entity';
import { getHolding, locksOf } from '../entities/holdings';

/** Moves the entry's pending income into `accrued` and snapshots the current index (nothing to do, nothing written, when the index has not moved). */
export function settle(c: Claimable, accrual: Accrual, height: number): void {
  if (accrual.index === c.snapshotIndex) return;
  const earned = accrual.index > c.snapshotIndex && c.units > 0n;
  const accrued = earned ? c.accrued + pendingIncome(c.units, accrual.index, c.snapshotIndex) : c.accrued;
  update({ height }, c, { accrued, snapshotIndex: accrual.index });
}

function ownKey(kind: Kind, holder: string, denom: string): EntryKey {
  return { account: holder, routedFrom: '', ref: '', assetId: kind.assetId, kindId: kind.kindId, denom };
}

function routedKey(enc: Encumbrance, denom: string): EntryKey {
  return {
    account: enc.beneficiary,
    routedFrom: enc.holder,
    ref: `encumbrance/${enc.id}`,
    assetId: enc.assetId,
    kindId: enc.kindId,
    denom,
  };
}

async function eachAccrual(kind: Kind, fn: (accrual: Accrual, denom: string) => Promise<void>): Promise<void> {
  for (const denom of kind.accrualDenoms) {
    const accrual = await getAccrual(kind.assetId, kind.kindId, denom);
    if (accrual) await fn(accrual, denom);
  }
}

const ENCUMBRANCE_REF = 'encumbrance/';

/**
 * Active income routes of a position: its encumbrance locks whose pledge routes income
 * (none to look up while routed_out is 0). `exceptId`: a route being started right now.
 */
async function routesOf(h: Holding, exceptId?: string): Promise<Encumbrance[]> {
  if (h.routedOut <= 0n) return [];
  const routes: Encumbrance[] = [];
  for (const lock of locksOf(h)) {
    if (!lock.ref.startsWith(ENCUMBRANCE_REF)) continue;
    const id = lock.ref.slice(ENCUMBRANCE_REF.length);
    if (id === exceptId) continue;
    const enc = await load(Encumbrance, id);
    if (enc && isIncomeRoute(enc)) routes.push(enc);
  }
  return routes;
}

/**
 * The chain's settlement of a position: its own entry and every active route's entry,
 * for every accrual denom of the kind (before its units or routes change, and on claims).
 */
export async function settlePosition(
  ctx: EventCtx<unknown>,
  kind: Kind,
  h: Holding,
  exceptRouteId?: string,
): Promise<void> {
  if (kind.accrualDenoms.length === 0) return;
  const routes = await routesOf(h, exceptRouteId);
  await eachAccrual(kind, async (accrual, denom) => {
    settle(await getClaimable(ownKey(kind, h.holder, denom), ctx.height), accrual, ctx.height);
    for (const enc of routes) settle(await getClaimable(routedKey(enc, denom), ctx.height), accrual, ctx.height);
  });
}

/**
 * What the chain settles before paying a claim (or an escrow sweep) of `claimer`: the
 * claimer's own position and every position whose income routes to the claimer now (its
 * active income pledges as beneficiary: one indexed query, bounded by the active pledges,
 * not by every route the claimer ever had).
 */
export async function settleForCollect(ctx: EventCtx<unknown>, kind: Kind, claimer: string): Promise<void> {
  if (kind.accrualDenoms.length === 0) return;
  await settlePosition(ctx, kind, await getHolding(kind.assetId, kind.kindId, claimer, ctx.height));
  const routesToClaimer = await queryAll(
    Encumbrance,
    [
      ['beneficiary', '=', claimer],
      ['status', '=', 'active'],
    ],
    (enc) =>
      enc.beneficiary === claimer && enc.assetId === kind.assetId && enc.kindId === kind.kindId && isIncomeRoute(enc),
  );
  const holders = new Set(routesToClaimer.map((enc) => enc.holder));
  for (const holder of [...holders].sort())
    await settlePosition(ctx, kind, await getHolding(kind.assetId, kind.kindId, holder, ctx.height));
}

/** Sets the earning units of the holder's own entries (after its units or routing changed). */
export async function syncOwnUnits(ctx: EventCtx<unknown>, kind: Kind, h: Holding): Promise<void> {
  await eachAccrual(kind, async (_accrual, denom) => {
    const c = await getClaimable(ownKey(kind, h.holder, denom), ctx.height);
    update(ctx, c, { units: h.units - h.routedOut });
  });
}

/** A pledge with income_to_beneficiary becomes active: its units' income now accrues to the beneficiary. */
export async function startRouting(ctx: EventCtx<unknown>, kind: Kind, enc: Encumbrance): Promise<void> {
  const h = await getHolding(enc.assetId, enc.kindId, enc.holder, ctx.height);
  await settlePosition(ctx, kind, h, enc.id);
  update(ctx, h, { routedOut: h.routedOut + enc.units });
  await syncOwnUnits(ctx, kind, h);
  await eachAccrual(kind, async (accrual, denom) => {
    const c = await getClaimable(routedKey(enc, denom), ctx.height);
    settle(c, accrual, ctx.height);
    update(ctx, c, { units: enc.units });
  });
}

/** The pledge ended (released, exercised, expired; its lock is already removed): income returns to the holder. */
export async function stopRouting(ctx: EventCtx<unknown>, kind: Kind, enc: Encumbrance): Promise<void> {
  await eachAccrual(kind, async (accrual, denom) => {
    const c = await getClaimable(routedKey(enc, denom), ctx.height);
    settle(c, accrual, ctx.height);
    update(ctx, c, { units: 0n });
  });
  const h = await getHolding(enc.assetId, enc.kindId, enc.holder, ctx.height);
  await settlePosition(ctx, kind, h); // own entry and the position's other routes
  update(ctx, h, { routedOut: h.routedOut - enc.units });
  await syncOwnUnits(ctx, kind, h);
}

export function isIncomeRoute(enc: Encumbrance): boolean {
  return enc.kind === 'pledge' && enc.incomeToBeneficiary && enc.status === 'active';
}

/** Own entries of every position of the kind earning now. */
async function openOwnEntries(ctx: EventCtx<unknown>, kind: Kind, denom: string): Promise<void> {
  const earning = await queryAll(
    Holding,
    [['kindRef', '=', kind.id]],
    (h) => h.kindRef === kind.id && h.units - h.routedOut > 0n,
  );
  for (const h of earning) {
    const c = await getClaimable(ownKey(kind, h.holder, denom), ctx.height);
    update(ctx, c, { units: h.units - h.routedOut });
  }
}

/** Routed entries of every active income pledge on the kind. */
async function openRoutedEntries(ctx: EventCtx<unknown>, kind: Kind, denom: string): Promise<void> {
  const routes = await queryAll(
    Encumbrance,
    [
      ['assetId', '=', kind.assetId],
      ['status', '=', 'active'],
    ],
    (enc) => enc.assetId === kind.assetId && enc.kindId === kind.kindId && isIncomeRoute(enc),
  );
  for (const enc of routes) {
    const c = await getClaimable(routedKey(enc, denom), ctx.height);
    update(ctx, c, { units: enc.units });
  }
}

/**
 * First distribution of `denom` to a kind: registers the denom on the kind and
 * creates the entries (snapshot 0 = the index before this first distribution)
 * of every position and active income route earning now.
 */
export async function openAccrual(ctx: EventCtx<unknown>, kind: Kind, denom: string): Promise<Accrual> {
  const accrual = put(Accrual, newAccrual(ctx, kind, denom));
  change(kind, { accrualDenoms: [...kind.accrualDenoms, denom] });
  await openOwnEntries(ctx, kind, denom);
  await openRoutedEntries(ctx, kind, denom);
  return accrual;
}

/** Pays `amount` out of an entry (claim or escrow sweep) after settling it. Returns the accrued amount before paying. */
export async function payOut(ctx: EventCtx<unknown>, key: EntryKey, accrual: Accrual, amount: bigint): Promise<bigint> {
  const c = await getClaimable(key, ctx.height);
  settle(c, accrual, ctx.height);
  const before = c.accrued;
  update(ctx, c, { accrued: before - amount });
  return before;
}

export function ownEntry(assetId: string, kindId: number, denom: string, account: string): EntryKey {
  return { account, routedFrom: '', ref: '', assetId, kindId, denom };
}

/** Compares the accrual's module_held and total_paid with the event's post-values. */
export async function checkAccrualAfter(
  ctx: EventCtx<unknown>,
  accrual: Accrual,
  moduleHeldAfter: string | undefined,
  totalPaidAfter: string | undefined,
): Promise<void> {
  await expectEqual(ctx, 'Accrual', accrual.id, 'module_held', moduleHeldAfter, accrual.moduleHeld);
  await expectEqual(ctx, 'Accrual', accrual.id, 'total_paid', totalPaidAfter, accrual.totalPaid);
}

/** Records that `amount` left the module for an accrual (claim, escrow sweep). */
export function recordPaid(ctx: EventCtx<unknown>, accrual: Accrual, amount: bigint): void {
  update(ctx, accrual, { totalPaid: accrual.totalPaid + amount, moduleHeld: accrual.moduleHeld - amount });
}
