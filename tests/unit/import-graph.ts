/**
 * The tree's TypeScript import graph, read from the sources themselves, for the layout tests:
 * relative imports that load code at run time (`import type` and `export type` are erased by tsc
 * and left out), and its cycles.
 */
import fs from 'fs';
import path from 'path';
import ts from 'typescript';

export const ROOT = path.resolve(__dirname, '../..');
/** The source roots tsc compiles: the first folder of each tsconfig.json `include` pattern. */
const SOURCE_ROOTS: string[] = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')).include.map(
  (pattern: string) => pattern.split('/')[0],
);
/** Generated entity classes, excluded as in tsconfig.json. */
const EXCLUDED = [path.join(ROOT, 'src', 'types') + path.sep];

function tsFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : tsFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The file a relative specifier names (`./x` → x.ts or x/index.ts); undefined for packages and non-TS files. */
function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
}

/** Whether an import declaration loads the module at run time (not erased as types only). */
function loadsAtRunTime(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return true; // import './side-effect'
  if (clause.isTypeOnly) return false;
  if (clause.name) return true;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return true;
  return bindings.elements.length === 0 || bindings.elements.some((e) => !e.isTypeOnly);
}

/** The specifiers a file imports (import, export … from, require(), import()); type-only ones when `typesToo`. */
function specifiers(file: string, typesToo: boolean): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2020, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && (typesToo || loadsAtRunTime(node)) && ts.isStringLiteral(node.moduleSpecifier))
      found.push(node.moduleSpecifier.text);
    else if (
      ts.isExportDeclaration(node) &&
      (typesToo || !node.isTypeOnly) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push(node.moduleSpecifier.text);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0])
    )
      found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every file's relative imports, as resolved files: those that load code at run time, or all with `typesToo`. */
export function importGraph({ typesToo = false } = {}): Map<string, string[]> {
  const files = SOURCE_ROOTS.flatMap((r) => tsFiles(path.join(ROOT, r))).filter(
    (f) => !EXCLUDED.some((x) => f.startsWith(x)),
  );
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiers(file, typesToo)
      .map((specifier) => resolve(file, specifier))
      .filter((f): f is string => f !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * The graph between the sub-folders of `root` drawn from a file graph: a folder imports another
 * when one of its files imports one of the other's (each file directly in `root` is a node of its own).
 */
export function folderGraph(graph: Map<string, string[]>, root: string): Map<string, string[]> {
  const base = root + path.sep;
  const nodeOf = (file: string) => file.slice(base.length).split(path.sep)[0];
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    if (!file.startsWith(base)) continue;
    const from = nodeOf(file);
    if (!folders.has(from)) folders.set(from, new Set());
    for (const target of targets)
      if (target.startsWith(base) && nodeOf(target) !== from) folders.get(from)!.add(nodeOf(target));
  }
  return new Map([...folders].map(([folder, targets]) => [folder, [...targets]]));
}
