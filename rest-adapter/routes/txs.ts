/** /v1/txs and /v1/txs/{hash}. */
import { NotFoundError } from '../../src/lib/errors';
import { HeightMemo } from '../db/height-memo';
import type { TxPageFigures } from '../repositories/txs';
import { parseLimit, parseMethod, parseTxHash, queryValue } from '../http/params';
import { decodeTxCursor, txPageOf, txPageRequest, type TxPageRequest } from '../paging/tx-pages';
import type { RouteContext } from './context';

/** The hash a tx path names as the store keeps it (upper-case consensus, lower-case EVM); '' when it is not one. */
function storedHash(raw: string): string {
  try {
    return parseTxHash(raw).hash;
  } catch {
    return '';
  }
}

/** Page figures kept: lists (all txs, each method) × page sizes asked, across a few heights. */
const PAGE_FIGURES_KEPT = 1000;

export function registerTxRoutes(ctx: RouteContext): void {
  const { txs } = ctx.repos;
  // total, methods and the last page's boundary only change when the node indexes a block
  // (db/height-memo.ts): kept per height, list and page size, so most pages read their rows
  // alone; the first page of a height at the watcher's height reads everything in one statement
  const figuresByHeight = new HeightMemo<TxPageFigures>(PAGE_FIGURES_KEPT);
  ctx.onRewind(() => figuresByHeight.clear());

  /** The page read of `request` with its figures, in one statement (one snapshot) and at most one more. */
  async function readPage(method: string | undefined, request: TxPageRequest) {
    const key = `${request.limit}|${method ?? ''}`;
    const watched = ctx.indexedHeight();
    if (watched !== undefined && figuresByHeight.peek(watched, key)) {
      const lean = await ctx.store.readOne((sql) => txs.pageRows(sql, method, request));
      const figures = figuresByHeight.peek(lean.indexedHeight, key);
      if (figures) return { ...lean, ...figures };
    }
    const read = await ctx.store.readOne((sql) => txs.page(sql, method, request));
    const { total, methods, lastBoundary } = read;
    await figuresByHeight.get(read.indexedHeight, key, async () => ({ total, methods, lastBoundary }));
    return read;
  }

  ctx.get(
    '/v1/txs',
    async (req) => {
      const limit = parseLimit(queryValue(req.query, 'limit'));
      const method = parseMethod(queryValue(req.query, 'method'));
      const position = decodeTxCursor(queryValue(req.query, 'cursor'));
      const request = txPageRequest(position, limit);
      const read = await readPage(method, request);
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
