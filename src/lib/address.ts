/**
 * Account addresses.
 *
 * An account is a 20-byte key (secp256k1/eth_secp256k1 accounts) or a 32-byte
 * derived module account (ADR-028). The same 20-byte key has two spellings:
 * bech32 `<hrp>1…` and EVM `0x…` (EIP-55 checksummed when mixed case).
 * Canonical output is always the lower-case bech32 form.
 *
 * EIP-55 is computed here with keccak-256 from @noble/hashes (no ethers at runtime,
 * which keeps the mapping bundle small); tests cross-check it against ethers.getAddress.
 */
import { bech32 } from 'bech32';
import { sha256 } from '@noble/hashes/sha2';
import { keccak_256 } from '@noble/hashes/sha3';
import { InvalidInputError } from './errors';
import { DEFAULT_CHAIN_CONFIG } from './config';
import { bytesToHex, concatBytes, hexToBytes, isByteArrayLike, toUint8Array, utf8Encode } from './bytes';

/** Byte length of a key-derived account (and of an EVM address). */
export const ACCOUNT_KEY_LENGTH = 20;
/** Byte length of an ADR-028 derived (module) account. */
export const MODULE_ACCOUNT_LENGTH = 32;

/** Result of parsing any accepted address spelling. */
export interface AccountAddress {
  /** canonical lower-case bech32 */
  bech32: string;
  /** EIP-55 form of the same 20-byte key; null for 32-byte module accounts */
  evm: string | null;
  /** raw address bytes (20 or 32) */
  bytes: Uint8Array;
}

const EVM_RE = /^0x[0-9a-fA-F]{40}$/;
// BIP-173 caps a bech32 string at 90 characters; 32 bytes with a 20-char hrp need 79.
const BECH32_LIMIT = 90;

function assertAccountLength(bytes: Uint8Array): void {
  if (bytes.length !== ACCOUNT_KEY_LENGTH && bytes.length !== MODULE_ACCOUNT_LENGTH) {
    throw new InvalidInputError(`address must be ${ACCOUNT_KEY_LENGTH} or ${MODULE_ACCOUNT_LENGTH} bytes`);
  }
}

// ---------------------------------------------------------------- EIP-55

/** EIP-55 checksummed `0x` form of 20 address bytes (or of a 0x/bare 40-hex string, any case). */
export function toChecksumAddress(address: ArrayLike<number> | string): string {
  let lower: string;
  if (typeof address === 'string') {
    const body = address.startsWith('0x') || address.startsWith('0X') ? address.slice(2) : address;
    lower = bytesToHex(hexToBytes(body, ACCOUNT_KEY_LENGTH));
  } else {
    const bytes = toUint8Array(address);
    if (bytes.length !== ACCOUNT_KEY_LENGTH) throw new InvalidInputError('EVM address must be 20 bytes');
    lower = bytesToHex(bytes);
  }
  // EIP-55: hash the ASCII of the lower-case hex; upper-case a letter when its hash nibble >= 8.
  const hash = keccak_256(utf8Encode(lower));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return out;
}

/**
 * Parses `0x` + 40 hex. All-lower and all-upper hex carry no checksum and are
 * accepted; mixed case must be a valid EIP-55 checksum. Returns the 20 bytes.
 */
export function parseEvmAddress(input: string): Uint8Array {
  if (typeof input !== 'string' || !EVM_RE.test(input)) throw new InvalidInputError('invalid 0x address');
  const body = input.slice(2);
  const bytes = hexToBytes(body, ACCOUNT_KEY_LENGTH);
  const unchecked = body === body.toLowerCase() || body === body.toUpperCase();
  if (!unchecked && toChecksumAddress(bytes) !== input) throw new InvalidInputError('invalid EIP-55 checksum');
  return bytes;
}

