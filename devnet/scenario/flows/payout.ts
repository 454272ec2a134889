/**
 * Distribute → claim, recurring: the issuer distributes an odd amount of the
 * stable denom to an INCOME kind (so the index leaves a carry), and the next
 * block a few accounts with something claimable (own or routed by a pledge)
 * claim it.
 */
import type { Actor } from '../accounts';
import type { Ctx, Handle, LaunchedAsset } from '../context';
import { Loop, script, type Flow } from '../flow';
import * as msg from '../messages';
import { expectOk } from './util';

interface IncomeTarget {
  asset: LaunchedAsset;
  kindId: number;
}

/** INCOME kinds of the launched assets that have supply. */
export function incomeTargets(ctx: Ctx): IncomeTarget[] {
  const targets: IncomeTarget[] = [];
  for (const key of ['dividend', 'equity', 'bond']) {
    const asset = ctx.issuedAsset(key);
    const view = asset && ctx.assetView(asset.assetId);
    if (!asset || !view || view.status !== 'ASSET_STATUS_ACTIVE') continue;
    for (const k of view.kinds) if (k.class === 'KIND_CLASS_INCOME') targets.push({ asset, kindId: k.kind_id });
  }
  return targets;
}

/** An odd amount between 1 and 50 units of the stable denom: supply rarely divides it, so carry appears. */
export function oddIncome(ctx: Ctx): bigint {
  return ctx.rng.bigint(1_000_000n, 50_000_000n) * 2n + 1n;
}

/** Accounts among `candidates` with something to claim of (asset, kind, stable denom). */
export function claimers(ctx: Ctx, target: IncomeTarget, candidates: readonly Actor[], max: number): Actor[] {
  const out: Actor[] = [];
  for (const a of candidates) {
    if (out.length >= max) break;
    if (ctx.view.claimable(a.address, target.asset.assetId, target.kindId, ctx.config.stableDenom) > 0n) out.push(a);
  }
  return out;
}

/** Submits a claim unless `claimer` already claims this (asset, kind, denom) in this block (a second claim would find nothing). */
export async function submitClaim(
  ctx: Ctx,
  claimer: Actor,
  assetId: string,
  kindId: number,
  denom: string,
): Promise<boolean> {
  if (!ctx.claimOnce(`claim:${claimer.address}|${assetId}|${kindId}|${denom}`)) return false;
  await ctx.submit(claimer, [msg.claim(claimer.address, assetId, kindId, denom)]);
  return true;
}

export function distributionLoop(): Flow {
  return new Loop(
    'distribute-claim',
    (ctx) => {
      const targets = incomeTargets(ctx);
      if (targets.length === 0) return null;
      const target = ctx.rng.pick(targets);
      const state: { handle?: Handle } = {};
      return script(`distribute:${target.asset.key}/${target.kindId}`, state, [
        async (c) => {
          const amount = oddIncome(c);
          c.reserveCoins(target.asset.issuer.address, c.config.stableDenom, amount);
          state.handle = await c.submit(target.asset.issuer, [
            msg.distribute(
              target.asset.issuer.address,
              target.asset.assetId,
              target.kindId,
              msg.coin(c.config.stableDenom, amount),
            ),
          ]);
        },
        async (c) => {
          expectOk(c, state.handle!, 'MsgDistribute');
          // in services mode the lender service claims the income routed to the lender
          const candidates = [...c.cast.holders, c.cast.roles.lender].filter((a) => c.signsFor(a));
          const who = claimers(c, target, candidates, Math.max(1, Math.min(3, c.budgetLeft)));
          for (const a of who) await submitClaim(c, a, target.asset.assetId, target.kindId, c.config.stableDenom);
        },
      ]);
    },
    [2, 6],
  );
}
