/**
 * Builders of the contract's messages as cosmjs EncodeObjects (proto field
 * names, 64-bit values as decimal strings, timestamps as RFC 3339), so flows
 * read like the operation they perform.
 */
import type { EncodeObject } from '@cosmjs/proto-signing';
import { timestampToRfc3339 } from '../../src/lib/contract';

export type Msg = EncodeObject;
export interface Coin {
  denom: string;
  amount: string;
}

const m = (typeUrl: string, value: Record<string, unknown>): Msg => ({ typeUrl, value });
const units = (n: bigint | number | string) => String(n);

/** RFC 3339 of unix milliseconds (what Timestamp fields take as proto-JSON). */
export function rfc3339(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return timestampToRfc3339(seconds, (ms - seconds * 1000) * 1e6);
}

export const coin = (denom: string, amount: bigint | number | string): Coin => ({ denom, amount: String(amount) });

export interface PolicySpec {
  transfer: 'TRANSFER_MODE_OPEN' | 'TRANSFER_MODE_ATTESTED' | 'TRANSFER_MODE_RESTRICTED';
  attestation_type?: string;
  attester?: string;
  allowlist?: string[];
}

export interface KindSpec {
  class: 'KIND_CLASS_ECONOMIC' | 'KIND_CLASS_INCOME' | 'KIND_CLASS_VOTE' | 'KIND_CLASS_REDEMPTION';
  decimals: number;
  bundle: boolean;
  transferable: boolean;
  term?: { start: string; end: string; label: string };
  bridgeable?: boolean;
}

export interface AssetSpec {
  meta_hash: string;
  settlement_denom: string;
  policy: PolicySpec;
  roles: { operator?: string; releaser?: string };
  kinds: KindSpec[];
  liens_allowed: boolean;
  distribution_denoms: string[];
}

// ------------------------------------------------------------------ asset and rights

export const createAsset = (issuer: string, spec: AssetSpec) => m('/svc.asset.v1.MsgCreateAsset', { issuer, ...spec });
export const issue = (issuer: string, assetId: string, kindId: number, recipient: string, n: bigint) =>
  m('/svc.asset.v1.MsgIssue', { issuer, asset_id: assetId, kind_id: kindId, recipient, units: units(n) });
export const lockIssuance = (issuer: string, assetId: string) =>
  m('/svc.asset.v1.MsgLockIssuance', { issuer, asset_id: assetId });
export const setKindPolicy = (issuer: string, assetId: string, kindId: number, policy: PolicySpec | null) =>
  m(
    '/svc.asset.v1.MsgSetKindPolicy',
    policy
      ? { issuer, asset_id: assetId, kind_id: kindId, policy_override: policy }
      : { issuer, asset_id: assetId, kind_id: kindId, clear: true },
  );
export const splitKind = (issuer: string, assetId: string, kindId: number, factor: number) =>
  m('/svc.asset.v1.MsgSplitKind', { issuer, asset_id: assetId, kind_id: kindId, factor: String(factor) });
export const setBridgeable = (issuer: string, assetId: string, kindId: number, bridgeable: boolean) =>
  m('/svc.asset.v1.MsgSetBridgeable', { issuer, asset_id: assetId, kind_id: kindId, bridgeable });
export const transfer = (sender: string, recipient: string, assetId: string, kindId: number, n: bigint) =>
  m('/svc.rights.v1.MsgTransfer', { sender, recipient, asset_id: assetId, kind_id: kindId, units: units(n) });
export const transferBundle = (sender: string, recipient: string, assetId: string, n: bigint) =>
  m('/svc.rights.v1.MsgTransferBundle', { sender, recipient, asset_id: assetId, units: units(n) });

// ------------------------------------------------------------------ settlement

