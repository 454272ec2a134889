/**
 * Request parameters as the routes use them. The document (openapi.yaml) is what refuses a
 * malformed parameter, before a route runs (src/http/openapi-params.ts); these convert the values
 * it accepted (text to numbers, a hash's case, a status's short form to its enum name, an address
 * spelling to bech32) and keep the refusals no schema can state (an address checksum), each an
 * InvalidInputError (400 bad_request) raised before any query.
 */
import { InvalidInputError } from '../../src/lib/errors';
import { AccountAddress, parseAccountAddress } from '../../src/lib/address';
import { DEFAULT_PAGE_LIMIT } from '../paging/limits';

const MAX_UINT64 = 0xffffffffffffffffn;

const BYTES32_RE = /^0x[0-9a-fA-F]{64}$/;
const EVM_ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
/** 12 zero bytes: a 20-byte EVM key as a 0x bytes32 remote party (left-padded) */
const BYTES32_KEY_PAD = '0'.repeat(24);
/** Query values as Express's simple parser gives them (a repeated key becomes an array). */
export type QueryValues = Record<string, unknown>;

/**
 * The single value of a known query parameter; undefined when absent. A parameter given
 * more than once is a 400 (which one would win is ambiguous). For /v1/stream, which counts its
 * filters before the document's check; a contract route's values were checked before it runs.
 */
export function queryValue<Q extends QueryValues>(query: Q, name: keyof Q & string): string | undefined {
  const v: unknown = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new InvalidInputError(`query parameter ${name} given more than once`);
  return v;
}

/**
 * Whether a value can be stored in a PostgreSQL text column at all: a NUL character cannot, so a
 * free-text id or filter holding one names nothing the store has (and must not reach SQL, where
 * it is an encoding error).
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000');
}

/** `limit` (the document's integer 1..100), `fallback` when absent. */
export function parseLimit(raw: string | undefined, fallback: number = DEFAULT_PAGE_LIMIT): number {
  return raw === undefined ? fallback : Number(raw);
}

/** Path `height` (the document's non-negative integer) as bigint: a huge height is well formed (and 404). */
export function parseHeight(raw: string): bigint {
  return BigInt(raw);
}

/** Path `kind` (the document's uint32). */
export function parseKindId(raw: string): number {
  return Number(raw);
}

/**
 * Path id of a settlement, encumbrance or delegation (the document's uint64) in canonical decimal,
 * the stored id. Its bound is checked exactly here: the document's maximum is a JSON number,
 * which cannot tell 2^64 - 1 from the few integers just above it.
 */
export function parseNumericId(raw: string): string {
  const id = BigInt(raw);
  if (id > MAX_UINT64) throw new InvalidInputError('id is out of range');
  return id.toString();
}

export type TxHashQuery = { kind: 'consensus'; hash: string } | { kind: 'eth'; hash: string };

/** Path tx hash: 64 hex (answered upper-case) or 0x + 64 hex (an eth hash, lower-case). */
export function parseTxHash(raw: string): TxHashQuery {
  return raw.startsWith('0x')
    ? { kind: 'eth', hash: raw.toLowerCase() }
    : { kind: 'consensus', hash: raw.toUpperCase() };
}

/** An account in any accepted spelling (bech32 of the chain, or 0x with EIP-55 when mixed case). */
export function parseAddressParam(raw: string, hrp: string): AccountAddress {
  return parseAccountAddress(raw, hrp); // throws InvalidInputError with the precise reason
}

/** Settlements `status` filter: an enum name, or its short lower-case form (`pending`) as that name. */
export function parseSettlementStatus(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  return raw.startsWith('STATUS_') ? raw : `STATUS_${raw.toUpperCase()}`;
}

/** Bridge `message_id` filter, compared lower-case. */
export function parseMessageId(raw: string | undefined): string | undefined {
  return raw?.toLowerCase();
}

/** An optional account filter (`party`, `account`): canonical bech32. */
export function parseAccountFilter(raw: string | undefined, hrp: string, name: string): string | undefined {
  if (raw === undefined) return undefined;
  try {
    return parseAccountAddress(raw, hrp).bech32;
  } catch (e) {
    throw new InvalidInputError(`${name}: ${(e as Error).message}`);
  }
}

/**
 * Bridge transfers `account` filter (openapi.yaml, listBridgeTransfers `account`): the stored
 * sender/recipient spellings that name the party, each compared exactly (an indexed equality).
 * - bech32: the local account (canonical bech32).
 * - 0x + 40 hex (EIP-55 checked when mixed case): the local account of that key (bech32) and the
 *   remote party whose 0x bytes32 is the key left-padded with 12 zero bytes, in lower-case hex.
 * - 0x + 64 hex: a remote party, in lower-case hex (the form the bridge events carry) and, when
 *   different, as written (a rejected attempt keeps its MsgBridgeOut recipient as sent).
 */
export function parseTransferAccount(raw: string | undefined, hrp: string): string[] | undefined {
  if (raw === undefined) return undefined;
  if (BYTES32_RE.test(raw)) {
    const lower = '0x' + raw.slice(2).toLowerCase();
    return lower === raw ? [lower] : [lower, raw];
  }
  const local = parseAccountFilter(raw, hrp, 'account') as string;
  if (!EVM_ADDRESS_RE.test(raw)) return [local];
  return [local, '0x' + BYTES32_KEY_PAD + raw.slice(2).toLowerCase()];
}
