/**
 * The FLOOR projects: what the node costs on its own.
 *
 * "floor" (floorManifest): the manifest of the measured project with its data
 * sources replaced by ONE data source holding ONE `cosmos/BlockHandler`
 * (FLOOR_HANDLER), whose body is empty. Same runner, network, chaintypes and
 * schema (schema.graphql and proto/ copied), so the node fetches, decodes and
 * stores _metadata for the same blocks, makes one sandbox call per block and
 * runs no mapping code. This is the floor the indexing targets compare with: the ratio full/floor
 * is what the project's mappings, their dispatch and their writes cost on top
 * of the node.
 *
 * "floor-decl" (declFloorManifest): the older floor, project.yaml copied
 * verbatim (same data sources, same handler declarations and filters) on a
 * bundle of empty handlers. The node filters the same way and makes the same
 * sandbox calls (one per matching handler) as the full project, so
 * floor-decl minus floor is the node's cost of dispatching the declared
 * handlers.
 *
 * Both get a hand-written dist/index.js (CommonJS, no imports) exporting each
 * handler as an empty async function: a `subql build` of stub sources would
 * only add webpack's module wrapper around the same empty functions.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { parse, stringify } from 'yaml';
import { REPO_ROOT } from './node-run';

export type FloorKind = 'block' | 'decl';

/** The one handler of the "floor" project. */
export const FLOOR_HANDLER = 'handleFloorBlock';

/** Handler names declared in a manifest, in order of first appearance. */
export function manifestHandlers(manifestText: string): string[] {
  return [...new Set([...manifestText.matchAll(/^\s*-\s*handler:\s*([A-Za-z0-9_]+)\s*$/gm)].map((m) => m[1]))];
}

interface ManifestDataSource {
  startBlock?: number;
}

/**
 * The "floor" manifest of a project's manifest: everything but the data sources kept, the data
 * sources replaced by one cosmos/Runtime source (from the earliest startBlock of the original ones)
 * with one cosmos/BlockHandler, FLOOR_HANDLER, in ./dist/index.js. Templates are dropped (nothing
 * creates dynamic data sources in an empty handler).
 */
export function floorManifest(manifestText: string): string {
  const manifest = parse(manifestText) as Record<string, unknown>;
  const sources = manifest.dataSources as ManifestDataSource[] | undefined;
  if (!Array.isArray(sources) || sources.length === 0) throw new Error('floor: the manifest has no dataSources');
  const startBlock = Math.min(...sources.map((ds) => ds.startBlock ?? 1));
  delete manifest.templates;
  manifest.dataSources = [
    {
      kind: 'cosmos/Runtime',
      startBlock,
      mapping: { file: './dist/index.js', handlers: [{ handler: FLOOR_HANDLER, kind: 'cosmos/BlockHandler' }] },
    },
  ];
  return [
    '# FLOOR manifest (bench/lib/floor-project.ts): the measured project with one empty cosmos/BlockHandler.',
    stringify(manifest, { lineWidth: 0 }),
  ].join('\n');
}

/** The "floor-decl" manifest: the project's manifest verbatim (its handlers get empty bodies). */
export function declFloorManifest(manifestText: string): string {
  if (!/file: \.\/dist\/index\.js/.test(manifestText))
    throw new Error('floor-decl: the manifest does not map ./dist/index.js');
  return manifestText;
}

/** The floor bundle: each handler an empty async function. */
export function floorBundle(handlers: string[]): string {
  return [
    '"use strict";',
    '// FLOOR bundle (bench/lib/floor-project.ts): every handler of project.yaml, doing nothing.',
    ...handlers.map((h) => `exports.${h} = async function ${h}() {};`),
    '',
  ].join('\n');
}

export interface FloorProject {
  dir: string;
  kind: FloorKind;
  handlers: string[];
  remove(): void;
}

/** A floor project of `sourceDir`'s project.yaml in a temp directory (remove() deletes it). */
export function makeFloorProject(sourceDir = REPO_ROOT, kind: FloorKind = 'block'): FloorProject {
  const source = fs.readFileSync(path.join(sourceDir, 'project.yaml'), 'utf8');
  const manifest = kind === 'block' ? floorManifest(source) : declFloorManifest(source);
  const handlers = manifestHandlers(manifest);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-floor-${kind}-`));
  fs.writeFileSync(path.join(dir, 'project.yaml'), manifest);
  fs.copyFileSync(path.join(sourceDir, 'schema.graphql'), path.join(dir, 'schema.graphql'));
  fs.cpSync(path.join(sourceDir, 'proto'), path.join(dir, 'proto'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'dist'));
  fs.writeFileSync(path.join(dir, 'dist', 'index.js'), floorBundle(handlers));
  return { dir, kind, handlers, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
