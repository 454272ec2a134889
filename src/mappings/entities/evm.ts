/** EvmTx rows: the EVM view of a MsgEthereumTx, or a placeholder when only the typed event names it. */
import { EvmTx } from '../../types';
import type { EvmTxProps } from '../../types/models/EvmTx';
import { put } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';

/** The EVM view derived from a signed MsgEthereumTx and its outcome. */
export function createEvmTx(view: EvmTxProps): EvmTx {
  return put(EvmTx, EvmTx.create(view));
}

/** An EvmTx the typed event names but whose signed tx did not decode: failed, nothing known yet. */
export function createUndecodedEvmTx(ctx: EventCtx<unknown>, ethHash: string, txHash: string): EvmTx {
  return createEvmTx({
    id: ethHash,
    ethHash,
    txHash,
    height: ctx.height,
    txIndex: ctx.txIndex,
    msgIndex: 0,
    from: '',
    fromAccount: '',
    value: 0n,
    gasUsed: 0n,
    status: 0,
  });
}