/** True when `input` is a `0x` address acceptable to `parseEvmAddress`. */
export function isEvmAddress(input: string): boolean {
  try {
    parseEvmAddress(input);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- bech32

/**
 * Decodes a bech32 account address (all-lower or all-upper per BIP-173) of 20 or 32
 * bytes. When `hrp` is given the prefix must match it.
 */
export function decodeBech32Address(input: string, hrp?: string): { hrp: string; bytes: Uint8Array } {
  if (typeof input !== 'string') throw new InvalidInputError('invalid bech32 address');
  const decoded = bech32.decodeUnsafe(input, BECH32_LIMIT);
  if (!decoded) throw new InvalidInputError('invalid bech32 address');
  if (hrp !== undefined && decoded.prefix !== hrp.toLowerCase()) {
    throw new InvalidInputError(`address prefix must be "${hrp.toLowerCase()}"`);
  }
  const data = bech32.fromWordsUnsafe(decoded.words);
  if (!data) throw new InvalidInputError('invalid bech32 address padding');
  const bytes = Uint8Array.from(data);
  assertAccountLength(bytes);
  return { hrp: decoded.prefix, bytes };
}

/** Lower-case bech32 of 20- or 32-byte address bytes, or of a `0x` address. */
export function toBech32(address: ArrayLike<number> | string, hrp: string = DEFAULT_CHAIN_CONFIG.hrp): string {
  const bytes = typeof address === 'string' ? parseEvmAddress(address) : toUint8Array(address);
  assertAccountLength(bytes);
  return bech32.encode(hrp.toLowerCase(), bech32.toWords(bytes), BECH32_LIMIT);
}

/** EIP-55 `0x` form of a 20-byte account given as bech32 or bytes; 32-byte accounts have none. */
export function toEvmAddress(address: string | ArrayLike<number>, hrp: string = DEFAULT_CHAIN_CONFIG.hrp): string {
  const bytes = typeof address === 'string' ? decodeBech32Address(address, hrp).bytes : toUint8Array(address);
  if (bytes.length !== ACCOUNT_KEY_LENGTH) throw new InvalidInputError('only 20-byte accounts have an EVM address');
  return toChecksumAddress(bytes);
}

/**
 * Parses any accepted account spelling (openapi.yaml, "AccountAddress"):
 * bech32 with the configured prefix (20 or 32 bytes), or `0x` + 40 hex with the
 * EIP-55 rule of `parseEvmAddress`. No trimming: surrounding whitespace is rejected.
 */
export function parseAccountAddress(input: string, hrp: string = DEFAULT_CHAIN_CONFIG.hrp): AccountAddress {
  if (typeof input !== 'string') throw new InvalidInputError('invalid address');
  const bytes = input.startsWith('0x') ? parseEvmAddress(input) : decodeBech32Address(input, hrp).bytes;
  return {
    bech32: toBech32(bytes, hrp),
    evm: bytes.length === ACCOUNT_KEY_LENGTH ? toChecksumAddress(bytes) : null,
    bytes,
  };
}

/** Like `parseAccountAddress` but returns null instead of throwing (for shape dispatch). */
export function tryParseAccountAddress(input: string, hrp: string = DEFAULT_CHAIN_CONFIG.hrp): AccountAddress | null {
  try {
    return parseAccountAddress(input, hrp);
  } catch {
    return null;
  }
}

/** Canonical lower-case bech32 of any accepted spelling; throws InvalidInputError otherwise. */
export function canonicalAddress(input: string, hrp: string = DEFAULT_CHAIN_CONFIG.hrp): string {
  return parseAccountAddress(input, hrp).bech32;
}

// ---------------------------------------------------------------- module accounts

function bytesOrUtf8(x: string | ArrayLike<number>): Uint8Array {
  return typeof x === 'string' ? utf8Encode(x) : toUint8Array(x);
}

/**
 * ADR-028 `address.Hash(typ, key)` = sha256( sha256(typ) ‖ key ), 32 bytes.
 * `typ` is a string in the SDK; `deriveAddress` passes an address's raw bytes as typ,
 * as the SDK's `Derive` does through an unsafe bytes->string cast.
 */
export function addressHash(typ: string | ArrayLike<number>, key: ArrayLike<number>): Uint8Array {
  const typHash = sha256(bytesOrUtf8(typ));
  return sha256(concatBytes(typHash, toUint8Array(key)));
}

/** ADR-028 `address.Derive(address, key)` = Hash(address bytes as typ, key). */
export function deriveAddress(address: ArrayLike<number>, key: ArrayLike<number>): Uint8Array {
  return addressHash(toUint8Array(address), key);
}

/**
 * 32-byte module-derived account address following ADR-028.
 *
 * With derivation keys it is exactly the Cosmos SDK's
 * `address.Module(moduleName, k0, k1, …)`:
 *   addr = Hash("module", utf8(moduleName) ‖ 0x00 ‖ k0), then addr = Derive(addr, ki) for i ≥ 1.
 * (The 0x00 separator keeps "ab"+"c" and "a"+"bc" apart.)
 *
 * Without derivation keys it returns ADR-028 `Hash("module", utf8(moduleName))`, i.e.
 * sha256( sha256("module") ‖ utf8(moduleName) ), a 32-byte address. Note that SDK ≥ 0.47
 * `address.Module(name)` with no keys returns the legacy 20-byte address instead; that one is
 * `legacyModuleAddress(name)` here, and it is what the chain's own module accounts use.
 */
export function moduleAccountAddress(moduleName: string, ...derivationKeys: ArrayLike<number>[]): Uint8Array {
  if (typeof moduleName !== 'string' || moduleName.length === 0) throw new InvalidInputError('module name required');
  const name = utf8Encode(moduleName);
  if (derivationKeys.length === 0) return addressHash('module', name);
  let addr = addressHash('module', concatBytes(name, Uint8Array.of(0), toUint8Array(derivationKeys[0])));
  for (const k of derivationKeys.slice(1)) addr = deriveAddress(addr, k);
  return addr;
}

/**
 * Classic module account address, `authtypes.NewModuleAddress(name)` =
 * first 20 bytes of sha256(utf8(name)) (e.g. the fee collector, "fee_collector").
 */
export function legacyModuleAddress(moduleName: string): Uint8Array {
  if (typeof moduleName !== 'string' || moduleName.length === 0) throw new InvalidInputError('module name required');
  return sha256(utf8Encode(moduleName)).slice(0, ACCOUNT_KEY_LENGTH);
}

/** True for byte input acceptable as an account address (20 or 32 bytes, any realm). */
export function isAccountBytes(x: unknown): boolean {
  return isByteArrayLike(x) && (x.length === ACCOUNT_KEY_LENGTH || x.length === MODULE_ACCOUNT_LENGTH);
}
