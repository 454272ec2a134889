import {
  formatAmount,
  fromBaseUnits,
  isAmountString,
  maxAmount,
  minAmount,
  parseAmount,
  sumAmounts,
  toBaseUnits,
  tryParseAmount,
} from '../../../src/lib/amount';
import { InvalidInputError } from '../../../src/lib/errors';

const TWO_64 = 18446744073709551616n;
const TWO_128 = 340282366920938463463374607431768211456n;

describe('parseAmount / formatAmount', () => {
  it('parses plain digits exactly', () => {
    expect(parseAmount('0')).toBe(0n);
    expect(parseAmount('1500000')).toBe(1500000n);
  });

  it('round-trips amounts above 2^64 and 2^128 without loss', () => {
    for (const v of [TWO_64 - 1n, TWO_64, TWO_64 + 1n, TWO_128 - 1n, TWO_128 + 12345n, 2n ** 256n - 1n]) {
      const s = formatAmount(v);
      expect(parseAmount(s)).toBe(v);
      expect(s).toBe(v.toString());
    }
    expect(formatAmount(parseAmount('18446744073709551617'))).toBe('18446744073709551617');
    expect(formatAmount(parseAmount('340282366920938463463374607431768211457'))).toBe(
      '340282366920938463463374607431768211457',
    );
    // what a JS number would have done: lose the last digits
    expect(String(Number('18446744073709551617'))).not.toBe('18446744073709551617');
  });

  it('normalises leading zeros', () => {
    expect(parseAmount('007')).toBe(7n);
    expect(formatAmount(parseAmount('0000'))).toBe('0');
  });

  it('rejects signs, spaces, exponents, decimals, hex, empty and non-strings', () => {
    for (const s of [
      '',
      ' ',
      ' 1',
      '1 ',
      '+1',
      '-1',
      '1e3',
      '1E3',
      '1.0',
      '1.',
      '.5',
      '0x10',
      '1_000',
      '１２',
      '1,000',
      'NaN',
      'Infinity',
    ]) {
      expect(() => parseAmount(s)).toThrow(InvalidInputError);
      expect(tryParseAmount(s)).toBeNull();
    }
    expect(() => parseAmount(12 as unknown as string)).toThrow(InvalidInputError);
    expect(() => parseAmount(12n as unknown as string)).toThrow(InvalidInputError);
  });

  it('accepts a sign only with allowNegative, and never a leading +', () => {
    expect(parseAmount('-42', { allowNegative: true })).toBe(-42n);
    expect(parseAmount('-0', { allowNegative: true })).toBe(0n);
    expect(() => parseAmount('+42', { allowNegative: true })).toThrow(InvalidInputError);
    expect(() => parseAmount('--1', { allowNegative: true })).toThrow(InvalidInputError);
    expect(() => parseAmount('-', { allowNegative: true })).toThrow(InvalidInputError);
  });

  it('caps the digit count', () => {
    expect(parseAmount('9'.repeat(1000))).toBe(10n ** 1000n - 1n);
    expect(() => parseAmount('9'.repeat(1001))).toThrow(/too many digits/);
    expect(() => parseAmount('123', { maxDigits: 2 })).toThrow(/too many digits/);
  });

  it('formatAmount refuses a JS number', () => {
    expect(() => formatAmount(5 as unknown as bigint)).toThrow(InvalidInputError);
    expect(formatAmount(-5n)).toBe('-5');
  });

  it('isAmountString', () => {
    expect(isAmountString('10')).toBe(true);
    expect(isAmountString('-10')).toBe(false);
    expect(isAmountString(10)).toBe(false);
  });
});

describe('sum / min / max', () => {
  it('sums exactly above 2^64', () => {
    expect(sumAmounts([TWO_64, TWO_64, 1n])).toBe(2n * TWO_64 + 1n);
    expect(sumAmounts([])).toBe(0n);
    expect(sumAmounts(new Set([1n, 2n, 3n]))).toBe(6n);
    expect(() => sumAmounts([1n, 2 as unknown as bigint])).toThrow(InvalidInputError);
  });
  it('min and max', () => {
    expect(minAmount(5n, TWO_128, -3n, 0n)).toBe(-3n);
    expect(maxAmount(5n, TWO_128, -3n, 0n)).toBe(TWO_128);
    expect(minAmount(7n)).toBe(7n);
    expect(() => minAmount()).toThrow(InvalidInputError);
    expect(() => maxAmount()).toThrow(InvalidInputError);
  });
});

describe('toBaseUnits / fromBaseUnits', () => {
  it('converts whole units with decimals', () => {
    expect(toBaseUnits('1.5', 6)).toBe(1500000n);
    expect(toBaseUnits('1', 6)).toBe(1000000n);
    expect(toBaseUnits('0.000001', 6)).toBe(1n);
    expect(toBaseUnits('5000', 6)).toBe(5000000000n);
    expect(toBaseUnits('42', 0)).toBe(42n);
    expect(toBaseUnits('1.000000000000000001', 18)).toBe(10n ** 18n + 1n);
    expect(toBaseUnits('-2.5', 6, { allowNegative: true })).toBe(-2500000n);
  });

  it('refuses to round or guess', () => {
    expect(() => toBaseUnits('0.0000001', 6)).toThrow(/decimal places/);
    expect(() => toBaseUnits('1.5', 0)).toThrow(/decimal places/);
    for (const s of ['', '.5', '1.', '1e6', '+1', '-1', ' 1', '1,5', '0x1']) {
      expect(() => toBaseUnits(s, 6)).toThrow(InvalidInputError);
    }
    expect(() => toBaseUnits('1', -1)).toThrow(InvalidInputError);
    expect(() => toBaseUnits('1', 1.5)).toThrow(InvalidInputError);
    expect(() => toBaseUnits('1', 256)).toThrow(InvalidInputError);
  });

  it('formats base units back, trimming trailing zeros', () => {
    expect(fromBaseUnits(1500000n, 6)).toBe('1.5');
    expect(fromBaseUnits(2000000n, 6)).toBe('2');
    expect(fromBaseUnits(1n, 6)).toBe('0.000001');
    expect(fromBaseUnits(0n, 6)).toBe('0');
    expect(fromBaseUnits(-1500000n, 6)).toBe('-1.5');
    expect(fromBaseUnits(123n, 0)).toBe('123');
  });

  it('round-trips large values in both directions', () => {
    for (const v of [TWO_64 + 7n, TWO_128 - 1n, 123456789012345678901234567890n]) {
      for (const d of [0, 6, 18]) expect(toBaseUnits(fromBaseUnits(v, d), d)).toBe(v);
    }
    expect(fromBaseUnits(toBaseUnits('340282366920938463463.374607431768211456', 18), 18)).toBe(
      '340282366920938463463.374607431768211456',
    );
  });
});
