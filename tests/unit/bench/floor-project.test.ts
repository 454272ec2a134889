/** bench:index's floor projects (bench/lib/floor-project.ts): the manifests and the bundle. */
import fs from 'fs';
import path from 'path';
import { parse } from 'yaml';
import {
  declFloorManifest,
  FLOOR_HANDLER,
  floorBundle,
  floorManifest,
  makeFloorProject,
  manifestHandlers,
} from '../../../bench/lib/floor-project';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const projectYaml = fs.readFileSync(path.join(ROOT, 'project.yaml'), 'utf8');

interface Handler {
  handler: string;
  kind: string;
  filter?: unknown;
}
interface Manifest {
  runner: unknown;
  network: { chainId: string; chaintypes: Record<string, unknown> };
  schema: { file: string };
  dataSources: { kind: string; startBlock: number; mapping: { file: string; handlers: Handler[] } }[];
  templates?: unknown;
}

describe('floor manifest (a single empty block handler)', () => {
  const original = parse(projectYaml) as Manifest;
  const floor = parse(floorManifest(projectYaml)) as Manifest;

  it('has exactly one data source with exactly one cosmos/BlockHandler, no filter', () => {
    expect(floor.dataSources).toHaveLength(1);
    const [ds] = floor.dataSources;
    expect(ds.kind).toBe('cosmos/Runtime');
    expect(ds.mapping.file).toBe('./dist/index.js');
    expect(ds.mapping.handlers).toEqual([{ handler: FLOOR_HANDLER, kind: 'cosmos/BlockHandler' }]);
    expect(manifestHandlers(floorManifest(projectYaml))).toEqual([FLOOR_HANDLER]);
  });

  it('keeps the runner, network, chaintypes and schema of the measured project', () => {
    expect(floor.runner).toEqual(original.runner);
    expect(floor.network).toEqual(original.network);
    expect(Object.keys(floor.network.chaintypes).length).toBeGreaterThan(10);
    expect(floor.schema).toEqual(original.schema);
  });

  it('starts at the earliest startBlock of the original data sources and drops templates', () => {
    const text = [
      'specVersion: 1.0.0',
      'network: { chainId: x }',
      'dataSources:',
      '  - { kind: cosmos/Runtime, startBlock: 7, mapping: { file: ./dist/index.js, handlers: [] } }',
      '  - { kind: cosmos/Runtime, startBlock: 3, mapping: { file: ./dist/index.js, handlers: [] } }',
      'templates:',
      '  - { name: t }',
    ].join('\n');
    const m = parse(floorManifest(text)) as Manifest;
    expect(m.dataSources[0].startBlock).toBe(3);
    expect(m.templates).toBeUndefined();
    expect(() => floorManifest('specVersion: 1.0.0\n')).toThrow(/no dataSources/);
  });
});

describe("floor-decl manifest (the project's own handler declarations, empty bodies)", () => {
  it('is the manifest verbatim, with every declared handler', () => {
    expect(declFloorManifest(projectYaml)).toBe(projectYaml);
    const handlers = manifestHandlers(projectYaml);
    expect(handlers).toEqual(['handleBlock']);
  });
});

describe('floor bundle and project directory', () => {
  it('exports each handler as an empty async function', async () => {
    const mod: Record<string, () => Promise<unknown>> = {};
    new Function('exports', floorBundle(['a', 'b']))(mod);
    expect(Object.keys(mod)).toEqual(['a', 'b']);
    await expect(mod.a()).resolves.toBeUndefined();
  });

  it.each([
    ['block', [FLOOR_HANDLER]],
    ['decl', manifestHandlers(projectYaml)],
  ] as const)('makeFloorProject(%s) writes project.yaml, schema, proto and the bundle', (kind, handlers) => {
    const floor = makeFloorProject(ROOT, kind);
    try {
      expect(floor.handlers).toEqual(handlers);
      for (const f of ['project.yaml', 'schema.graphql', 'proto', 'dist/index.js'])
        expect(fs.existsSync(path.join(floor.dir, f))).toBe(true);
      const bundle = fs.readFileSync(path.join(floor.dir, 'dist', 'index.js'), 'utf8');
      for (const h of handlers) expect(bundle).toContain(`exports.${h} = async function ${h}() {};`);
    } finally {
      floor.remove();
    }
    expect(fs.existsSync(floor.dir)).toBe(false);
  });
});
