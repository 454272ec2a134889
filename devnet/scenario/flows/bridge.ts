/**
 * Bridge: routes NATIVE_OUT (the gas denom), SYNTHETIC_IN (a remote coin
 * minted here) and RIGHT_OUT (the bridgeable dividend INCOME kind, OPEN
 * policy; chains from 0.12.0 on). Transfers out and in on each, a
 * distribution while the escrow holds units (the next BeginBlock sweeps the
 * escrow's income), and two rejected MsgBridgeOut: route paused (bridge/4)
 * and over the window cap (bridge/5).
 */
import type { Actor } from '../accounts';
import type { Ctx, Handle } from '../context';
import { script, type Flow, type Step } from '../flow';
import * as msg from '../messages';
import type { RouteSpec } from '../messages';
import { toEvmAddress } from '../../../src/lib/address';
import { oddIncome } from './payout';
import { bytes32, expectOk, shuffled, somePart, WHOLE } from './util';

export const NATIVE_ROUTE = 'svc-native-out';
export const SYNTHETIC_ROUTE = 'weth-synthetic-in';
export const RIGHT_ROUTE = 'qsr-income-right-out';
export const SYNTHETIC_DENOM = 'synth/weth';
/** per-window cap of the native route (window of one hour) */
export const NATIVE_CAP = 50n * WHOLE;
const NATIVE_WINDOW_SECONDS = 3600;
const REMOTE_ROUTER = '0x' + '00'.repeat(12) + '5c7f8a1b2d3e4f5061728394a5b6c7d8e9f0a1b2';

/** The remote (bytes32) form of a local account: its 20 bytes left-padded. */
export function remoteAddress(local: string): string {
  return '0x' + '00'.repeat(12) + toEvmAddress(local).slice(2).toLowerCase();
}

function routes(ctx: Ctx, dividendId: string | undefined): RouteSpec[] {
  const common = { remote_domain: 1, remote_contract: REMOTE_ROUTER, inbound_limit: '0' };
  const list: RouteSpec[] = [
    {
      ...common,
      route_id: NATIVE_ROUTE,
      direction: 'DIRECTION_NATIVE_OUT',
      local_denom: ctx.config.gasDenom,
      window_seconds: String(NATIVE_WINDOW_SECONDS),
      outbound_limit: NATIVE_CAP.toString(),
      warp_token_id: '0x' + '11'.repeat(32),
      display: 'SVC',
      exponent: 6,
    },
    {
      ...common,
      route_id: SYNTHETIC_ROUTE,
      direction: 'DIRECTION_SYNTHETIC_IN',
      local_denom: SYNTHETIC_DENOM,
      window_seconds: '86400',
      outbound_limit: '0',
      warp_token_id: '0x' + '22'.repeat(32),
      display: 'WETH',
      exponent: 18,
    },
  ];
  if (dividendId) {
    list.push({
      ...common,
      route_id: RIGHT_ROUTE,
      direction: 'DIRECTION_RIGHT_OUT',
      local_denom: '',
      window_seconds: '86400',
      outbound_limit: '0',
      warp_token_id: '0x' + '33'.repeat(32),
      display: 'QSR-INC',
      exponent: 6,
      asset_id: dividendId,
      kind_id: 1,
      bundle: false,
    });
  }
  return list;
}

/** Units a route has out (outbound - inbound), which bounds an inbound delivery. */
export function outstanding(ctx: Ctx, routeId: string): bigint {
  const r = ctx.view.route(routeId);
  if (!r) return 0n;
  return BigInt(String(r.counters.outbound ?? '0')) - BigInt(String(r.counters.inbound ?? '0'));
}

/** Outbound already used in a route's current window, at this block's time. */
export function windowUsed(ctx: Ctx, routeId: string, windowSeconds: number): bigint {
  const r = ctx.view.route(routeId);
  if (!r) return 0n;
  const nowS = Math.floor(ctx.now / 1000);
  const start = nowS - (nowS % windowSeconds);
  return Number(r.counters.window_start ?? 0) === start ? BigInt(String(r.counters.outbound_used ?? '0')) : 0n;
}

interface BridgeState {
  create?: Handle;
  holders: Actor[];
}

