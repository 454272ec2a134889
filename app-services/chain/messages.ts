/** The services' chain messages, as the intent log stores them (proto-JSON values; cosmjs JSON for bank). */
import type { EncodeObject } from '@cosmjs/proto-signing';

/** A message as stored: type URL and a JSON value (proto-JSON for svc messages, cosmjs JSON for bank). */
export interface IntentMessage extends EncodeObject {
  value: Record<string, unknown>;
}

const m = (typeUrl: string, value: Record<string, unknown>): IntentMessage => ({ typeUrl, value });

export const bankSend = (from: string, to: string, denom: string, amount: bigint) =>
  m('/cosmos.bank.v1beta1.MsgSend', {
    fromAddress: from,
    toAddress: to,
    amount: [{ denom, amount: amount.toString() }],
  });
export const accept = (counterparty: string, settlementId: bigint) =>
  m('/svc.settlement.v1.MsgAccept', { counterparty, settlement_id: settlementId.toString() });
export const cancel = (sender: string, settlementId: bigint) =>
  m('/svc.settlement.v1.MsgCancel', { sender, settlement_id: settlementId.toString() });
export const release = (sender: string, encumbranceId: bigint | string) =>
  m('/svc.encumbrance.v1.MsgRelease', { sender, encumbrance_id: encumbranceId.toString() });
export const exercise = (sender: string, encumbranceId: bigint | string) =>
  m('/svc.encumbrance.v1.MsgExercise', { sender, encumbrance_id: encumbranceId.toString() });
export const claim = (claimer: string, assetId: string, kindId: number, denom: string) =>
  m('/svc.payout.v1.MsgClaim', { claimer, asset_id: assetId, kind_id: kindId, denom });
export const swap = (trader: string, poolId: number, sellBase: boolean, amount: bigint, minOut: bigint) =>
  m('/svc.dex.v1.MsgSwap', {
    trader,
    pool_id: String(poolId),
    sell_base: sellBase,
    amount: amount.toString(),
    min_out: minOut.toString(),
  });
