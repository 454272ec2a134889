/**
 * Error answers of /api: always `{error, code}` (app-services/openapi.yaml `Error`), never a
 * stack, SQL text or key material. Beyond the read API's codes the app services answer
 * payload_too_large (413), too_many_requests (429) and unavailable (503).
 */
import type { ErrorRequestHandler, Response } from 'express';
import { isParamDecodeError } from '../../src/lib/errors';

export type AppErrorCode =
  | 'bad_request'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'too_many_requests'
  | 'unavailable'
  | 'internal';

const STATUS_OF: Record<AppErrorCode, number> = {
  bad_request: 400,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
};

/** A refusal with its code and a message safe to show the client. */
export class AppHttpError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppHttpError';
  }
}

export const badRequest = (message: string) => new AppHttpError('bad_request', message);
export const notFound = (message = 'not found') => new AppHttpError('not_found', message);

export function sendError(
  res: Response,
  code: AppErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  res
    .set(headers)
    .status(STATUS_OF[code])
    .type('application/json')
    .send(JSON.stringify({ error: message, code }));
}

export interface ErrorLogger {
  error(message: string, fields?: Record<string, unknown>): void;
}

/** body-parser's own errors, by their `type`. */
function parserError(err: unknown): AppHttpError | undefined {
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.too.large') return new AppHttpError('payload_too_large', 'request body too large');
  if (type === 'entity.parse.failed') return badRequest('request body is not valid JSON');
  if (type === 'charset.unsupported' || type === 'encoding.unsupported')
    return badRequest('request body must be UTF-8 JSON');
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return badRequest('malformed request');
  return undefined;
}

/** `methodsAt(path)`: the methods of the route a path matches ("GET, POST"), for 405s the router could not route. */
export function errorHandler(
  log: ErrorLogger,
  methodsAt: (path: string) => string | undefined = () => undefined,
): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const methods = isParamDecodeError(err) ? methodsAt(req.path) : undefined;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (methods && !methods.split(', ').includes(method))
      return sendError(res, 'method_not_allowed', 'method not allowed', { Allow: methods });
    const known = err instanceof AppHttpError ? err : parserError(err);
    if (known) return sendError(res, known.code, known.message, known.headers);
    // the error object may hold request data; log its message and kind only
    log.error('app services request failed', {
      method: req.method,
      path: req.path,
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    });
    sendError(res, 'internal', 'internal error');
  };
}