export function bridgeFlow(): Flow {
  const authority = (ctx: Ctx) => ctx.cast.roles.bridge;
  const relayIn = (ctx: Ctx, routeId: string, to: Actor, amount: bigint) =>
    msg.bridgeIn(authority(ctx).address, routeId, bytes32(ctx), remoteAddress(to.address), to.address, amount);
  const out = (holder: Actor, routeId: string, amount: bigint) =>
    msg.bridgeOut(holder.address, routeId, remoteAddress(holder.address), amount);

  // each step takes the block's bridge slot, so background bridge traffic cannot interleave with a pause or a cap test
  const exclusive =
    (step: Step<BridgeState>): Step<BridgeState> =>
    (ctx, s) => {
      ctx.claimOnce('bridge');
      return step(ctx, s);
    };
  const steps: Step<BridgeState>[] = [
    async (ctx, s) => {
      const dividend = ctx.issuedAsset('dividend');
      if (!dividend) return 'wait';
      s.holders = shuffled(ctx, ctx.cast.holders);
      s.create = await ctx.submit(
        authority(ctx),
        routes(ctx, ctx.config.oldChain ? undefined : dividend.assetId).map((r) =>
          msg.createRoute(authority(ctx).address, r),
        ),
      );
    },
    async (ctx, s) => {
      expectOk(ctx, s.create!, 'MsgCreateRoute');
      await ctx.submit(s.holders[0], [out(s.holders[0], NATIVE_ROUTE, ctx.rng.bigint(1n, 10n) * WHOLE)]);
      await ctx.submit(authority(ctx), [
        relayIn(ctx, SYNTHETIC_ROUTE, s.holders[1], ctx.rng.bigint(1n, 5n) * 10n ** 18n),
      ]);
    },
    async (ctx, s) => {
      const synthetic = ctx.availableCoins(s.holders[1].address, SYNTHETIC_DENOM);
      if (synthetic > 0n)
        await ctx.submit(s.holders[1], [out(s.holders[1], SYNTHETIC_ROUTE, somePart(ctx, synthetic, 2n))]);
      const back = outstanding(ctx, NATIVE_ROUTE);
      if (back > 0n)
        await ctx.submit(authority(ctx), [relayIn(ctx, NATIVE_ROUTE, s.holders[2], somePart(ctx, back, 1n))]);
    },
    async (ctx, s) => {
      if (ctx.config.oldChain) return;
      const dividend = ctx.issuedAsset('dividend')!;
      if (!ctx.assetView(dividend.assetId)?.kinds[1]?.bridgeable) return 'wait';
      const sender = s.holders.find((h) => ctx.availableUnits(h.address, dividend.assetId, 1) > 0n);
      if (!sender) return;
      const units = somePart(ctx, ctx.availableUnits(sender.address, dividend.assetId, 1), 4n);
      ctx.reserveUnits(sender.address, dividend.assetId, 1, units);
      await ctx.submit(sender, [out(sender, RIGHT_ROUTE, units)]);
    },
    async (ctx) => {
      // income on the kind while the escrow holds units: the next BeginBlock sweeps the escrow's share
      if (ctx.config.oldChain) return;
      const dividend = ctx.issuedAsset('dividend')!;
      if (outstanding(ctx, RIGHT_ROUTE) === 0n) return;
      await ctx.submit(dividend.issuer, [
        msg.distribute(dividend.issuer.address, dividend.assetId, 1, msg.coin(ctx.config.stableDenom, oddIncome(ctx))),
      ]);
    },
    async (ctx, s) => {
      const units = ctx.config.oldChain ? 0n : outstanding(ctx, RIGHT_ROUTE);
      if (units > 0n)
        await ctx.submit(authority(ctx), [relayIn(ctx, RIGHT_ROUTE, s.holders[3], somePart(ctx, units, 2n))]);
      await ctx.submit(authority(ctx), [msg.setRouteStatus(authority(ctx).address, NATIVE_ROUTE, true)]);
    },
    // paused: a failed MsgBridgeOut in codespace bridge (rejected, bridge/4)
    async (ctx, s) =>
      void (await ctx.submit(s.holders[4 % s.holders.length], [
        out(s.holders[4 % s.holders.length], NATIVE_ROUTE, WHOLE),
      ])),
    async (ctx) =>
      void (await ctx.submit(authority(ctx), [msg.setRouteStatus(authority(ctx).address, NATIVE_ROUTE, false)])),
    async (ctx, s) => {
      // one unit over what is left of this window's cap (rejected, bridge/5)
      const over = NATIVE_CAP - windowUsed(ctx, NATIVE_ROUTE, NATIVE_WINDOW_SECONDS) + 1n;
      const sender = s.holders[5 % s.holders.length];
      await ctx.submit(sender, [out(sender, NATIVE_ROUTE, over)]);
    },
  ];
  return script<BridgeState>('bridge', { holders: [] }, steps.map(exclusive));
}
