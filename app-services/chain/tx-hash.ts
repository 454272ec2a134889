/** The consensus hash of a tx: upper-case hex SHA-256 of its bytes, as CometBFT shows it. */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '../../src/lib/bytes';

export function txHash(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes)).toUpperCase();
}
