/**
 * What npm start does with a store indexed by another version of the project (src/runtime/index-version.ts).
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { loadLauncherConfig } from '../../../src/runtime/config';
import {
  besideSchema,
  planIndex,
  projectFingerprint,
  saveServingSchema,
  servingSchemaOf,
  type IndexFacts,
} from '../../../src/runtime/index-version';

const OLD = 'a'.repeat(64);
const NEW = 'b'.repeat(64);
const facts = (over: Partial<IndexFacts>): IndexFacts => ({
  servingSchema: 'svc',
  baseSchema: 'svc',
  stored: OLD,
  current: OLD,
  externalDatabase: false,
  reindex: false,
  ...over,
});

describe('planIndex', () => {
  test('the same project, a fresh schema or a store from before the record: resume where it is', () => {
    expect(planIndex(facts({}))).toEqual({ kind: 'resume', schema: 'svc' });
    expect(planIndex(facts({ stored: null, current: NEW }))).toEqual({ kind: 'resume', schema: 'svc' });
    expect(planIndex(facts({ stored: '', current: NEW, externalDatabase: true }))).toEqual({
      kind: 'resume',
      schema: 'svc',
    });
  });

  test('a changed project on the embedded store: indexed beside the serving schema, named by its fingerprint', () => {
    expect(planIndex(facts({ current: NEW, servingSchema: 'svc_aaaaaaaa' }))).toEqual({
      kind: 'beside',
      serving: 'svc_aaaaaaaa',
      into: 'svc_bbbbbbbb',
    });
    expect(besideSchema('svc', NEW)).toBe('svc_bbbbbbbb');
  });

  test('a changed project against DATABASE_URL: refused with one line naming --reindex and force-clean', () => {
    const plan = planIndex(facts({ current: NEW, externalDatabase: true }));
    expect(plan.kind).toBe('refuse');
    const message = (plan as { message: string }).message;
    expect(message).toMatch(/npm start -- --reindex/);
    expect(message).toMatch(/force-clean/);
    expect(message).not.toMatch(/\n/);
  });

  test('--reindex drops an existing index (changed or not), and on a fresh schema has nothing to drop', () => {
    expect(planIndex(facts({ current: NEW, externalDatabase: true, reindex: true }))).toEqual({
      kind: 'drop',
      schema: 'svc',
    });
    expect(planIndex(facts({ reindex: true }))).toEqual({ kind: 'drop', schema: 'svc' });
    expect(planIndex(facts({ stored: null, reindex: true }))).toEqual({ kind: 'resume', schema: 'svc' });
  });
});

describe('projectFingerprint', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fingerprint-'));
    fs.mkdirSync(path.join(dir, 'dist'));
    fs.writeFileSync(path.join(dir, 'schema.graphql'), 'type Block @entity { id: ID! }\n');
    fs.writeFileSync(
      path.join(dir, 'project.yaml'),
      'specVersion: 1.0.0\nnetwork:\n  chainId: svc-devnet-1\n  endpoint: [http://a:26657]\ndataSources: []\n',
    );
    fs.writeFileSync(path.join(dir, 'dist', 'index.js'), 'module.exports = {};\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('changes with the schema, the manifest or the bundle, not with the network section', () => {
    const base = projectFingerprint(dir);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    fs.writeFileSync(
      path.join(dir, 'project.yaml'),
      'specVersion: 1.0.0\nnetwork:\n  chainId: other-1\n  endpoint: [http://b:26657]\ndataSources: []\n',
    );
    expect(projectFingerprint(dir)).toBe(base);
    fs.writeFileSync(path.join(dir, 'schema.graphql'), 'type Block @entity { id: ID! label: String }\n');
    const changedSchema = projectFingerprint(dir);
    expect(changedSchema).not.toBe(base);
    fs.writeFileSync(path.join(dir, 'dist', 'index.js'), 'module.exports = { a: 1 };\n');
    expect(projectFingerprint(dir)).not.toBe(changedSchema);
  });
});

describe('the serving schema of an embedded store', () => {
  test('DB_SCHEMA until a switch is saved, then the saved one; a file naming another base is ignored', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serving-'));
    expect(servingSchemaOf(dir, 'svc')).toBe('svc');
    saveServingSchema(dir, 'svc_bbbbbbbb');
    expect(servingSchemaOf(dir, 'svc')).toBe('svc_bbbbbbbb');
    expect(servingSchemaOf(dir, 'other')).toBe('other');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('npm start arguments', () => {
  const load = (args: string[]) => loadLauncherConfig({}, { stdoutIsTTY: false, cwd: '/tmp', args });
  test('--reindex is read; anything else is refused naming it', () => {
    expect(load([]).reindex).toBe(false);
    expect(load(['--reindex']).reindex).toBe(true);
    expect(() => load(['--reindx'])).toThrow(/arguments: npm start takes only --reindex \(after --\), got --reindx/);
  });

  test('PROJECT_DIR must be a built project', () => {
    expect(() => loadLauncherConfig({ PROJECT_DIR: '/nonexistent' }, { stdoutIsTTY: false, cwd: '/tmp' })).toThrow(
      /PROJECT_DIR: \/nonexistent is not a built SubQuery project/,
    );
  });
});
