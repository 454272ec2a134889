/**
 * CometBFT 0.38 block structures and their hashes, computed the way CometBFT
 * computes them (types/block.go, types/results.go, types/validator_set.go,
 * types/params.go, types/part_set.go), with cosmjs-types for the protobuf
 * encodings. Verified against CometBFT's TestHeaderHash vector
 * (tests/unit/devnet-chain/block.test.ts).
 */
import { BinaryWriter } from 'cosmjs-types/binary';
import { Consensus } from 'cosmjs-types/tendermint/version/types';
import { Timestamp } from 'cosmjs-types/google/protobuf/timestamp';
import {
  BlockID as PbBlockID,
  Commit as PbCommit,
  CommitSig as PbCommitSig,
  Header as PbHeader,
} from 'cosmjs-types/tendermint/types/types';
import { Block as PbBlock } from 'cosmjs-types/tendermint/types/block';
import { BlockIDFlag, SimpleValidator } from 'cosmjs-types/tendermint/types/validator';
import { HashedParams } from 'cosmjs-types/tendermint/types/params';
import { ExecTxResult } from 'cosmjs-types/tendermint/abci/types';
import { Ed25519 } from '@cosmjs/crypto';
import { sha512 } from '@noble/hashes/sha2';
import { utf8Encode } from '../../src/lib/bytes';
import { addressHash, merkleRoot, sha256 } from './hashing';

/** CometBFT block protocol version (version.BlockProtocol). */
export const BLOCK_PROTOCOL = 11n;
/** Size of a block part (types.BlockPartSizeBytes). */
export const BLOCK_PART_SIZE = 65536;

export interface PartSetHeader {
  total: number;
  hash: Uint8Array;
}

export interface BlockId {
  hash: Uint8Array;
  parts: PartSetHeader;
}

/** The zero BlockID: last_block_id of height 1. */
export const EMPTY_BLOCK_ID: BlockId = Object.freeze({
  hash: new Uint8Array(0),
  parts: Object.freeze({ total: 0, hash: new Uint8Array(0) }),
}) as BlockId;

/** A block time with nanosecond precision (the devnet uses whole milliseconds). */
export interface BlockTime {
  seconds: bigint;
  nanos: number;
}

export function blockTimeFromMs(ms: number): BlockTime {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`invalid block time ${ms}`);
  return { seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 };
}

export interface Header {
  version: { block: bigint; app: bigint };
  chainId: string;
  height: bigint;
  time: BlockTime;
  lastBlockId: BlockId;
  lastCommitHash: Uint8Array;
  dataHash: Uint8Array;
  validatorsHash: Uint8Array;
  nextValidatorsHash: Uint8Array;
  consensusHash: Uint8Array;
  appHash: Uint8Array;
  lastResultsHash: Uint8Array;
  evidenceHash: Uint8Array;
  proposerAddress: Uint8Array;
}

/** A precommit in a Commit; the devnet only ever records BLOCK_ID_FLAG_COMMIT votes. */
export interface CommitSig {
  validatorAddress: Uint8Array;
  time: BlockTime;
  signature: Uint8Array;
}

export interface Commit {
  height: bigint;
  round: number;
  blockId: BlockId;
  signatures: CommitSig[];
}

/** The empty Commit CometBFT puts in the block at height 1. */
export const EMPTY_COMMIT: Commit = Object.freeze({
  height: 0n,
  round: 0,
  blockId: EMPTY_BLOCK_ID,
  signatures: [],
}) as Commit;

// ---------------------------------------------------------------- protobuf encodings

function pbTimestamp(t: BlockTime): Timestamp {
  return { seconds: t.seconds, nanos: t.nanos };
}

function pbBlockId(id: BlockId): PbBlockID {
  return { hash: id.hash, partSetHeader: { total: id.parts.total, hash: id.parts.hash } };
}

function pbCommitSig(sig: CommitSig): PbCommitSig {
  return {
    blockIdFlag: BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
    validatorAddress: sig.validatorAddress,
    timestamp: pbTimestamp(sig.time),
    signature: sig.signature,
  };
}

function pbCommit(c: Commit): PbCommit {
  return { height: c.height, round: c.round, blockId: pbBlockId(c.blockId), signatures: c.signatures.map(pbCommitSig) };
}

