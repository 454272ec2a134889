/**
 * The devnet is in memory; this journal makes it durable. Every produced block is appended
 * (height, time, raw txs, block hash) to `<dir>/blocks.ndjson` before the RPC can serve it,
 * and `<dir>/devnet.json` names the scenario the chain came from. On restart the journal is
 * replayed through the chain (same txs + times give identical hashes), so an index built on
 * the previous run still matches the chain it resumes on: from the latest snapshot when there
 * is one (only the lines after it, src/runtime/devnet-snapshot.ts), else from genesis.
 */
import fs from 'fs';
import path from 'path';
import { upperHex } from '../../devnet/chain';
import type { StoredBlock } from '../../devnet/chain';

export const JOURNAL_VERSION = 1;

/** What identifies the devnet of a journal: a different value means a different chain. */
export interface DevnetIdentity {
  seed: string;
  historyBlocks: number;
  txsPerBlock: number;
  chainId: string;
}

export interface JournalMeta extends DevnetIdentity {
  version: number;
  /** time of block 1 (unix ms): the history is regenerated from it */
  startTimeMs: number;
  createdAt: string;
}

export interface JournalBlock {
  height: number;
  timeMs: number;
  /** block hash, upper-case hex */
  hash: string;
  /** raw TxRaw bytes, base64 */
  txs: string[];
  /** the live block interval the scenario planned this block with; absent for history blocks */
  liveBlockMs?: number;
}

/** A point in the journal: the block at `height` ends at byte `offset` of blocks.ndjson. */
export interface JournalAnchor {
  height: number;
  offset: number;
}

/** The journal and the configuration or store disagree: the user must choose (exit code 2). */
export class JournalConflict extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JournalConflict';
  }
}

export function journalEntry(block: StoredBlock, liveBlockMs?: number): JournalBlock {
  const timeMs = Number(block.header.time.seconds) * 1000 + Math.floor(block.header.time.nanos / 1e6);
  const entry: JournalBlock = {
    height: block.height,
    timeMs,
    hash: upperHex(block.blockId.hash),
    txs: block.txs.map((t) => Buffer.from(t).toString('base64')),
  };
  if (liveBlockMs !== undefined) entry.liveBlockMs = liveBlockMs;
  return entry;
}

export function txBytes(entry: JournalBlock): Uint8Array[] {
  return entry.txs.map((t) => new Uint8Array(Buffer.from(t, 'base64')));
}

const HASH_BYTES = 32;

function parseLines(text: string, firstHeight: number, file: string): JournalBlock[] {
  const blocks = text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as JournalBlock);
  blocks.forEach((b, i) => {
    if (b.height !== firstHeight + i)
      throw new JournalConflict(`${file} is damaged: block ${firstHeight + i} is followed by height ${b.height}`);
  });
  return blocks;
}

/** Cuts a torn last line (the process died mid-write); returns the file's size after. */
function cutTornLine(file: string): number {
  const size = fs.statSync(file).size;
  const fd = fs.openSync(file, 'r');
  try {
    let end = size;
    const chunk = Buffer.alloc(64 * 1024);
    while (end > 0) {
      const start = Math.max(0, end - chunk.length);
      fs.readSync(fd, chunk, 0, end - start, start);
      const newline = chunk.subarray(0, end - start).lastIndexOf(0x0a);
      if (newline >= 0) {
        end = start + newline + 1;
        break;
      }
      end = start;
    }
    if (end < size) fs.truncateSync(file, end);
    return end;
  } finally {
    fs.closeSync(fd);
  }
}

/** The last complete line of the block file (undefined when it is empty). */
function lastLine(file: string, size: number): JournalBlock | undefined {
  if (size === 0) return undefined;
  const fd = fs.openSync(file, 'r');
  try {
    for (let window = 64 * 1024; ; window *= 2) {
      const start = Math.max(0, size - window);
      const text = readRange(fd, start, size).toString('utf8');
      const previous = text.lastIndexOf('\n', text.length - 2);
      if (previous >= 0 || start === 0) return JSON.parse(text.slice(previous + 1)) as JournalBlock;
    }
  } finally {
    fs.closeSync(fd);
  }
}

function readRange(fd: number, start: number, end: number): Buffer {
  const buffer = Buffer.alloc(end - start);
  fs.readSync(fd, buffer, 0, buffer.length, start);
  return buffer;
}

/**
 * The journal of a devnet: `blocks.ndjson` (a line per block: height, time, txs, hash), and
 * `hashes.bin` beside it (the 32-byte block hash of height h at (h-1)·32), so the hash of any
 * height and the journal's height are known without reading the block file. Nothing per block
 * is kept in memory: a restart reads the lines it replays (`entriesFrom`).
 */
export class DevnetJournal {
  private fd: number | undefined;
  private hashFd: number | undefined;
  private journalHeight = 0;
  private size = 0;

  private constructor(
    readonly dir: string,
    public meta: JournalMeta | undefined,
  ) {}

  /** Reads the journal in `dir` (created when missing); cuts a torn last line. */
  static open(dir: string): DevnetJournal {
    fs.mkdirSync(dir, { recursive: true });
    const metaFile = path.join(dir, 'devnet.json');
    const meta = fs.existsSync(metaFile) ? (JSON.parse(fs.readFileSync(metaFile, 'utf8')) as JournalMeta) : undefined;
    if (meta && meta.version !== JOURNAL_VERSION)
      throw new JournalConflict(
        `${metaFile} has journal version ${meta.version}; this launcher reads version ${JOURNAL_VERSION}`,
      );
    const journal = new DevnetJournal(dir, meta);
    if (meta) journal.recover();
    return journal;
  }

