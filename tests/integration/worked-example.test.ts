/**
 * README.md "Adding an event handler": the worked example (EventKindRenamed) stays green.
 *
 * tests/fixtures/worked-example.patch is the example as a developer types it (proto, devnet
 * message and scenario step, manifest, handler, schema, tests); what the generators derive is
 * left out of it and generated here. The test copies the working tree (tracked and untracked,
 * not ignored files; node_modules symlinked) to a temp dir, applies the patch, runs the
 * generators and `npm run build` as the README names them, then runs the whole unit project
 * there (README: "then `npm test`"): the handler's unit test, the manifest test, the
 * event-coverage test (the devnet history emits every typed event type, the new one included),
 * and every scenario test the example's new step shifts (about a minute and a half). The README's code blocks of the example must
 * appear, line for line, in the patched files, so the README and the patch cannot drift apart.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const PATCH = path.join(ROOT, 'tests', 'fixtures', 'worked-example.patch');
const EVENT = 'svc.asset.v1.EventKindRenamed';

function run(cwd: string, cmd: string, args: string[], input?: Buffer): SpawnSyncReturns<string> {
  const result = spawnSync(cmd, args, {
    cwd,
    input,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, FORCE_COLOR: '0', CI: '1' },
  });
  if (result.error) throw result.error;
  return result;
}

/** Runs a command in `cwd`; fails the test with its output when it exits non-zero. */
function must(cwd: string, cmd: string, args: string[], input?: Buffer): string {
  const r = run(cwd, cmd, args, input);
  if (r.status !== 0)
    throw new Error(`\`${[cmd, ...args].join(' ')}\` exited ${r.status} in ${cwd}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The patch's files, by the path they have after it applies. */
function patchedFiles(patch: string): string[] {
  return [...patch.matchAll(/^\+\+\+ b\/(.+)$/gm)].map((m) => m[1]);
}

/** The fenced code blocks of README.md's "Adding an event handler" section, as trimmed lines. */
function readmeExampleBlocks(): string[][] {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Adding an event handler');
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^[ \t]*```(?:ts|proto)\n([\s\S]*?)^[ \t]*```$/gm)].map((m) =>
    m[1]
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && l !== '// ...'),
  );
}

/** Whether `needles` occur in `haystack` in order. */
function inOrder(haystack: string[], needles: string[]): boolean {
  let i = 0;
  for (const line of haystack) if (i < needles.length && line === needles[i]) i += 1;
  return i === needles.length;
}

describe("README's worked example (Adding an event handler)", () => {
  const patch = fs.readFileSync(PATCH, 'utf8');
  let copy = '';

  beforeAll(() => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'worked-example-'));
    // the working tree as it is (tracked and untracked, not ignored), without .git or generated dirs
    const listed = must(ROOT, 'git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'])
      .split('\0')
      .filter((f) => f !== '' && f !== 'node_modules' && fs.existsSync(path.join(ROOT, f)));
    must(ROOT, 'tar', ['-c', '--null', '-T', '-', '-f', path.join(copy, '.tree.tar')], Buffer.from(listed.join('\0')));
    must(copy, 'tar', ['-x', '-f', '.tree.tar']);
    fs.rmSync(path.join(copy, '.tree.tar'));
    fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(copy, 'node_modules'));
  }, 120_000);

  afterAll(() => {
    if (copy) fs.rmSync(copy, { recursive: true, force: true });
  });

  it("the README's code blocks of the example are the patch's code", () => {
    const added = new Set(
      patch
        .split('\n')
        .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
        .map((l) => l.slice(1).trim()),
    );
    const blocks = readmeExampleBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(4); // proto, devnet handler, scenario step, indexer handler
    for (const block of blocks) {
      // a block shows the example's own code, not only code that exists already
      expect(block.some((l) => added.has(l))).toBe(true);
    }
  });

  it(
    'applies to a copy of the project, generates, builds, and the whole unit project passes there',
    () => {
      must(copy, 'git', ['apply', '--verbose', PATCH]);

      // the README's code blocks appear, in order, in the patched files
      const texts = patchedFiles(patch).map((f) =>
        fs
          .readFileSync(path.join(copy, f), 'utf8')
          .split('\n')
          .map((l) => l.trim()),
      );
      for (const block of readmeExampleBlocks())
        expect([block, texts.some((t) => inOrder(t, block))]).toEqual([block, true]);

      // step 1: what is derived from proto/
      must(copy, process.execPath, ['scripts/gen-contract-descriptor.js']);
      must(copy, 'npm', ['run', '--silent', 'gen:event-types']);
      must(copy, process.execPath, ['scripts/gen-proto-readme.js']);
      expect(fs.readFileSync(path.join(copy, 'src/mappings/generated/proto-json.ts'), 'utf8')).toContain(`'${EVENT}'`);

      // then `npm run build` (subql codegen: src/types with Kind.label; subql build: the bundle)
      must(copy, 'npm', ['run', '--silent', 'build']);
      expect(fs.readFileSync(path.join(copy, 'src/types/models/Kind.ts'), 'utf8')).toMatch(/\blabel\b/);

      // the whole unit project: the handler's test, the manifest and event-coverage tests, and
      // the scenario tests the new step shifts (it left two of them red before Kind had a label)
      const jest = run(copy, process.execPath, [
        path.join(copy, 'node_modules', 'jest', 'bin', 'jest.js'),
        '--ci',
        '--maxWorkers=2', // as npm test runs the unit project; the integration file around it waits meanwhile
        '--verbose',
        '--selectProjects',
        'unit',
      ]);
      const output = `${jest.stdout}\n${jest.stderr}`;
      if (jest.status !== 0) throw new Error(`jest in the patched copy failed:\n${output}`);
      expect(output).toMatch(/✓ EventKindRenamed sets the kind's label/);
      expect(output).toMatch(/✓ the history emits every typed event type of the contract/);
    },
    15 * 60_000,
  );
});
