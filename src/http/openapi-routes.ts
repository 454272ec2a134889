/**
 * Whether the routes an HTTP part serves are exactly the operations its OpenAPI document
 * describes (rest-adapter for /v1, app-services for /api check this when they build their router).
 * An operation is written `<METHOD> <document path>`, e.g. `GET /v1/assets/{id}`.
 */
import { parse } from 'yaml';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The operations of a document (its `paths`), as `<METHOD> <path>`. */
export function documentedOperations(doc: { paths?: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** Why the served operations and the document's disagree; empty when they agree. */
export function operationProblems(documented: readonly string[], served: readonly string[]): string[] {
  return [
    ...documented.filter((op) => !served.includes(op)).map((op) => `${op} is documented but not served`),
    ...served.filter((op) => !documented.includes(op)).map((op) => `${op} is served but not documented`),
  ];
}

/** Throws, naming each disagreement, when a part serves other operations than its document describes. */
export function checkServedOperations(what: string, documentText: string, served: readonly string[]): void {
  const problems = operationProblems(documentedOperations(parse(documentText)), served);
  if (problems.length) throw new Error(`${what} disagree with their OpenAPI document:\n  ${problems.join('\n  ')}`);
}
