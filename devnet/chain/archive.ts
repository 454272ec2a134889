/**
 * The block archive: every block the chain makes, written through to files so the chain can
 * keep only a window of recent blocks in memory and still serve any height from 1.
 *
 * Files in the archive directory:
 * - `blocks.dat`: one record per height, appended: the StoredBlock (its pre-rendered RPC
 *   JSON included, so answers stay byte-identical) and each tx's ExecResult, as tagged JSON
 *   (bigint and bytes tagged) compressed with zlib's raw deflate;
 * - `blocks.idx`: a fixed 48-byte entry per height (offset, length, block hash), so a read is
 *   two positioned reads and nothing per height is held in memory;
 * - `txs/XX.idx`: 40-byte entries (tx hash, height, index) in 256 buckets by the hash's first
 *   byte, so a lookup by hash reads 1/256 of the tx index.
 *
 * Crash safety: a block's record is written before its index entry, and an index entry is
 * only trusted when its record is complete, so a torn write loses at most the last block
 * (which the journal replays). `sync()` flushes both to disk (called before a snapshot).
 */
import fs from 'fs';
import path from 'path';
import { deflateRawSync, inflateRawSync } from 'zlib';
import type { StoredBlock } from './block';
import type { ExecResult } from './render';

/** What the archive holds per height. */
export interface ArchivedBlock {
  block: StoredBlock;
  /** each tx's full result (events included), in block order */
  txResults: ExecResult[];
}

const INDEX_ENTRY = 48;
const TX_ENTRY = 40;
const HASH_BYTES = 32;

/** JSON that carries bigint and Uint8Array values (tagged), so a StoredBlock round-trips exactly. */
function encodeTagged(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'bigint') return { $n: v.toString() };
    if (v instanceof Uint8Array) return { $b: Buffer.from(v).toString('base64') };
    return v;
  });
}

function decodeTagged<T>(text: string): T {
  return JSON.parse(text, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === '$n') return BigInt((v as { $n: string }).$n);
      if (keys.length === 1 && keys[0] === '$b') return new Uint8Array(Buffer.from((v as { $b: string }).$b, 'base64'));
    }
    return v;
  }) as T;
}

function fileSize(fd: number): number {
  return fs.fstatSync(fd).size;
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = fs.readSync(fd, buffer, 0, length, position);
  if (read !== length) throw new Error(`block archive: short read (${read} of ${length} bytes at ${position})`);
  return buffer;
}

export class BlockArchive {
  private archivedHeight: number;

  private constructor(
    readonly dir: string,
    private readonly dataFd: number,
    private readonly indexFd: number,
  ) {
    this.archivedHeight = this.recoverHeight();
  }

  /** Opens (or creates) the archive in `dir`, dropping a torn last block. */
  static open(dir: string): BlockArchive {
    fs.mkdirSync(path.join(dir, 'txs'), { recursive: true });
    BlockArchive.cutTornTxEntries(path.join(dir, 'txs'));
    const open = (name: string) => fs.openSync(path.join(dir, name), fs.existsSync(path.join(dir, name)) ? 'r+' : 'w+');
    return new BlockArchive(dir, open('blocks.dat'), open('blocks.idx'));
  }

  /** A torn tx entry would shift every later entry of its bucket: cut each bucket to whole entries. */
  private static cutTornTxEntries(txDir: string): void {
    for (const name of fs.readdirSync(txDir)) {
      const file = path.join(txDir, name);
      const size = fs.statSync(file).size;
      if (size % TX_ENTRY !== 0) fs.truncateSync(file, size - (size % TX_ENTRY));
    }
  }

  /** Highest archived height (0 when empty). */
  get height(): number {
    return this.archivedHeight;
  }

  /** The index entries whose records are complete; everything after them is cut off. */
  private recoverHeight(): number {
    const dataSize = fileSize(this.dataFd);
    let height = Math.floor(fileSize(this.indexFd) / INDEX_ENTRY);
    while (height > 0) {
      const { offset, length } = this.entry(height);
      if (offset + length <= dataSize) break;
      height -= 1;
    }
    this.cutAfter(height);
    return height;
  }

  private entry(height: number): { offset: number; length: number; hash: Buffer } {
    const raw = readAt(this.indexFd, (height - 1) * INDEX_ENTRY, INDEX_ENTRY);
    return {
      offset: Number(raw.readBigUInt64LE(0)),
      length: raw.readUInt32LE(8),
      hash: raw.subarray(16, 16 + HASH_BYTES),
    };
  }

