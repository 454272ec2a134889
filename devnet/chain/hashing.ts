/**
 * Hash primitives of CometBFT: SHA-256 ("tmhash") and the RFC 6962 simple
 * Merkle tree of crypto/merkle (leaf = sha256(0x00 ‖ item), inner =
 * sha256(0x01 ‖ left ‖ right), split at the largest power of two below n,
 * empty tree = sha256("")).
 */
import { sha256 } from '@noble/hashes/sha2';
import { ripemd160 } from '@noble/hashes/legacy';
import { bytesToHex } from '../../src/lib/bytes';

export { sha256 };

const LEAF_PREFIX = Uint8Array.of(0);
const INNER_PREFIX = Uint8Array.of(1);

function hashConcat(...parts: Uint8Array[]): Uint8Array {
  const h = sha256.create();
  for (const p of parts) h.update(p);
  return h.digest();
}

export function leafHash(leaf: Uint8Array): Uint8Array {
  return hashConcat(LEAF_PREFIX, leaf);
}

export function innerHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return hashConcat(INNER_PREFIX, left, right);
}

/** Largest power of two strictly less than n (n >= 2), CometBFT's getSplitPoint. */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** merkle.HashFromByteSlices */
export function merkleRoot(items: readonly Uint8Array[]): Uint8Array {
  if (items.length === 0) return sha256(new Uint8Array(0));
  if (items.length === 1) return leafHash(items[0]);
  const k = splitPoint(items.length);
  return innerHash(merkleRoot(items.slice(0, k)), merkleRoot(items.slice(k)));
}

export interface MerkleProof {
  total: number;
  index: number;
  leafHash: Uint8Array;
  /** sibling hashes from the leaf upwards */
  aunts: Uint8Array[];
}

/** merkle.ProofsFromByteSlices for one index: the root and the proof of item `index`. */
export function merkleProof(items: readonly Uint8Array[], index: number): { root: Uint8Array; proof: MerkleProof } {
  const aunts: Uint8Array[] = [];
  const walk = (slice: readonly Uint8Array[], i: number): Uint8Array => {
    if (slice.length === 1) return leafHash(slice[0]);
    const k = splitPoint(slice.length);
    const left = slice.slice(0, k);
    const right = slice.slice(k);
    if (i < k) {
      const l = walk(left, i);
      const r = merkleRoot(right);
      aunts.push(r);
      return innerHash(l, r);
    }
    const l = merkleRoot(left);
    const r = walk(right, i - k);
    aunts.push(l);
    return innerHash(l, r);
  };
  if (index < 0 || index >= items.length) throw new RangeError('merkle proof index out of range');
  const root = walk(items, index);
  return { root, proof: { total: items.length, index, leafHash: leafHash(items[index]), aunts } };
}

/** Upper-case hex, CometBFT's HexBytes JSON form. */
export function upperHex(bytes: Uint8Array): string {
  return bytesToHex(bytes).toUpperCase();
}

/** Consensus hash of a tx: upper-case hex SHA-256 of the TxRaw bytes. */
export function txHashHex(txBytes: Uint8Array): string {
  return upperHex(sha256(txBytes));
}

/** Cosmos secp256k1 account address bytes: ripemd160(sha256(compressed pubkey)). */
export function secp256k1AddressBytes(compressedPubKey: Uint8Array): Uint8Array {
  return ripemd160(sha256(compressedPubKey));
}

/** CometBFT ed25519 address: first 20 bytes of sha256(pubkey) (crypto.AddressHash). */
export function addressHash(bytes: Uint8Array): Uint8Array {
  return sha256(bytes).slice(0, 20);
}
