/**
 * Snapshots of the embedded devnet, so a restart replays the journal's tail instead of every
 * block since genesis. `<dir>/snapshot.json` holds the app's latest committed state, the
 * scenario's launched assets, the height and block hash it was taken at, and where the
 * journal's next line starts. The blocks themselves are in the archive (`<dir>/archive`).
 *
 * Crash safety: the journal and the archive are flushed to disk first (the snapshot points
 * into both), then the snapshot is written to a temporary file, flushed, and renamed over the
 * previous one, so a kill at any moment leaves either the old snapshot or the new one whole.
 */
import fs from 'fs';
import path from 'path';
import type { ScenarioSnapshot } from '../../devnet/scenario';
import type { JournalAnchor } from './devnet-journal';

export const SNAPSHOT_VERSION = 1;
const SNAPSHOT_FILE = 'snapshot.json';

export interface DevnetSnapshot {
  version: number;
  /** the journal up to and including the snapshot's block */
  journal: JournalAnchor;
  /** hash of the snapshot's block, upper-case hex (checked against the journal and the archive) */
  blockHash: string;
  /** the live block interval the scenario was planning with */
  liveBlockMs: number;
  scenario: ScenarioSnapshot;
  takenAt: string;
}

export function snapshotFile(dir: string): string {
  return path.join(dir, SNAPSHOT_FILE);
}

/** Writes the snapshot atomically (temp file, fsync, rename, fsync of the directory). */
export function writeSnapshot(dir: string, snapshot: DevnetSnapshot): void {
  const target = snapshotFile(dir);
  const temp = `${target}.tmp`;
  const fd = fs.openSync(temp, 'w');
  try {
    fs.writeSync(fd, JSON.stringify(snapshot));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, target);
  const dirFd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(dirFd);
  } finally {
    fs.closeSync(dirFd);
  }
}

/** The saved snapshot, or why there is none to use (a missing file is not a problem, a bad one is reported). */
export function readSnapshot(dir: string): { snapshot?: DevnetSnapshot; problem?: string } {
  const file = snapshotFile(dir);
  if (!fs.existsSync(file)) return {};
  try {
    const snapshot = JSON.parse(fs.readFileSync(file, 'utf8')) as DevnetSnapshot;
    if (snapshot.version !== SNAPSHOT_VERSION)
      return { problem: `${file} has version ${snapshot.version}, this launcher reads ${SNAPSHOT_VERSION}` };
    return { snapshot };
  } catch (e) {
    return { problem: `${file} cannot be read (${e instanceof Error ? e.message : String(e)})` };
  }
}
