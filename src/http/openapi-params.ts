/**
 * The path and query parameters of each operation (and the JSON body of those that take one)
 * checked against its OpenAPI document's own schemas (ajv), compiled once when an HTTP part builds
 * its router. This is the one check of a parameter: the registrar (src/http/contract-routes.ts)
 * applies it before the route runs, and the route's own code only converts what it accepted (a
 * value-dependent reason the schema cannot state, such as an address checksum, stays there).
 *
 * The parameters are checked in the document's order (the path item's, then the operation's) and
 * the first refusal is the answer. A parameter is refused when it is required and missing (or, in
 * the query, empty), given more than once (Express's simple query parser gives an array), or refused by its
 * schema; the text of each refusal is the parameter's `x-error-message`: one string for any
 * refusal of its value, or a map of `invalid` (any refusal of the value), a schema keyword
 * (`maximum`: refused by that keyword), `missing` and `repeated`. An integer parameter arrives as
 * text: its base-10 digits (at most the parameter's `x-max-digits`) are its value, any other text
 * is not an integer. A parameter the document does not name is not looked at (unknown query keys
 * stay ignored).
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

const DOC_ID = 'openapi-document';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

type Location = 'path' | 'query';

/** A parameter's refusal texts (`x-error-message`): the value's, per schema keyword, and the request's. */
interface ErrorMessages {
  invalid?: string;
  missing?: string;
  repeated?: string;
  [keyword: string]: string | undefined;
}

interface Schema {
  $ref?: string;
  type?: string;
  pattern?: string;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  $ref?: string;
  'x-error-message'?: string | ErrorMessages;
  'x-max-digits'?: number;
}

interface RequestBody {
  content?: Record<string, { schema?: unknown }>;
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown> & { parameters?: Parameter[] }>;
  components?: { parameters?: Record<string, Parameter>; schemas?: Record<string, Schema> };
}

/** The values of a request as the router gives them. */
export interface RequestValues {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
}

/** Why a request's parameters break its operation's schemas (the first refusal's text); undefined when they do not. */
export type OperationCheck = (values: RequestValues) => string | undefined;

/** The check of `<METHOD> <document path>`. */
export type ParameterChecks = (method: string, path: string) => OperationCheck;

/** One parameter's compiled check: its refusal of a raw value, undefined when it accepts it. */
type ParameterCheck = (raw: unknown) => string | undefined;

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

