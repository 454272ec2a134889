/**
 * svc.bridge.v1: routes, their counters and windows, transfers (out in flight,
 * in completed, rejected attempts), RIGHT_OUT escrow holdings and the escrow's
 * swept income.
 */
import { Asset, BridgeRoute } from '../../types';
import { load } from '../infra/block-cache';
import type {
  RouteCounters as CountersJson,
  EventBridgedOut,
  EventEscrowIncomeSwept,
  EventRouteCreated,
  EventRouteStatusChanged,
  MsgBridgeOut,
} from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, messageJson, MsgCtx, subjectAccount, subjectAsset } from '../infra/context';
import { expectEqual, recordDrift } from '../entities/drift';
import { changeStatus } from '../entities/entity';
import { checkPositionsAfter, moveUnits } from '../domain/positions';
import {
  addIncomeSwept,
  countTransfer,
  createBridgedTransfer,
  createBridgeRoute,
  createRejectedTransfer,
  requireRoute,
} from '../entities/bridge';
import { bundleKindIds, getKind } from '../entities/holdings';
import { checkAccrualAfter, ownEntry, payOut, recordPaid, settleForCollect } from '../domain/income';
import { claimableKey, getAccrual } from '../entities/accruals';
import { big, int, str } from '../infra/values';

/** EventBridgedOut and EventBridgedIn carry the same fields. */
type EventBridged = EventBridgedOut;

const RIGHT_OUT = 'DIRECTION_RIGHT_OUT';

async function checkCountersAfter(
  ctx: EventCtx<unknown>,
  route: BridgeRoute,
  after: CountersJson | null,
): Promise<void> {
  if (!after) return;
  const derived: [keyof CountersJson, bigint | number][] = [
    ['outbound', route.outbound],
    ['inbound', route.inbound],
    ['outbound_used', route.outboundUsed],
    ['inbound_used', route.inboundUsed],
    ['window_start', route.windowStart],
    ['transfers', route.transfers],
  ];
  for (const [field, value] of derived) await expectEqual(ctx, 'BridgeRoute', route.id, field, after[field], value);
}

/** RIGHT_OUT transfers move units (every bundle kind when the route moves bundles) between an account and the escrow. */
async function moveRightUnits(
  ctx: EventCtx<unknown>,
  route: BridgeRoute,
  from: string,
  to: string,
  amount: bigint,
): Promise<void> {
  if (route.direction !== RIGHT_OUT) return;
  let kindIds = [route.kindId];
  if (route.bundle) {
    const asset = await load(Asset, route.assetId);
    kindIds = asset ? await bundleKindIds(route.assetId, asset.kindCount) : [];
  }
  for (const kindId of kindIds) await moveUnits(ctx, route.assetId, kindId, from, to, amount);
}

export async function handleBridgeRouteCreated(ctx: EventCtx<EventRouteCreated>): Promise<void> {
  const r = ctx.decoded.route;
  if (!r) return; // a malformed event without its route: nothing to create
  createBridgeRoute(ctx, r);
  subjectAsset(ctx, r.asset_id);
}

export async function handleBridgeRouteStatusChanged(ctx: EventCtx<EventRouteStatusChanged>): Promise<void> {
  const e = ctx.decoded;
  const route = await requireRoute(ctx, e.route_id);
  if (route) {
    await changeStatus(ctx, 'BridgeRoute', route, e.previous, str(e.status));
    subjectAsset(ctx, route.assetId);
  }
}

/**
 * A transfer over a route, either way: the route's counters (in the block time's window), the
 * transfer row, and for RIGHT_OUT routes the units between the local party and the escrow.
 */
async function applyBridged(ctx: EventCtx<EventBridged>, direction: 'out' | 'in'): Promise<void> {
  const e = ctx.decoded;
  const amount = big(e.amount);
  const local = direction === 'out' ? e.sender : e.recipient;
  const route = await requireRoute(ctx, e.route_id);
  if (route) {
    countTransfer(ctx, route, direction, amount);
    await checkCountersAfter(ctx, route, e.counters_after);
    const [from, to] = direction === 'out' ? [local, route.escrowAddress] : [route.escrowAddress, local];
    await moveRightUnits(ctx, route, from, to, amount);
  }
  createBridgedTransfer(ctx, route, direction, direction === 'out' ? 'in_flight' : 'completed');
  await checkPositionsAfter(ctx, e.positions_after);
  if (route?.direction === RIGHT_OUT) subjectAsset(ctx, route.assetId);
  subjectAccount(ctx, local);
}

export async function handleBridgeBridgedOut(ctx: EventCtx<EventBridged>): Promise<void> {
  await applyBridged(ctx, 'out');
}

export async function handleBridgeBridgedIn(ctx: EventCtx<EventBridged>): Promise<void> {
  await applyBridged(ctx, 'in');
}

/** The chain emits it at BeginBlock (before the block's txs); applied wherever it arrives, in chain order. */
export async function handleBridgeEscrowIncomeSwept(ctx: EventCtx<EventEscrowIncomeSwept>): Promise<void> {
  const e = ctx.decoded;
  const amount = big(e.amount);
  const route = await requireRoute(ctx, e.route_id);
  if (route) addIncomeSwept(ctx, route, e.denom, amount);
  const kindId = int(e.kind_id);
  const accrual = await getAccrual(e.asset_id, kindId, e.denom);
  if (accrual) {
    const kind = await getKind(e.asset_id, kindId);
    if (kind) await settleForCollect(ctx, kind, e.escrow_address);
    const accrued = await payOut(ctx, ownEntry(e.asset_id, kindId, e.denom, e.escrow_address), accrual, amount);
    const entryId = claimableKey(e.escrow_address, '', '', e.asset_id, kindId, e.denom);
    await expectEqual(ctx, 'Claimable', entryId, 'accrued', amount, accrued);
    recordPaid(ctx, accrual, amount);
    await checkAccrualAfter(ctx, accrual, e.module_held_after, e.total_paid_after);
  } else {
    await recordDrift(ctx, 'Accrual', `${e.asset_id}-${kindId}-${e.denom}`, 'exists', true, false);
  }
  subjectAsset(ctx, e.asset_id);
  subjectAccount(ctx, e.escrow_address);
}

/**
 * A MsgBridgeOut whose tx failed in codespace bridge (route paused bridge/4,
 * cap exceeded bridge/5...) is recorded as a rejected transfer. Successful
 * ones are recorded from EventBridgedOut.
 */
export async function handleBridgeMsgBridgeOut(ctx: MsgCtx): Promise<void> {
  const { tx } = ctx;
  if (tx.code === 0 || tx.codespace !== 'bridge') return;
  const m = messageJson<MsgBridgeOut>(ctx);
  if (m.route_id === undefined) return; // undecodable: the raw tx is still stored
  const route = await load(BridgeRoute, str(m.route_id));
  createRejectedTransfer(ctx, m, route);
}

/** bridge: typed event type → handler, message type URL → handler (failed txs included). */
export const bridgeHandlers: HandlerTable = {
  events: {
    'svc.bridge.v1.EventRouteCreated': handleBridgeRouteCreated,
    'svc.bridge.v1.EventRouteStatusChanged': handleBridgeRouteStatusChanged,
    'svc.bridge.v1.EventBridgedOut': handleBridgeBridgedOut,
    'svc.bridge.v1.EventBridgedIn': handleBridgeBridgedIn,
    'svc.bridge.v1.EventEscrowIncomeSwept': handleBridgeEscrowIncomeSwept,
  },
  messages: {
    '/svc.bridge.v1.MsgBridgeOut': handleBridgeMsgBridgeOut,
  },
};
