/**
 * What a message handler, a block hook or a query sees, plus the small
 * conversions every module needs (addresses, amounts, timestamps, events).
 */
import { typedEventAttributes, parseRfc3339, timestampToRfc3339 } from '../../src/lib/contract';
import { decodeBech32Address, parseAccountAddress, toBech32, legacyModuleAddress } from '../../src/lib/address';
import { tryParseAmount } from '../../src/lib/amount';
import { isAssetId } from '../../src/lib/ids';
import type { ChainConfig } from '../../src/lib/config';
import type { AbciEvent } from './types';
import type { KvReader, KvWriter } from './store';
import { AppError, sdkErrors } from './errors';

/** Static configuration of one app instance. */
export interface AppConfig {
  chain: ChainConfig;
  /** application version (abci_info); decides which features exist */
  version: string;
  /** may create routes, pause/resume them and relay inbound transfers */
  bridgeAuthority: string;
  /** extra accounts allowed to relay MsgBridgeIn */
  bridgeRelayers: readonly string[];
  /** emit svc.evm.v1.EventEthereumTxExecuted beside the ethereum_tx event (false: as Cosmos EVM chains do) */
  evmOutcomeEvent: boolean;
}

/** Execution environment of one message (or one block hook). */
export interface Env {
  kv: KvWriter;
  height: number;
  timeMs: number;
  /** consensus hash of the tx; null in Begin/EndBlock */
  txHash: string | null;
  txIndex: number;
  /** events emitted so far (typed and SDK events, in order) */
  events: AbciEvent[];
  config: AppConfig;
}

/** Read-only environment of a query (state at one height). */
export interface QueryEnv {
  kv: KvReader;
  height: number;
  config: AppConfig;
}

// ------------------------------------------------------------------ events

/** Deep copy with bigint → decimal string (proto-JSON of amounts and 64-bit ints). */
export function wire<T>(value: T): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(wire);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (v !== undefined) out[k] = wire(v);
    return out;
  }
  return value;
}

/** Emits a typed event (Cosmos SDK convention, JSON-encoded proto-JSON values). */
export function emitTyped(env: Env, type: string, value: Record<string, unknown>): void {
  // the SDK's TypedEventToEvent sorts attribute keys
  const attributes = typedEventAttributes(type, wire(value) as Record<string, unknown>).sort((a, b) =>
    a.key < b.key ? -1 : 1,
  );
  env.events.push({ type, attributes });
}

/** Emits a plain SDK event with string attributes. */
export function emitPlain(env: Env, type: string, attributes: Record<string, string>): void {
  env.events.push({ type, attributes: Object.entries(attributes).map(([key, value]) => ({ key, value })) });
}

// ------------------------------------------------------------------ addresses

// Parsing an address is pure, so its result can be memoised; the cache only saves time.
const canonicalCache = new Map<string, string>();
const CANONICAL_CACHE_LIMIT = 200_000;

function canonicalBech32(value: string, hrp: string): string {
  const key = `${hrp}:${value}`;
  let canonical = canonicalCache.get(key);
  if (canonical === undefined) {
    canonical = value.startsWith('0x')
      ? parseAccountAddress(value, hrp).bech32
      : toBech32(decodeBech32Address(value, hrp).bytes, hrp);
    if (canonicalCache.size >= CANONICAL_CACHE_LIMIT) canonicalCache.clear();
    canonicalCache.set(key, canonical);
  }
  return canonical;
}

/** Canonical bech32 of an address field; sdk/7 when malformed. */
export function requireAddress(env: { config: AppConfig }, value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw sdkErrors.invalidAddress(`${field} is empty`);
  try {
    return canonicalBech32(value, env.config.chain.hrp);
  } catch (e) {
    throw sdkErrors.invalidAddress(`${field}: ${(e as Error).message}`);
  }
}

/** Like requireAddress but '' stays '' (optional address fields such as roles). */
export function optionalAddress(env: { config: AppConfig }, value: unknown, field: string): string {
  return value === '' || value === undefined || value === null ? '' : requireAddress(env, value, field);
}

