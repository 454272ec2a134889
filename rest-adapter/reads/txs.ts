/**
 * The reads of /v1/txs and /v1/txs/{hash}. A page's figures (total, method facet, the last
 * page's boundary) are kept per height, so most pages read without them; a page asked again is
 * read keys first, its txs taken from the render cache; a tx the render cache holds is not read.
 */
import type { TxPageRequest } from '../paging/tx-pages';
import { stampOf, type ApiTx } from '../presenters/txs';
import type { KeyedTxRow, TxPageFigures, TxStampRow, TxWithEvmRow } from '../repositories/txs';
import type { ReadContext } from './context';
import { HeightMemo } from './height-memo';

/** Page figures kept: lists (all txs, each method) × page sizes asked, across a few heights. */
const PAGE_FIGURES_KEPT = 1000;
/** Pages remembered as asked recently (their txs likely in the render cache): read keys first. */
const RECENT_PAGES = 10_000;

/** The most recently seen keys, least recently seen out first. */
class RecentKeys {
  private readonly keys = new Set<string>();

  constructor(private readonly max: number) {}

  /** Whether `key` was seen (among the last `max`); it is seen now either way. */
  seen(key: string): boolean {
    const was = this.keys.delete(key);
    this.keys.add(key);
    if (this.keys.size > this.max) this.keys.delete(this.keys.values().next().value as string);
    return was;
  }
}

/** A tx as a path names it: its consensus hash (upper-case) or the hash of its MsgEthereumTx (lower-case). */
export interface TxHashQuery {
  kind: 'consensus' | 'eth';
  hash: string;
}

export function createTxReads(ctx: ReadContext) {
  const { txs } = ctx.repos;
  // total, methods and the last page's boundary only change when the node indexes a block
  // (height-memo.ts): kept per height, list and page size, so most pages read without them;
  // the first page of a height at the watcher's height reads everything in one statement
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
    // only the first `limit` rows are shown (paging/tx-pages.ts); the one after them only says
    // that a further page exists, so it needs no rendering and no read by hash
    const shown = keys.rows.slice(0, request.limit);
    // the page's Txs: the kept ones pinned now (another request may evict an entry while this
    // one reads the others), then those read by hash
    const kept = new Map<string, ApiTx>();
    for (const k of shown) {
      const tx = ctx.keptTx(k.hash, stampOf(k));
      if (tx) kept.set(k.hash, tx);
    }
    const missing = shown.filter((k) => !kept.has(k.hash));
    if (missing.length) {
      const hashes = missing.map((k) => k.hash);
      const read = await ctx.store.readOne((sql) => txs.byHashes(sql, hashes));
      const rows = new Map(read.map((r) => [r.hash, r]));
      const found = missing.map((k) => rows.get(k.hash));
      if (found.some((r, i) => r === undefined || stampOf(r) !== stampOf(missing[i]))) return undefined;
      ctx.presentTxs(found as TxWithEvmRow[]).forEach((tx, i) => kept.set(missing[i].hash, tx));
    }
    const present = (page: readonly TxStampRow[]) => page.map((k) => kept.get(k.hash)!);
    return { ...keys, ...figures, present };
  }

  /** A page whose height's figures are kept, read with its rows in one statement; undefined when they are not kept at the snapshot's height. */
  async function readRows(method: string | undefined, request: TxPageRequest, figuresKey: string) {
    const read = await ctx.store.readOne((sql) => txs.pageRows(sql, method, request));
    const figures = figuresByHeight.peek(read.indexedHeight, figuresKey);
    return figures ? { ...read, ...figures, present: presenterOf(read.rows) } : undefined;
  }

  /** Presents a page's rows (in page order) from the rows read. */
  function presenterOf(read: readonly KeyedTxRow[]) {
    const rows = new Map(read.map((r) => [r.hash, r]));
    return (page: readonly TxStampRow[]) => ctx.presentTxs(page.map((k) => rows.get(k.hash)!));
  }

  // a page asked again (the newest, the last, one a client pages back to) finds its txs in the
  // render cache and is read keys first; a page asked for the first time is read with its rows
  const recentPages = new RecentKeys(RECENT_PAGES);

  /** The page read of `request` (paging/tx-pages.ts txPageOf) with its figures and how to present its rows. */
  async function page(method: string | undefined, request: TxPageRequest) {
    const figuresKey = `${request.limit}|${method ?? ''}`;
    const asked = recentPages.seen(`${figuresKey}|${request.direction}|${request.bound ?? ''}`);
    const watched = ctx.indexedHeight();
    if (watched !== undefined && figuresByHeight.peek(watched, figuresKey)) {
      const read = asked
        ? await readKeysFirst(method, request, figuresKey)
        : await readRows(method, request, figuresKey);
      if (read) return read;
    }
    const read = await ctx.store.readOne((sql) => txs.page(sql, method, request));
    const { total, methods, lastBoundary } = read;
    await figuresByHeight.get(read.indexedHeight, figuresKey, async () => ({ total, methods, lastBoundary }));
    return { ...read, present: presenterOf(read.rows) };
  }

  /** The Tx a path names; undefined when the store has none. */
  async function one(query: TxHashQuery): Promise<ApiTx | undefined> {
    const kept = ctx.keptTx(query.hash); // a committed tx never changes: no store read
    if (kept) return kept;
    const row = await ctx.store.readOne((sql) =>
      query.kind === 'consensus' ? txs.byHash(sql, query.hash) : txs.byEthHash(sql, query.hash),
    );
    return row ? ctx.presentTxs([row])[0] : undefined;
  }

  return { page, one };
}

export type TxReads = ReturnType<typeof createTxReads>;
