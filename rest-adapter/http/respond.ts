/**
 * The /v1 layer over the contract route registrar (src/http/contract-routes.ts): how a route's
 * JSON answer is written, through the response cache and with validators (ETag, Cache-Control,
 * 304). A route is declared by its openapi.yaml path: its parameters and its 200 answer are typed
 * from the generated `paths` (openapi.generated.ts).
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import type { ParameterChecks } from '../../src/http/openapi-params';
import {
  contractRoutes,
  pathParams,
  type AnswerOf,
  type ContractParameters,
  type JsonPathOf,
} from '../../src/http/contract-routes';
import { InvalidInputError } from '../../src/lib/errors';
import { toJsonBytes } from '../json';
import type { paths } from '../openapi.generated';
import { methodNotAllowed } from './errors';
import type { CacheOutcome, ResponseCache } from './response-cache';
import { ifNoneMatchHits, sendNotModified, type TagKind, type Validation, type Validators } from './validators';

/** The `Cache-Status` name of this cache (RFC 9211). */
const CACHE_NAME = 'svc-rest';

const CACHE_STATUS: Record<CacheOutcome, string> = {
  hit: `${CACHE_NAME}; hit`,
  miss: `${CACHE_NAME}; fwd=miss; stored`,
  collapsed: `${CACHE_NAME}; fwd=miss; collapsed`,
  bypass: `${CACHE_NAME}; fwd=bypass`,
};

function sendJsonBytes(res: Response, body: Buffer, outcome?: CacheOutcome, validation?: Validation): void {
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': body.length,
  };
  if (validation) {
    headers.ETag = validation.etag;
    headers['Cache-Control'] = validation.cacheControl;
  }
  if (outcome) headers['Cache-Status'] = CACHE_STATUS[outcome];
  res.writeHead(200, headers);
  res.end(body); // Node writes no body for HEAD
}

/** A GET-only path: other methods get 405 with `Allow: GET` (openapi `methods`). */
export function getOnly(
  router: Router,
  path: string,
  handler: (req: Request, res: Response) => Promise<void> | void,
): void {
  router
    .route(path)
    .get(handler as RequestHandler)
    .all(methodNotAllowed);
}

export interface JsonRouteOptions<P extends JsonPath> {
  /**
   * The answer depends only on rows the node writes (so it is fixed at one indexed height)
   * and on the request URL: it may be served from the response cache, and its ETag is
   * derived from the height (http/validators.ts).
   */
  fixedPerHeight?: boolean;
  /**
   * The answer depends only on rows the node writes, the reconciler's check rows (InvariantCheck,
   * Svc20Check, I8Check) and the request URL: fixed per (indexed height, reconciler generation).
   * It may be served from the response cache under that generation, and its ETag is derived
   * from both (http/validators.ts).
   */
  fixedPerHeightAndChecks?: boolean;
  /**
   * The answer never changes once its resource exists (a committed tx, a block the node
   * indexed): identity ETag, cached `immutable`. `exists` tells from the path parameters,
   * without reading the store, that it exists now (false when it cannot tell), so a matching
   * If-None-Match is answered 304 before routing (Validators.notModified).
   */
  immutable?: { exists(params: ContractRequest<P>['params']): boolean };
  /**
   * The route answers `?height` (openapi.yaml `Height` on its GET; http/height.ts). Allowed only on
   * the paths whose GET declares it. Every other path refuses a `height` with 400 rather than
   * answer the head to a question about the past.
   */
  atHeight?: 'height' extends keyof ContractRequest<P>['query'] ? true : never;
}

/** What a path that does not serve `?height` yet answers to one (docs/rest-adapter.md, "State at a past height"). */
export const HEIGHT_NOT_SERVED =
  'height is not served on this path yet (docs/rest-adapter.md, "State at a past height")';

/** The openapi.yaml paths whose GET answers JSON. */
export type JsonPath = JsonPathOf<paths, 'get'>;

