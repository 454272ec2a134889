/**
 * The parts of the tree stay apart (issue 25): rest-adapter, app-services and reconciler import
 * nothing of one another; the store room imports none of its users; no library part imports the
 * process entry points in launcher/. Type-only imports count: a shared row type belongs in the
 * store room.
 */
import fs from 'fs';
import path from 'path';
import { ROOT, importGraph } from './import-graph';

/** The store room (issue 25 item 1): the one place the parts share the indexer's database. */
const STORE_ROOM = 'src/store';
const LIBRARY_PARTS = ['rest-adapter', 'app-services', 'reconciler', 'verify'];
const ENTRY_POINTS = 'launcher';

const graph = importGraph({ typesToo: true });
const rel = (f: string) => path.relative(ROOT, f);
const partOf = (f: string) => [STORE_ROOM, ENTRY_POINTS, ...LIBRARY_PARTS].find((p) => rel(f).startsWith(`${p}/`));

/** Every import (`<from> -> <to>`) from a file of `from` into a file of one of `into`. */
function importsBetween(from: string, into: readonly string[]): string[] {
  return [...graph].flatMap(([file, targets]) =>
    partOf(file) !== from
      ? []
      : targets.filter((t) => into.includes(partOf(t) ?? '')).map((t) => `${rel(file)} -> ${rel(t)}`),
  );
}

describe('the parts stay apart', () => {
  it('the store room exists and is used by every part', () => {
    const users = new Set(
      [...graph].flatMap(([file, targets]) => (targets.some((t) => partOf(t) === STORE_ROOM) ? [partOf(file)] : [])),
    );
    for (const part of [...LIBRARY_PARTS, ENTRY_POINTS]) expect([part, users.has(part)]).toEqual([part, true]);
  });

  it.each(LIBRARY_PARTS)('%s imports nothing of the other library parts', (part) => {
    expect(
      importsBetween(
        part,
        LIBRARY_PARTS.filter((p) => p !== part),
      ),
    ).toEqual([]);
  });

  it('the store room imports none of its users', () => {
    expect(importsBetween(STORE_ROOM, [...LIBRARY_PARTS, ENTRY_POINTS])).toEqual([]);
  });

  it.each(LIBRARY_PARTS)('%s imports no process entry point (launcher/)', (part) => {
    expect(importsBetween(part, [ENTRY_POINTS])).toEqual([]);
  });
});

/**
 * The files the project runs as processes: `npm run` scripts (ts-node) and the image's commands
 * (Dockerfile, docker-compose.yml: compiled to .js).
 */
function entryPoints(): Set<string> {
  const scripts = Object.values(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts);
  const image = ['Dockerfile', 'docker-compose.yml'].map((f) => fs.readFileSync(path.join(ROOT, f), 'utf8'));
  const named = [...scripts, ...image].join('\n').matchAll(/\b(launcher\/[\w-]+)\.(?:ts|js)\b/g);
  return new Set([...named].map((m) => `${m[1]}.ts`));
}

describe('launcher/ holds only entry points and their wiring', () => {
  const entries = entryPoints();
  const intoLauncher = [...graph].flatMap(([file, targets]) =>
    partOf(file) === ENTRY_POINTS
      ? []
      : targets.filter((t) => partOf(t) === ENTRY_POINTS).map((t) => [rel(file), rel(t)] as const),
  );

  it('finds the entry points', () => {
    expect([...entries].sort()).toEqual(
      expect.arrayContaining(['launcher/start.ts', 'launcher/serve.ts', 'launcher/rest-adapter-main.ts']),
    );
  });

  it('nothing outside launcher/ imports it (what tools share is in src/runtime/); a test imports only the entry point it runs', () => {
    const wrong = intoLauncher.filter(([file, target]) => !(file.startsWith('tests/') && entries.has(target)));
    expect(wrong.map(([file, target]) => `${file} -> ${target}`)).toEqual([]);
  });

  it('every other file in launcher/ is wiring that an entry point imports', () => {
    const launcherFiles = [...graph.keys()].filter((f) => partOf(f) === ENTRY_POINTS).map(rel);
    const imported = new Set(
      [...graph].flatMap(([file, targets]) => (partOf(file) === ENTRY_POINTS ? targets.map(rel) : [])),
    );
    expect(launcherFiles.filter((f) => !entries.has(f) && !imported.has(f))).toEqual([]);
  });
});
