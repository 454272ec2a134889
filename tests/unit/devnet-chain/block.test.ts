import { fromHex, toHex } from '@cosmjs/encoding';
import { utf8Encode } from '../../../src/lib/bytes';
import {
  blockTimeFromMs,
  commitHash,
  consensusHash,
  dataHash,
  DEFAULT_CONSENSUS_PARAMS,
  EMPTY_COMMIT,
  headerHash,
  Header,
  partSetHeader,
  resultsHash,
} from '../../../devnet/chain/block';
import { addressHash, merkleProof, merkleRoot, sha256, innerHash, leafHash } from '../../../devnet/chain/hashing';

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('CometBFT hashes', () => {
  // cometbft v0.38.x types/block_test.go TestHeaderHash "Generates expected hash"
  it('reproduces the TestHeaderHash vector', () => {
    const tm = (s: string) => sha256(utf8Encode(s));
    const header: Header = {
      version: { block: 1n, app: 2n },
      chainId: 'chainId',
      height: 3n,
      time: blockTimeFromMs(Date.UTC(2019, 9, 13, 16, 14, 44)),
      lastBlockId: { hash: new Uint8Array(32), parts: { total: 6, hash: new Uint8Array(32) } },
      lastCommitHash: tm('last_commit_hash'),
      dataHash: tm('data_hash'),
      validatorsHash: tm('validators_hash'),
      nextValidatorsHash: tm('next_validators_hash'),
      consensusHash: tm('consensus_hash'),
      appHash: tm('app_hash'),
      lastResultsHash: tm('last_results_hash'),
      evidenceHash: tm('evidence_hash'),
      proposerAddress: addressHash(utf8Encode('proposer_address')),
    };
    expect(toHex(headerHash(header)).toUpperCase()).toBe(
      'F740121F553B5418C3EFBD343C2DBFE9E007BB67B0D020A0741374BAB65242A4',
    );
  });

  it('hashes empty lists to sha256("") as CometBFT does', () => {
    expect(toHex(dataHash([]))).toBe(EMPTY_SHA256);
    expect(toHex(resultsHash([]))).toBe(EMPTY_SHA256);
    expect(toHex(commitHash(EMPTY_COMMIT))).toBe(EMPTY_SHA256);
  });

  it('consensus hash of the SDK default params', () => {
    // HashedParams{block_max_bytes: 22020096, block_max_gas: -1}
    // the consensus_hash every Cosmos SDK chain with default block params shows in its headers
    expect(toHex(consensusHash(DEFAULT_CONSENSUS_PARAMS)).toUpperCase()).toBe(
      '048091BC7DDC283F77BFBF91D73C44DA58C3DF8A9CBC867405D8B7F3DAADA22F',
    );
  });

  it('Merkle root follows RFC 6962 (split at the largest power of two below n)', () => {
    const items = [1, 2, 3, 4, 5].map((i) => Uint8Array.of(i));
    const l = (i: number) => leafHash(items[i]);
    const expected = innerHash(innerHash(innerHash(l(0), l(1)), innerHash(l(2), l(3))), l(4));
    expect(toHex(merkleRoot(items))).toBe(toHex(expected));
  });

  it('Merkle proofs recompute the root', () => {
    const items = [1, 2, 3, 4, 5, 6, 7].map((i) => Uint8Array.of(i));
    for (let i = 0; i < items.length; i++) {
      const { root, proof } = merkleProof(items, i);
      expect(toHex(root)).toBe(toHex(merkleRoot(items)));
      expect(proof.total).toBe(7);
      expect(toHex(proof.leafHash)).toBe(toHex(leafHash(items[i])));
    }
  });

  it('part set header splits blocks into 64 KiB parts', () => {
    expect(partSetHeader(new Uint8Array(100)).total).toBe(1);
    const big = partSetHeader(new Uint8Array(65536 * 2 + 1));
    expect(big.total).toBe(3);
    expect(fromHex(toHex(big.hash))).toHaveLength(32);
  });
});
