/**
 * bridge: routes to remote chains, transfers out and in, window caps.
 *
 * Directions: NATIVE_OUT (a local coin is escrowed on out, released on in),
 * SYNTHETIC_IN (a remote coin is minted on in, burnt on out), RIGHT_OUT
 * (units of a kind, or whole bundles, move into the route's escrow account on
 * out and back on in; needs the kind bridgeable and its effective policy
 * OPEN; chain ≥ 0.12.0). Every route's escrow account is the 32-byte ADR-028
 * module account derived from "bridge" and the route id; it holds the
 * NATIVE_OUT coins or the RIGHT_OUT units (which accrue income: the
 * BeginBlock sweep claims it into the escrow account).
 * Caps apply per fixed window [k·w, (k+1)·w) of block time; "0" = no cap.
 * The bridge authority (genesis) manages routes and relays MsgBridgeIn (so do
 * the genesis relayers). MsgBridgeOut is refused while paused; inbound
 * deliveries are not.
 */
import { sha256 } from '@noble/hashes/sha2';
import type { KvReader } from '../store';
import { keySegment } from '../store';
import { moduleAccountAddress, toBech32 } from '../../../src/lib/address';
import { bytesToHex, utf8Encode, uint64BE, concatBytes } from '../../../src/lib/bytes';
import { isValidDenom } from '../../../src/lib/config';
import { Env, emitTyped, nonNegativeAmount, positiveAmount, requireAddress, versionAtLeast } from '../env';
import { bridgeErrors, sdkErrors } from '../errors';
import { AssetRec, KindRec, bundleKinds, effectivePolicy, getAsset, requireAsset, requireKind } from './asset-state';
import * as rights from './rights';
import type { PositionAfter } from './rights';
import { balance, burn, mint, send, totalSupply } from './bank';
import { accrualDenoms, claimableTotal, collect } from './payout';

export const NATIVE_OUT = 'DIRECTION_NATIVE_OUT';
export const SYNTHETIC_IN = 'DIRECTION_SYNTHETIC_IN';
export const RIGHT_OUT = 'DIRECTION_RIGHT_OUT';
const ROUTE_ACTIVE = 'ROUTE_STATUS_ACTIVE';
const ROUTE_PAUSED = 'ROUTE_STATUS_PAUSED';

export interface RouteRec {
  route_id: string;
  remote_domain: number;
  remote_contract: string;
  direction: string;
  local_denom: string;
  status: string;
  window_seconds: number;
  outbound_limit: bigint;
  inbound_limit: bigint;
  warp_token_id: string;
  display: string;
  exponent: number;
  asset_id: string;
  kind_id: number;
  bundle: boolean;
  escrow_address: string;
  created_height: number;
  updated_height: number;
}

export interface CountersRec {
  outbound: bigint;
  inbound: bigint;
  outbound_used: bigint;
  inbound_used: bigint;
  window_start: number;
  transfers: number;
}

const ZERO_COUNTERS: CountersRec = {
  outbound: 0n,
  inbound: 0n,
  outbound_used: 0n,
  inbound_used: 0n,
  window_start: 0,
  transfers: 0,
};
const routeKey = (id: string) => `bridge/route/${keySegment(id)}`;
const countersKey = (id: string) => `bridge/counters/${keySegment(id)}`;
const outNonceKey = (id: string) => `bridge/out_nonce/${keySegment(id)}`;
const deliveredKey = (id: string, messageId: string) => `bridge/delivered/${keySegment(id)}/${messageId}`;
const RIGHT_OUT_ROUTES_KEY = 'bridge/right_out_routes';
const BYTES32_RE = /^0x[0-9a-fA-F]{64}$/;

export function getRoute(kv: KvReader, id: string): RouteRec | undefined {
  return kv.get<RouteRec>(routeKey(id));
}

export function getCounters(kv: KvReader, id: string): CountersRec {
  return kv.get<CountersRec>(countersKey(id)) ?? ZERO_COUNTERS;
}

/** The route's escrow account (32-byte ADR-028 module account of "bridge" and the route id). */
export function routeEscrowAddress(routeId: string, hrp: string): string {
  return toBech32(moduleAccountAddress('bridge', utf8Encode(routeId)), hrp);
}

/** proto svc.bridge.v1.Route */
export function routeProto(r: RouteRec): Record<string, unknown> {
  const proto: Record<string, unknown> = { ...r };
  delete proto.created_height;
  delete proto.updated_height;
  return proto;
}

