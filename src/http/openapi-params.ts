/**
 * The path and query parameters of each operation (and the JSON body of those that take one)
 * checked against its OpenAPI document's own schemas (ajv), compiled once when an HTTP part builds
 * its router. The hand parsers of the routes
 * still run first and keep their exact messages; this check is the document's word on what they
 * accepted: a value a parser accepts and the schema refuses is a 400 naming the parameter and the
 * schema rule. While the parsers agree with the document (tests/unit/rest-adapter/params-contract.test.ts)
 * it never answers; it is what keeps a parser made laxer from serving values the contract forbids.
 * Only the parameters present are checked (a missing one is the parser's to default or refuse), and
 * a parameter the document does not name is not looked at (unknown query keys stay ignored).
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

const DOC_ID = 'openapi-document';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

type Location = 'path' | 'query';

interface Parameter {
  name: string;
  in: string;
  $ref?: string;
}

interface RequestBody {
  content?: Record<string, { schema?: unknown }>;
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown> & { parameters?: Parameter[] }>;
  components?: { parameters?: Record<string, Parameter> };
}

/** The values of a request as the router gives them. */
export interface RequestValues {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
}

/** One parameter's compiled check: `value` is the single property of the object validated. */
interface ParameterCheck {
  name: string;
  in: Location;
  validate: ValidateFunction;
}

/** Why a request's parameters break its operation's schemas; undefined when they do not. */
export type OperationCheck = (values: RequestValues) => string | undefined;

/** The check of `<METHOD> <document path>`. */
export type ParameterChecks = (method: string, path: string) => OperationCheck;

/** A JSON pointer token (RFC 6901). */
const pointerToken = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** `#/components/parameters/Limit` → the parameter object it names. */
function resolveParameter(doc: OpenApiDocument, p: Parameter): { parameter: Parameter; pointer: string } {
  if (!p.$ref) return { parameter: p, pointer: '' };
  const name = p.$ref.replace('#/components/parameters/', '');
  const parameter = doc.components?.parameters?.[name];
  if (!parameter) throw new Error(`openapi parameter ${p.$ref} is not in the document`);
  return { parameter, pointer: `/components/parameters/${pointerToken(name)}` };
}

function parameterChecksOf(ajv: Ajv, doc: OpenApiDocument, path: string, method: string): ParameterCheck[] {
  const item = doc.paths?.[path] ?? {};
  const operation = (item[method] ?? {}) as { parameters?: Parameter[] };
  const located: Array<[Parameter, string]> = [
    ...(item.parameters ?? []).map((p, i): [Parameter, string] => [p, `/paths/${pointerToken(path)}/parameters/${i}`]),
    ...(operation.parameters ?? []).map((p, i): [Parameter, string] => [
      p,
      `/paths/${pointerToken(path)}/${method}/parameters/${i}`,
    ]),
  ];
  return located.flatMap(([raw, inline]) => {
    const { parameter, pointer } = resolveParameter(doc, raw);
    if (parameter.in !== 'path' && parameter.in !== 'query') return [];
    const schemaRef = `${DOC_ID}#${pointer || inline}/schema`;
    // an object around the value so ajv's type coercion can turn the query string "5" into the integer 5
    const validate = ajv.compile({ type: 'object', properties: { value: { $ref: schemaRef } } });
    return [{ name: parameter.name, in: parameter.in, validate }];
  });
}

/** `must match pattern "^…$"` as ajv words it, with where the value was. */
function describe(check: ParameterCheck): string {
  const error = check.validate.errors?.[0];
  return `${check.in} parameter ${check.name} ${error?.message ?? 'does not match its schema'}`;
}

function operationCheck(checks: ParameterCheck[]): OperationCheck {
  return ({ params, query }) => {
    for (const check of checks) {
      const value = (check.in === 'path' ? params : query)[check.name];
      if (value === undefined) continue;
      if (!check.validate({ value })) return describe(check);
    }
    return undefined;
  };
}

/** An ajv holding the document, so its `#/components/…` references resolve. */
function documentAjv(doc: OpenApiDocument, options: { coerceTypes: boolean }): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: false, ...options });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID } as unknown as Record<string, unknown>);
  return ajv;
}

/** Why a JSON body breaks its operation's `requestBody` schema; undefined when it does not. */
export type BodyCheck = (body: unknown) => string | undefined;

/** The body check of `<METHOD> <document path>`. */
export type BodyChecks = (method: string, path: string) => BodyCheck;

/** `field kind must be >= -1`, `request body must NOT have additional properties (extra)` */
function describeBodyError(validate: ValidateFunction): string {
  const error = validate.errors?.[0];
  if (!error) return 'request body does not match its schema';
  const where = error.instancePath ? `field ${error.instancePath.slice(1).replace(/\//g, '.')}` : 'request body';
  const extra = (error.params as { additionalProperty?: string }).additionalProperty;
  return `${where} ${error.message}${extra === undefined ? '' : ` (${extra})`}`;
}

/**
 * Compiles the `application/json` requestBody schema of every operation of a document once (no
 * type coercion: a JSON body has its types). An operation without one has no body check.
 */
export function compileBodyChecks(documentText: string): BodyChecks {
  const doc = parse(documentText) as OpenApiDocument;
  const ajv = documentAjv(doc, { coerceTypes: false });
  const checks = new Map<string, BodyCheck>();
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const method of Object.keys(item).filter((key) => METHODS.includes(key))) {
      const body = (item[method] as { requestBody?: RequestBody }).requestBody;
      if (!body?.content?.['application/json']?.schema) continue;
      const pointer = `/paths/${pointerToken(path)}/${method}/requestBody/content/${pointerToken('application/json')}/schema`;
      const validate = ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
      checks.set(`${method.toUpperCase()} ${path}`, (value) =>
        validate(value) ? undefined : describeBodyError(validate),
      );
    }
  const none: BodyCheck = () => undefined;
  return (method, path) => checks.get(`${method.toUpperCase()} ${path}`) ?? none;
}

/**
 * Compiles the parameter checks of every operation of a document once; the result gives the check
 * of `<METHOD> <document path>` (an operation the document lacks has none to apply: the start-up
 * check of src/http/openapi-routes.ts refuses such a route).
 */
export function compileParameterChecks(documentText: string): ParameterChecks {
  const doc = parse(documentText) as OpenApiDocument;
  // query and path values are strings: type coercion lets "5" be the integer 5
  const ajv = documentAjv(doc, { coerceTypes: true });
  const checks = new Map<string, OperationCheck>();
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const method of Object.keys(item).filter((key) => METHODS.includes(key)))
      checks.set(`${method.toUpperCase()} ${path}`, operationCheck(parameterChecksOf(ajv, doc, path, method)));
  const none: OperationCheck = () => undefined;
  return (method, path) => checks.get(`${method.toUpperCase()} ${path}`) ?? none;
}

/**
 * The route's answer, with the schema's refusal (`problem`) applied after the hand parsers: when
 * the answer throws a 400 of its own (a parser refused, with its exact message) that stands;
 * otherwise the parsers accepted what the schema refuses, and the answer is `refuse(problem)`.
 * Routes that reach here with a problem are GETs, whose answer only reads.
 */
export async function answerAfterParsers<T>(
  problem: string | undefined,
  answer: () => Promise<T> | T,
  refuse: (message: string) => Error,
): Promise<T> {
  if (problem === undefined) return answer();
  try {
    await answer();
  } catch (err) {
    if ((err as { code?: unknown } | null)?.code === 'bad_request') throw err;
  }
  throw refuse(problem);
}
