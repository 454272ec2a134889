/** No module imports itself back through any chain of run-time imports, anywhere in the tree. */
import path from 'path';
import { ROOT, cycles, folderGraph, importGraph } from './import-graph';

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

  it('has no import cycle between the sub-folders of rest-adapter', () => {
    const folders = folderGraph(graph, path.join(ROOT, 'rest-adapter'));
    expect(folders.get('reads')).toContain('repositories');
    expect(cycles(folders)).toEqual([]);
  });
});