function pbHeader(h: Header): PbHeader {
  return {
    version: { block: h.version.block, app: h.version.app },
    chainId: h.chainId,
    height: h.height,
    time: pbTimestamp(h.time),
    lastBlockId: pbBlockId(h.lastBlockId),
    lastCommitHash: h.lastCommitHash,
    dataHash: h.dataHash,
    validatorsHash: h.validatorsHash,
    nextValidatorsHash: h.nextValidatorsHash,
    consensusHash: h.consensusHash,
    appHash: h.appHash,
    lastResultsHash: h.lastResultsHash,
    evidenceHash: h.evidenceHash,
    proposerAddress: h.proposerAddress,
  };
}

// cdcEncode (types/encoding_helper.go): a gogotypes wrapper message
// (StringValue / Int64Value / BytesValue, value in field 1), or nothing at
// all for an empty value.
function cdcEncodeString(s: string): Uint8Array {
  return s === '' ? new Uint8Array(0) : BinaryWriter.create().uint32(10).string(s).finish();
}

function cdcEncodeInt64(n: bigint): Uint8Array {
  return n === 0n ? new Uint8Array(0) : BinaryWriter.create().uint32(8).int64(n).finish();
}

function cdcEncodeBytes(b: Uint8Array): Uint8Array {
  return b.length === 0 ? new Uint8Array(0) : BinaryWriter.create().uint32(10).bytes(b).finish();
}

/** Header.Hash(): Merkle root of the header fields' encodings, in field order. */
export function headerHash(h: Header): Uint8Array {
  return merkleRoot([
    Consensus.encode({ block: h.version.block, app: h.version.app }).finish(),
    cdcEncodeString(h.chainId),
    cdcEncodeInt64(h.height),
    Timestamp.encode(pbTimestamp(h.time)).finish(),
    PbBlockID.encode(pbBlockId(h.lastBlockId)).finish(),
    cdcEncodeBytes(h.lastCommitHash),
    cdcEncodeBytes(h.dataHash),
    cdcEncodeBytes(h.validatorsHash),
    cdcEncodeBytes(h.nextValidatorsHash),
    cdcEncodeBytes(h.consensusHash),
    cdcEncodeBytes(h.appHash),
    cdcEncodeBytes(h.lastResultsHash),
    cdcEncodeBytes(h.evidenceHash),
    cdcEncodeBytes(h.proposerAddress),
  ]);
}

/** Commit.Hash(): Merkle root of the CommitSig encodings (sha256("") for height 1). */
export function commitHash(c: Commit): Uint8Array {
  return merkleRoot(c.signatures.map((s) => PbCommitSig.encode(pbCommitSig(s)).finish()));
}

/** Data.Hash(): Merkle root of the tx hashes (sha256 of each tx). */
export function dataHash(txs: readonly Uint8Array[]): Uint8Array {
  return merkleRoot(txs.map((tx) => sha256(tx)));
}

/** The ExecTxResult fields CometBFT keeps for last_results_hash (NewResults). */
export interface DeterministicTxResult {
  code: number;
  data: Uint8Array;
  gasWanted: bigint;
  gasUsed: bigint;
}

/** A committed block as the chain keeps it: its parts and every RPC answer about it, pre-rendered. */
export interface StoredBlock {
  height: number;
  header: Header;
  blockId: BlockId;
  txs: Uint8Array[];
  txHashes: string[];
  /** app hash after executing this block (block_results.app_hash; next header's app_hash) */
  appHash: Uint8Array;
  results: DeterministicTxResult[];
  /** pre-rendered `result` of the `block` method */
  blockJson: string;
  /** pre-rendered `result` of the `block_results` method */
  resultsJson: string;
  /** pre-rendered BlockMeta (blockchain method) */
  metaJson: string;
  /** pre-rendered header (header method) */
  headerJson: string;
}

/** ABCIResults.Hash(): Merkle root of the deterministic ExecTxResult encodings. */
export function resultsHash(results: readonly DeterministicTxResult[]): Uint8Array {
  return merkleRoot(
    results.map((r) =>
      ExecTxResult.encode(
        ExecTxResult.fromPartial({ code: r.code, data: r.data, gasWanted: r.gasWanted, gasUsed: r.gasUsed }),
      ).finish(),
    ),
  );
}

