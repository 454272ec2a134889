/**
 * Derived identifiers: asset ids and token-precompile addresses.
 *
 * Byte encodings (the chain computes the same bytes; any change is a breaking change):
 *
 *   asset_id     = hex( SHA-256( "svc/asset/v1" ‖ issuer ‖ uint64_be(n) ) )
 *   svc20 (kind) = EIP-55( last20( keccak256( "svc/right/v1" ‖ asset_id ‖ uint32_be(kind_id) ) ) )
 *   bundle token = EIP-55( last20( keccak256( "svc/bundle/v1" ‖ asset_id ) ) )
 *
 * where
 *   - the domain-separation prefixes are their UTF-8 (ASCII) bytes, with no length
 *     prefix and no terminator;
 *   - issuer is the 20 raw address bytes (decoded from bech32, or from the 0x form);
 *   - n is the number of assets the issuer created before, as uint64 big-endian (8 bytes);
 *   - asset_id is its 32 raw bytes (decoded from the 64-hex id);
 *   - kind_id is uint32 big-endian (4 bytes);
 *   - hex output is lower case; addresses are EIP-55 checksummed.
 *
 * Preimage lengths: asset 12+20+8 = 40 bytes, right 12+32+4 = 48 bytes, bundle 13+32 = 45 bytes.
 */
import { sha256 } from '@noble/hashes/sha2';
import { keccak_256 } from '@noble/hashes/sha3';
import { InvalidInputError } from './errors';
import { DEFAULT_CHAIN_CONFIG } from './config';
import { ACCOUNT_KEY_LENGTH, parseAccountAddress, toChecksumAddress } from './address';
import { bytesToHex, concatBytes, hexToBytes, toUint8Array, uint32BE, uint64BE, utf8Encode } from './bytes';

export const ASSET_ID_DOMAIN = 'svc/asset/v1';
export const RIGHT_TOKEN_DOMAIN = 'svc/right/v1';
export const BUNDLE_TOKEN_DOMAIN = 'svc/bundle/v1';

const ASSET_ID_RE = /^[0-9a-f]{64}$/;
const MAX_KIND_ID = 0xffffffff;

/** True for a well-formed asset id: exactly 64 lower-case hex characters. */
export function isAssetId(s: unknown): s is string {
  return typeof s === 'string' && ASSET_ID_RE.test(s);
}

/** Returns `s` when it is a well-formed asset id; throws InvalidInputError otherwise. */
export function parseAssetId(s: unknown): string {
  if (!isAssetId(s)) throw new InvalidInputError('asset id must be 64 lower-case hex characters');
  return s;
}

/** True for a kind id encodable as uint32. */
export function isKindId(k: unknown): k is number {
  return typeof k === 'number' && Number.isInteger(k) && k >= 0 && k <= MAX_KIND_ID;
}

function issuerBytes(issuer: string | ArrayLike<number>, hrp: string): Uint8Array {
  const bytes = typeof issuer === 'string' ? parseAccountAddress(issuer, hrp).bytes : toUint8Array(issuer);
  if (bytes.length !== ACCOUNT_KEY_LENGTH) throw new InvalidInputError('issuer must be a 20-byte account');
  return bytes;
}

/** The 40-byte SHA-256 preimage of an asset id (exposed for documentation and tests). */
export function assetIdPreimage(
  issuer: string | ArrayLike<number>,
  n: bigint,
  hrp: string = DEFAULT_CHAIN_CONFIG.hrp,
): Uint8Array {
  return concatBytes(utf8Encode(ASSET_ID_DOMAIN), issuerBytes(issuer, hrp), uint64BE(n));
}

/**
 * Asset id of the issuer's n-th asset (n = assets the issuer created before, 0-based).
 * Known before the asset exists. Rejects n outside [0, 2^64).
 */
export function deriveAssetId(
  issuer: string | ArrayLike<number>,
  n: bigint,
  hrp: string = DEFAULT_CHAIN_CONFIG.hrp,
): string {
  return bytesToHex(sha256(assetIdPreimage(issuer, n, hrp)));
}

/** The 48-byte keccak preimage of a right-token (svc20) address. */
export function rightTokenPreimage(assetIdHex: string, kindId: number): Uint8Array {
  if (!isKindId(kindId)) throw new InvalidInputError('kind id must be a uint32');
  return concatBytes(utf8Encode(RIGHT_TOKEN_DOMAIN), hexToBytes(parseAssetId(assetIdHex), 32), uint32BE(kindId));
}

/** The 45-byte keccak preimage of a bundle-token address. */
export function bundleTokenPreimage(assetIdHex: string): Uint8Array {
  return concatBytes(utf8Encode(BUNDLE_TOKEN_DOMAIN), hexToBytes(parseAssetId(assetIdHex), 32));
}

// An EVM address is the low-order 20 bytes of the 32-byte keccak digest.
function addressFromDigest(digest: Uint8Array): string {
  return toChecksumAddress(digest.slice(digest.length - ACCOUNT_KEY_LENGTH));
}

/** Right-token precompile address of (asset, kind) — the Kind `svc20_address`. */
export function rightTokenAddress(assetIdHex: string, kindId: number): string {
  return addressFromDigest(keccak_256(rightTokenPreimage(assetIdHex, kindId)));
}

/** Bundle-token precompile address of an asset — the Asset `bundle_address`. */
export function bundleTokenAddress(assetIdHex: string): string {
  return addressFromDigest(keccak_256(bundleTokenPreimage(assetIdHex)));
}
