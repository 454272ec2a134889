/**
 * The FLOOR project: what the node costs on its own for this manifest.
 *
 * A temp directory with project.yaml copied verbatim (same data sources, same
 * handler declarations and filters, same chaintypes), schema.graphql and
 * proto/ copied, and a hand-written dist/index.js (CommonJS, no imports) whose
 * exports are exactly the manifest's handler names, each an empty async
 * function. So the node fetches the same blocks, decodes and filters the same
 * way and makes the same sandbox calls (one per matching handler), but no
 * mapping code runs and nothing is written except the node's own _metadata.
 * The ratio full/floor is therefore what the mappings and their store writes
 * cost on top of the node.
 *
 * Why hand-written rather than `subql build` of stub sources: the bundle
 * would only add webpack's module wrapper around the same empty functions;
 * writing it directly keeps the floor free of anything but the handler names.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { REPO_ROOT } from './node-run';

/** Handler names declared in a manifest, in order of first appearance. */
export function manifestHandlers(manifestText: string): string[] {
  return [...new Set([...manifestText.matchAll(/^\s*-\s*handler:\s*([A-Za-z0-9_]+)\s*$/gm)].map((m) => m[1]))];
}

export interface FloorProject {
  dir: string;
  handlers: string[];
  remove(): void;
}

export function makeFloorProject(sourceDir = REPO_ROOT): FloorProject {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-floor-'));
  const manifest = fs.readFileSync(path.join(sourceDir, 'project.yaml'), 'utf8');
  const handlers = manifestHandlers(manifest);
  if (!/file: \.\/dist\/index\.js/.test(manifest)) throw new Error('floor: the manifest does not map ./dist/index.js');
  fs.writeFileSync(path.join(dir, 'project.yaml'), manifest);
  fs.copyFileSync(path.join(sourceDir, 'schema.graphql'), path.join(dir, 'schema.graphql'));
  fs.cpSync(path.join(sourceDir, 'proto'), path.join(dir, 'proto'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'dist'));
  const body = [
    '"use strict";',
    '// FLOOR bundle (bench/lib/floor-project.ts): every handler of project.yaml, doing nothing.',
    ...handlers.map((h) => `exports.${h} = async function ${h}() {};`),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'dist', 'index.js'), body);
  return { dir, handlers, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
