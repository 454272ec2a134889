/** DexPool rows: created by EventPoolCreated with the pool's opening reserves. */
import { DexPool } from '../../types';
import type { EventPoolCreated } from '../generated/proto-json';
import { put } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';
import { big, str } from '../infra/values';

export function createDexPool(ctx: EventCtx<unknown>, e: EventPoolCreated): DexPool {
  return put(
    DexPool,
    DexPool.create({
      id: str(e.pool_id),
      assetId: e.asset_id,
      quoteDenom: str(e.quote_denom),
      creator: str(e.creator),
      poolAddress: str(e.pool_address),
      baseReserve: big(e.base_reserve),
      quoteReserve: big(e.quote_reserve),
      createdHeight: ctx.height,
      updatedHeight: ctx.height,
    }),
  );
}
