/**
 * The mappings' layout rules (docs/indexer.md, "Handlers"): handlers/ orchestrate and never
 * import one another; entities/ and domain/ never import handlers/; entities/ imports no domain
 * rule; each entity is created (`<Entity>.create(`) in exactly one file, under entities/; and a
 * row changes only through entities/ (its transitions mark it for writing and move its
 * updated_height, so no handler or domain rule can change a row and forget to write it).
 */
import fs from 'fs';
import path from 'path';
import ts from 'typescript';

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

  it('handlers/ and domain/ change rows only through entities/', () => {
    const files = sources().filter((x) => /^(handlers|domain)\//.test(rel(x)));
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) expect([rel(f), rowChanges(f, fs.readFileSync(f, 'utf8'))]).toEqual([rel(f), []]);
  });

  it('the row-change rule sees each form it forbids (a rule that saw nothing would pass vacuously)', () => {
    const forbidden = [
      'markDirty(x);',
      "import { markDirty } from '../infra/block-cache';",
      'x.updatedHeight = 1;',
      'x.status = s;',
      'x.units += 1n;',
      'x.multiplier *= f;',
      'x.a ??= b;',
      'x[k] = v;',
      'x.count++;',
      '--x.count;',
      'Object.assign(x, {});',
      'const y = x.j as unknown as T;',
    ];
    for (const code of forbidden) expect([code, rowChanges('s.ts', code).length]).toEqual([code, 1]);
    const allowed = [
      'const y = { a: 1, b: x.b };',
      'let z = 1; z += 1; z++;',
      'update(ctx, x, { units: x.units + 1n });',
      'const t = x.j as T;',
    ];
    for (const code of allowed) expect([code, rowChanges('s.ts', code)]).toEqual([code, []]);
  });
});

/**
 * What handlers/ and domain/ may not do to a row, read off the syntax tree (one line per finding):
 * - name `markDirty` at all (import or call): marking a row for writing is entities/' job;
 * - write a property: an assignment (`=`, or a compound one: `+=`, `-=`, `*=`, `??=`...) to `x.f`
 *   or `x[k]`, or `++`/`--` on one. Every object these folders could change through a property is
 *   a row or a part of one (a JSON column's element): what they build themselves they build whole
 *   (literals, spreads). So the rule is any property write, whatever the object;
 * - `Object.assign(`: a property write by another name;
 * - `as unknown as`: a JSON column (or a message's JSON) is read as its type through a typed
 *   accessor in entities/ (or infra/), never cast in place.
 * Writing a local variable (`z += 1`) is none of these.
 */
function rowChanges(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (n: ts.Node, what: string) =>
    found.push(`${file.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${what} ${n.getText()}`);
  const isProperty = (n: ts.Node) => ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n);
  const isAssignment = (k: ts.SyntaxKind) => k >= ts.SyntaxKind.FirstAssignment && k <= ts.SyntaxKind.LastAssignment;
  const isStep = (k: ts.SyntaxKind) => k === ts.SyntaxKind.PlusPlusToken || k === ts.SyntaxKind.MinusMinusToken;
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n) && n.text === 'markDirty') at(n, 'marks dirty:');
    else if (ts.isBinaryExpression(n) && isAssignment(n.operatorToken.kind) && isProperty(n.left)) at(n, 'writes:');
    else if (
      (ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) &&
      isStep(n.operator) &&
      isProperty(n.operand)
    )
      at(n, 'writes:');
    else if (ts.isCallExpression(n) && n.expression.getText() === 'Object.assign') at(n, 'writes:');
    else if (
      ts.isAsExpression(n) &&
      ts.isAsExpression(n.expression) &&
      n.expression.type.kind === ts.SyntaxKind.UnknownKeyword
    )
      at(n, 'casts:');
    ts.forEachChild(n, visit);
  };
  visit(file);
  return found;
}
