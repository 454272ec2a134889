/**
 * The error handler of /api: which `{error, code}` answer (src/http/http-errors.ts, shared with
 * /v1) an error gets. Beyond the read API's codes the app services answer payload_too_large
 * (413), too_many_requests (429) and unavailable (503).
 */
import type { ErrorRequestHandler } from 'express';
import { isParamDecodeError } from '../../src/lib/errors';
import type { Logger } from '../../src/lib/logger';
import { badRequest, HttpError, sendError } from '../../src/http/http-errors';

/** body-parser's own errors, by their `type`. */
function parserError(err: unknown): HttpError | undefined {
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.too.large') return new HttpError('payload_too_large', 'request body too large');
  if (type === 'entity.parse.failed') return badRequest('request body is not valid JSON');
  if (type === 'charset.unsupported' || type === 'encoding.unsupported')
    return badRequest('request body must be UTF-8 JSON');
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return badRequest('malformed request');
  return undefined;
}

/** `methodsAt(path)`: the methods of the route a path matches ("GET, POST"), for 405s the router could not route. */
export function errorHandler(
  log: Pick<Logger, 'error'>,
  methodsAt: (path: string) => string | undefined = () => undefined,
): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const methods = isParamDecodeError(err) ? methodsAt(req.path) : undefined;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (methods && !methods.split(', ').includes(method))
      return sendError(res, 'method_not_allowed', 'method not allowed', { Allow: methods });
    const known = err instanceof HttpError ? err : parserError(err);
    if (known) return sendError(res, known.code, known.message, known.headers, known.reason);
    // the error object may hold request data; log its message and kind only
    log.error('app services request failed', {
      method: req.method,
      path: req.path,
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    });
    sendError(res, 'internal', 'internal error');
  };
}