function requireRoute(kv: KvReader, id: unknown): RouteRec {
  const route = getRoute(kv, String(id ?? ''));
  if (!route) throw bridgeErrors.unknownRoute(String(id));
  return route;
}

function requireAuthority(env: Env, sender: string, relaying: boolean): void {
  const allowed = sender === env.config.bridgeAuthority || (relaying && env.config.bridgeRelayers.includes(sender));
  if (!allowed) throw bridgeErrors.unauthorized(`${sender} is not the bridge authority`);
}

/** Counters with the window rolled to the block time. */
function countersNow(env: Env, route: RouteRec): CountersRec {
  const c = getCounters(env.kv, route.route_id);
  const nowS = Math.floor(env.timeMs / 1000);
  const start = route.window_seconds > 0 ? nowS - (nowS % route.window_seconds) : 0;
  return start === c.window_start ? c : { ...c, outbound_used: 0n, inbound_used: 0n, window_start: start };
}

function checkCap(used: bigint, amount: bigint, limit: bigint, what: string): void {
  if (limit > 0n && used + amount > limit)
    throw bridgeErrors.capExceeded(`${what} ${used} + ${amount} > ${limit} in this window`);
}

/** RIGHT_OUT: the kinds a route moves (its kind, or every bundle kind). */
function routeKinds(asset: AssetRec, route: RouteRec): KindRec[] {
  return route.bundle ? bundleKinds(asset) : [requireKind(asset, route.kind_id)];
}

/** Units the RIGHT_OUT escrow holds (whole bundles: the least over the bundle kinds). */
function escrowUnits(kv: KvReader, route: RouteRec): bigint {
  const asset = getAsset(kv, route.asset_id);
  if (!asset) return 0n;
  const kinds = route.bundle ? bundleKinds(asset) : asset.kinds.filter((k) => k.kind_id === route.kind_id);
  const units = kinds.map((k) => rights.getPosition(kv, route.asset_id, k.kind_id, route.escrow_address).units);
  return units.length ? units.reduce((m, v) => (v < m ? v : m)) : 0n;
}

/** What the chain holds for a route (the I8 reconciliation). */
export function escrowBalance(kv: KvReader, route: RouteRec, hrp: string): bigint {
  if (route.direction === NATIVE_OUT) return balance(kv, routeEscrowAddress(route.route_id, hrp), route.local_denom);
  if (route.direction === SYNTHETIC_IN) return totalSupply(kv, route.local_denom);
  return escrowUnits(kv, route);
}

function outboundMessageId(env: Env, route: RouteRec): string {
  const nonce = BigInt(env.kv.get<number>(outNonceKey(route.route_id)) ?? 0);
  env.kv.set(outNonceKey(route.route_id), Number(nonce) + 1);
  return `0x${bytesToHex(sha256(concatBytes(utf8Encode('svc/bridge/out/'), utf8Encode(route.route_id), uint64BE(nonce))))}`;
}

// ------------------------------------------------------------------ route management

function parseRoute(env: Env, value: Record<string, unknown>): RouteRec {
  const routeId = String(value.route_id ?? '');
  if (!routeId) throw bridgeErrors.invalidRoute('route_id required');
  const direction = String(value.direction);
  if (![NATIVE_OUT, SYNTHETIC_IN, RIGHT_OUT].includes(direction))
    throw bridgeErrors.direction(`direction ${direction}`);
  if (direction === RIGHT_OUT && !versionAtLeast(env.config.version, '0.12.0'))
    throw bridgeErrors.direction('RIGHT_OUT needs chain 0.12.0');
  if (!BYTES32_RE.test(String(value.remote_contract ?? '')))
    throw bridgeErrors.invalidRoute('remote_contract must be 0x bytes32');
  const route: RouteRec = {
    route_id: routeId,
    remote_domain: Number(value.remote_domain ?? 0),
    remote_contract: String(value.remote_contract).toLowerCase(),
    direction,
    local_denom: direction === RIGHT_OUT ? '' : String(value.local_denom ?? ''),
    status: value.status === ROUTE_PAUSED ? ROUTE_PAUSED : ROUTE_ACTIVE,
    window_seconds: Number(value.window_seconds ?? 0),
    outbound_limit: nonNegativeAmount(value.outbound_limit || '0', bridgeErrors.invalidAmount),
    inbound_limit: nonNegativeAmount(value.inbound_limit || '0', bridgeErrors.invalidAmount),
    warp_token_id: String(value.warp_token_id ?? ''),
    display: String(value.display ?? ''),
    exponent: Number(value.exponent ?? 0),
    asset_id: '',
    kind_id: 0,
    bundle: false,
    escrow_address: '',
    created_height: env.height,
    updated_height: env.height,
  };
  if (direction !== RIGHT_OUT) {
    if (!isValidDenom(route.local_denom))
      throw bridgeErrors.invalidRoute(`local_denom ${JSON.stringify(route.local_denom)}`);
    return route;
  }
  const asset = requireAsset(env.kv, value.asset_id);
  const bundle = Boolean(value.bundle);
  const kindId = bundle ? 0 : requireKind(asset, value.kind_id).kind_id;
  if (bundle && bundleKinds(asset).length === 0) throw bridgeErrors.invalidRoute('asset has no bundle kinds');
  return {
    ...route,
    asset_id: asset.asset_id,
    kind_id: kindId,
    bundle,
    escrow_address: routeEscrowAddress(routeId, env.config.chain.hrp),
  };
}

