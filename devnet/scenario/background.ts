/**
 * Background volume: after the flows, each block is filled up to
 * txsPerBlock with seeded everyday traffic: right and bundle transfers, bank
 * sends, small trades (settlements accepted, cancelled or left to expire),
 * swaps, claims, EVM calls, bridge transfers, distributions and a trickle of
 * failing txs. Every action checks committed state (and this block's
 * reservations) first; one that cannot run falls back to a bank send.
 */
import type { Actor } from './accounts';
import type { Ctx, LaunchedAsset } from './context';
import * as msg from './messages';
import { trySwap, POOLED_ASSETS } from './flows/dex';
import { tokenTransfer, valueTransfer } from './flows/evm';
import { submitFailure, FAILURES } from './flows/failures';
import { incomeTargets, oddIncome, submitClaim } from './flows/payout';
import { NATIVE_CAP, NATIVE_ROUTE, outstanding, remoteAddress, windowUsed } from './flows/bridge';
import { reserveGives, settlementFlow, type Ending, type LegSpec } from './flows/settlement';
import { bytes32, somePart, WHOLE } from './flows/util';

type Action = (ctx: Ctx, sender: Actor) => Promise<boolean>;

function backgroundAssets(ctx: Ctx): LaunchedAsset[] {
  return [...ctx.world.assets.values()].filter(
    (a) => a.issued && a.background && ctx.assetView(a.assetId)?.status === 'ASSET_STATUS_ACTIVE',
  );
}

/**
 * Someone other than `sender` who may receive units of every kind given
 * (seeded choice). Never a role an app service signs for in services mode:
 * a service answers nothing (a trade's counterparty must), and units given to
 * it never come back (the desk keeps what it was given, docs/app-services.md
 * "Inventory"), so gifts to the lender and the desk drained the holders' stock
 * of the main equity by thousands of shares a simulated hour, and with it the
 * sell side of its pool (bench/world-flow.ts).
 */
function recipientFor(ctx: Ctx, sender: Actor, assetId: string, kindIds: number[]): Actor | undefined {
  const pool = [...ctx.cast.holders, ctx.cast.roles.desk, ctx.cast.roles.lender].filter(
    (a) => a !== sender && ctx.signsFor(a),
  );
  for (let tries = 0; tries < 4; tries++) {
    const candidate = ctx.rng.pick(pool);
    if (kindIds.every((k) => ctx.canReceive(assetId, k, candidate.address))) return candidate;
  }
  return undefined;
}

const transferUnits: Action = async (ctx, sender) => {
  const assets = backgroundAssets(ctx);
  if (assets.length === 0) return false;
  const asset = ctx.rng.pick(assets);
  const kindId = ctx.rng.int(0, asset.kindCount - 1);
  const units = somePart(ctx, ctx.availableUnits(sender.address, asset.assetId, kindId), 20n);
  const to = units > 0n ? recipientFor(ctx, sender, asset.assetId, [kindId]) : undefined;
  if (!to) return false;
  ctx.reserveUnits(sender.address, asset.assetId, kindId, units);
  await ctx.submit(sender, [msg.transfer(sender.address, to.address, asset.assetId, kindId, units)]);
  return true;
};

const transferBundle: Action = async (ctx, sender) => {
  const assets = backgroundAssets(ctx).filter((a) => a.kindCount > 1);
  if (assets.length === 0) return false;
  const asset = ctx.rng.pick(assets);
  const kinds = Array.from({ length: asset.kindCount }, (_, k) => k);
  const units = somePart(ctx, ctx.availableBundles(sender.address, asset.assetId, kinds), 20n);
  const to = units > 0n ? recipientFor(ctx, sender, asset.assetId, kinds) : undefined;
  if (!to) return false;
  kinds.forEach((k) => ctx.reserveUnits(sender.address, asset.assetId, k, units));
  await ctx.submit(sender, [msg.transferBundle(sender.address, to.address, asset.assetId, units)]);
  return true;
};

const bankSend: Action = async (ctx, sender) => {
  const denom = ctx.rng.chance(0.6) ? ctx.config.stableDenom : ctx.config.gasDenom;
  const amount = ctx.rng.bigint(1n, 100n) * WHOLE;
  if (ctx.availableCoins(sender.address, denom) < amount + WHOLE) return false;
  const to = ctx.rng.pick(ctx.cast.holders.filter((h) => h !== sender));
  ctx.reserveCoins(sender.address, denom, amount);
  await ctx.submit(sender, [msg.bankSend(sender.address, to.address, [msg.coin(denom, amount)])]);
  return true;
};

