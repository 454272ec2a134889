/**
 * `?height=H` (rest-adapter/http/height.ts) and cursors bound to their height
 * (rest-adapter/paging/cursors.ts readCursorAt / writeCursorAt): docs/rest-adapter.md,
 * "State at a past height".
 */
import { checkHeight, heightAsked } from '../../../rest-adapter/http/height';
import { CURSORS, readCursorAt, writeCursor, writeCursorAt } from '../../../rest-adapter/paging/cursors';

const KEPT = { from: 1, to: 57 };
const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return `${(e as { code?: string }).code}: ${(e as Error).message}`;
  }
  return 'accepted';
};

describe('checkHeight', () => {
  it('accepts a base-10 integer in the kept range', () => {
    expect([checkHeight('1', KEPT), checkHeight('57', KEPT), checkHeight('030', KEPT)]).toEqual([1, 57, 30]);
  });

  it.each([
    ['abc', 'bad_request: height must be a non-negative integer; the kept range is 1..57'],
    ['-1', 'bad_request: height must be a non-negative integer; the kept range is 1..57'],
    ['1.5', 'bad_request: height must be a non-negative integer; the kept range is 1..57'],
    ['1e3', 'bad_request: height must be a non-negative integer; the kept range is 1..57'],
    ['', 'bad_request: height must be a non-negative integer; the kept range is 1..57'],
    ['0', 'bad_request: height 0 is below what is kept; the kept range is 1..57'],
    ['58', 'bad_request: height 58 is above the indexed height; the kept range is 1..57'],
    [
      '123456789012345678901234567890',
      'bad_request: height 123456789012345678901234567890 is above the indexed height; the kept range is 1..57',
    ],
  ])('refuses %j, naming the kept range', (raw, message) => {
    expect(refusal(() => checkHeight(raw, KEPT))).toBe(message);
  });

  it('says when nothing is kept yet', () => {
    expect(refusal(() => checkHeight('1', { from: 1, to: 0 }))).toBe(
      'bad_request: height 1 is above the indexed height; none is kept yet',
    );
  });

  it('reads the head when height is absent, and refuses it given twice', () => {
    expect(heightAsked({})).toBeUndefined();
    expect(heightAsked({ height: '5' })).toBe('5');
    expect(refusal(() => heightAsked({ height: ['5', '6'] }))).toBe(
      'bad_request: query parameter height given more than once',
    );
  });
});

describe('cursors bound to their height', () => {
  const head = writeCursor(CURSORS.holders, [10n, 'svc1a']);
  const at7 = writeCursorAt(CURSORS.holders, [10n, 'svc1a'], 7);

  it('leaves the head cursor as it was and binds the others to their height', () => {
    expect(writeCursorAt(CURSORS.holders, [10n, 'svc1a'], null)).toBe(head);
    expect(at7).not.toBe(head);
    expect(readCursorAt(CURSORS.holders, head, null)).toEqual([10n, 'svc1a']);
    expect(readCursorAt(CURSORS.holders, at7, 7)).toEqual([10n, 'svc1a']);
    expect(readCursorAt(CURSORS.holders, undefined, 7)).toBeNull();
  });

  it('refuses a cursor at another height, or across the head and a height, saying which it belongs to', () => {
    expect(refusal(() => readCursorAt(CURSORS.holders, at7, 8))).toBe(
      'bad_request: cursor was issued at height 7; repeat the request with height=7',
    );
    expect(refusal(() => readCursorAt(CURSORS.holders, at7, null))).toBe(
      'bad_request: cursor was issued at height 7; repeat the request with height=7',
    );
    expect(refusal(() => readCursorAt(CURSORS.holders, head, 7))).toBe(
      'bad_request: cursor was issued without height; repeat the request without height',
    );
    expect(refusal(() => readCursorAt(CURSORS.holders, 'garbage', 7))).toBe('bad_request: malformed cursor');
    expect(refusal(() => readCursorAt(CURSORS.assets, at7, 7))).toBe('bad_request: malformed cursor');
  });
});
