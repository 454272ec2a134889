/**
 * Amounts: arbitrary-precision integers, `bigint` in TypeScript and decimal strings in JSON.
 * A JS number is never used for an amount (it loses precision above 2^53).
 */
import { InvalidInputError } from './errors';

export interface ParseAmountOptions {
  /** accept a leading '-' (default false: amounts are non-negative) */
  allowNegative?: boolean;
  /**
   * maximum number of digits (default 1000). Chain amounts are 256-bit (78 digits) and
   * scaled indices a few dozen more; the cap only keeps hostile input from costing CPU.
   */
  maxDigits?: number;
}

const DEFAULT_MAX_DIGITS = 1000;
const UNSIGNED_RE = /^[0-9]+$/;
const SIGNED_RE = /^-?[0-9]+$/;
const DECIMAL_RE = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;
const MAX_DECIMALS = 255;

/**
 * Strict decimal integer: digits only (and '-' when `allowNegative`). No '+', no
 * whitespace, no exponent, no decimal point, not empty. Leading zeros are accepted and
 * normalised ("007" -> 7n; "-0" -> 0n).
 */
export function parseAmount(s: string, opts: ParseAmountOptions = {}): bigint {
  if (typeof s !== 'string') throw new InvalidInputError('amount must be a decimal string');
  const re = opts.allowNegative ? SIGNED_RE : UNSIGNED_RE;
  if (!re.test(s)) throw new InvalidInputError(`invalid amount "${s.slice(0, 40)}"`);
  const digits = s.startsWith('-') ? s.length - 1 : s.length;
  if (digits > (opts.maxDigits ?? DEFAULT_MAX_DIGITS)) throw new InvalidInputError('amount has too many digits');
  return BigInt(s);
}

/** Like `parseAmount` but returns null instead of throwing. */
export function tryParseAmount(s: string, opts: ParseAmountOptions = {}): bigint | null {
  try {
    return parseAmount(s, opts);
  } catch {
    return null;
  }
}

/** True when `s` is a strict non-negative decimal amount. */
export function isAmountString(s: unknown): s is string {
  return typeof s === 'string' && tryParseAmount(s) !== null;
}

/** Decimal string of an amount (the JSON form). */
export function formatAmount(v: bigint): string {
  if (typeof v !== 'bigint') throw new InvalidInputError('amount must be a bigint');
  return v.toString(10);
}

/** Sum of amounts; 0n for none. */
export function sumAmounts(values: Iterable<bigint>): bigint {
  let total = 0n;
  for (const v of values) {
    if (typeof v !== 'bigint') throw new InvalidInputError('amount must be a bigint');
    total += v;
  }
  return total;
}

function pick(values: bigint[], better: (a: bigint, b: bigint) => boolean): bigint {
  if (values.length === 0) throw new InvalidInputError('no amounts given');
  let best = values[0];
  for (const v of values) {
    if (typeof v !== 'bigint') throw new InvalidInputError('amount must be a bigint');
    if (better(v, best)) best = v;
  }
  return best;
}

/** Smallest of one or more amounts. */
export function minAmount(...values: bigint[]): bigint {
  return pick(values, (a, b) => a < b);
}

/** Largest of one or more amounts. */
export function maxAmount(...values: bigint[]): bigint {
  return pick(values, (a, b) => a > b);
}

function checkDecimals(decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
    throw new InvalidInputError(`decimals must be an integer in [0, ${MAX_DECIMALS}]`);
  }
  return 10n ** BigInt(decimals);
}

/**
 * Whole units with a decimal fraction -> base units: toBaseUnits("1.5", 6) = 1500000n.
 * Exact only: more fractional digits than `decimals` is an error, never a rounding.
 */
export function toBaseUnits(whole: string, decimals: number, opts: ParseAmountOptions = {}): bigint {
  const scale = checkDecimals(decimals);
  const m = typeof whole === 'string' ? DECIMAL_RE.exec(whole) : null;
  if (!m || (m[1] === '-' && !opts.allowNegative))
    throw new InvalidInputError(`invalid decimal amount "${String(whole).slice(0, 40)}"`);
  const [, sign, intPart, frac = ''] = m;
  if (intPart.length + frac.length > (opts.maxDigits ?? DEFAULT_MAX_DIGITS)) {
    throw new InvalidInputError('amount has too many digits');
  }
  if (frac.length > decimals) throw new InvalidInputError(`more than ${decimals} decimal places`);
  const magnitude = BigInt(intPart) * scale + (frac === '' ? 0n : BigInt(frac.padEnd(decimals, '0')));
  return sign === '-' ? -magnitude : magnitude;
}

/**
 * Base units -> whole units as a decimal string with trailing fractional zeros trimmed:
 * fromBaseUnits(1500000n, 6) = "1.5", fromBaseUnits(2000000n, 6) = "2".
 */
export function fromBaseUnits(base: bigint, decimals: number): string {
  const scale = checkDecimals(decimals);
  if (typeof base !== 'bigint') throw new InvalidInputError('amount must be a bigint');
  const negative = base < 0n;
  const abs = negative ? -base : base;
  const intPart = (abs / scale).toString();
  const frac = decimals === 0 ? '' : (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return (negative ? '-' : '') + intPart + (frac ? '.' + frac : '');
}
