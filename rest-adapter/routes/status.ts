/** /v1/status and /v1/stats. */
import { parseLimit } from '../http/params';
import { DEFAULT_STATS_LIMIT } from '../paging/limits';
import { dailySeries, dailyWindow, presentStatus, utcDay } from '../presenters/status';
import { timestampMs } from '../presenters/values';
import type { RouteContext } from './context';

export function registerStatusRoutes(ctx: RouteContext): void {
  const { status, txs } = ctx.repos;

  ctx.get('/v1/status', async () => {
    const read = await ctx.store.readOne((sql) => status.status(sql));
    return presentStatus(read, ctx.now(), ctx.live());
  });

  ctx.get(
    '/v1/stats',
    async (req) => {
      const limit = parseLimit(req.query.limit, DEFAULT_STATS_LIMIT);
      const read = await ctx.store.readOne((sql) => txs.stats(sql, limit));
      // the series ends on the latest block's day ("where block time is now"); before the
      // first block it ends today, all zeros
      const days = dailyWindow(utcDay(read.totals ? timestampMs(read.totals.latest_block_time) : ctx.now()));
      return {
        indexed_height: read.indexedHeight,
        tx_count: read.totals?.tx_count ?? 0,
        latest_txs: ctx.presentTxs(read.latest),
        tx_daily: dailySeries(days, read.days),
      };
    },
    { fixedPerHeight: true },
  );
}
