/** /v1/txs paging logic (openapi.yaml, the txs paging parameters) on an in-memory ordering. */
import { InvalidInputError } from '../../../src/lib/errors';
import { encodeCursor } from '../../../src/lib/cursor';
import {
  decodeTxCursor,
  encodeTxCursor,
  lastPageSize,
  TxKey,
  TxPageRead,
  TxPageRequest,
  TxPosition,
  txPageOf,
  txPageRequest,
} from '../../../rest-adapter/paging/tx-pages';
import { txSeq } from '../../../rest-adapter/paging/seq';

interface Row extends TxKey {
  id: string;
}

/** txs of `blocks` blocks with the given tx counts (height from 1), oldest first. */
function chain(txsPerBlock: number[]): Row[] {
  const rows: Row[] = [];
  txsPerBlock.forEach((n, i) => {
    for (let t = 0; t < n; t++) rows.push({ id: `${i + 1}/${t}`, height: i + 1, txIndex: t });
  });
  return rows;
}

/**
 * The store's side in memory: what the page statement returns for a request, written
 * from the TxPageRead contract (rows beyond the bound, a row past it, the last page's
 * boundary at lastPageSize(total, limit) from the oldest), counting the reads.
 */
function storeOf(rows: Row[], total = rows.length) {
  const seq = (r: TxKey) => txSeq(r.height, r.txIndex);
  const asc = [...rows].sort((a, b) => (seq(a) < seq(b) ? -1 : 1));
  const store = {
    reads: 0,
    read(request: TxPageRequest): TxPageRead<Row> {
      store.reads++;
      const { direction, bound, limit } = request;
      const beyond =
        direction === 'older'
          ? asc.filter((r) => bound === null || seq(r) < bound).reverse()
          : asc.filter((r) => seq(r) > bound!);
      const pastBound = bound !== null && asc.some((r) => (direction === 'older' ? seq(r) >= bound : seq(r) <= bound));
      const boundary = total > limit ? asc[lastPageSize(total, limit)] : undefined;
      return {
        rows: beyond.slice(0, limit + 1),
        beyondBound: pastBound,
        lastBoundary: boundary ? { height: boundary.height, txIndex: boundary.txIndex } : null,
      };
    },
  };
  return store;
}

type Store = ReturnType<typeof storeOf>;

async function txPage(store: Store, position: TxPosition | null, limit: number) {
  const request = txPageRequest(position, limit);
  return txPageOf(request, store.read(request));
}

async function walk(rows: Row[], limit: number, start: TxPosition | null, direction: 'next' | 'prev') {
  const store = storeOf(rows);
  const pages: Row[][] = [];
  let position = start;
  for (let guard = 0; guard < 10_000; guard++) {
    const page = await txPage(store, position, limit);
    pages.push(page.rows);
    const cursor = direction === 'next' ? page.nextCursor : page.prevCursor;
    if (cursor === null) return { pages, last: page };
    position = decodeTxCursor(cursor);
  }
  throw new Error('no end');
}

describe('txs cursors', () => {
  it('round-trip direction and key, and refuse other lists or directions', () => {
    const p: TxPosition = { direction: 'newer', key: { height: 12, txIndex: 3 } };
    expect(decodeTxCursor(encodeTxCursor(p))).toEqual(p);
    expect(decodeTxCursor(undefined)).toBeNull();
    expect(decodeTxCursor('')).toBeNull();
    expect(() => decodeTxCursor(encodeCursor('txs', ['x', 1, 2]))).toThrow(InvalidInputError);
    expect(() => decodeTxCursor(encodeCursor('blocks', [1]))).toThrow(InvalidInputError);
    expect(() => decodeTxCursor(encodeCursor('txs', ['o', -1, 2]))).toThrow(InvalidInputError);
    expect(() => decodeTxCursor('not a cursor')).toThrow(InvalidInputError);
  });

  it('last page size is total mod limit, or a full page when exact', () => {
    expect(lastPageSize(45, 20)).toBe(5);
    expect(lastPageSize(40, 20)).toBe(20);
    expect(lastPageSize(3, 20)).toBe(3);
  });
});

describe('txPage', () => {
  const rows = chain([0, 3, 1, 0, 5, 2, 7, 1, 4, 0, 2]); // 25 txs, gaps and multi-tx blocks

  it.each([1, 2, 3, 4, 5, 7, 10, 25, 100])('walks every tx once, newest first, with limit %i', async (limit) => {
    const { pages } = await walk(rows, limit, null, 'next');
    const seen = pages.flat();
    expect(seen.map((r) => r.id)).toEqual([...rows].reverse().map((r) => r.id));
    pages.slice(0, -1).forEach((p) => expect(p).toHaveLength(limit));
    expect(pages[pages.length - 1]).toHaveLength(lastPageSize(rows.length, limit));
  });

  it.each([2, 3, 4, 5, 7, 10])('prev_cursor walks back page by page from the oldest page (limit %i)', async (limit) => {
    const forward = (await walk(rows, limit, null, 'next')).pages;
    const store = storeOf(rows);
    const first = await txPage(store, null, limit);
    expect(first.prevCursor).toBeNull();
    const last = await txPage(store, decodeTxCursor(first.lastCursor!), limit);
    expect(last.rows).toEqual(forward[forward.length - 1]);
    expect(last.nextCursor).toBeNull();
    const backward = (await walk(rows, limit, decodeTxCursor(first.lastCursor!), 'prev')).pages;
    expect(backward).toEqual([...forward].reverse());
  });

  it('gives next and prev cursors that land on the neighbouring pages', async () => {
    const store = storeOf(rows);
    const p1 = await txPage(store, null, 5);
    const p2 = await txPage(store, decodeTxCursor(p1.nextCursor!), 5);
    const back = await txPage(store, decodeTxCursor(p2.prevCursor!), 5);
    expect(back.rows).toEqual(p1.rows);
    expect(back.prevCursor).toBeNull();
    expect(back.nextCursor).not.toBeNull();
    expect((await txPage(store, decodeTxCursor(back.nextCursor!), 5)).rows).toEqual(p2.rows);
  });

  it('has no last_cursor when everything fits one page, and handles an empty chain', async () => {
    const few = await txPage(storeOf(rows), null, 25);
    expect(few).toMatchObject({ nextCursor: null, prevCursor: null, lastCursor: null });
    expect(few.rows).toHaveLength(25);
    expect(await txPage(storeOf([]), null, 20)).toEqual({
      rows: [],
      nextCursor: null,
      prevCursor: null,
      lastCursor: null,
    });
  });

  it("takes last_cursor from the read (the counters' total), one read per page", async () => {
    const store = storeOf(rows, 32); // the counter says 32: the last page holds 2, its boundary is the 3rd oldest
    const page = await txPage(store, null, 10);
    const last = await txPage(store, decodeTxCursor(page.lastCursor!), 10);
    expect(last.rows.map((r) => r.id)).toEqual(
      rows
        .slice(0, 2)
        .reverse()
        .map((r) => r.id),
    );
    expect(store.reads).toBe(2);
  });

  it('has a prev_cursor on an older page only when a tx lies at or above its bound', async () => {
    const store = storeOf(rows);
    const request = txPageRequest({ direction: 'older', key: { height: 9, txIndex: 0 } }, 3);
    const read = store.read(request);
    expect(txPageOf(request, read).prevCursor).not.toBeNull();
    expect(txPageOf(request, { ...read, beyondBound: false }).prevCursor).toBeNull();
    expect(txPageOf(request, { ...read, rows: [] })).toMatchObject({ rows: [], prevCursor: null, nextCursor: null });
  });
});