const moduleAccountCache = new Map<string, string>();

/** bech32 of a classic 20-byte module account (sha256(name)[:20]). */
export function moduleAccount(config: { chain: { hrp: string } }, name: string): string {
  const key = `${config.chain.hrp}:${name}`;
  let address = moduleAccountCache.get(key);
  if (address === undefined)
    moduleAccountCache.set(key, (address = toBech32(legacyModuleAddress(name), config.chain.hrp)));
  return address;
}

// ------------------------------------------------------------------ amounts and ids

/** A strictly positive amount from its decimal string; `onError` builds the module error. */
export function positiveAmount(value: unknown, onError: (detail: string) => AppError): bigint {
  const n = typeof value === 'string' ? tryParseAmount(value) : null;
  if (n === null || n <= 0n) throw onError(`expected a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

/** A non-negative amount ("0" allowed). */
export function nonNegativeAmount(value: unknown, onError: (detail: string) => AppError): bigint {
  const n = typeof value === 'string' ? tryParseAmount(value) : null;
  if (n === null) throw onError(`expected a non-negative integer, got ${JSON.stringify(value)}`);
  return n;
}

/** A uint64 id given as proto-JSON (string) or number, as a JS number (ids stay far below 2^53). */
export function idNumber(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : -1;
}

export function requireAssetId(value: unknown, onError: (detail: string) => AppError): string {
  if (!isAssetId(value)) throw onError(`asset_id must be 64 lower-case hex characters`);
  return value as string;
}

const HEX_RE = /^(?:[0-9a-f]{2})*$/;

/** Lower-case hex of `bytes` bytes (or empty when allowEmpty). */
export function requireHexHash(
  value: unknown,
  bytes: number,
  allowEmpty: boolean,
  onError: (d: string) => AppError,
): string {
  const s = typeof value === 'string' ? value.toLowerCase() : '';
  if (s === '' && allowEmpty) return '';
  if (!HEX_RE.test(s) || s.length !== bytes * 2) throw onError(`expected ${bytes} bytes of hex`);
  return s;
}

// ------------------------------------------------------------------ timestamps

/**
 * Unix milliseconds of a google.protobuf.Timestamp given as proto-JSON (RFC
 * 3339 string) or {seconds, nanos}; null when unset. Sub-millisecond nanos
 * are dropped (block times are milliseconds).
 */
export function timestampMs(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string') {
    const { seconds, nanos } = parseRfc3339(value);
    return seconds * 1000 + Math.floor(nanos / 1e6);
  }
  if (typeof value === 'object') {
    const { seconds, nanos } = value as { seconds?: unknown; nanos?: unknown };
    return Number(String(seconds ?? 0)) * 1000 + Math.floor(Number(nanos ?? 0) / 1e6);
  }
  throw sdkErrors.txDecode('invalid timestamp');
}

/** RFC 3339 (proto-JSON) of unix milliseconds; null stays null. */
export function rfc3339(ms: number | null): string | null {
  if (ms === null) return null;
  const seconds = Math.floor(ms / 1000);
  return timestampToRfc3339(seconds, (ms - seconds * 1000) * 1e6);
}

// ------------------------------------------------------------------ misc

/** Asserts that `address` signed the tx (the msg's signer field). */
export function requireSigner(signers: readonly string[], address: string, field: string): void {
  if (!signers.includes(address)) throw sdkErrors.unauthorized(`${field} ${address} did not sign the tx`);
}

/** Next value of a counter key (starting at 1). */
export function nextId(kv: KvWriter, key: string): number {
  const next = (kv.get<number>(key) ?? 0) + 1;
  kv.set(key, next);
  return next;
}

/** Numeric compare of "major.minor.patch" strings. */
export function versionAtLeast(version: string, min: string): boolean {
  const a = version.split('.').map((x) => parseInt(x, 10) || 0);
  const b = min.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}
