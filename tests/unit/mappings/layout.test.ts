/**
 * The mappings' layout rules (docs/indexer.md, "Handlers"): handlers/ orchestrate and never
 * import one another; entities/ and domain/ never import handlers/; entities/ imports no domain
 * rule; each entity is created (`<Entity>.create(`) in exactly one file, under entities/.
 */
import fs from 'fs';
import path from 'path';

const MAPPINGS = path.resolve(__dirname, '../../../src/mappings');

function sources(dir = MAPPINGS): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    )
    .filter((f) => !f.includes(`${path.sep}generated${path.sep}`));
}

const rel = (f: string) => path.relative(MAPPINGS, f);
const importsOf = (f: string) => [...fs.readFileSync(f, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);
const entityNames = fs
  .readdirSync(path.resolve(__dirname, '../../../src/types/models'))
  .map((f) => f.replace(/\.ts$/, ''))
  .filter((n) => n !== 'index');

describe('src/mappings layout', () => {
  it('handlers never import handlers (only handlers/index.ts gathers their tables)', () => {
    for (const f of sources().filter((x) => rel(x).startsWith('handlers/') && !rel(x).endsWith('index.ts'))) {
      expect([rel(f), importsOf(f).filter((i) => i.startsWith('./'))]).toEqual([rel(f), []]);
    }
  });

  it('entities/, domain/ and infra/ never import handlers/', () => {
    for (const f of sources().filter((x) => /^(entities|domain|infra)\//.test(rel(x)))) {
      expect([rel(f), importsOf(f).filter((i) => i.includes('handlers'))]).toEqual([rel(f), []]);
    }
  });

  it('entities/ imports no domain rule', () => {
    for (const f of sources().filter((x) => rel(x).startsWith('entities/'))) {
      expect([rel(f), importsOf(f).filter((i) => i.includes('domain'))]).toEqual([rel(f), []]);
    }
  });

  it('creates each entity in exactly one file, under entities/', () => {
    expect(entityNames.length).toBeGreaterThan(25);
    const creators = new Map<string, Set<string>>();
    for (const f of sources()) {
      const text = fs.readFileSync(f, 'utf8');
      for (const name of entityNames) {
        if (new RegExp(`\\b${name}\\.create\\(`).test(text))
          creators.set(name, (creators.get(name) ?? new Set()).add(rel(f)));
      }
    }
    expect(creators.size).toBeGreaterThan(25);
    for (const [name, files] of creators) {
      expect([name, files.size]).toEqual([name, 1]);
      expect([name, [...files].filter((f) => !f.startsWith('entities/'))]).toEqual([name, []]);
    }
  });
});
