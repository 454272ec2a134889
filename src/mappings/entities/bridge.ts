/**
 * BridgeRoute and BridgeTransfer rows: a route with zero counters, a transfer from an
 * EventBridgedOut/In (in flight or completed) or from a MsgBridgeOut the bridge rejected; a
 * route's counters (in fixed windows of block time) and the income its escrow swept.
 */
import { AnyJson, BridgeRoute, BridgeTransfer } from '../../types';
import type { EventBridgedOut, MsgBridgeOut, Route } from '../generated/proto-json';
import { put } from '../infra/block-cache';
import type { EventCtx, MsgCtx } from '../infra/context';
import { requireEntity, touch } from './entity';
import { big, int, seqOf, str } from '../infra/values';

export function createBridgeRoute(ctx: EventCtx<unknown>, r: Route): BridgeRoute {
  return put(
    BridgeRoute,
    BridgeRoute.create({
      id: r.route_id,
      remoteDomain: int(r.remote_domain),
      remoteContract: str(r.remote_contract),
      direction: str(r.direction),
      localDenom: str(r.local_denom),
      status: str(r.status),
      windowSeconds: big(r.window_seconds),
      outboundLimit: big(r.outbound_limit),
      inboundLimit: big(r.inbound_limit),
      warpTokenId: str(r.warp_token_id),
      display: str(r.display),
      exponent: int(r.exponent),
      outbound: 0n,
      inbound: 0n,
      outboundUsed: 0n,
      inboundUsed: 0n,
      windowStart: 0n,
      transfers: 0,
      assetId: str(r.asset_id),
      kindId: int(r.kind_id),
      bundle: Boolean(r.bundle),
      escrowAddress: str(r.escrow_address),
      incomeSwept: {} as AnyJson,
      createdHeight: ctx.height,
      updatedHeight: ctx.height,
    }),
  );
}

/** A transfer the chain carried out (EventBridgedOut and EventBridgedIn carry the same fields). */
export function createBridgedTransfer(
  ctx: EventCtx<EventBridgedOut>,
  route: BridgeRoute | undefined,
  direction: 'out' | 'in',
  status: string,
): BridgeTransfer {
  const e = ctx.decoded;
  return put(
    BridgeTransfer,
    BridgeTransfer.create({
      id: `${ctx.height}-${ctx.txIndex}-${ctx.eventIndex}`,
      seq: ctx.seq,
      height: ctx.height,
      txIndex: ctx.txIndex,
      eventIndex: ctx.eventIndex,
      txHash: str(ctx.txHash),
      routeId: e.route_id,
      direction,
      status,
      sender: str(e.sender),
      recipient: str(e.recipient),
      amount: big(e.amount),
      messageId: str(e.message_id),
      reason: '',
      blockTimeNs: ctx.blockTimeNs,
      assetId: str(e.asset_id) || (route?.assetId ?? ''),
      kindId: int(e.kind_id),
      bundle: Boolean(e.bundle),
    }),
  );
}

/** A MsgBridgeOut of a tx that failed in codespace bridge: ordered after its tx, by message. */
export function createRejectedTransfer(ctx: MsgCtx, m: MsgBridgeOut, route: BridgeRoute | undefined): BridgeTransfer {
  const { tx } = ctx;
  return put(
    BridgeTransfer,
    BridgeTransfer.create({
      id: `${ctx.height}-${tx.index}-m${ctx.msgIndex}`,
      seq: seqOf(ctx.height, tx.index, -1) + BigInt(ctx.msgIndex),
      height: ctx.height,
      txIndex: tx.index,
      eventIndex: -1,
      txHash: tx.hash,
      routeId: str(m.route_id),
      direction: 'out',
      status: 'rejected',
      sender: str(m.sender),
      recipient: str(m.recipient),
      amount: big(m.amount),
      messageId: '',
      reason: `bridge/${tx.code}`,
      blockTimeNs: ctx.blockTimeNs,
      assetId: route?.assetId ?? '',
      kindId: route?.kindId ?? 0,
      bundle: route?.bundle ?? false,
    }),
  );
}

export function requireRoute(ctx: EventCtx<unknown>, routeId: string): Promise<BridgeRoute | undefined> {
  return requireEntity(ctx, BridgeRoute, 'BridgeRoute', routeId);
}

/** Fixed windows [k*w, (k+1)*w) of block time: the *_used counters restart in a new window. */
function rollWindow(route: BridgeRoute, blockTimeNs: bigint): void {
  if (route.windowSeconds <= 0n) return;
  const seconds = blockTimeNs / 1_000_000_000n;
  const start = (seconds / route.windowSeconds) * route.windowSeconds;
  if (start === route.windowStart) return;
  route.windowStart = start;
  route.outboundUsed = 0n;
  route.inboundUsed = 0n;
}

/** Counts a transfer of `amount` over the route, in the window of the event's block time. */
export function countTransfer(
  ctx: EventCtx<unknown>,
  route: BridgeRoute,
  direction: 'out' | 'in',
  amount: bigint,
): void {
  rollWindow(route, ctx.blockTimeNs);
  if (direction === 'out') {
    route.outbound += amount;
    route.outboundUsed += amount;
  } else {
    route.inbound += amount;
    route.inboundUsed += amount;
  }
  route.transfers += 1;
  touch(ctx, route);
}

/** What the route's escrow swept so far, per denom (decimal strings), as BridgeRoute.incomeSwept stores it. */
export function incomeSweptOf(route: BridgeRoute): Record<string, string> {
  return route.incomeSwept as Record<string, string>;
}

/** Adds `amount` of `denom` to the income the route's escrow swept. */
export function addIncomeSwept(ctx: EventCtx<unknown>, route: BridgeRoute, denom: string, amount: bigint): void {
  const swept = { ...incomeSweptOf(route) };
  swept[denom] = (big(swept[denom]) + amount).toString();
  route.incomeSwept = swept as AnyJson;
  touch(ctx, route);
}
