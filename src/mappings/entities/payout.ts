/** Distribution rows: one per EventDistributed, with the index it moved to. */
import { Distribution } from '../../types';
import type { EventDistributed } from '../generated/proto-json';
import { put } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';
import { big, int, str } from '../infra/values';

export function createDistribution(ctx: EventCtx<unknown>, e: EventDistributed): Distribution {
  return put(
    Distribution,
    Distribution.create({
      id: `${ctx.height}-${ctx.txIndex}-${ctx.eventIndex}`,
      seq: ctx.seq,
      assetId: e.asset_id,
      kindId: int(e.kind_id),
      denom: str(e.denom),
      payer: str(e.payer),
      amount: big(e.amount),
      supply: big(e.supply),
      newIndex: big(e.new_index),
      carryScaled: big(e.carry_scaled),
      height: ctx.height,
      txIndex: ctx.txIndex,
      eventIndex: ctx.eventIndex,
      txHash: str(ctx.txHash),
      blockTime: ctx.blockTime,
    }),
  );
}
