/**
 * The "historical" project: this repository's built project (a copy: launcher/project.ts
 * writeProjectCopy) with the node's own historical mode on. The node then keeps every version of
 * every entity row with its `_block_range` (no `id` primary key, every index a GiST index over its
 * fields and `_block_range`). Needs btree_gist in the database, which the node checks for and does
 * not create. For measuring what history costs (bench/history-cost.ts, bench:index --historical),
 * not for running the product: the store room and the REST adapter read `--historical=false` tables.
 *
 * node-core 19.3 (rebaseArgsWithManifest) lets the manifest's `runner.node.options.historical` win
 * over the `--historical` flag, and the manifest option is a boolean (true = 'height'). So:
 * - 'height': the copy's manifest says `historical: true`;
 * - 'timestamp': the copy's manifest drops the option, and the run passes `--historical=timestamp`
 *   (the only way to that mode; `_block_range` then holds block times in ms).
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { parseDocument } from 'yaml';
import { writeProjectCopy } from '../../src/runtime/project';

export type HistoricalMode = 'height' | 'timestamp';

export function makeHistoricalProject(mode: HistoricalMode = 'height'): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-historical-'));
  writeProjectCopy(dir);
  const file = path.join(dir, 'project.yaml');
  const doc = parseDocument(fs.readFileSync(file, 'utf8'));
  if (mode === 'height') doc.setIn(['runner', 'node', 'options', 'historical'], true);
  else doc.deleteIn(['runner', 'node', 'options', 'historical']);
  fs.writeFileSync(file, doc.toString());
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
