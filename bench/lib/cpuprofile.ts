/**
 * Where the node's CPU time goes, from a V8 .cpuprofile (node --cpu-prof):
 * self time by category (GC, the vm2 sandbox bridge, the mapping bundle,
 * Sequelize, the pg driver, the node's fetch/decode, ...) and inclusive time
 * of the functions that bound the pipeline (handler calls, flushes, fetches).
 *
 *   npx ts-node --transpile-only bench/lib/cpuprofile.ts <file.cpuprofile> [--top 25] [--skip-ms N]
 *
 * --skip-ms: leave out the node's start-up (bench:index prints it per run).
 */
import fs from 'fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** self ms by category, largest first */
  categories: [string, number][];
  /** self ms by function (category: name), largest first */
  functions: [string, number][];
  /** inclusive ms of selected functions */
  inclusive: Record<string, number>;
}

/** Functions whose inclusive time tells the pipeline's shape. */
export const PIPELINE_FUNCTIONS = [
  'securedExec', // one sandboxed handler call
  'indexBlock',
  'indexBlockData',
  '_flushCache', // store cache -> PostgreSQL (one transaction)
  'flush', // CachedModel.flush: bulkCreate/upsert per entity
  'fetchBlocks',
  'bulkCreate',
  'bulkUpdate',
  'get', // store.get through the cache (may hit the DB)
  'runTimeout',
  'e.handleBlock', // the mapping bundle's block handler (webpack names exports e.<name>)
  'e.readBlock', // the node's block read into the sandbox
  'e.flushDirty', // the block's entities handed to the store
  'e.queryAll', // store queries merged with the block's changes
  'parse',
  'stringify',
  'cloneDeep',
];

export function category(f: CallFrame): string {
  const u = f.url;
  if (f.functionName === '(garbage collector)') return 'GC';
  if (f.functionName === '(idle)') return 'idle';
  if (f.functionName === '(program)') return 'program (V8/native)';
  if (f.functionName === '(root)') return 'root';
  if (u.includes('/dist/index.js')) return 'mapping bundle (dist/index.js)';
  if (u.includes('/vm2/')) return 'sandbox bridge (vm2)';
  if (u.includes('x-sequelize') || u.includes('/sequelize/')) return 'Sequelize';
  if (
    u.includes('/pg-protocol/') ||
    u.includes('/node_modules/pg/') ||
    u.includes('/pg-types/') ||
    u.includes('postgres-')
  )
    return 'pg driver';
  if (u.includes('@subql/node-cosmos')) return '@subql/node-cosmos (fetch, wrap, filter)';
  if (u.includes('@subql/node-core')) return '@subql/node-core (dispatch, cache, sandbox)';
  if (u.includes('@cosmjs') || u.includes('cosmjs-types')) return 'cosmjs (RPC, decode)';
  if (u.includes('protobufjs')) return 'protobufjs (msg decode)';
  if (u.includes('@nestjs') || u.includes('rxjs') || u.includes('eventemitter')) return 'Nest/events';
  if (u.startsWith('node:') || u === '' || !u.includes('/')) return 'node internals/builtins';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u);
  return m ? `npm:${m[1]}` : `other (${u.split('/').slice(-2).join('/')})`;
}

/** `skipMs`: ignore the first milliseconds of the profile (the node's start-up). */
export function summarise(profile: CpuProfile, skipMs = 0): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfMs = new Map<number, number>();
  let elapsedUs = 0;
  profile.samples.forEach((id, i) => {
    elapsedUs += profile.timeDeltas[i] ?? 0;
    if (elapsedUs / 1000 < skipMs) return;
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const categories = new Map<string, number>();
  const functions = new Map<string, number>();
  const inclusive: Record<string, number> = Object.fromEntries(PIPELINE_FUNCTIONS.map((f) => [f, 0]));
  let total = 0;
  for (const [id, ms] of selfMs) {
    const node = byId.get(id)!;
    const cat = category(node.callFrame);
    total += ms;
    categories.set(cat, (categories.get(cat) ?? 0) + ms);
    const fn = `${cat}: ${node.callFrame.functionName || '(anonymous)'}${node.callFrame.url ? ` ${node.callFrame.url.split('/').slice(-1)[0]}:${node.callFrame.lineNumber + 1}` : ''}`;
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
    // inclusive: each named pipeline function once per stack
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const name = byId.get(cur)!.callFrame.functionName;
      if (Object.prototype.hasOwnProperty.call(inclusive, name) && !seen.has(name)) {
        seen.add(name);
        inclusive[name] += ms;
      }
    }
  }
  const sorted = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, Math.round(v)] as [string, number]);
  return {
    totalMs: Math.round(total),
    categories: sorted(categories),
    functions: sorted(functions),
    inclusive: Object.fromEntries(Object.entries(inclusive).map(([k, v]) => [k, Math.round(v)])),
  };
}

if (require.main === module) {
  const file = process.argv[2];
  const opt = (name: string) =>
    process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : undefined;
  const top = opt('--top') ?? 25;
  const skipMs = opt('--skip-ms') ?? 0;
  if (!file) {
    console.error('usage: cpuprofile.ts <file.cpuprofile> [--top N]');
    process.exit(2);
  }
  const s = summarise(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile, skipMs);
  const pct = (ms: number) => `${((100 * ms) / s.totalMs).toFixed(1)}%`;
  console.log(`total sampled ${s.totalMs} ms`);
  console.log('\nself time by category:');
  for (const [c, ms] of s.categories.slice(0, top))
    console.log(`  ${String(ms).padStart(7)} ms ${pct(ms).padStart(6)}  ${c}`);
  console.log('\ninclusive time of pipeline functions:');
  for (const [f, ms] of Object.entries(s.inclusive))
    console.log(`  ${String(ms).padStart(7)} ms ${pct(ms).padStart(6)}  ${f}`);
  console.log(`\ntop ${top} functions by self time:`);
  for (const [f, ms] of s.functions.slice(0, top))
    console.log(`  ${String(ms).padStart(7)} ms ${pct(ms).padStart(6)}  ${f}`);
}
