/**
 * `npm start` reads its configuration before it loads anything slow (launcher/start.ts): the
 * modules start.ts loads at run time before the launcher's dynamic import stay few, so a bad
 * value exits 2 within about a second (ts-node transpiles each module it loads; the REST app
 * alone pulled in ~90 of them and took 2–3 s on the 2-core machine before it was cut off).
 */
import path from 'path';
import { ROOT, importGraph } from '../import-graph';

test('start.ts loads the configuration without the REST app, the launcher, the devnet or the node', () => {
  const graph = importGraph();
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const g of graph.get(f) ?? []) visit(g);
  };
  seen.add(path.join(ROOT, 'launcher/launcher.ts')); // start.ts's dynamic import, after the configuration
  visit(path.join(ROOT, 'launcher/start.ts'));
  seen.delete(path.join(ROOT, 'launcher/launcher.ts'));
  const loaded = [...seen].map((f) => path.relative(ROOT, f)).sort();
  for (const heavy of ['rest-adapter/app.ts', 'src/runtime/devnet.ts', 'src/runtime/subql-node.ts'])
    expect(loaded).not.toContain(heavy);
  expect(loaded.filter((f) => f.startsWith('rest-adapter/'))).toEqual([
    'rest-adapter/config.ts',
    'rest-adapter/defaults.ts',
    'rest-adapter/stream/options.ts',
  ]);
  expect(loaded.length).toBeLessThan(60);
});
