/** Typed events of the asset module in proto-JSON, with the defaults the mapping tests share. */
import type { EventAssetCreated, EventIssued, Kind } from '../../../../src/mappings/generated/proto-json';

export const kind = (over: Partial<Kind> = {}): Kind => ({
  kind_id: 0,
  class: 'KIND_CLASS_INCOME',
  decimals: 6,
  bundle: true,
  transferable: true,
  term: null,
  policy_override: null,
  bridgeable: false,
  multiplier: '1',
  ...over,
});

/** An asset of one kind (`kind()`), active, settled and distributed in uusdc. */
export const assetCreated = (
  assetId: string,
  issuer: string,
  over: Partial<EventAssetCreated> = {},
): EventAssetCreated => ({
  asset_id: assetId,
  issuer,
  nonce: '0',
  meta_hash: '',
  settlement_denom: 'uusdc',
  policy: null,
  roles: null,
  kinds: [kind()],
  liens_allowed: false,
  distribution_denoms: ['uusdc'],
  status: 'ASSET_STATUS_ACTIVE',
  ...over,
});

/** `units` of kind 0 issued to `recipient`, the kind's supply then `supplyAfter`. */
export const assetIssued = (assetId: string, recipient: string, units: bigint, supplyAfter: bigint): EventIssued => ({
  asset_id: assetId,
  kind_id: 0,
  recipient,
  units: String(units),
  supply_after: String(supplyAfter),
  positions_after: [],
});
