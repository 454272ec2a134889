/**
 * No module imports itself back through any chain of imports, anywhere in the tree, and no folder
 * imports itself back through other folders (type-only imports count: a type shared by two folders
 * belongs in a third that both import).
 */
import path from 'path';
import { ROOT, cycles, folderGraph, hasSubFolders, importGraph } from './import-graph';

const rel = (f: string) => path.relative(ROOT, f);

describe('import graph', () => {
  const graph = importGraph({ typesToo: true });

  it('reads the whole tree', () => {
    expect(graph.size).toBeGreaterThan(300);
    const devnetAsset = path.join(ROOT, 'devnet/app/modules/asset.ts');
    expect(graph.get(devnetAsset)).toContain(path.join(ROOT, 'devnet/app/modules/rights.ts'));
  });

  it('finds a cycle when there is one', () => {
    const a = path.join(ROOT, 'a.ts');
    const b = path.join(ROOT, 'b.ts');
    const c = path.join(ROOT, 'c.ts');
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, [a]],
        ]),
      ),
    ).toEqual([[a, b, c]]);
    expect(cycles(new Map([[a, [a]]]))).toEqual([[a]]);
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, []],
        ]),
      ),
    ).toEqual([]);
  });

  it('has no import cycle anywhere in the tree', () => {
    expect(cycles(graph).map((c) => c.map(rel))).toEqual([]);
  });

  it('finds a cycle between folders, through any of their files', () => {
    const file = (f: string) => path.join(ROOT, f);
    const twoFolders = new Map([
      [file('part/db/sql.ts'), [file('part/http/params.ts')]],
      [file('part/http/params.ts'), []],
      [file('part/http/watcher.ts'), [file('part/db/other.ts')]],
      [file('part/db/other.ts'), []],
    ]);
    const leaf = (dir: string) => dir === 'part';
    expect(cycles(folderGraph(twoFolders, leaf))).toEqual([['part/db', 'part/http']]);
    // a composition root beside its sub-folders, and a contract file they share, make no cycle
    const rooted = new Map([
      [file('part/app.ts'), [file('part/db/sql.ts'), file('part/http/params.ts')]],
      [file('part/db/sql.ts'), [file('part/contract.ts')]],
      [file('part/http/params.ts'), [file('part/contract.ts'), file('part/db/sql.ts')]],
      [file('part/contract.ts'), []],
    ]);
    expect(cycles(folderGraph(rooted, leaf))).toEqual([]);
  });

  it('has no import cycle between folders anywhere in the tree', () => {
    expect(cycles(folderGraph(graph, hasSubFolders))).toEqual([]);
  });
});
