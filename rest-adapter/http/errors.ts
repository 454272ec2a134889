/**
 * Error responses of /v1: always `{error, code}` (openapi `Error`), never kept by a cache. The
 * answers are the one error handler's (src/http/error-handler.ts); this file gives /v1's options,
 * its 404 for unknown paths and its 405.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { methodNotAllowed as allow, sendError as send } from '../../src/http/http-errors';
import type { Logger } from '../../src/lib/logger';
import { errorHandler as sharedErrorHandler } from '../../src/http/error-handler';
import { ERROR_CACHE_CONTROL } from './validators';

/** An error answer, never kept by a cache (a tx not found now may be found at the next block). */
function sendError(...args: Parameters<typeof send>): void {
  args[0].setHeader('Cache-Control', ERROR_CACHE_CONTROL);
  send(...args);
}

const allowGet: RequestHandler = allow('GET');

/** Any method but GET (and HEAD, which Express answers as GET) on a known path. */
export const methodNotAllowed: RequestHandler = (req, res, next) => {
  res.setHeader('Cache-Control', ERROR_CACHE_CONTROL);
  return allowGet(req, res, next);
};

/** Every path no route knows. */
export const notFound: RequestHandler = (_req, res) => sendError(res, 'not_found', 'not found');

// Paths whose parameter is free text answer 404, never 400 (openapi.yaml): lookup dispatches on
// the raw string, and a route id is any string. A parameter the router cannot even decode names
// nothing there.
const FREE_TEXT_PATH_RE = /^\/v1\/(lookup|bridge\/routes)\//;

/** /v1's configuration of the one error handler (src/http/error-handler.ts). */
export function errorHandler(logger: Pick<Logger, 'error'>): ErrorRequestHandler {
  return sharedErrorHandler({
    headers: { 'Cache-Control': ERROR_CACHE_CONTROL },
    // every /v1 path is GET-only: the router matched a route's pattern before its param failed
    // to decode, so another method is answered as on any other value of that param
    methodsAt: () => 'GET',
    notFoundOn: (req, status) => status === 404 || FREE_TEXT_PATH_RE.test(req.path),
    logInternal: (err, req) => logger.error(`internal error on ${req.method} ${req.originalUrl}`, { error: err }),
  });
}
