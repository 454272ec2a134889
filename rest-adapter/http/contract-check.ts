/**
 * The start-up check of the routes against openapi.yaml. The route types (http/respond.ts) make
 * `tsc` refuse a parameter or an answer the document does not describe; what types cannot see is
 * checked here when the app is built: every documented path is served and nothing else, and the
 * page bounds and defaults the code assumes (paging/limits.ts: defaults, costs, statement plans)
 * are the ones the document states.
 */
import { parse } from 'yaml';
import { documentedOperations, operationProblems } from '../../src/http/openapi-routes';
import { DEFAULT_PAGE_LIMIT, DEFAULT_STATS_LIMIT, MAX_LIMIT } from '../paging/limits';

interface LimitSchema {
  minimum?: number;
  maximum?: number;
  default?: number;
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown>>;
  components?: { parameters?: Record<string, { schema?: LimitSchema }> };
}

/** Why the served routes and the document disagree; empty when they agree. */
export function routeContractProblems(documentText: string, served: readonly string[]): string[] {
  const doc = parse(documentText) as OpenApiDocument;
  const problems = operationProblems(
    documentedOperations(doc),
    served.map((path) => `GET ${path}`),
  );
  const expected: Record<string, LimitSchema> = {
    Limit: { minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_PAGE_LIMIT },
    StatsLimit: { minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_STATS_LIMIT },
  };
  for (const [name, bounds] of Object.entries(expected)) {
    const schema = doc.components?.parameters?.[name]?.schema ?? {};
    for (const key of ['minimum', 'maximum', 'default'] as const)
      if (schema[key] !== bounds[key])
        problems.push(
          `parameter ${name}: the document's ${key} is ${schema[key]}, paging/limits.ts says ${bounds[key]}`,
        );
  }
  return problems;
}

/** Throws when the served routes and the document disagree (createRestApp calls it once per app). */
export function checkRoutesAgainstContract(documentText: string, served: readonly string[]): void {
  const problems = routeContractProblems(documentText, served);
  if (problems.length) throw new Error(`the /v1 routes disagree with openapi.yaml:\n  ${problems.join('\n  ')}`);
}
