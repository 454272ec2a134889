/**
 * Shape dispatch of /v1/lookup/{q} (openapi.yaml lookup: the dispatch table), in the table's order.
 * Pure: what to look for, decided from the string alone. null = unrecognised shape (404).
 */
import {
  AccountAddress,
  parseEvmAddress,
  toBech32,
  toChecksumAddress,
  tryParseAccountAddress,
} from '../../src/lib/address';

export type LookupShape =
  | { shape: 'hex64'; assetId: string; txHash: string }
  | { shape: 'bech32'; account: AccountAddress }
  | { shape: 'evm'; account: AccountAddress }
  | { shape: 'ethHash'; ethHash: string }
  | { shape: 'integer'; value: bigint };

const HEX64_RE = /^[0-9a-fA-F]{64}$/;
const EVM_ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const ETH_HASH_RE = /^0x[0-9a-fA-F]{64}$/;
const INTEGER_RE = /^[0-9]+$/;

function evmAccount(q: string, hrp: string): AccountAddress | null {
  try {
    const bytes = parseEvmAddress(q); // a wrong EIP-55 checksum is an unrecognised shape
    return { bech32: toBech32(bytes, hrp), evm: toChecksumAddress(bytes), bytes };
  } catch {
    return null;
  }
}

export function lookupShape(q: string, hrp: string): LookupShape | null {
  if (HEX64_RE.test(q)) return { shape: 'hex64', assetId: q.toLowerCase(), txHash: q.toUpperCase() };
  if (!q.startsWith('0x')) {
    const account = tryParseAccountAddress(q, hrp);
    if (account) return { shape: 'bech32', account };
  }
  if (EVM_ADDRESS_RE.test(q)) {
    const account = evmAccount(q, hrp);
    return account ? { shape: 'evm', account } : null;
  }
  if (ETH_HASH_RE.test(q)) return { shape: 'ethHash', ethHash: q.toLowerCase() };
  if (INTEGER_RE.test(q)) return { shape: 'integer', value: BigInt(q) };
  return null;
}
