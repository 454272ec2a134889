/**
 * Request parameter parsing (openapi.yaml `x-design-choices` bad-request): every
 * malformed input is an InvalidInputError (400 bad_request) raised before any query.
 */
import { InvalidInputError } from '../../src/lib/errors';
import { AccountAddress, parseAccountAddress } from '../../src/lib/address';
import { isAssetId } from '../../src/lib/ids';
import { DEFAULT_PAGE_LIMIT, MAX_LIMIT } from '../paging/limits';

const MAX_UINT32 = 0xffffffffn;
const MAX_UINT64 = 0xffffffffffffffffn;

const DIGITS_RE = /^[0-9]+$/;
const CONSENSUS_HASH_RE = /^[0-9a-fA-F]{64}$/;
const ETH_HASH_RE = /^0x[0-9a-fA-F]{64}$/;
const METHOD_RE = /^\/[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$/;
const MESSAGE_ID_RE = /^0x[0-9a-fA-F]{64}$/;
const BYTES32_RE = /^0x[0-9a-fA-F]{64}$/;
const EVM_ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
/** 12 zero bytes: a 20-byte EVM key as a 0x bytes32 remote party (left-padded) */
const BYTES32_KEY_PAD = '0'.repeat(24);

/** Query values as Express's simple parser gives them (a repeated key becomes an array). */
export type QueryValues = Record<string, unknown>;

/**
 * The single value of a known query parameter; undefined when absent. A parameter given
 * more than once is a 400 (which one would win is ambiguous).
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

/** `limit`: a base-10 integer 1..100 (never clamped), `fallback` when absent. */
export function parseLimit(raw: string | undefined, fallback: number = DEFAULT_PAGE_LIMIT): number {
  if (raw === undefined) return fallback;
  const n = DIGITS_RE.test(raw) && raw.length <= 3 ? Number(raw) : NaN;
  if (!(n >= 1 && n <= MAX_LIMIT)) throw new InvalidInputError(`limit must be an integer between 1 and ${MAX_LIMIT}`);
  return n;
}

function parseUnsigned(raw: string, what: string, max: bigint): bigint {
  if (!DIGITS_RE.test(raw) || raw.length > 40) throw new InvalidInputError(`${what} must be a non-negative integer`);
  const v = BigInt(raw);
  if (v > max) throw new InvalidInputError(`${what} is out of range`);
  return v;
}

/** Path `height`: a non-negative integer. Returned as bigint: a huge height is well formed (and 404). */
export function parseHeight(raw: string): bigint {
  if (!DIGITS_RE.test(raw) || raw.length > 40) throw new InvalidInputError('height must be a non-negative integer');
  return BigInt(raw);
}

/** Path `kind`: a uint32. */
export function parseKindId(raw: string): number {
  return Number(parseUnsigned(raw, 'kind', MAX_UINT32));
}

/** Path id of a settlement, encumbrance or delegation: a uint64, returned in canonical decimal (the stored id). */
export function parseNumericId(raw: string): string {
  return parseUnsigned(raw, 'id', MAX_UINT64).toString();
}

/** Path asset id: 64 lower-case hex characters. */
export function parseAssetIdParam(raw: string, what = 'asset id'): string {
  if (!isAssetId(raw)) throw new InvalidInputError(`${what} must be 64 lower-case hex characters`);
  return raw;
}

export type TxHashQuery = { kind: 'consensus'; hash: string } | { kind: 'eth'; hash: string };

/** Path tx hash: 64 hex (any case, answered upper-case) or 0x + 64 hex (eth hash, lower-case). */
export function parseTxHash(raw: string): TxHashQuery {
  if (CONSENSUS_HASH_RE.test(raw)) return { kind: 'consensus', hash: raw.toUpperCase() };
  if (ETH_HASH_RE.test(raw)) return { kind: 'eth', hash: raw.toLowerCase() };
  throw new InvalidInputError('hash must be 64 hex characters or 0x + 64 hex characters');
}

/** An account in any accepted spelling (bech32 of the chain, or 0x with EIP-55 when mixed case). */
export function parseAddressParam(raw: string, hrp: string): AccountAddress {
  return parseAccountAddress(raw, hrp); // throws InvalidInputError with the precise reason
}

/** `method` filter: a type URL `/<pkg>.<Msg>`. */
export function parseMethod(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!METHOD_RE.test(raw)) throw new InvalidInputError('method must be a type URL of the form /<package>.<Msg>');
  return raw;
}

const SETTLEMENT_STATUSES: Readonly<Record<string, string>> = {
  STATUS_PENDING: 'STATUS_PENDING',
  STATUS_SETTLED: 'STATUS_SETTLED',
  STATUS_CANCELLED: 'STATUS_CANCELLED',
  STATUS_EXPIRED: 'STATUS_EXPIRED',
  pending: 'STATUS_PENDING',
  settled: 'STATUS_SETTLED',
  cancelled: 'STATUS_CANCELLED',
  expired: 'STATUS_EXPIRED',
};

/** Settlements `status` filter: the enum names or their short lower-case forms (openapi.yaml listSettlements `status`). */
export function parseSettlementStatus(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const status = Object.prototype.hasOwnProperty.call(SETTLEMENT_STATUSES, raw) ? SETTLEMENT_STATUSES[raw] : undefined;
  if (!status)
    throw new InvalidInputError(
      'status must be one of STATUS_PENDING, STATUS_SETTLED, STATUS_CANCELLED, STATUS_EXPIRED, pending, settled, cancelled, expired',
    );
  return status;
}

const TRANSFER_STATUSES = new Set(['in_flight', 'completed', 'rejected']);

/** Bridge transfers `status` filter. */
export function parseTransferStatus(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!TRANSFER_STATUSES.has(raw)) throw new InvalidInputError('status must be one of in_flight, completed, rejected');
  return raw;
}

/** Bridge `message_id` filter: 0x + 64 hex, compared lower-case. */
export function parseMessageId(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!MESSAGE_ID_RE.test(raw)) throw new InvalidInputError('message_id must be 0x + 64 hex characters');
  return raw.toLowerCase();
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

/** `asset` filter of /v1/invariants. */
export function parseAssetFilter(raw: string | undefined): string | undefined {
  return raw === undefined ? undefined : parseAssetIdParam(raw, 'asset');
}
