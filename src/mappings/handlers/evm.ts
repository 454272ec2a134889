/**
 * EVM view of MsgEthereumTx (both type URLs). The message handler derives eth
 * hash, sender, recipient and value from the signed transaction, and the EVM
 * outcome (status, gas used, vm error, return data, revert reason) from what
 * every Cosmos EVM / Ethermint chain reports: the MsgEthereumTxResponse in the
 * tx result data and the `ethereum_tx` event. The typed event
 * svc.evm.v1.EventEthereumTxExecuted, when the chain emits it (after the
 * message in the same tx), is a cross-check: a field it states differently
 * is recorded as a drift, the tx result's value kept. A chain that reports
 * the outcome only in that event gets it from there.
 */
import { EvmTx, Tx } from '../../types';
import { load } from '../infra/block-cache';
import { decodeWire } from '../infra/protojson';
import type { EventEthereumTxExecuted } from '../generated/proto-json';
import type { HandlerTable } from '../infra/dispatch';
import { EventCtx, MsgCtx, subjectAccount } from '../infra/context';
import { recordDrift } from '../entities/drift';
import { change } from '../entities/entity';
import { createEvmTx, createUndecodedEvmTx } from '../entities/evm';
import { evmOutcomeOf, revertString, viewOfMsgEthereumTx } from '../infra/eth';
import { bech32OfEvm, big, int, str } from '../infra/values';

async function linkTx(txHash: string, ethHash: string): Promise<void> {
  const tx = await load(Tx, txHash);
  if (tx && !tx.ethHash) change(tx, { ethHash });
}

export async function handleEvmMsgEthereumTx(ctx: MsgCtx): Promise<void> {
  const { tx } = ctx;
  let view;
  try {
    view = viewOfMsgEthereumTx(ctx.typeUrl, decodeWire(ctx.typeUrl, ctx.value));
  } catch {
    return; // not decodable: the raw tx is stored, the event (if any) still gives the outcome
  }
  const failed = tx.code !== 0;
  // a consensus-level failure never ran the EVM: failed, with the tx log as reason
  const outcome = failed
    ? null
    : evmOutcomeOf({ data: tx.resultData(), events: tx.events }, ctx.msgIndex, view.ethHash);
  const reverted = outcome?.failed ?? false;
  createEvmTx({
    id: view.ethHash,
    ethHash: view.ethHash,
    txHash: tx.hash,
    height: ctx.height,
    txIndex: tx.index,
    msgIndex: ctx.msgIndex,
    from: view.from,
    to: view.to ?? undefined,
    fromAccount: bech32OfEvm(view.from) ?? '',
    toAccount: bech32OfEvm(view.to) ?? undefined,
    value: view.value,
    gasUsed: outcome?.gasUsed ?? tx.gasUsed,
    status: failed || reverted ? 0 : 1,
    vmError: outcome?.vmError || undefined,
    returnData: outcome?.returnData || undefined,
    contractAddress: view.to ? undefined : outcome?.recipient || undefined,
    revertReason: failed ? tx.log : reverted ? (revertString(outcome!.returnData) ?? outcome!.vmError) : undefined,
  });
  await linkTx(tx.hash, view.ethHash);
}

export async function handleEvmEthereumTxExecuted(ctx: EventCtx<EventEthereumTxExecuted>): Promise<void> {
  const e = ctx.decoded;
  const ethHash = str(e.eth_hash).toLowerCase();
  const txHash = str(ctx.txHash);
  let evm = await load(EvmTx, ethHash);
  if (!evm) {
    await recordDrift(ctx, 'EvmTx', ethHash, 'exists', true, false); // the signed tx did not decode
    evm = createUndecodedEvmTx(ctx, ethHash, txHash);
  }
  const stated = {
    status: int(e.status),
    gasUsed: big(e.gas_used),
    vmError: str(e.vm_error) || undefined,
    returnData: str(e.return_data) || undefined,
    contractAddress: str(e.contract_address) || undefined,
  };
  // what the chain's own tx result says (MsgEthereumTxResponse, ethereum_tx) is the outcome; this
  // event is a cross-check: a disagreement is a drift and the result's value is kept
  const derived = ctx.tx
    ? evmOutcomeOf({ data: ctx.tx.resultData(), events: ctx.tx.events }, evm.msgIndex, ethHash)
    : null;
  let outcome: Partial<EvmTx> = {};
  if (derived) {
    const checks: [string, unknown, unknown][] = [
      ['status', stated.status, evm.status],
      ['gas_used', stated.gasUsed, evm.gasUsed],
      ['vm_error', stated.vmError ?? '', evm.vmError ?? ''],
      ['return_data', stated.returnData ?? '', evm.returnData ?? ''],
    ];
    for (const [field, chainValue, derivedValue] of checks) {
      if (String(chainValue) !== String(derivedValue))
        await recordDrift(ctx, 'EvmTx', ethHash, field, chainValue, derivedValue);
    }
    if (!evm.contractAddress && stated.contractAddress) outcome = { contractAddress: stated.contractAddress };
  } else {
    // a chain that reports the outcome only in this event
    const revertReason =
      stated.status === 1 ? undefined : (revertString(str(e.return_data)) ?? (str(e.vm_error) || 'execution reverted'));
    outcome = { ...stated, revertReason };
  }
  change(evm, outcome);
  await linkTx(txHash, ethHash);
  subjectAccount(ctx, evm.fromAccount, evm.toAccount);
}

/** evm: typed event type → handler, message type URL → handler (failed txs included). */
export const evmHandlers: HandlerTable = {
  events: {
    'svc.evm.v1.EventEthereumTxExecuted': handleEvmEthereumTxExecuted,
  },
  messages: {
    '/cosmos.evm.vm.v1.MsgEthereumTx': handleEvmMsgEthereumTx,
    '/ethermint.evm.v1.MsgEthereumTx': handleEvmMsgEthereumTx,
  },
};
