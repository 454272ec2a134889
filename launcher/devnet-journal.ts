/**
 * The devnet is in memory; this journal makes it durable. Every produced block is appended
 * (height, time, raw txs, block hash) to `<dir>/blocks.ndjson` before the RPC can serve it,
 * and `<dir>/devnet.json` names the scenario the chain came from. On restart the journal is
 * replayed through the chain (same txs + times give identical hashes), so an index built on
 * the previous run still matches the chain it resumes on.
 */
import fs from 'fs';
import path from 'path';
import { upperHex } from '../devnet/chain';
import type { StoredBlock } from '../devnet/chain';

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

/** Lines of the block file; a torn last line (the process died mid-write) is cut off. */
function readBlocks(file: string): JournalBlock[] {
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  const complete = text.lastIndexOf('\n') + 1;
  if (complete < text.length) fs.truncateSync(file, Buffer.byteLength(text.slice(0, complete)));
  const blocks = text
    .slice(0, complete)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as JournalBlock);
  blocks.forEach((b, i) => {
    if (b.height !== i + 1) throw new JournalConflict(`${file} is damaged: line ${i + 1} holds height ${b.height}`);
  });
  return blocks;
}

export class DevnetJournal {
  private fd: number | undefined;

  private constructor(
    readonly dir: string,
    public meta: JournalMeta | undefined,
    readonly blocks: JournalBlock[],
  ) {}

  /** Reads the journal in `dir` (created when missing). */
  static open(dir: string): DevnetJournal {
    fs.mkdirSync(dir, { recursive: true });
    const metaFile = path.join(dir, 'devnet.json');
    const meta = fs.existsSync(metaFile) ? (JSON.parse(fs.readFileSync(metaFile, 'utf8')) as JournalMeta) : undefined;
    if (meta && meta.version !== JOURNAL_VERSION)
      throw new JournalConflict(
        `${metaFile} has journal version ${meta.version}; this launcher reads version ${JOURNAL_VERSION}`,
      );
    const blocks = meta ? readBlocks(path.join(dir, 'blocks.ndjson')) : [];
    return new DevnetJournal(dir, meta, blocks);
  }

  get height(): number {
    return this.blocks.length;
  }

  block(height: number): JournalBlock | undefined {
    return this.blocks[height - 1];
  }

  /** Starts a journal for a new devnet (drops blocks of an unfinished previous start). */
  create(identity: DevnetIdentity, startTimeMs: number): void {
    this.meta = { version: JOURNAL_VERSION, ...identity, startTimeMs, createdAt: new Date().toISOString() };
    this.blocks.length = 0;
    fs.writeFileSync(path.join(this.dir, 'blocks.ndjson'), '');
    fs.writeFileSync(path.join(this.dir, 'devnet.json'), `${JSON.stringify(this.meta, null, 2)}\n`);
  }

  /** Appends one block; synchronous so that it is on disk before the RPC can hand it out. */
  append(entry: JournalBlock): void {
    if (entry.height !== this.height + 1) throw new Error(`journal: block ${entry.height} after ${this.height}`);
    this.fd ??= fs.openSync(path.join(this.dir, 'blocks.ndjson'), 'a');
    fs.writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    this.blocks.push(entry);
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
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