/** The 200 answer of a path's GET as a route returns it (src/lib/api-wire.ts: a number may be a bigint). */
export type OkAnswer<P extends JsonPath> = AnswerOf<paths, P, 'get'>;

/** What a route reads of its request: only the parameters its path's GET declares. */
export type ContractRequest<P extends JsonPath> = ContractParameters<paths, P, 'get'>;

/** How a route's answers are tagged (http/validators.ts). */
function tagKindOf(options: {
  immutable?: unknown;
  fixedPerHeight?: boolean;
  fixedPerHeightAndChecks?: boolean;
}): TagKind {
  if (options.immutable) return 'identity';
  if (options.fixedPerHeight) return 'height';
  return options.fixedPerHeightAndChecks ? 'checks' : 'bytes';
}

/**
 * Registers JSON GET routes; answers of `fixedPerHeight` and `fixedPerHeightAndChecks` routes
 * go through `cache` when there is one. `served` collects the document paths registered, for
 * the start-up check against openapi.yaml.
 * `checks` (src/http/openapi-params.ts, compiled from openapi.yaml) checks a route's path and query
 * values against the document's schemas before the route runs. With
 * `validators` every 200 carries an ETag and Cache-Control, and a matching If-None-Match is
 * answered 304 (before routing, by Validators.notModified, when its tag is known without the answer).
 */
export function jsonRoutes(
  router: Router,
  cache: ResponseCache | undefined,
  checks: ParameterChecks,
  served: string[] = [],
  validators?: Validators,
) {
  const routes = contractRoutes<paths>(router, {
    parameters: checks,
    served: (_method, path) => void served.push(path),
    methodNotAllowed: () => methodNotAllowed,
  });
  return function getJson<P extends JsonPath>(
    path: P,
    answer: (req: ContractRequest<P>) => Promise<OkAnswer<P>>,
    options: JsonRouteOptions<P> = {},
  ): void {
    const { immutable } = options;
    const tags = tagKindOf(options);
    if (immutable && validators) {
      const exists = immutable.exists as (params: Record<string, string>) => boolean;
      validators.addIdentityRoute({ match: pathParams(path), exists });
    }
    const guarded = options.atHeight
      ? answer
      : (req: ContractRequest<P>) => {
          if ((req.query as Record<string, unknown>).height !== undefined)
            return Promise.reject(new InvalidInputError(HEIGHT_NOT_SERVED));
          return answer(req);
        };
    routes.get(path, guarded, (checkedAnswer) => {
      const compute = async (req: Request) => toJsonBytes((await checkedAnswer(req)) as OkAnswer<P>);
      const made = async (req: Request): Promise<{ body: Buffer; outcome?: CacheOutcome }> => {
        const { fixedPerHeight, fixedPerHeightAndChecks } = options;
        if (!cache || !(fixedPerHeight || fixedPerHeightAndChecks)) return { body: await compute(req) };
        // the raw URL: /v1/txs?limit=5 and /v1/txs?limit=05 are different keys with equal answers, which is only a miss
        return cache.answer(req.originalUrl, () => compute(req), { perGeneration: !fixedPerHeight });
      };
      return async (req, res) => {
        if (!validators) {
          const { body, outcome } = await made(req);
          return sendJsonBytes(res, body, outcome);
        }
        // a tag known without the answer was compared before routing (Validators.notModified)
        const started = validators.position;
        const { body, outcome } = await made(req);
        validators.start(); // after a request that reached the store: a refused one (400) starts nothing
        const validation = validators.ofAnswer(tags, req, started, body);
        if (ifNoneMatchHits(req.headers['if-none-match'], validation.etag))
          return sendNotModified(res, validation, outcome ? { 'Cache-Status': CACHE_STATUS[outcome] } : {});
        sendJsonBytes(res, body, outcome, validation);
      };
    });
  };
}

export type GetJson = ReturnType<typeof jsonRoutes>;
