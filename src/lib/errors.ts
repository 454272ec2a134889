/**
 * Error classes shared by mappings, the REST adapter, app services and the devnet.
 *
 * `code` carries the API error code of openapi.yaml (`Error.code`) (bad_request, not_found,
 * internal, method_not_allowed) so an HTTP error middleware can map an error to a
 * response body `{ error, code }` without string matching on messages.
 */

/** The error codes of openapi.yaml (`Error.code`). */
export type ApiErrorCode = 'bad_request' | 'not_found' | 'internal' | 'method_not_allowed';

/** Base class: every error of this library has a stable `code`. */
export abstract class SvcError extends Error {
  abstract readonly code: ApiErrorCode;

  constructor(message: string) {
    super(message);
    // Keep `instanceof` working when compiled to older targets or bundled.
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = new.target.name;
  }
}

/** A caller supplied a malformed value (address, id, amount, cursor…): HTTP 400 `bad_request`. */
export class InvalidInputError extends SvcError {
  readonly code = 'bad_request' as const;
}

/** A well-formed reference points at nothing: HTTP 404 `not_found`. */
export class NotFoundError extends SvcError {
  readonly code = 'not_found' as const;
}

/**
 * Deployment configuration is invalid. Raised at start-up, never by a request;
 * if it ever reaches a response it is the server's fault, hence `internal`.
 * `variable` names the environment variable at fault.
 */
export class ConfigError extends SvcError {
  readonly code = 'internal' as const;
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.variable = variable;
  }
}

/** True when `e` is one of this library's errors. */
export function isSvcError(e: unknown): e is SvcError {
  return e instanceof SvcError;
}

/** Express's router could not decode a route parameter (an invalid %-escape): "Failed to decode param …". */
export function isParamDecodeError(err: unknown): boolean {
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message.startsWith('Failed to decode param');
}
