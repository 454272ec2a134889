/** /v1/txs paging logic (SPEC parameter rule 3) on an in-memory ordering. */
import { InvalidInputError } from '../../../src/lib/errors';
import { encodeCursor } from '../../../src/lib/cursor';
import { decodeTxCursor, encodeTxCursor, lastPageSize, TxKey, TxOrder, TxPosition, txPage } from '../../../rest-adapter/paging/tx-pages';
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

function orderOf(rows: Row[]): TxOrder<Row> & { calls: number } {
  const seq = (r: TxKey) => txSeq(r.height, r.txIndex);
  const asc = [...rows].sort((a, b) => (seq(a) < seq(b) ? -1 : 1));
  const order = {
    calls: 0,
    async olderThan(below: bigint | null, n: number) {
      order.calls++;
      return asc.filter((r) => below === null || seq(r) < below).reverse().slice(0, n);
    },
    async newerThan(above: bigint, n: number) {
      order.calls++;
      return asc.filter((r) => seq(r) > above).slice(0, n);
    },
    async existsBelow(s: bigint) {
      return asc.some((r) => seq(r) < s);
    },
    async existsAbove(s: bigint) {
      return asc.some((r) => seq(r) > s);
    },
    async keyFromOldest(offset: number) {
      return asc[offset] ? { height: asc[offset].height, txIndex: asc[offset].txIndex } : null;
    },
  };
  return order;
}

async function walk(rows: Row[], limit: number, start: TxPosition | null, direction: 'next' | 'prev') {
  const order = orderOf(rows);
  const pages: Row[][] = [];
  let position = start;
  for (let guard = 0; guard < 10_000; guard++) {
    const page = await txPage(order, position, limit, rows.length);
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
    const order = orderOf(rows);
    const first = await txPage(order, null, limit, rows.length);
    expect(first.prevCursor).toBeNull();
    const last = await txPage(order, decodeTxCursor(first.lastCursor!), limit, rows.length);
    expect(last.rows).toEqual(forward[forward.length - 1]);
    expect(last.nextCursor).toBeNull();
    const backward = (await walk(rows, limit, decodeTxCursor(first.lastCursor!), 'prev')).pages;
    expect(backward).toEqual([...forward].reverse());
  });

  it('gives next and prev cursors that land on the neighbouring pages', async () => {
    const order = orderOf(rows);
    const p1 = await txPage(order, null, 5, rows.length);
    const p2 = await txPage(order, decodeTxCursor(p1.nextCursor!), 5, rows.length);
    const back = await txPage(order, decodeTxCursor(p2.prevCursor!), 5, rows.length);
    expect(back.rows).toEqual(p1.rows);
    expect(back.prevCursor).toBeNull();
    expect(back.nextCursor).not.toBeNull();
    expect((await txPage(order, decodeTxCursor(back.nextCursor!), 5, rows.length)).rows).toEqual(p2.rows);
  });

  it('has no last_cursor when everything fits one page, and handles an empty chain', async () => {
    const few = await txPage(orderOf(rows), null, 25, rows.length);
    expect(few).toMatchObject({ nextCursor: null, prevCursor: null, lastCursor: null });
    expect(few.rows).toHaveLength(25);
    expect(await txPage(orderOf([]), null, 20, 0)).toEqual({ rows: [], nextCursor: null, prevCursor: null, lastCursor: null });
  });

  it('uses the given total for last_cursor (the counters), not a count of rows', async () => {
    const order = orderOf(rows);
    const page = await txPage(order, null, 10, rows.length);
    const last = await txPage(order, decodeTxCursor(page.lastCursor!), 10, rows.length);
    expect(last.rows.map((r) => r.id)).toEqual(rows.slice(0, 5).reverse().map((r) => r.id));
  });
});
