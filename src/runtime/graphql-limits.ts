/**
 * What one GraphQL query may ask of the store, checked before PostGraphile runs it:
 *
 * - **page size**: `first`/`last` of every connection is at most MAX_PAGE (100, as /v1's `limit`);
 *   a connection given neither reads MAX_PAGE rows (pageBoundPlugin), as SubQuery's query service
 *   does, so `{ txes { nodes { id } } }` is one page and never the whole table;
 * - **depth**: nested selections (introspection's own fields not counted) at most `maxDepth`;
 * - **cost**: the rows the query may read: each connection's page size (plus its `offset`) times
 *   what its rows select, a row reached through a relation 1, `totalCount` TOTAL_COUNT_COST;
 *   at most `maxCost`. The same figure is what the query is charged to its client's budget:
 *   1 + cost / 10 units, as a page of /v1 (a query of 100 rows costs what `?limit=100` does);
 * - optionally, only allow-listed operations (`allowlist`): a request names one by its SHA-256
 *   (`extensions.persistedQuery.sha256Hash`, Apollo's form, or `id`) or sends its exact text.
 */
import crypto from 'crypto';
import fs from 'fs';
import {
  GraphQLObjectType,
  Kind,
  getNamedType,
  isCompositeType,
  parse,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import type { Plugin } from 'postgraphile';

/** The most rows one connection answers, and what a connection without `first`/`last` reads. */
export const MAX_PAGE = 100;
/** `totalCount` counts the whole filtered set: priced as a full page. */
export const TOTAL_COUNT_COST = MAX_PAGE;
/** Units of a query as a page of /v1 is charged: 1 + rows / 10. */
export const unitsOfCost = (cost: number): number => 1 + cost / 10;

export interface GraphqlLimitSettings {
  maxDepth: number;
  maxCost: number;
  /** the allow-listed documents; undefined: any query within the limits */
  allowlist?: readonly string[];
}

/** A request PostGraphile may run (its query text and its cost), or why not (a 400). */
export type Checked =
  | { ok: true; query: string; cost: number }
  | {
      ok: false;
      code: 'QUERY_TOO_DEEP' | 'QUERY_TOO_COSTLY' | 'PAGE_TOO_LARGE' | 'OPERATION_NOT_ALLOWED';
      message: string;
    };

interface Body {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
  id?: unknown;
  extensions?: { persistedQuery?: { sha256Hash?: unknown } };
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

/** Reads GRAPHQL_ALLOWLIST_FILE: a JSON array of documents, or an object of name → document. */
export function readAllowlist(file: string): string[] {
  const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  const documents = Array.isArray(parsed) ? parsed : Object.values(parsed as Record<string, unknown>);
  if (!documents.every((d) => typeof d === 'string' && d.trim() !== ''))
    throw new Error('must hold a JSON array (or object) of GraphQL documents as strings');
  for (const d of documents as string[]) parse(d); // a syntax error shows at start, not at the first request
  return documents as string[];
}

function isConnection(type: GraphQLNamedType): boolean {
  return type instanceof GraphQLObjectType && type.name.endsWith('Connection') && 'nodes' in type.getFields();
}

function isEdge(type: GraphQLNamedType): boolean {
  return type instanceof GraphQLObjectType && type.name.endsWith('Edge') && 'node' in type.getFields();
}

const pageOf = (args: Record<string, unknown>): number =>
  typeof args.first === 'number' ? args.first : typeof args.last === 'number' ? args.last : MAX_PAGE;

/** `totalCount` asked of a connection (directly or in an inline fragment): one count per connection, not per row. */
function selectsTotalCount(set: SelectionSetNode | undefined): boolean {
  return (set?.selections ?? []).some((s) =>
    s.kind === Kind.FIELD
      ? s.name.value === 'totalCount'
      : s.kind === Kind.INLINE_FRAGMENT && selectsTotalCount(s.selectionSet),
  );
}

/** Rows read: see the header. */
const rowsEstimator: ComplexityEstimator = ({ type, field, node, args, childComplexity }) => {
  if (field.name.startsWith('__')) return 0; // introspection reads no row
  const named = getNamedType(field.type);
  if (isConnection(named)) {
    const offset = typeof args.offset === 'number' ? Math.max(0, args.offset) : 0;
    const count = selectsTotalCount(node.selectionSet) ? TOTAL_COUNT_COST : 0;
    // each row, and what each row selects (a relation's row, a nested connection's page)
    return pageOf(args) * (1 + childComplexity) + offset + count;
  }
  const parent = getNamedType(type);
  if (isConnection(parent) || isEdge(parent)) return field.name === 'totalCount' ? 0 : childComplexity;
  return isCompositeType(named) ? 1 + childComplexity : 0;
};

/** The operation's depth: fields nested in fields, through fragments, introspection not counted. */
function depthOf(
  set: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  max: number,
  seen: ReadonlySet<string> = new Set(),
): number {
  let deepest = 0;
  for (const selection of set.selections) {
    let depth = 0;
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith('__')) continue;
      depth = 1 + (selection.selectionSet ? depthOf(selection.selectionSet, fragments, max, seen) : 0);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      depth = depthOf(selection.selectionSet, fragments, max, seen);
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (!fragment || seen.has(name)) continue; // unknown or cyclic: GraphQL's validation refuses it
      depth = depthOf(fragment.selectionSet, fragments, max, new Set([...seen, name]));
    }
    deepest = Math.max(deepest, depth);
    if (deepest > max) return deepest; // deep enough to refuse: no need to walk the rest
  }
  return deepest;
}