  private get blockFile(): string {
    return path.join(this.dir, 'blocks.ndjson');
  }

  private get hashFile(): string {
    return path.join(this.dir, 'hashes.bin');
  }

  /** Height from the last line; hashes.bin made to agree with it (it is written after the line, or is missing in an older journal). */
  private recover(): void {
    if (!fs.existsSync(this.blockFile)) fs.writeFileSync(this.blockFile, '');
    this.size = cutTornLine(this.blockFile);
    this.journalHeight = lastLine(this.blockFile, this.size)?.height ?? 0;
    this.hashFd = fs.openSync(this.hashFile, fs.existsSync(this.hashFile) ? 'r+' : 'w+');
    const hashed = Math.floor(fs.fstatSync(this.hashFd).size / HASH_BYTES);
    if (hashed > this.journalHeight) fs.ftruncateSync(this.hashFd, this.journalHeight * HASH_BYTES);
    if (hashed === this.journalHeight - 1)
      this.writeHash(this.journalHeight, lastLine(this.blockFile, this.size)!.hash);
    else if (hashed < this.journalHeight) this.rebuildHashes();
  }

  /** An older journal without hashes.bin (or a damaged one): one pass over the block file. */
  private rebuildHashes(): void {
    fs.ftruncateSync(this.hashFd!, 0);
    for (const entry of this.entriesFrom({ height: 0, offset: 0 })) this.writeHash(entry.height, entry.hash);
  }

  private writeHash(height: number, hashHex: string): void {
    const hash = Buffer.alloc(HASH_BYTES);
    Buffer.from(hashHex, 'hex').copy(hash);
    fs.writeSync(this.hashFd!, hash, 0, HASH_BYTES, (height - 1) * HASH_BYTES);
  }

  get height(): number {
    return this.journalHeight;
  }

  /** Bytes of the block file: where the line of the next block will start (a snapshot records it). */
  get offset(): number {
    return this.size;
  }

  /** The journaled hash of a height (upper-case hex), or undefined above the journal. */
  hashAt(height: number): string | undefined {
    if (!Number.isInteger(height) || height < 1 || height > this.journalHeight) return undefined;
    const hash = Buffer.alloc(HASH_BYTES);
    fs.readSync(this.hashFd!, hash, 0, HASH_BYTES, (height - 1) * HASH_BYTES);
    return hash.toString('hex').toUpperCase();
  }

  /** The journaled blocks after `anchor.height`, whose line starts at byte `anchor.offset` (0, 0: every block). */
  entriesFrom(anchor: JournalAnchor): JournalBlock[] {
    if (anchor.offset > this.size) throw new JournalConflict(`${this.blockFile} is shorter than its snapshot says`);
    const fd = fs.openSync(this.blockFile, 'r');
    try {
      return parseLines(readRange(fd, anchor.offset, this.size).toString('utf8'), anchor.height + 1, this.blockFile);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Starts a journal for a new devnet (drops blocks of an unfinished previous start). */
  create(identity: DevnetIdentity, startTimeMs: number): void {
    this.meta = { version: JOURNAL_VERSION, ...identity, startTimeMs, createdAt: new Date().toISOString() };
    this.journalHeight = 0;
    this.size = 0;
    fs.writeFileSync(this.blockFile, '');
    fs.writeFileSync(this.hashFile, '');
    this.hashFd ??= fs.openSync(this.hashFile, 'r+');
    fs.writeFileSync(path.join(this.dir, 'devnet.json'), `${JSON.stringify(this.meta, null, 2)}\n`);
  }

  /** Appends one block; synchronous so that it is on disk before the RPC can hand it out. */
  append(entry: JournalBlock): void {
    if (entry.height !== this.height + 1) throw new Error(`journal: block ${entry.height} after ${this.height}`);
    this.fd ??= fs.openSync(this.blockFile, 'a');
    const line = Buffer.from(`${JSON.stringify(entry)}\n`, 'utf8');
    fs.writeSync(this.fd, line);
    this.writeHash(entry.height, entry.hash);
    this.size += line.length;
    this.journalHeight = entry.height;
  }

  /** Flushes the journal to disk (before a snapshot that points into it). */
  sync(): void {
    if (this.fd !== undefined) fs.fsyncSync(this.fd);
    if (this.hashFd !== undefined) fs.fsyncSync(this.hashFd);
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    if (this.hashFd !== undefined) fs.closeSync(this.hashFd);
    this.fd = undefined;
    this.hashFd = undefined;
  }
}

/** Throws JournalConflict when the journal was made with another seed, history or tx rate. */
export function checkIdentity(meta: JournalMeta, wanted: DevnetIdentity, dataDir: string): void {
  const differences = (Object.keys(wanted) as (keyof DevnetIdentity)[])
    .filter((k) => meta[k] !== wanted[k])
    .map((k) => `${k} ${JSON.stringify(meta[k])} (now ${JSON.stringify(wanted[k])})`);
  if (differences.length === 0) return;
  throw new JournalConflict(
    `the devnet saved in ${dataDir} was made with ${differences.join(', ')}. ` +
      `Keep the previous settings, or start afresh: remove ${dataDir} (rm -rf ${dataDir}) or pass a new DATA_DIR.`,
  );
}