export type Leg = Record<string, unknown>;
export const giveCoin = (c: Coin): Leg => ({ direction: 'LEG_DIRECTION_GIVE', coin: c });
export const askCoin = (c: Coin): Leg => ({ direction: 'LEG_DIRECTION_ASK', coin: c });
export const giveRight = (assetId: string, kindId: number, n: bigint): Leg => ({
  direction: 'LEG_DIRECTION_GIVE',
  right: { asset_id: assetId, kind_id: kindId, units: units(n) },
});
export const askRight = (assetId: string, kindId: number, n: bigint): Leg => ({
  direction: 'LEG_DIRECTION_ASK',
  right: { asset_id: assetId, kind_id: kindId, units: units(n) },
});

export const propose = (proposer: string, counterparty: string, legs: Leg[], expiryMs: number, memoHash = '') =>
  m('/svc.settlement.v1.MsgPropose', { proposer, counterparty, legs, expiry: rfc3339(expiryMs), memo_hash: memoHash });
export const accept = (counterparty: string, id: number) =>
  m('/svc.settlement.v1.MsgAccept', { counterparty, settlement_id: String(id) });
export const cancel = (sender: string, id: number) =>
  m('/svc.settlement.v1.MsgCancel', { sender, settlement_id: String(id) });

// ------------------------------------------------------------------ encumbrance

export interface EncumbranceSpec {
  creator: string;
  kind: 'ENCUMBRANCE_KIND_PLEDGE' | 'ENCUMBRANCE_KIND_LIEN' | 'ENCUMBRANCE_KIND_LOCKUP';
  asset_id: string;
  kind_id: number;
  holder: string;
  units: bigint;
  beneficiary?: string;
  income_to_beneficiary?: boolean;
  holder_release_after_ms?: number;
  exercisable?: boolean;
  expiry_ms?: number;
  evidence_hash?: string;
}

export function createEncumbrance(s: EncumbranceSpec): Msg {
  const value: Record<string, unknown> = {
    creator: s.creator,
    kind: s.kind,
    asset_id: s.asset_id,
    kind_id: s.kind_id,
    holder: s.holder,
    units: units(s.units),
    beneficiary: s.beneficiary ?? '',
    income_to_beneficiary: s.income_to_beneficiary ?? false,
    exercisable: s.exercisable ?? false,
    evidence_hash: s.evidence_hash ?? '',
  };
  if (s.holder_release_after_ms !== undefined) value.holder_release_after = rfc3339(s.holder_release_after_ms);
  if (s.expiry_ms !== undefined) value.expiry = rfc3339(s.expiry_ms);
  return m('/svc.encumbrance.v1.MsgCreateEncumbrance', value);
}
export const release = (sender: string, id: number) =>
  m('/svc.encumbrance.v1.MsgRelease', { sender, encumbrance_id: String(id) });
export const exercise = (sender: string, id: number) =>
  m('/svc.encumbrance.v1.MsgExercise', { sender, encumbrance_id: String(id) });

// ------------------------------------------------------------------ payout, attestation, delegation

export const distribute = (payer: string, assetId: string, kindId: number, c: Coin) =>
  m('/svc.payout.v1.MsgDistribute', { payer, asset_id: assetId, kind_id: kindId, amount: c });
export const claim = (claimer: string, assetId: string, kindId: number, denom: string) =>
  m('/svc.payout.v1.MsgClaim', { claimer, asset_id: assetId, kind_id: kindId, denom });
export const attest = (attester: string, subject: string, type: string, expiryMs: number, evidenceHash = '') =>
  m('/svc.attestation.v1.MsgAttest', {
    attester,
    subject,
    type,
    expiry: rfc3339(expiryMs),
    evidence_hash: evidenceHash,
  });
export const revokeAttestation = (attester: string, subject: string, type: string) =>
  m('/svc.attestation.v1.MsgRevokeAttestation', { attester, subject, type });
export const delegate = (
  holder: string,
  to: string,
  assetId: string,
  kindId: number,
  n: bigint,
  untilMs: number,
  purposes: string[],
  revocable: boolean,
) =>
  m('/svc.delegation.v1.MsgDelegate', {
    holder,
    delegate: to,
    asset_id: assetId,
    kind_id: kindId,
    units: units(n),
    until: rfc3339(untilMs),
    purposes,
    revocable,
  });
