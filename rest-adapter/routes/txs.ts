/** /v1/txs and /v1/txs/{hash}. */
import { NotFoundError } from '../../src/lib/errors';
import { parseLimit, parseMethod, parseTxHash, queryValue } from '../http/params';
import { decodeTxCursor, txPage } from '../paging/tx-pages';
import type { RouteContext } from './context';

export function registerTxRoutes(ctx: RouteContext): void {
  const { chain, txs } = ctx.repos;

  ctx.get('/v1/txs', async (req) => {
    const limit = parseLimit(queryValue(req.query, 'limit'));
    const method = parseMethod(queryValue(req.query, 'method'));
    const position = decodeTxCursor(queryValue(req.query, 'cursor'));
    const body = await ctx.store.read(async (sql) => {
      // total from the counters (MethodCount / ChainTotals), never count(*)
      const total = method === undefined ? ((await chain.totals(sql))?.tx_count ?? 0) : await txs.methodCount(sql, method);
      const page = await txPage(txs.order(sql, method), position, limit, total);
      const [items, methods] = await Promise.all([txs.details(sql, page.rows), txs.methods(sql)]);
      return { txs: items, total, next_cursor: page.nextCursor, prev_cursor: page.prevCursor, last_cursor: page.lastCursor, methods };
    });
    return body;
  }, { fixedPerHeight: true });

  ctx.get('/v1/txs/:hash', async (req) => {
    const query = parseTxHash(String(req.params.hash));
    const tx = await ctx.store.read(async (sql) => {
      const row = query.kind === 'consensus' ? await txs.byHash(sql, query.hash) : await txs.byEthHash(sql, query.hash);
      if (!row) throw new NotFoundError('tx not found');
      return (await txs.details(sql, [row]))[0];
    });
    return tx;
  }, { fixedPerHeight: true });
}
