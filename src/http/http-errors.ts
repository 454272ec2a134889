/**
 * The error answer of both HTTP parts, /v1 (rest-adapter) and /api (app-services): `{error, code}`
 * with the status of its code (the `Error` schema of openapi.yaml and app-services/openapi.yaml),
 * never a stack, SQL text or key material. Each part's error handler (its http/errors.ts) decides
 * which code an error gets; this module is the one place an error answer is written.
 * Beside src/lib, not in it: this is server code (express), never bundled into the mappings.
 */
import type { RequestHandler, Response } from 'express';
import type { ApiErrorCode } from '../lib/errors';

/** The read API's codes, and those only the app services answer. */
export type HttpErrorCode =
  ApiErrorCode | 'payload_too_large' | 'too_many_requests' | 'unavailable' | 'cursor_expired' | 'unauthorized';

const STATUS_OF: Record<HttpErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  cursor_expired: 410,
  payload_too_large: 413,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
};

/** `reason`: the app services' refusal code (app-services/openapi.yaml `Reason`), beside `code`. */
export function sendError(
  res: Response,
  code: HttpErrorCode,
  message: string,
  headers: Record<string, string> = {},
  reason?: string,
): void {
  res
    .set(headers)
    .status(STATUS_OF[code])
    .type('application/json')
    .send(JSON.stringify(reason === undefined ? { error: message, code } : { error: message, code, reason }));
}

/**
 * A refusal a route raises, with its code, a message safe to show the client, extra headers
 * (Retry-After) and, in the app services, the reason code of a refusal of the lender or desk.
 */
export class HttpError extends Error {
  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError('bad_request', message);
export const notFound = (message = 'not found') => new HttpError('not_found', message);

/** 405 on a known path, with the methods it has (`Allow`). */
export function methodNotAllowed(methods: string): RequestHandler {
  return (_req, res) => sendError(res, 'method_not_allowed', 'method not allowed', { Allow: methods });
}
