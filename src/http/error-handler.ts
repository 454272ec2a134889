/**
 * The one error handler of both HTTP parts, /v1 (rest-adapter) and /api (app-services): which
 * `{error, code}` answer (http-errors.ts) an error gets. What differs between the parts is given
 * as options: headers every error answer carries, the methods of a path (for a 405 the router
 * could not route), which client errors name nothing (404), and where a server fault is logged.
 */
import type { ErrorRequestHandler, Request } from 'express';
import { isParamDecodeError, isSvcError } from '../lib/errors';
import { ClientGoneError } from './cancel-on-disconnect';
import { badRequest, HttpError, sendError } from './http-errors';

export interface ErrorHandlerOptions {
  /** headers of every error answer (e.g. a Cache-Control that keeps it out of caches) */
  headers?: Record<string, string>;
  /**
   * The methods of the route a path matches ("GET, POST"): for a request whose path matched a route
   * but whose parameter could not be decoded (no route handler ran), so another method is a 405.
   */
  methodsAt?: (path: string) => string | undefined;
  /** whether a client error the request itself caused (an undecodable path, status 4xx) answers 404 rather than 400 */
  notFoundOn?: (req: Request, status: number) => boolean;
  /** told a server fault (answered as a bare 500) */
  logInternal(err: unknown, req: Request): void;
}

/** body-parser's own errors, by their `type`. */
function parserError(err: unknown): HttpError | undefined {
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.too.large') return new HttpError('payload_too_large', 'request body too large');
  if (type === 'entity.parse.failed') return badRequest('request body is not valid JSON');
  if (type === 'charset.unsupported' || type === 'encoding.unsupported')
    return badRequest('request body must be UTF-8 JSON');
  return undefined;
}

/** 4xx errors raised by Express or a body parser (e.g. an undecodable %-escape in the path). */
function clientErrorStatus(err: unknown): number | undefined {
  const status =
    (err as { status?: unknown; statusCode?: unknown } | null)?.status ??
    (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/** The answer of a library error (src/lib/errors.ts) or a refusal; undefined for anything else. */
function knownError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (isSvcError(err) && err.code !== 'internal') return new HttpError(err.code, err.message);
  return parserError(err);
}

/**
 * Library errors answer with their code, refusals (HttpError) with theirs and their headers; any
 * other error is a server fault, logged and answered as a bare 500 so no SQL, stack or internal
 * detail reaches the client.
 */
export function errorHandler(options: ErrorHandlerOptions): ErrorRequestHandler {
  const headers = options.headers ?? {};
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    if (err instanceof ClientGoneError) return void res.destroy(); // nobody to answer
    const methods = isParamDecodeError(err) ? options.methodsAt?.(req.path) : undefined;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (methods && !methods.split(', ').includes(method))
      return sendError(res, 'method_not_allowed', 'method not allowed', { ...headers, Allow: methods });
    const known = knownError(err);
    if (known) return sendError(res, known.code, known.message, { ...headers, ...known.headers }, known.reason);
    const clientStatus = clientErrorStatus(err);
    if (clientStatus !== undefined && options.notFoundOn?.(req, clientStatus))
      return sendError(res, 'not_found', 'not found', headers);
    if (clientStatus !== undefined) return sendError(res, 'bad_request', 'malformed request', headers);
    options.logInternal(err, req);
    sendError(res, 'internal', 'internal error', headers);
  };
}
