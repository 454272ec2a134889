/**
 * The SubQuery project the node runs: built when dist/ is missing or older than its sources,
 * and, for a chain whose id differs from project.yaml's, a generated manifest copy (the node
 * requires network.chainId to equal the chain's status.node_info.network).
 */
import { spawn } from 'child_process';
import fs from 'fs';
import path from 'path';
import { isMap, parseDocument } from 'yaml';
import type { Logger } from './logger';
import { PROOF_SETTING } from '../lib/proof';

export const REPO_ROOT = path.resolve(__dirname, '../..');
const MANIFEST = path.join(REPO_ROOT, 'project.yaml');
const BUILD_OUTPUT = path.join(REPO_ROOT, 'dist', 'index.js');

/** Not sources of the bundle: src/types is build output, src/runtime the launcher's own code. */
const NOT_SOURCES = [path.join('src', 'types'), path.join('src', 'runtime')];

/** Newest mtime under a path. */
function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  if (NOT_SOURCES.includes(path.relative(REPO_ROOT, p))) return 0;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((e) => newestMtime(path.join(p, e))));
}

export function projectIsStale(): boolean {
  if (!fs.existsSync(BUILD_OUTPUT)) return true;
  const sources = ['src', 'schema.graphql', 'project.yaml', 'proto'].map((s) => newestMtime(path.join(REPO_ROOT, s)));
  return fs.statSync(BUILD_OUTPUT).mtimeMs < Math.max(...sources);
}

function runSubql(args: string[], log: Logger): Promise<void> {
  const bin = path.join(REPO_ROOT, 'node_modules', '.bin', 'subql');
  return new Promise((resolve, reject) => {
    const tail: string[] = [];
    const child = spawn(bin, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > 40) tail.shift();
        log.debug(line);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`subql ${args.join(' ')} failed (exit ${code}):\n${tail.join('\n')}`)),
    );
  });
}

/** `subql codegen project.yaml && subql build project.yaml` when dist/ is stale; false when it was up to date. */
export async function ensureProjectBuilt(log: Logger): Promise<boolean> {
  if (!projectIsStale()) return false;
  const started = Date.now();
  log.info(
    'building the SubQuery project (subql codegen + subql build): dist/ is missing or older than src/, schema.graphql, project.yaml or proto/',
  );
  await runSubql(['codegen', 'project.yaml'], log);
  await runSubql(['build', 'project.yaml'], log);
  log.info('project built', { ms: Date.now() - started });
  return true;
}

export function manifestChainId(): string {
  const doc = parseDocument(fs.readFileSync(MANIFEST, 'utf8'));
  return String(doc.getIn(['network', 'chainId']));
}

/** What the node reads from a project directory besides the manifest (the sandbox only loads files inside it). */
const PROJECT_FILES = ['dist', 'schema.graphql', 'proto'];

/**
 * A runnable copy of the built project in `dir` (dist/, schema.graphql, proto/, project.yaml),
 * its manifest naming `chainId` and `endpoint` when given. A copy, not a manifest pointing
 * back here: the node's sandbox refuses to load a mapping file outside the manifest's directory.
 * The project's `.env` (the node hands that file to the mappings as process.env) is copied with
 * it; `proofOfIndexing: false` adds `PROOF_OF_INDEXING=false` (the last value of a key wins).
 */
export function writeProjectCopy(
  dir: string,
  network: { chainId?: string; endpoint?: string } = {},
  settings: { proofOfIndexing?: boolean } = {},
): void {
  if (!fs.existsSync(BUILD_OUTPUT))
    throw new Error(`${BUILD_OUTPUT} is missing: build the project first (npm run build)`);
  fs.mkdirSync(dir, { recursive: true });
  for (const entry of fs.readdirSync(dir)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true }); // dir may be a mount point
  for (const f of PROJECT_FILES) fs.cpSync(path.join(REPO_ROOT, f), path.join(dir, f), { recursive: true });
  const doc = parseDocument(fs.readFileSync(MANIFEST, 'utf8'));
  const section = doc.get('network');
  if (!isMap(section)) throw new Error('project.yaml has no network section');
  if (network.chainId) section.set('chainId', network.chainId);
  if (network.endpoint) section.set('endpoint', [network.endpoint]);
  const origin = network.chainId ? ` for chain ${network.chainId}` : '';
  fs.writeFileSync(
    path.join(dir, 'project.yaml'),
    `# generated from project.yaml${origin}; do not edit\n${doc.toString()}`,
  );
  // the project's own settings for its mappings go with it
  const env = path.join(REPO_ROOT, '.env');
  if (fs.existsSync(env)) fs.copyFileSync(env, path.join(dir, '.env'));
  if (settings.proofOfIndexing === false) fs.appendFileSync(path.join(dir, '.env'), `\n${PROOF_SETTING}=false\n`);
}

/**
 * The project for a chain: the repository itself when the chain id matches project.yaml,
 * else a copy in `dir` with that chainId and endpoint. Call after the build; refreshed every start.
 */
export function projectFor(chainId: string, endpoint: string, dir: string): string {
  if (chainId === manifestChainId()) return REPO_ROOT;
  writeProjectCopy(dir, { chainId, endpoint });
  return dir;
}