export function handleCreateRoute(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const authority = requireAddress(env, msg.authority, 'authority');
  requireAuthority(env, authority, false);
  const route = parseRoute(env, (msg.route ?? {}) as Record<string, unknown>);
  if (getRoute(env.kv, route.route_id)) throw bridgeErrors.routeExists(route.route_id);
  env.kv.set(routeKey(route.route_id), route);
  if (route.direction === RIGHT_OUT) {
    env.kv.set(RIGHT_OUT_ROUTES_KEY, [...(env.kv.get<string[]>(RIGHT_OUT_ROUTES_KEY) ?? []), route.route_id].sort());
  }
  emitTyped(env, 'svc.bridge.v1.EventRouteCreated', { route: routeProto(route) });
  return {};
}

export function handleSetRouteStatus(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const authority = requireAddress(env, msg.authority, 'authority');
  requireAuthority(env, authority, false);
  const route = requireRoute(env.kv, msg.route_id);
  const status = String(msg.status);
  if (status !== ROUTE_ACTIVE && status !== ROUTE_PAUSED) throw bridgeErrors.invalidRoute(`status ${status}`);
  env.kv.set(routeKey(route.route_id), { ...route, status, updated_height: env.height });
  emitTyped(env, 'svc.bridge.v1.EventRouteStatusChanged', { route_id: route.route_id, status, previous: route.status });
  return {};
}

// ------------------------------------------------------------------ transfers

function rightOut(env: Env, route: RouteRec, sender: string, amount: bigint): PositionAfter[] {
  const asset = requireAsset(env.kv, route.asset_id);
  const kinds = routeKinds(asset, route);
  for (const kind of kinds) {
    if (!kind.bridgeable) throw bridgeErrors.notBridgeable(`kind ${kind.kind_id} of ${asset.asset_id}`);
    const { policy, path } = effectivePolicy(asset, kind);
    if (policy.transfer !== 'TRANSFER_MODE_OPEN')
      throw bridgeErrors.policyNotOpen(`${path}.transfer is ${policy.transfer}`);
  }
  const opts = { requireTransferableKind: true, checkPolicy: false };
  return kinds.flatMap((kind) => rights.move(env, asset, kind, sender, route.escrow_address, amount, opts));
}

function rightIn(env: Env, route: RouteRec, recipient: string, amount: bigint): PositionAfter[] {
  const asset = requireAsset(env.kv, route.asset_id);
  const opts = { requireTransferableKind: false, checkPolicy: true };
  return routeKinds(asset, route).flatMap((kind) =>
    rights.move(env, asset, kind, route.escrow_address, recipient, amount, opts),
  );
}

function outstanding(c: CountersRec): bigint {
  return c.outbound - c.inbound;
}

