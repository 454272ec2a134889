/** Small conversions from typed-event proto-JSON values to entity values. */
import { decodeBech32Address, toBech32, toChecksumAddress } from '../../lib/address';
import { loadChainConfig } from '../../lib/config';
import type { AnyJson } from '../../types';

/** A proto-JSON integer (string for 64-bit/amounts, number for 32-bit) as bigint; '' / null -> 0n. */
export function big(v: unknown): bigint {
  if (v === undefined || v === null || v === '') return 0n;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  return BigInt(String(v));
}

/** A proto-JSON 32-bit integer as number. */
export function int(v: unknown): number {
  if (v === undefined || v === null || v === '') return 0;
  return Number(v);
}

export function str(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

/** RFC 3339 proto-JSON Timestamp -> Date; null/empty -> undefined. */
export function date(v: unknown): Date | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const d = new Date(String(v));
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** `PREFIX_NAME` enum name without its prefix, lower-cased (ENCUMBRANCE_KIND_PLEDGE -> pledge). */
export function enumShort(v: unknown, prefix: string, lower = true): string {
  const s = str(v);
  const short = s.startsWith(prefix) ? s.slice(prefix.length) : s;
  return lower ? short.toLowerCase() : short;
}

/**
 * Ordering key of (height, tx_index, event_index): height * 10^10 + (tx_index + 1) * 10^5 + (event_index + 1).
 * tx_index / event_index -1 (block-level, "no event") map to 0. See schema.graphql.
 */
export function seqOf(height: number, txIndex: number, eventIndex: number): bigint {
  return BigInt(height) * 10_000_000_000n + BigInt(txIndex + 1) * 100_000n + BigInt(eventIndex + 1);
}

// The sandbox may not define `process`; fall back to the devnet defaults.
const chainConfig = loadChainConfig(typeof process !== 'undefined' && process.env ? process.env : {});

export const HRP = chainConfig.hrp;

/** EIP-55 form of a 20-byte bech32 account; null for 32-byte module accounts or invalid input. */
export function evmAddressOf(bech32: string): string | null {
  try {
    const { bytes } = decodeBech32Address(bech32);
    return bytes.length === 20 ? toChecksumAddress(bytes) : null;
  } catch {
    return null;
  }
}

/** bech32 account of a 0x address; null when invalid. */
export function bech32OfEvm(address: string | null | undefined): string | null {
  if (!address) return null;
  try {
    return toBech32(address.toLowerCase(), HRP);
  } catch {
    return null;
  }
}

/** A proto-JSON message value for a Json column (undefined when unset). */
export function jsonValue(v: object | null | undefined): AnyJson | undefined {
  return v === null || v === undefined ? undefined : (v as unknown as AnyJson);
}