  private cutAfter(height: number): void {
    const end = height === 0 ? 0 : this.entry(height).offset + this.entry(height).length;
    fs.ftruncateSync(this.indexFd, height * INDEX_ENTRY);
    fs.ftruncateSync(this.dataFd, end);
  }

  /** Appends the next height (blocks must come in order). */
  append(archived: ArchivedBlock): void {
    const { block } = archived;
    if (block.height !== this.archivedHeight + 1)
      throw new Error(`block archive: block ${block.height} after ${this.archivedHeight}`);
    const record = deflateRawSync(Buffer.from(encodeTagged(archived), 'utf8'));
    const offset = fileSize(this.dataFd);
    fs.writeSync(this.dataFd, record, 0, record.length, offset);
    const entry = Buffer.alloc(INDEX_ENTRY);
    entry.writeBigUInt64LE(BigInt(offset), 0);
    entry.writeUInt32LE(record.length, 8);
    Buffer.from(block.blockId.hash).copy(entry, 16);
    fs.writeSync(this.indexFd, entry, 0, INDEX_ENTRY, (block.height - 1) * INDEX_ENTRY);
    block.txHashes.forEach((hash, i) => this.indexTx(hash, block.height, i));
    this.archivedHeight = block.height;
  }

  private indexTx(hashHex: string, height: number, index: number): void {
    const entry = Buffer.alloc(TX_ENTRY);
    Buffer.from(hashHex, 'hex').copy(entry, 0);
    entry.writeUInt32LE(height, 32);
    entry.writeUInt32LE(index, 36);
    fs.appendFileSync(this.bucketFile(hashHex), entry);
  }

  private bucketFile(hashHex: string): string {
    return path.join(this.dir, 'txs', `${hashHex.slice(0, 2).toUpperCase()}.idx`);
  }

  read(height: number): ArchivedBlock | undefined {
    if (!Number.isInteger(height) || height < 1 || height > this.archivedHeight) return undefined;
    const { offset, length } = this.entry(height);
    return decodeTagged<ArchivedBlock>(inflateRawSync(readAt(this.dataFd, offset, length)).toString('utf8'));
  }

  /** Height of the archived block with this hash (a scan of the 48-byte index entries). */
  heightOfHash(hashHex: string): number | undefined {
    const wanted = Buffer.from(hashHex, 'hex');
    if (wanted.length !== HASH_BYTES) return undefined;
    const index = readAt(this.indexFd, 0, this.archivedHeight * INDEX_ENTRY);
    for (let h = 1; h <= this.archivedHeight; h++) {
      const at = (h - 1) * INDEX_ENTRY + 16;
      if (index.compare(wanted, 0, HASH_BYTES, at, at + HASH_BYTES) === 0) return h;
    }
    return undefined;
  }

  /**
   * Where a tx of an archived block is. A bucket may hold entries of blocks a restart cut off
   * (made again from the journal, or replaced by new live blocks): an entry counts only when
   * the block at its height holds the tx.
   */
  findTx(hashHex: string): { archived: ArchivedBlock; index: number } | undefined {
    const wanted = Buffer.from(hashHex, 'hex');
    const file = this.bucketFile(hashHex);
    if (wanted.length !== HASH_BYTES || !fs.existsSync(file)) return undefined;
    const bucket = fs.readFileSync(file);
    for (let at = 0; at + TX_ENTRY <= bucket.length; at += TX_ENTRY) {
      if (bucket.compare(wanted, 0, HASH_BYTES, at, at + HASH_BYTES) !== 0) continue;
      const archived = this.read(bucket.readUInt32LE(at + 32));
      const index = bucket.readUInt32LE(at + 36);
      if (archived && archived.block.txHashes[index] === hashHex.toUpperCase()) return { archived, index };
    }
    return undefined;
  }

  /** Drops the blocks above `height` (a restart from a snapshot makes them again from the journal). */
  truncate(height: number): void {
    if (height >= this.archivedHeight) return;
    this.cutAfter(height);
    this.archivedHeight = height;
  }

  /** Flushes what was written to disk. */
  sync(): void {
    fs.fsyncSync(this.dataFd);
    fs.fsyncSync(this.indexFd);
  }

  close(): void {
    fs.closeSync(this.dataFd);
    fs.closeSync(this.indexFd);
  }
}
