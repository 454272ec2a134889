/**
 * The "historical" project: this repository's built project (a copy: launcher/project.ts
 * writeProjectCopy) with the node's own historical mode on (`runner.node.options.historical:
 * true` in its manifest, which node-core applies over the `--historical` flag). The node then
 * keeps every version of every entity row with its `_block_range` (no `id` primary key, every
 * index a GiST index over its fields and `_block_range`). Needs btree_gist in the database,
 * which the node checks for and does not create. For measuring what history costs
 * (bench/history-cost.ts), not for running the product: the store room and the REST adapter
 * read `--historical=false` tables.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { parseDocument } from 'yaml';
import { writeProjectCopy } from '../../src/runtime/project';

export function makeHistoricalProject(): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-historical-'));
  writeProjectCopy(dir);
  const file = path.join(dir, 'project.yaml');
  const doc = parseDocument(fs.readFileSync(file, 'utf8'));
  doc.setIn(['runner', 'node', 'options', 'historical'], true);
  fs.writeFileSync(file, doc.toString());
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
