/**
 * Checks HTTP responses against openapi.yaml: the documented status of the operation,
 * its media type, the JSON body against the component schemas (ajv; OpenAPI 3.0
 * `nullable` is ajv's `nullable` keyword), and the header rules of the read API and the
 * app services (no CORS headers, no X-Powered-By, `Allow` naming the path's documented
 * methods on 405). `loadOpenApiValidator(APP_OPENAPI_FILE)` checks /api answers.
 *
 *   const openapi = loadOpenApiValidator();
 *   openapi.check({ method: 'GET', path: '/v1/txs?limit=5', status: res.status, headers, body });
 */
import fs from 'fs';
import path from 'path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse as parseYaml } from 'yaml';

export const OPENAPI_FILE = path.resolve(__dirname, '..', '..', 'openapi.yaml');
export const APP_OPENAPI_FILE = path.resolve(__dirname, '..', '..', 'app-services', 'openapi.yaml');
const DOC_ID = 'openapi.json';

interface MediaObject {
  schema?: Record<string, unknown>;
}

interface ResponseObject {
  $ref?: string;
  content?: Record<string, MediaObject>;
  headers?: Record<string, unknown>;
}

interface Operation {
  responses: Record<string, ResponseObject>;
}

interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, ResponseObject>; schemas: Record<string, unknown> };
}

export interface CheckedResponse {
  method: string;
  /** path with or without the query string */
  path: string;
  status: number;
  /** header names lower-case */
  headers: Record<string, string>;
  /** parsed JSON, or the raw text for non-JSON answers */
  body: unknown;
}

export interface OpenApiValidator {
  readonly doc: OpenApiDoc;
  /** Throws an Error listing every violation; returns the schema name checked. */
  check(response: CheckedResponse): string;
  /** The compiled validator of one component schema (for direct checks in tests). */
  schema(name: string): ValidateFunction;
}

interface PathMatcher {
  template: string;
  re: RegExp;
  literalSegments: number;
}

function matcherOf(template: string): PathMatcher {
  const pattern = template
    .split('/')
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return {
    template,
    re: new RegExp(`^${pattern}$`),
    literalSegments: template.split('/').filter((s) => s && !s.startsWith('{')).length,
  };
}

export function loadOpenApiValidator(file: string = OPENAPI_FILE): OpenApiValidator {
  const doc = parseYaml(fs.readFileSync(file, 'utf8')) as OpenApiDoc;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID } as unknown as Record<string, unknown>);
  const compiled = new Map<string, ValidateFunction>();
  const matchers = Object.keys(doc.paths)
    .map(matcherOf)
    .sort((a, b) => b.literalSegments - a.literalSegments); // literal paths win over templates

  function schemaByRef(ref: string): ValidateFunction {
    let v = compiled.get(ref);
    if (!v) {
      v = ajv.getSchema(`${DOC_ID}${ref}`);
      if (!v) throw new Error(`openapi.yaml has no ${ref}`);
      compiled.set(ref, v);
    }
    return v;
  }

  function resolveResponse(r: ResponseObject): ResponseObject {
    if (!r.$ref) return r;
    const name = r.$ref.replace('#/components/responses/', '');
    const found = doc.components.responses[name];
    if (!found) throw new Error(`openapi.yaml has no response ${r.$ref}`);
    return found;
  }

  /** The documented response: the operation's, or the shared 404/405 of paths and methods no operation lists. */
  function documentedResponse(
    method: string,
    pathname: string,
    status: number,
  ): { where: string; response: ResponseObject } {
    const matcher = matchers.find((m) => m.re.test(pathname));
    if (!matcher) {
      if (status !== 404) throw new Error(`${method} ${pathname}: unknown path answered ${status}, expected 404`);
      return { where: 'unknown path', response: doc.components.responses.NotFound };
    }
    const operation = doc.paths[matcher.template][method.toLowerCase()];
    if (!operation) {
      if (status !== 405)
        throw new Error(`${method} ${matcher.template}: undocumented method answered ${status}, expected 405`);
      return { where: `${method} ${matcher.template}`, response: doc.components.responses.MethodNotAllowed };
    }
    const response = operation.responses[String(status)] ?? operation.responses.default;
    if (!response) throw new Error(`${method} ${matcher.template}: status ${status} is not documented`);
    return { where: `${method} ${matcher.template} ${status}`, response: resolveResponse(response) };
  }

  /** The methods a path documents, as an Allow header lists them (GET for every /v1 path). */
  function documentedMethods(pathname: string): string {
    const matcher = matchers.find((m) => m.re.test(pathname));
    const item = matcher ? doc.paths[matcher.template] : {};
    return Object.keys(item)
      .filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k))
      .map((k) => k.toUpperCase())
      .join(', ');
  }

  function headerProblems(r: CheckedResponse): string[] {
    const problems: string[] = [];
    for (const name of Object.keys(r.headers)) {
      if (name.startsWith('access-control-')) problems.push(`CORS header ${name} present`);
      if (name === 'x-powered-by') problems.push('X-Powered-By present');
    }
    if (r.status === 405) {
      const allowed = documentedMethods(r.path.split('?')[0]);
      if (r.headers.allow !== allowed) problems.push(`405 without "Allow: ${allowed}" (got ${r.headers.allow})`);
    }
    return problems;
  }

  function check(r: CheckedResponse): string {
    const pathname = r.path.split('?')[0];
    const { where, response } = documentedResponse(r.method, pathname, r.status);
    const problems = headerProblems(r);
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if ((header as { required?: boolean }).required && r.headers[name.toLowerCase()] === undefined)
        problems.push(`required header ${name} missing`);
    }
    const contentType = (r.headers['content-type'] ?? '').split(';')[0].trim();
    const media = response.content?.[contentType];
    const bodiless = response.content === undefined && contentType === '' && (r.body === undefined || r.body === '');
    if (!media && !bodiless)
      problems.push(
        `content-type ${contentType || '(none)'} not documented (${Object.keys(response.content ?? {}).join(', ')})`,
      );
    let checked = contentType;
    const ref = media?.schema?.$ref;
    if (typeof ref === 'string') {
      checked = ref.replace('#/components/schemas/', '');
      const validate = schemaByRef(ref);
      if (!validate(r.body))
        problems.push(
          ...(validate.errors ?? []).map(
            (e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`,
          ),
        );
    } else if (media?.schema?.type === 'string' && typeof r.body !== 'string') {
      problems.push('body is not text');
    }
    if (problems.length) {
      throw new Error(
        `${r.method} ${r.path} -> ${r.status} does not match openapi.yaml (${where}, ${checked}):\n  ${problems.slice(0, 20).join('\n  ')}`,
      );
    }
    return checked;
  }

  return { doc, check, schema: (name) => schemaByRef(`#/components/schemas/${name}`) };
}