export function handleBridgeOut(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const sender = requireAddress(env, msg.sender, 'sender');
  const route = requireRoute(env.kv, msg.route_id);
  if (route.status === ROUTE_PAUSED) throw bridgeErrors.paused(route.route_id);
  const amount = positiveAmount(msg.amount, bridgeErrors.invalidAmount);
  const recipient = String(msg.recipient ?? '');
  if (!BYTES32_RE.test(recipient)) throw sdkErrors.invalidAddress('recipient must be a 0x bytes32 remote address');
  const counters = countersNow(env, route);
  checkCap(counters.outbound_used, amount, route.outbound_limit, 'outbound');
  let positions: PositionAfter[] = [];
  if (route.direction === NATIVE_OUT)
    send(env, sender, routeEscrowAddress(route.route_id, env.config.chain.hrp), [{ denom: route.local_denom, amount }]);
  else if (route.direction === SYNTHETIC_IN) burn(env, sender, { denom: route.local_denom, amount });
  else positions = rightOut(env, route, sender, amount);
  const after: CountersRec = {
    ...counters,
    outbound: counters.outbound + amount,
    outbound_used: counters.outbound_used + amount,
    transfers: counters.transfers + 1,
  };
  env.kv.set(countersKey(route.route_id), after);
  const messageId = outboundMessageId(env, route);
  emitTyped(env, 'svc.bridge.v1.EventBridgedOut', {
    route_id: route.route_id,
    message_id: messageId,
    sender,
    recipient: recipient.toLowerCase(),
    amount,
    asset_id: route.asset_id,
    kind_id: route.kind_id,
    bundle: route.bundle,
    counters_after: after,
    positions_after: positions,
  });
  return { message_id: messageId };
}

export function handleBridgeIn(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const relayer = requireAddress(env, msg.relayer, 'relayer');
  requireAuthority(env, relayer, true);
  const route = requireRoute(env.kv, msg.route_id);
  const messageId = String(msg.message_id ?? '').toLowerCase();
  if (!BYTES32_RE.test(messageId)) throw bridgeErrors.invalidRoute('message_id must be 0x bytes32');
  if (env.kv.has(deliveredKey(route.route_id, messageId))) throw bridgeErrors.duplicateMessage(messageId);
  const remoteSender = String(msg.sender ?? '');
  if (!BYTES32_RE.test(remoteSender)) throw sdkErrors.invalidAddress('sender must be a 0x bytes32 remote address');
  const recipient = requireAddress(env, msg.recipient, 'recipient');
  const amount = positiveAmount(msg.amount, bridgeErrors.invalidAmount);
  const counters = countersNow(env, route);
  checkCap(counters.inbound_used, amount, route.inbound_limit, 'inbound');
  if (route.direction !== SYNTHETIC_IN && amount > outstanding(counters)) {
    throw bridgeErrors.direction(`inbound ${amount} exceeds the ${outstanding(counters)} sent out`);
  }
  let positions: PositionAfter[] = [];
  if (route.direction === NATIVE_OUT)
    send(env, routeEscrowAddress(route.route_id, env.config.chain.hrp), recipient, [
      { denom: route.local_denom, amount },
    ]);
  else if (route.direction === SYNTHETIC_IN) mint(env, recipient, { denom: route.local_denom, amount });
  else positions = rightIn(env, route, recipient, amount);
  const after: CountersRec = {
    ...counters,
    inbound: counters.inbound + amount,
    inbound_used: counters.inbound_used + amount,
    transfers: counters.transfers + 1,
  };
  env.kv.set(countersKey(route.route_id), after);
  env.kv.set(deliveredKey(route.route_id, messageId), env.height);
  emitTyped(env, 'svc.bridge.v1.EventBridgedIn', {
    route_id: route.route_id,
    message_id: messageId,
    sender: remoteSender.toLowerCase(),
    recipient,
    amount,
    asset_id: route.asset_id,
    kind_id: route.kind_id,
    bundle: route.bundle,
    counters_after: after,
    positions_after: positions,
  });
  return {};
}

// ------------------------------------------------------------------ BeginBlock

/** Claims income accrued by RIGHT_OUT escrows into the escrow accounts. */
export function sweepEscrowIncome(env: Env): void {
  for (const routeId of env.kv.get<string[]>(RIGHT_OUT_ROUTES_KEY) ?? []) {
    const route = getRoute(env.kv, routeId)!;
    const asset = getAsset(env.kv, route.asset_id);
    if (!asset) continue;
    for (const kind of routeKinds(asset, route)) {
      for (const denom of accrualDenoms(env.kv, asset.asset_id, kind.kind_id)) {
        if (claimableTotal(env.kv, route.escrow_address, asset.asset_id, kind.kind_id, denom) === 0n) continue;
        const { amount, accrual } = collect(env, route.escrow_address, asset.asset_id, kind.kind_id, denom);
        emitTyped(env, 'svc.bridge.v1.EventEscrowIncomeSwept', {
          route_id: route.route_id,
          escrow_address: route.escrow_address,
          asset_id: asset.asset_id,
          kind_id: kind.kind_id,
          denom,
          amount,
          module_held_after: accrual.module_held,
          total_paid_after: accrual.total_paid,
        });
      }
    }
  }
}
