/** /v1/txs and /v1/txs/{hash}. */
import { NotFoundError } from '../../src/lib/errors';
import type { TxStampRow } from '../repositories/txs';
import { parseLimit, parseTxHash } from '../http/params';
import { decodeTxCursor, txPageOf, txPageRequest } from '../paging/tx-pages';
import type { RouteContext } from './context';

export function registerTxRoutes(ctx: RouteContext): void {
  ctx.get(
    '/v1/txs',
    async (req) => {
      const limit = parseLimit(req.query.limit);
      const method = req.query.method;
      const position = decodeTxCursor(req.query.cursor);
      const request = txPageRequest(position, limit);
      const read = await ctx.reads.txs.page(method, request);
      const page = txPageOf<TxStampRow>(request, read);
      return {
        txs: read.present(page.rows),
        total: read.total,
        next_cursor: page.nextCursor,
        prev_cursor: page.prevCursor,
        last_cursor: page.lastCursor,
        methods: read.methods,
      };
    },
    { fixedPerHeight: true },
  );

  ctx.get(
    '/v1/txs/{hash}',
    async (req) => {
      const query = parseTxHash(req.params.hash);
      const tx = await ctx.reads.txs.one(query);
      if (!tx) throw new NotFoundError('tx not found');
      return tx;
    },
    { fixedPerHeight: true, immutable: { exists: (params) => ctx.rendered(parseTxHash(params.hash).hash) } },
  );
}
