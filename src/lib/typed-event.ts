/**
 * Typed events, Cosmos SDK convention (`sdk.TypedEventToEvent`): the event type is the
 * message's full proto name, each attribute key is a proto field name (OrigName) and
 * each value is that field's proto-JSON, JSON-encoded — so a string field `asset_id`
 * has the attribute value `"\"ab…\""`.
 *
 * CometBFT / the SDK also add bookkeeping attributes that are not message fields:
 * `msg_index` on tx events and `mode` (BeginBlock/EndBlock, not JSON) on block events.
 * They are left out of the decoded object.
 */

import { InvalidInputError } from './errors';

export interface EventAttribute {
  key: string;
  value: string;
}

export interface TypedEventOptions {
  /** package prefixes whose events are typed (default ["svc."]) */
  packagePrefixes?: readonly string[];
}

export const DEFAULT_TYPED_EVENT_PREFIXES: readonly string[] = Object.freeze(['svc.']);

/** Attributes added by the SDK/CometBFT, never fields of the typed event. */
export const BOOKKEEPING_ATTRIBUTES: readonly string[] = Object.freeze(['msg_index', 'mode']);

// Full proto message name: dot-separated identifiers, at least package + message.
const PROTO_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/;
// Proto field name.
const FIELD_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when `type` is a full proto name under one of the typed-event package prefixes. */
export function isTypedEventType(type: unknown, opts: TypedEventOptions = {}): type is string {
  if (typeof type !== 'string' || !PROTO_NAME_RE.test(type)) return false;
  const prefixes = opts.packagePrefixes ?? DEFAULT_TYPED_EVENT_PREFIXES;
  return prefixes.some((p) => typeof p === 'string' && p.length > 0 && type.startsWith(p));
}

/**
 * Rebuilds the proto-JSON object of a typed event from its attributes:
 * `{ field: JSON.parse(value) }` in attribute order. Returns null (never throws) when
 * the type is not a typed event of a known package, an attribute is malformed, a key
 * repeats, or any non-bookkeeping value is not JSON — i.e. for any event the API must
 * report with `decoded: null`.
 */
export function decodeTypedEvent(
  type: string,
  attributes: readonly EventAttribute[],
  opts: TypedEventOptions = {},
): Record<string, unknown> | null {
  try {
    if (!isTypedEventType(type, opts) || !Array.isArray(attributes)) return null;
    const entries: [string, unknown][] = [];
    const seen = new Set<string>();
    for (const attr of attributes) {
      if (typeof attr !== 'object' || attr === null) return null;
      const { key, value } = attr as { key?: unknown; value?: unknown };
      if (typeof key !== 'string' || typeof value !== 'string') return null;
      if (BOOKKEEPING_ATTRIBUTES.includes(key)) continue;
      if (!FIELD_RE.test(key) || seen.has(key)) return null;
      seen.add(key);
      entries.push([key, JSON.parse(value)]);
    }
    // Object.fromEntries defines own properties, so a "__proto__" key cannot touch the prototype.
    return Object.fromEntries(entries);
  } catch {
    return null;
  }
}

/**
 * Inverse of `decodeTypedEvent` (used by the devnet to emit events): one attribute per
 * own enumerable key, in key order, value = JSON.stringify(field). BigInt values are
 * written as decimal strings, the proto-JSON form of 64-bit integers. Throws
 * InvalidInputError on a value JSON cannot represent (undefined, functions) or a field
 * named `msg_index`/`mode` (it would not survive decoding).
 */
export function encodeTypedEvent(type: string, obj: Record<string, unknown>): EventAttribute[] {
  if (typeof type !== 'string' || !PROTO_NAME_RE.test(type)) {
    throw new InvalidInputError(`not a proto message name: ${String(type)}`);
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj))
    throw new InvalidInputError('typed event must be an object');
  return Object.keys(obj).map((key) => {
    if (!FIELD_RE.test(key)) throw new InvalidInputError(`not a proto field name: ${key}`);
    // A field named like a bookkeeping attribute would vanish on decode: refuse it.
    if (BOOKKEEPING_ATTRIBUTES.includes(key)) throw new InvalidInputError(`reserved attribute name: ${key}`);
    const value = JSON.stringify(obj[key], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    if (value === undefined) throw new InvalidInputError(`field ${key} has no JSON form`);
    return { key, value };
  });
}