export const revokeDelegation = (holder: string, id: number) =>
  m('/svc.delegation.v1.MsgRevokeDelegation', { holder, delegation_id: String(id) });
export const returnDelegation = (to: string, id: number) =>
  m('/svc.delegation.v1.MsgReturnDelegation', { delegate: to, delegation_id: String(id) });

// ------------------------------------------------------------------ waterfall

export interface TierSpec {
  rank: number;
  kind_id: number;
  claim_per_unit: string;
}
export const setWaterfall = (issuer: string, assetId: string, tiers: TierSpec[]) =>
  m('/svc.waterfall.v1.MsgSetWaterfall', { issuer, asset_id: assetId, tiers });
export const liquidate = (authority: string, assetId: string, proceeds: Coin) =>
  m('/svc.waterfall.v1.MsgLiquidate', { authority, asset_id: assetId, proceeds });
export const fundRedemption = (issuer: string, assetId: string, kindId: number, amount: Coin) =>
  m('/svc.waterfall.v1.MsgFundRedemption', { issuer, asset_id: assetId, kind_id: kindId, amount });
export const redeem = (holder: string, assetId: string, kindId: number, n: bigint) =>
  m('/svc.waterfall.v1.MsgRedeem', { holder, asset_id: assetId, kind_id: kindId, units: units(n) });

// ------------------------------------------------------------------ bridge and dex

export interface RouteSpec {
  route_id: string;
  remote_domain: number;
  remote_contract: string;
  direction: 'DIRECTION_NATIVE_OUT' | 'DIRECTION_SYNTHETIC_IN' | 'DIRECTION_RIGHT_OUT';
  local_denom: string;
  window_seconds: string;
  outbound_limit: string;
  inbound_limit: string;
  warp_token_id: string;
  display: string;
  exponent: number;
  asset_id?: string;
  kind_id?: number;
  bundle?: boolean;
}
export const createRoute = (authority: string, route: RouteSpec) =>
  m('/svc.bridge.v1.MsgCreateRoute', { authority, route: { status: 'ROUTE_STATUS_ACTIVE', ...route } });
export const setRouteStatus = (authority: string, routeId: string, paused: boolean) =>
  m('/svc.bridge.v1.MsgSetRouteStatus', {
    authority,
    route_id: routeId,
    status: paused ? 'ROUTE_STATUS_PAUSED' : 'ROUTE_STATUS_ACTIVE',
  });
export const bridgeOut = (sender: string, routeId: string, remoteRecipient: string, amount: bigint) =>
  m('/svc.bridge.v1.MsgBridgeOut', { sender, route_id: routeId, recipient: remoteRecipient, amount: units(amount) });
export const bridgeIn = (
  relayer: string,
  routeId: string,
  messageId: string,
  remoteSender: string,
  recipient: string,
  amount: bigint,
) =>
  m('/svc.bridge.v1.MsgBridgeIn', {
    relayer,
    route_id: routeId,
    message_id: messageId,
    sender: remoteSender,
    recipient,
    amount: units(amount),
  });
export const createPool = (
  creator: string,
  assetId: string,
  quoteDenom: string,
  baseUnits: bigint,
  quoteAmount: bigint,
) =>
  m('/svc.dex.v1.MsgCreatePool', {
    creator,
    asset_id: assetId,
    quote_denom: quoteDenom,
    base_units: units(baseUnits),
    quote_amount: units(quoteAmount),
  });
export const swap = (trader: string, poolId: number, sellBase: boolean, amount: bigint, minOut: bigint) =>
  m('/svc.dex.v1.MsgSwap', {
    trader,
    pool_id: String(poolId),
    sell_base: sellBase,
    amount: units(amount),
    min_out: units(minOut),
  });

// ------------------------------------------------------------------ bank (cosmjs-types MsgSend: camelCase fields)

export const bankSend = (from: string, to: string, coins: Coin[]) =>
  m('/cosmos.bank.v1beta1.MsgSend', { fromAddress: from, toAddress: to, amount: coins });
