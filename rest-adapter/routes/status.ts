/** /v1/status and /v1/stats. */
import { DEFAULT_STATS_LIMIT, parseLimit, queryValue } from '../http/params';
import { dailySeries, dailyWindow, presentStatus, utcDay } from '../presenters/chain';
import { timestampMs } from '../presenters/values';
import type { RouteContext } from './context';

export function registerStatusRoutes(ctx: RouteContext): void {
  const { chain, txs } = ctx.repos;

  ctx.get('/v1/status', async () => {
    const read = await ctx.store.readOne((sql) => chain.status(sql));
    return presentStatus(read.progress, read.totals, read.reconciliationDisagreements, ctx.now());
  });

  ctx.get('/v1/stats', async (req) => {
    const limit = parseLimit(queryValue(req.query, 'limit'), DEFAULT_STATS_LIMIT);
    return ctx.store.read(async (sql) => {
      const [progress, totals, latest] = await Promise.all([chain.progress(sql), chain.totals(sql), txs.newest(sql, limit)]);
      // the series ends on the latest block's day ("where block time is now")
      const days = dailyWindow(utcDay(totals ? timestampMs(totals.latest_block_time) : ctx.now()));
      const counts = await chain.txDays(sql, days[0], days[days.length - 1]);
      return { indexed_height: progress.indexedHeight, tx_count: totals?.tx_count ?? 0, latest_txs: txs.present(latest), tx_daily: dailySeries(days, counts) };
    });
  }, { fixedPerHeight: true });
}
