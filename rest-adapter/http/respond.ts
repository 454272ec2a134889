/** Route registration and JSON answers shared by the route files. */
import type { Request, RequestHandler, Response, Router } from 'express';
import { toJson } from '../json';
import { methodNotAllowed } from './errors';
import type { CacheOutcome, ResponseCache } from './response-cache';

/** The `Cache-Status` name of this cache (RFC 9211). */
const CACHE_NAME = 'svc-rest';

const CACHE_STATUS: Record<CacheOutcome, string> = {
  hit: `${CACHE_NAME}; hit`,
  miss: `${CACHE_NAME}; fwd=miss; stored`,
  collapsed: `${CACHE_NAME}; fwd=miss; collapsed`,
  bypass: `${CACHE_NAME}; fwd=bypass`,
};

function sendJsonBytes(res: Response, body: Buffer, outcome?: CacheOutcome): void {
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': body.length,
  };
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

export interface JsonRouteOptions {
  /**
   * The answer depends only on rows the node writes (so it is fixed at one indexed height)
   * and on the request URL: it may be served from the response cache.
   */
  fixedPerHeight?: boolean;
}

/** Registers JSON GET routes; answers of `fixedPerHeight` routes go through `cache` when there is one. */
export function jsonRoutes(router: Router, cache: ResponseCache | undefined) {
  return function getJson(
    path: string,
    answer: (req: Request) => Promise<unknown>,
    options: JsonRouteOptions = {},
  ): void {
    const compute = async (req: Request) => Buffer.from(toJson(await answer(req)));
    getOnly(router, path, async (req, res) => {
      if (!cache || !options.fixedPerHeight) return sendJsonBytes(res, await compute(req));
      // the raw URL: /v1/txs?limit=5 and /v1/txs?limit=05 are different keys with equal answers, which is only a miss
      const { body, outcome } = await cache.answer(req.originalUrl, () => compute(req));
      sendJsonBytes(res, body, outcome);
    });
  };
}

export type GetJson = ReturnType<typeof jsonRoutes>;
