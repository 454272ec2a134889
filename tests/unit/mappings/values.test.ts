/** Small conversions of the mappings (src/mappings/infra/values.ts). */
import { big, bech32OfEvm, date, enumShort, evmAddressOf, seqOf } from '../../../src/mappings/infra/values';

describe('values', () => {
  it('seq orders (height, tx_index, event_index) with block-level events (-1) first in their block', () => {
    const order: [number, number, number][] = [
      [1, -1, 0],
      [1, 0, -1],
      [1, 0, 0],
      [1, 0, 99998],
      [1, 1, 0],
      [1, 99998, 5],
      [2, -1, 0],
      [10_000_000_000, 0, 0],
    ];
    const seqs = order.map(([h, t, e]) => seqOf(h, t, e));
    expect([...seqs].sort((a, b) => (a < b ? -1 : 1))).toEqual(seqs);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('parses proto-JSON integers and timestamps', () => {
    expect(big('340282366920938463463374607431768211456')).toBe(2n ** 128n);
    expect(big('')).toBe(0n);
    expect(big(7)).toBe(7n);
    expect(date('2026-01-05T00:00:00.5Z')?.toISOString()).toBe('2026-01-05T00:00:00.500Z');
    expect(date(null)).toBeUndefined();
    expect(enumShort('ENCUMBRANCE_KIND_PLEDGE', 'ENCUMBRANCE_KIND_')).toBe('pledge');
    expect(enumShort('KIND_CLASS_INCOME', 'KIND_CLASS_', false)).toBe('INCOME');
  });

  it('converts between bech32 and 0x forms', () => {
    const evm = evmAddressOf('svc1s2kerd8v782qm4xqhdsnxju99lnx6v2e4lzv23');
    expect(evm).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(bech32OfEvm(evm)).toBe('svc1s2kerd8v782qm4xqhdsnxju99lnx6v2e4lzv23');
    expect(evmAddressOf('not-an-address')).toBeNull();
    expect(bech32OfEvm('')).toBeNull();
  });
});
