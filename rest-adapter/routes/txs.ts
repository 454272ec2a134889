/** /v1/txs and /v1/txs/{hash}. */
import { NotFoundError } from '../../src/lib/errors';
import { HeightMemo } from '../db/height-memo';
import type { TxPageFigures, TxStampRow } from '../repositories/txs';
import { stampOf, type ApiTx } from '../presenters/txs';
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

  /**
   * A page whose height's figures are kept, read keys first: the page's hashes and stamps, the
   * kept renderings of those txs, and the rows of the others by hash. Undefined when the figures
   * of the snapshot's height are not kept, or a tx read by hash is not the one the keys named
   * (a rewind came between the two statements): then the page is read in one statement.
   */
  async function readKeysFirst(method: string | undefined, request: TxPageRequest, figuresKey: string) {
    const keys = await ctx.store.readOne((sql) => txs.pageKeys(sql, method, request));
    const figures = figuresByHeight.peek(keys.indexedHeight, figuresKey);
    if (!figures) return undefined;
    // pinned now: another request may evict an entry while this one reads the others
    const kept = new Map<string, ApiTx>();
    for (const k of keys.rows) {
      const tx = ctx.keptTx(k.hash, stampOf(k));
      if (tx) kept.set(k.hash, tx);
    }
    const missing = keys.rows.filter((k) => !kept.has(k.hash));
    const read = missing.length
      ? await ctx.store.readOne((sql) =>
          txs.byHashes(
            sql,
            missing.map((k) => k.hash),
          ),
        )
      : [];
    const rows = new Map(read.map((r) => [r.hash, r]));
    if (missing.some((k) => rows.get(k.hash) === undefined || stampOf(rows.get(k.hash)!) !== stampOf(k)))
      return undefined;
    const present = (page: readonly TxStampRow[]) =>
      page.map((k) => kept.get(k.hash) ?? ctx.presentTxs([rows.get(k.hash)!])[0]);
    return { ...keys, ...figures, present };
  }

  /** The page read of `request` with its figures and how to present its rows. */
  async function readPage(method: string | undefined, request: TxPageRequest) {
    const figuresKey = `${request.limit}|${method ?? ''}`;
    const watched = ctx.indexedHeight();
    if (watched !== undefined && figuresByHeight.peek(watched, figuresKey)) {
      const read = await readKeysFirst(method, request, figuresKey);
      if (read) return read;
    }
    const read = await ctx.store.readOne((sql) => txs.page(sql, method, request));
    const { total, methods, lastBoundary } = read;
    await figuresByHeight.get(read.indexedHeight, figuresKey, async () => ({ total, methods, lastBoundary }));
    const rows = new Map(read.rows.map((r) => [r.hash, r]));
    return { ...read, present: (page: readonly TxStampRow[]) => ctx.presentTxs(page.map((k) => rows.get(k.hash)!)) };
  }

  ctx.get(
    '/v1/txs',
    async (req) => {
      const limit = parseLimit(queryValue(req.query, 'limit'));
      const method = parseMethod(queryValue(req.query, 'method'));
      const position = decodeTxCursor(queryValue(req.query, 'cursor'));
      const request = txPageRequest(position, limit);
      const read = await readPage(method, request);
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
