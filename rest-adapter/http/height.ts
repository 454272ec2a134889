/**
 * `?height=H` (openapi.yaml `#/components/parameters/Height`): the answer as the path gave it when
 * the index stood at H. H must be a base-10 integer in the kept range, first kept height ..
 * indexed height (everything the index wrote is kept: docs/rest-adapter.md, "State at a past
 * height"). The document types the parameter as text so that every refusal can name the kept
 * range, which only the store knows; this is where it is refused (400 bad_request).
 */
import { InvalidInputError } from '../../src/lib/errors';

/** The heights an answer can be asked at: [from, to]; empty (to < from) before the first block. */
export interface KeptRange {
  from: number;
  to: number;
}

const DIGITS = /^[0-9]+$/;

function rangeText(range: KeptRange): string {
  return range.to < range.from ? 'none is kept yet' : `the kept range is ${range.from}..${range.to}`;
}

/**
 * Whether the request asks for a past height: the raw `height` text when it does, undefined for
 * the head (absent). An empty value is a height that is not an integer.
 */
export function heightAsked(query: { height?: unknown }): string | undefined {
  const raw = query.height;
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw new InvalidInputError('query parameter height given more than once');
  return raw;
}

/** The height `raw` names, if it is in `range`; else InvalidInputError with a message naming the range. */
export function checkHeight(raw: string, range: KeptRange): number {
  if (!DIGITS.test(raw)) throw new InvalidInputError(`height must be a non-negative integer; ${rangeText(range)}`);
  const h = BigInt(raw);
  if (h > BigInt(range.to)) throw new InvalidInputError(`height ${h} is above the indexed height; ${rangeText(range)}`);
  if (h < BigInt(range.from)) throw new InvalidInputError(`height ${h} is below what is kept; ${rangeText(range)}`);
  return Number(h);
}