/** `#/components/schemas/AssetId` → the schema it names (a schema without `$ref` is itself). */
function resolveSchema(doc: OpenApiDocument, schema: Schema | undefined): Schema {
  if (!schema?.$ref) return schema ?? {};
  return resolveSchema(doc, doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')]);
}

/** Whether a schema refuses some string or integer value at all (then its refusal needs a text). */
function constrains(schema: Schema): boolean {
  const keywords: Array<keyof Schema> = ['pattern', 'enum', 'minLength', 'maxLength', 'minimum', 'maximum'];
  return schema.type === 'integer' || keywords.some((k) => schema[k] !== undefined);
}

/** The parameter's `x-error-message` as a map; its generic texts where it names none. */
function errorMessages(
  parameter: Parameter,
  where: string,
  constrained: boolean,
): Required<Pick<ErrorMessages, 'missing' | 'repeated'>> & ErrorMessages {
  const given = parameter['x-error-message'];
  const messages: ErrorMessages = typeof given === 'string' ? { invalid: given } : { ...given };
  if (constrained && messages.invalid === undefined)
    throw new Error(`openapi parameter ${parameter.in}:${parameter.name} of ${where} has no x-error-message`);
  return {
    missing: `${parameter.in} parameter ${parameter.name} is required`,
    repeated: `${parameter.in} parameter ${parameter.name} given more than once`,
    ...messages,
  };
}

/** The value an integer parameter's text stands for: its digits as a number, else the text (not an integer). */
function integerDecoder(maxDigits: number | undefined): (text: string) => unknown {
  const digits = new RegExp(`^[0-9]{1,${maxDigits ?? ''}}$`);
  return (text) => (digits.test(text) ? Number(text) : text);
}

function parameterCheck(ajv: Ajv, doc: OpenApiDocument, raw: Parameter, inline: string, where: string): ParameterCheck {
  const { parameter, pointer } = resolveParameter(doc, raw);
  const schema = resolveSchema(doc, parameter.schema);
  const messages = errorMessages(parameter, where, constrains(schema));
  // the value is the single property of the object validated, so a `$ref` into the document resolves
  const validate = ajv.compile({
    type: 'object',
    properties: { value: { $ref: `${DOC_ID}#${pointer || inline}/schema` } },
  });
  const decode = schema.type === 'integer' ? integerDecoder(parameter['x-max-digits']) : (text: string) => text;
  return (value) => {
    // a required query parameter may not be empty (OpenAPI's allowEmptyValue is false unless said)
    if (value === undefined || (value === '' && parameter.required && parameter.in === 'query'))
      return parameter.required ? messages.missing : undefined;
    if (typeof value !== 'string') return messages.repeated;
    if (validate({ value: decode(value) })) return undefined;
    return refusal(validate, messages, parameter);
  };
}

/** The text of the schema's refusal: its keyword's own (`maximum`), else the parameter's, else ajv's words. */
function refusal(validate: ValidateFunction, messages: ErrorMessages, parameter: Parameter): string {
  const error = validate.errors?.[0];
  const text = (error && messages[error.keyword]) ?? messages.invalid;
  return text ?? `${parameter.in} parameter ${parameter.name} ${error?.message ?? 'does not match its schema'}`;
}

function operationCheck(ajv: Ajv, doc: OpenApiDocument, path: string, method: string): OperationCheck {
  const item = doc.paths?.[path] ?? {};
  const operation = (item[method] ?? {}) as { parameters?: Parameter[] };
  const where = `${method.toUpperCase()} ${path}`;
  const located: Array<[Parameter, string]> = [
    ...(item.parameters ?? []).map((p, i): [Parameter, string] => [p, `/paths/${pointerToken(path)}/parameters/${i}`]),
    ...(operation.parameters ?? []).map((p, i): [Parameter, string] => [
      p,
      `/paths/${pointerToken(path)}/${method}/parameters/${i}`,
    ]),
  ];
  const checks = located.flatMap(([raw, inline]) => {
    const { parameter } = resolveParameter(doc, raw);
    if (parameter.in !== 'path' && parameter.in !== 'query') return [];
    const location: Location = parameter.in;
    return [{ name: parameter.name, in: location, check: parameterCheck(ajv, doc, raw, inline, where) }];
  });
  return ({ params, query }) => {
    for (const { name, in: location, check } of checks) {
      const problem = check((location === 'path' ? params : query)[name]);
      if (problem !== undefined) return problem;
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

/** `field kind must be >= -1`, `url is required`, `request body must NOT have additional properties (extra)` */
function describeBodyError(validate: ValidateFunction): string {
  const error = validate.errors?.[0];
  if (!error) return 'request body does not match its schema';
  const where = error.instancePath ? `field ${error.instancePath.slice(1).replace(/\//g, '.')}` : 'request body';
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  if (error.keyword === 'required' && missing !== undefined)
    return `${error.instancePath ? `${error.instancePath.slice(1).replace(/\//g, '.')}.` : ''}${missing} is required`;
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
 * check of src/http/openapi-routes.ts refuses such a route). Throws when a parameter whose schema
 * can refuse a value has no `x-error-message`.
 */
export function compileParameterChecks(documentText: string): ParameterChecks {
  const doc = parse(documentText) as OpenApiDocument;
  // no type coercion: an integer parameter's text is decoded by the document's rule (integerDecoder)
  const ajv = documentAjv(doc, { coerceTypes: false });
  const checks = new Map<string, OperationCheck>();
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const method of Object.keys(item).filter((key) => METHODS.includes(key)))
      checks.set(`${method.toUpperCase()} ${path}`, operationCheck(ajv, doc, path, method));
  const none: OperationCheck = () => undefined;
  return (method, path) => checks.get(`${method.toUpperCase()} ${path}`) ?? none;
}
