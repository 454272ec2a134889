/**
 * /api's configuration of the one error handler (src/http/error-handler.ts, shared with /v1).
 * Beyond the read API's codes the app services answer payload_too_large (413),
 * too_many_requests (429) and unavailable (503).
 */
import type { ErrorRequestHandler } from 'express';
import type { Logger } from '../../src/lib/logger';
import { errorHandler as sharedErrorHandler } from '../../src/http/error-handler';

/** `methodsAt(path)`: the methods of the route a path matches ("GET, POST"), for 405s the router could not route. */
export function errorHandler(
  log: Pick<Logger, 'error'>,
  methodsAt: (path: string) => string | undefined = () => undefined,
): ErrorRequestHandler {
  return sharedErrorHandler({
    methodsAt,
    // the error object may hold request data; log its message and kind only
    logInternal: (err, req) =>
      log.error('app services request failed', {
        method: req.method,
        path: req.path,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      }),
  });
}
