/** The read of /v1/assets/{id}: the asset with its accruals, kept per indexed height. */
import type { AccrualRow, AssetDetail } from '../repositories/assets';
import type { ReadContext } from './context';
import { HeightMemo } from './height-memo';

/** Assets whose accruals are kept, across a few heights. */
const ACCRUALS_KEPT = 1000;

/** What /v1/assets/{id} presents. */
export interface AssetDetailRead extends AssetDetail {
  accruals: AccrualRow[];
}

export function createAssetReads(ctx: ReadContext) {
  const { assets } = ctx.repos;
  // sum_claimable reads every income entry of an accrual (per-holder floors admit no
  // counter); it only changes when the node indexes a block, so it is kept per height
  const accrualsByHeight = new HeightMemo<AccrualRow[]>(ACCRUALS_KEPT);
  ctx.onRewind(() => accrualsByHeight.clear());

  /**
   * The asset with its accruals; undefined when there is no such asset. One statement when the
   * accruals are already kept for the height it reads (the usual case); otherwise again, with
   * the accruals, in one snapshot.
   */
  async function detail(id: string): Promise<AssetDetailRead | undefined> {
    const read = await ctx.store.readOne((sql) => assets.detail(sql, id));
    if (read === undefined) return undefined;
    const kept = accrualsByHeight.peek(read.indexedHeight, id);
    if (kept) return { ...read, accruals: kept };
    return ctx.store.read(async (sql) => {
      const again = await assets.detail(sql, id);
      if (again === undefined) return undefined;
      const accruals = await accrualsByHeight.get(again.indexedHeight, id, () => assets.accruals(sql, id));
      return { ...again, accruals };
    });
  }

  return { detail };
}

export type AssetReads = ReturnType<typeof createAssetReads>;
