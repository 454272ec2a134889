/**
 * Error responses: always `{error, code}` (openapi `Error`). Library errors carry their
 * code (src/lib/errors.ts); anything else is a server fault, logged here and answered
 * as a bare 500 so no SQL, stack or internal detail reaches the client.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isParamDecodeError, isSvcError } from '../../src/lib/errors';
import type { Logger } from '../../src/lib/logger';
import { HttpError, methodNotAllowed as allow, sendError as send } from '../../src/http/http-errors';
import { ClientGoneError } from '../../src/http/cancel-on-disconnect';
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

/** 4xx errors raised by Express itself (e.g. an undecodable %-escape in the path). */
function clientErrorStatus(err: unknown): number | undefined {
  const status =
    (err as { status?: unknown; statusCode?: unknown } | null)?.status ??
    (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

export function errorHandler(logger: Pick<Logger, 'error'>): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    if (err instanceof ClientGoneError) return void res.destroy(); // nobody to answer
    if (err instanceof HttpError) return sendError(res, err.code, err.message, err.headers); // a missed deadline (503)
    if (isSvcError(err) && err.code !== 'internal') return sendError(res, err.code, err.message);
    const clientStatus = clientErrorStatus(err);
    // the router matched a route's pattern before its param failed to decode: the path is one of
    // ours, so another method than GET is answered as on any other value of that param
    if (clientStatus !== undefined && isParamDecodeError(err) && req.method !== 'GET' && req.method !== 'HEAD')
      return methodNotAllowed(req, res, next);
    if (clientStatus === 404 || (clientStatus !== undefined && FREE_TEXT_PATH_RE.test(req.path)))
      return sendError(res, 'not_found', 'not found');
    if (clientStatus !== undefined) return sendError(res, 'bad_request', 'malformed request');
    logger.error(`internal error on ${req.method} ${req.originalUrl}`, { error: err });
    sendError(res, 'internal', 'internal error');
  };
}
