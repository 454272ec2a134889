/**
 * The "no-proof" project: this repository's built project (a copy: launcher/project.ts
 * writeProjectCopy) with `PROOF_OF_INDEXING=false` in its `.env`, which the node hands the
 * mappings as process.env. Beside "full" in one run it measures what the proof of indexing costs.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { writeProjectCopy } from '../../src/runtime/project';

export const NO_PROOF_PROJECT = 'no-proof';

export function makeNoProofProject(): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-no-proof-'));
  writeProjectCopy(dir, {}, { proofOfIndexing: false });
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
