/**
 * Waterfall liquidation of the `liquidation` asset: tiers set by the issuer,
 * a PENDING settlement on the asset, MsgLiquidate by the operator (the
 * settlement is cancelled with reason LIQUIDATION, tier 0 paid in full, tier
 * 1 in part), then every holder redeems its units until the asset is
 * LIQUIDATED. Plus a bond redemption outside liquidation (MsgFundRedemption
 * of the REDEMPTION kind, partial redeems).
 */
import type { Actor } from '../accounts';
import type { Ctx, Handle, LaunchedAsset } from '../context';
import { script, type Flow } from '../flow';
import * as msg from '../messages';
import { reserveGives, toLeg, type LegSpec } from './settlement';
import { expectOk, somePart, WHOLE } from './util';

const TIER_KINDS = [1, 0];

interface LiquidationState {
  asset?: LaunchedAsset;
  tiers?: Handle;
  proposal?: Handle;
}

function proposeOnAsset(
  ctx: Ctx,
  asset: LaunchedAsset,
): { proposer: Actor; counterparty: Actor; legs: LegSpec[] } | null {
  const [proposer, counterparty] = ctx.cast.holders;
  const units = somePart(ctx, ctx.availableUnits(proposer.address, asset.assetId, 0), 4n);
  if (units === 0n) return null;
  const legs: LegSpec[] = [
    { give: true, assetId: asset.assetId, kindId: 0, units },
    { give: false, denom: ctx.config.stableDenom, amount: units / 2n + 1n },
  ];
  return reserveGives(ctx, proposer.address, legs) ? { proposer, counterparty, legs } : null;
}

async function redeemEverything(ctx: Ctx, asset: LaunchedAsset): Promise<'wait' | 'stop'> {
  const owners = new Map<string, { kindId: number; units: bigint }[]>();
  for (const kindId of TIER_KINDS) {
    for (const h of ctx.view.holders(asset.assetId, kindId)) {
      const free = h.units - h.locked;
      if (free > 0n) owners.set(h.holder, [...(owners.get(h.holder) ?? []), { kindId, units: free }]);
    }
  }
  if (owners.size === 0) return 'stop';
  let sent = 0;
  for (const [address, parts] of owners) {
    const actor = ctx.cast.byAddress.get(address);
    if (!actor || !ctx.signsFor(actor) || sent >= Math.max(1, ctx.budgetLeft)) continue;
    await ctx.submit(
      actor,
      parts.map((p) => msg.redeem(address, asset.assetId, p.kindId, p.units)),
    );
    sent += 1;
  }
  // units held by accounts the scenario cannot sign for would keep the asset LIQUIDATING for ever
  return sent === 0 ? 'stop' : 'wait';
}

export function liquidationFlow(): Flow {
  return script<LiquidationState>('waterfall:liquidation', {}, [
    async (ctx, s) => {
      s.asset = ctx.issuedAsset('liquidation');
      if (!s.asset) return 'wait';
      const tiers = TIER_KINDS.map((kind_id, rank) => ({ rank, kind_id, claim_per_unit: String(rank + 1) }));
      s.tiers = await ctx.submit(s.asset.issuer, [msg.setWaterfall(s.asset.issuer.address, s.asset.assetId, tiers)]);
    },
    async (ctx, s) => {
      expectOk(ctx, s.tiers!, 'MsgSetWaterfall');
      const plan = proposeOnAsset(ctx, s.asset!);
      if (!plan) return 'wait';
      s.proposal = await ctx.submit(plan.proposer, [
        msg.propose(plan.proposer.address, plan.counterparty.address, plan.legs.map(toLeg), ctx.longExpiry()),
      ]);
    },
    async (ctx, s) => {
      expectOk(ctx, s.proposal!, 'settlement before liquidation');
      const a = s.asset!;
      // tier 0 (INCOME, 1 per unit) in full, tier 1 (ECONOMIC, 2 per unit) about half
      const proceeds = ctx.view.supply(a.assetId, 1) + ctx.view.supply(a.assetId, 0) + ctx.rng.bigint(1n, WHOLE);
      const operator = ctx.cast.roles.operator;
      ctx.reserveCoins(operator.address, ctx.config.stableDenom, proceeds);
      await ctx.submit(operator, [
        msg.liquidate(operator.address, a.assetId, msg.coin(ctx.config.stableDenom, proceeds)),
      ]);
    },
    (ctx, s) => redeemEverything(ctx, s.asset!),
  ]);
}

interface BondState {
  fund?: Handle;
  fundAt?: number;
}

export function bondRedemptionFlow(): Flow {
  return script<BondState>('waterfall:bond-redemption', {}, [
    (ctx, s) => {
      if (!ctx.issuedAsset('bond')) return 'wait';
      s.fundAt = ctx.height + ctx.rng.int(5, 20);
    },
    async (ctx, s) => {
      if (ctx.height < s.fundAt!) return 'wait';
      const bond = ctx.issuedAsset('bond')!;
      const amount = ctx.view.supply(bond.assetId, 0) / 2n + 1n;
      ctx.reserveCoins(bond.issuer.address, ctx.config.stableDenom, amount);
      s.fund = await ctx.submit(bond.issuer, [
        msg.fundRedemption(bond.issuer.address, bond.assetId, 0, msg.coin(ctx.config.stableDenom, amount)),
      ]);
    },
    async (ctx, s) => {
      expectOk(ctx, s.fund!, 'MsgFundRedemption');
      const bond = ctx.issuedAsset('bond')!;
      for (const holder of ctx.cast.holders.slice(0, 2)) {
        const units = somePart(ctx, ctx.availableUnits(holder.address, bond.assetId, 0), 3n);
        if (units === 0n) continue;
        ctx.reserveUnits(holder.address, bond.assetId, 0, units);
        await ctx.submit(holder, [msg.redeem(holder.address, bond.assetId, 0, units)]);
      }
    },
  ]);
}