/** Page sizes asked anywhere in the document that are over the bound (literal values and variables). */
function pageProblem(document: DocumentNode, variables: Record<string, unknown>): string | undefined {
  let problem: string | undefined;
  const check = (name: string, value: unknown) => {
    if (typeof value === 'number' && (value < 0 || value > MAX_PAGE))
      problem ??= `\`${name}\` is ${value}: a connection answers at most ${MAX_PAGE} rows; page with \`after\`/\`before\``;
  };
  const visit = (set: SelectionSetNode | undefined) => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        for (const arg of selection.arguments ?? []) {
          if (arg.name.value !== 'first' && arg.name.value !== 'last') continue;
          if (arg.value.kind === Kind.INT) check(arg.name.value, Number(arg.value.value));
          if (arg.value.kind === Kind.VARIABLE) check(arg.name.value, variables[arg.value.name.value]);
        }
      }
      if (selection.kind !== Kind.FRAGMENT_SPREAD) visit(selection.selectionSet);
    }
  };
  for (const d of document.definitions)
    if (d.kind === Kind.OPERATION_DEFINITION || d.kind === Kind.FRAGMENT_DEFINITION) visit(d.selectionSet);
  return problem;
}

const PARSED_KEPT = 500;

export class GraphqlLimits {
  private readonly parsed = new Map<string, DocumentNode>();
  private readonly allowed: Map<string, string> | undefined;

  constructor(
    readonly settings: GraphqlLimitSettings,
    private readonly schema: () => Promise<GraphQLSchema>,
  ) {
    this.allowed = settings.allowlist ? new Map(settings.allowlist.map((d) => [sha256(d), d])) : undefined;
  }

  /** The query text to run: the body's, or the allow-listed one it names. */
  private queryOf(body: Body): string | undefined {
    const named = body.extensions?.persistedQuery?.sha256Hash ?? body.id;
    if (this.allowed) {
      if (typeof named === 'string') return this.allowed.get(named.toLowerCase());
      return typeof body.query === 'string' ? this.allowed.get(sha256(body.query)) : undefined;
    }
    return typeof body.query === 'string' ? body.query : undefined;
  }

  private document(query: string): DocumentNode | undefined {
    let doc = this.parsed.get(query);
    if (!doc) {
      try {
        doc = parse(query);
      } catch {
        return undefined; // a syntax error is PostGraphile's to report
      }
      if (this.parsed.size >= PARSED_KEPT) this.parsed.delete(this.parsed.keys().next().value as string);
      this.parsed.set(query, doc);
    }
    return doc;
  }

  /**
   * Checks a POST body. `undefined`: nothing to check here (no query, or one PostGraphile will
   * refuse as malformed): let it through at the cost of one row.
   */
  async check(body: Body): Promise<Checked | undefined> {
    const query = this.queryOf(body);
    if (query === undefined) {
      if (!this.allowed) return undefined;
      return {
        ok: false,
        code: 'OPERATION_NOT_ALLOWED',
        message:
          'this server runs only allow-listed operations: send one by its SHA-256 (extensions.persistedQuery.sha256Hash) or its exact text',
      };
    }
    const document = this.document(query);
    if (!document) return undefined;
    const variables = (body.variables && typeof body.variables === 'object' ? body.variables : {}) as Record<
      string,
      unknown
    >;
    const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
    const fragments = new Map(
      document.definitions
        .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d]),
    );
    const operations = document.definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
    if (!operation) return undefined;
    const depth = depthOf(operation.selectionSet, fragments, this.settings.maxDepth);
    if (depth > this.settings.maxDepth)
      return {
        ok: false,
        code: 'QUERY_TOO_DEEP',
        message: `the query nests ${depth} levels deep; at most ${this.settings.maxDepth} are answered`,
      };
    const tooLarge = pageProblem(document, variables);
    if (tooLarge) return { ok: false, code: 'PAGE_TOO_LARGE', message: tooLarge };
    let cost: number;
    try {
      cost = getComplexity({
        estimators: [rowsEstimator],
        schema: await this.schema(),
        query: document,
        variables,
        operationName,
      });
    } catch {
      return undefined; // the document does not fit the schema: PostGraphile reports why
    }
    if (cost > this.settings.maxCost)
      return {
        ok: false,
        code: 'QUERY_TOO_COSTLY',
        message: `the query may read ${cost} rows (each connection's page size times what its rows select); at most ${this.settings.maxCost} are answered: ask smaller pages or fewer nested connections`,
      };
    return { ok: true, query, cost };
  }
}

/**
 * Bounds every connection's page in the schema itself (and so for subscriptions' queries too):
 * neither `first` nor `last` reads MAX_PAGE rows; a larger one is refused.
 */
export const pageBoundPlugin: Plugin = (builder) => {
  builder.hook('GraphQLObjectType:fields:field:args', (args, _build, context) => {
    const { isPgFieldConnection, isPgFieldSimpleCollection } = context.scope as Record<string, unknown>;
    if (!isPgFieldConnection && !isPgFieldSimpleCollection) return args;
    context.addArgDataGenerator(({ first, last }: { first?: number | null; last?: number | null }) => {
      for (const [name, value] of [
        ['first', first],
        ['last', last],
      ] as const)
        if (typeof value === 'number' && (value < 0 || value > MAX_PAGE))
          throw new Error(`\`${name}\` is ${value}: a connection answers at most ${MAX_PAGE} rows`);
      return {
        pgQuery: (queryBuilder: { first(n: number): void }) => {
          if (first == null && last == null) queryBuilder.first(MAX_PAGE);
        },
      };
    });
    for (const name of ['first', 'last'] as const) {
      const arg = (args as Record<string, { description?: string } | undefined>)[name];
      if (arg)
        arg.description =
          `${arg.description ?? ''} At most ${MAX_PAGE}; without \`first\` or \`last\`, ${MAX_PAGE} rows are read.`.trim();
    }
    return args;
  });
};