/** A small trade: units against the stable denom, proposed now and accepted (or not) next block. */
const trade: Action = async (ctx, sender) => {
  const assets = backgroundAssets(ctx);
  if (assets.length === 0) return false;
  const asset = ctx.rng.pick(assets);
  const kindId = ctx.rng.int(0, asset.kindCount - 1);
  const units = somePart(ctx, ctx.availableUnits(sender.address, asset.assetId, kindId), 20n);
  const counterparty = units > 0n ? recipientFor(ctx, sender, asset.assetId, [kindId]) : undefined;
  if (!counterparty) return false;
  const legs: LegSpec[] = [
    { give: true, assetId: asset.assetId, kindId, units },
    { give: false, denom: ctx.config.stableDenom, amount: (units * BigInt(ctx.rng.int(50, 300))) / 100n + 1n },
  ];
  if (!reserveGives(ctx, sender.address, legs)) return false;
  const ending: Ending = (['accept', 'cancel', 'expire'] as Ending[])[ctx.rng.weighted([80, 10, 10])];
  const flow = settlementFlow(`trade:${ctx.height}:${sender.name}`, sender, counterparty, legs, ending);
  ctx.spawn(flow);
  await flow.step(ctx);
  return true;
};

const swap: Action = (ctx, sender) => trySwap(ctx, sender, ctx.rng.pick(POOLED_ASSETS));

const claim: Action = async (ctx, sender) => {
  const entries = ctx.view.claimableEntries(sender.address).filter((e) => e.amount > 0n);
  if (entries.length === 0) return false;
  const e = ctx.rng.pick(entries);
  return submitClaim(ctx, sender, e.assetId, e.kindId, e.denom);
};

const evm: Action = async (ctx) => {
  const equity = ctx.issuedAsset('equity');
  const form = ctx.rng.chance(0.8) ? 'cosmos' : 'ethermint';
  const to = ctx.rng.pick(ctx.cast.holders);
  const holderOfUnits = ctx.cast.evm[0];
  const units = equity ? somePart(ctx, ctx.availableUnits(holderOfUnits.address, equity.assetId, 0), 50n) : 0n;
  if (equity && units > 0n && ctx.rng.chance(0.5)) {
    ctx.reserveUnits(holderOfUnits.address, equity.assetId, 0, units);
    await tokenTransfer(ctx, holderOfUnits, equity.assetId, 0, to.address, units, form);
    return true;
  }
  await valueTransfer(ctx, ctx.rng.pick(ctx.cast.evm), to.address, ctx.rng.bigint(1n, 1_000_000n), form);
  return true;
};

const bridge: Action = async (ctx, sender) => {
  const route = ctx.view.route(NATIVE_ROUTE);
  if (!route || route.route.status !== 'ROUTE_STATUS_ACTIVE') return false;
  if (!ctx.claimOnce('bridge')) return false;
  const relayer = ctx.cast.roles.bridge;
  const back = outstanding(ctx, NATIVE_ROUTE);
  if (back > 0n && ctx.rng.chance(0.4)) {
    await ctx.submit(relayer, [
      msg.bridgeIn(
        relayer.address,
        NATIVE_ROUTE,
        bytes32(ctx),
        remoteAddress(sender.address),
        sender.address,
        somePart(ctx, back, 2n),
      ),
    ]);
    return true;
  }
  const amount = ctx.rng.bigint(1n, NATIVE_CAP / 20n);
  // background traffic stays under the cap; only the bridge flow's deliberate attempt exceeds it
  if (windowUsed(ctx, NATIVE_ROUTE, Number(route.route.window_seconds)) + amount > NATIVE_CAP) return false;
  ctx.reserveCoins(sender.address, ctx.config.gasDenom, amount);
  await ctx.submit(sender, [msg.bridgeOut(sender.address, NATIVE_ROUTE, remoteAddress(sender.address), amount)]);
  return true;
};

const distribute: Action = async (ctx) => {
  const targets = incomeTargets(ctx);
  if (targets.length === 0) return false;
  const t = ctx.rng.pick(targets);
  const amount = oddIncome(ctx);
  ctx.reserveCoins(t.asset.issuer.address, ctx.config.stableDenom, amount);
  await ctx.submit(t.asset.issuer, [
    msg.distribute(t.asset.issuer.address, t.asset.assetId, t.kindId, msg.coin(ctx.config.stableDenom, amount)),
  ]);
  return true;
};

const failure: Action = async (ctx, sender) => (await submitFailure(ctx, ctx.rng.pick(FAILURES), sender)) !== null;

const ACTIONS: [Action, number][] = [
  [transferUnits, 30],
  [bankSend, 16],
  [transferBundle, 8],
  [trade, 8],
  [swap, 8],
  [claim, 7],
  [evm, 6],
  [bridge, 4],
  [distribute, 2],
  [failure, 2],
];
const WEIGHTS = ACTIONS.map(([, w]) => w);

/** Fills the rest of the block's budget with background traffic. */
export async function fillBlock(ctx: Ctx): Promise<void> {
  let guard = ctx.config.txsPerBlock * 4;
  while (ctx.budgetLeft > 0 && guard-- > 0) {
    const sender = ctx.rng.pick(ctx.cast.holders);
    const [action] = ACTIONS[ctx.rng.weighted(WEIGHTS)];
    if (!(await action(ctx, sender))) await bankSend(ctx, sender);
  }
}
