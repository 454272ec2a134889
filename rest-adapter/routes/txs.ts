/** /v1/txs and /v1/txs/{hash}. */
import { NotFoundError } from '../../src/lib/errors';
import { parseLimit, parseMethod, parseTxHash, queryValue } from '../http/params';
import { decodeTxCursor, txPageOf, txPageRequest } from '../paging/tx-pages';
import type { RouteContext } from './context';

/** The hash a tx path names as the store keeps it (upper-case consensus, lower-case EVM); '' when it is not one. */
function storedHash(raw: string): string {
  try {
    return parseTxHash(raw).hash;
  } catch {
    return '';
  }
}

export function registerTxRoutes(ctx: RouteContext): void {
  const { txs } = ctx.repos;

  ctx.get(
    '/v1/txs',
    async (req) => {
      const limit = parseLimit(queryValue(req.query, 'limit'));
      const method = parseMethod(queryValue(req.query, 'method'));
      const position = decodeTxCursor(queryValue(req.query, 'cursor'));
      const request = txPageRequest(position, limit);
      const read = await ctx.store.readOne((sql) => txs.page(sql, method, request));
      const page = txPageOf(request, read);
      return {
        txs: ctx.presentTxs(page.rows),
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
      const query = parseTxHash(String(req.params.hash));
      const kept = ctx.keptTx(query.hash); // a committed tx never changes: no store read
      if (kept) return kept;
      const row = await ctx.store.readOne((sql) =>
        query.kind === 'consensus' ? txs.byHash(sql, query.hash) : txs.byEthHash(sql, query.hash),
      );
      if (!row) throw new NotFoundError('tx not found');
      return ctx.presentTxs([row])[0];
    },
    { fixedPerHeight: true, immutable: { exists: (params) => ctx.rendered(storedHash(params.hash)) } },
  );
}