/** EvidenceData.Hash() of a block without evidence. */
export function emptyEvidenceHash(): Uint8Array {
  return merkleRoot([]);
}

// ---------------------------------------------------------------- validator and params

export interface ValidatorKey {
  /** ed25519 public key, 32 bytes */
  pubKey: Uint8Array;
  /** 20 bytes: sha256(pubKey)[:20] */
  address: Uint8Array;
  /** private seed; only used to make deterministic pseudo-signatures */
  privKey: Uint8Array;
  votingPower: bigint;
}

/** A real ed25519 key pair derived from a seed string, so every devnet with the same seed has the same validator. */
export async function deriveValidatorKey(seed: string, votingPower = 10n): Promise<ValidatorKey> {
  const privKey = sha256(utf8Encode(`svc-devnet/validator/${seed}`));
  const keypair = await Ed25519.makeKeypair(privKey);
  return { pubKey: keypair.pubkey, address: addressHash(keypair.pubkey), privKey, votingPower };
}

/** ValidatorSet.Hash(): Merkle root of SimpleValidator{pub_key, voting_power} encodings. */
export function validatorsHash(validators: readonly ValidatorKey[]): Uint8Array {
  return merkleRoot(
    validators.map((v) =>
      SimpleValidator.encode({ pubKey: { ed25519: v.pubKey }, votingPower: v.votingPower }).finish(),
    ),
  );
}

export interface ConsensusParams {
  blockMaxBytes: bigint;
  blockMaxGas: bigint;
  evidenceMaxAgeNumBlocks: bigint;
  evidenceMaxAgeDurationNs: bigint;
  evidenceMaxBytes: bigint;
}

/** Cosmos SDK defaults as a fresh chain's genesis has them. */
export const DEFAULT_CONSENSUS_PARAMS: ConsensusParams = Object.freeze({
  blockMaxBytes: 22020096n,
  blockMaxGas: -1n,
  evidenceMaxAgeNumBlocks: 100000n,
  evidenceMaxAgeDurationNs: 172800000000000n,
  evidenceMaxBytes: 1048576n,
});

/** ConsensusParams.Hash(): sha256 of HashedParams{block max bytes, block max gas}. */
export function consensusHash(p: ConsensusParams): Uint8Array {
  return sha256(HashedParams.encode({ blockMaxBytes: p.blockMaxBytes, blockMaxGas: p.blockMaxGas }).finish());
}

/**
 * Deterministic stand-in for the validator's precommit signature (64 bytes
 * like ed25519). Nobody verifies commits on the devnet; real signing is
 * async in cosmjs and would make block production async for no reader.
 */
export function pseudoCommitSignature(
  key: ValidatorKey,
  height: bigint,
  blockHash: Uint8Array,
  time: BlockTime,
): Uint8Array {
  const msg = utf8Encode(`precommit/${height}/${time.seconds}.${time.nanos}/`);
  const buf = new Uint8Array(key.privKey.length + msg.length + blockHash.length);
  buf.set(key.privKey, 0);
  buf.set(msg, key.privKey.length);
  buf.set(blockHash, key.privKey.length + msg.length);
  return sha512(buf);
}

// ---------------------------------------------------------------- whole block

/** Protobuf encoding of the block (Block.ToProto().Marshal()): the bytes split into parts and measured as block_size. */
export function encodeBlock(header: Header, txs: readonly Uint8Array[], lastCommit: Commit): Uint8Array {
  return PbBlock.encode({
    header: pbHeader(header),
    data: { txs: [...txs] },
    evidence: { evidence: [] },
    lastCommit: pbCommit(lastCommit),
  }).finish();
}

/** PartSet header of the block bytes: 64 KiB parts, hash = Merkle root of the parts. */
export function partSetHeader(blockBytes: Uint8Array): PartSetHeader {
  const parts: Uint8Array[] = [];
  for (let off = 0; off < blockBytes.length; off += BLOCK_PART_SIZE)
    parts.push(blockBytes.subarray(off, off + BLOCK_PART_SIZE));
  return { total: parts.length, hash: merkleRoot(parts) };
}
