/** The REST app's defaults, apart from the app (configuration reads them before the app is loaded: launcher/start.ts). */
import type { ResponseCacheOptions } from './http/response-cache';
import type { RenderCacheOptions } from './presenters/render-cache';

export const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;
export const DEFAULT_RESPONSE_CACHE: ResponseCacheOptions = { maxBytes: 64 * 1024 * 1024, pollMs: 200 };
export const DEFAULT_RENDER_CACHE: RenderCacheOptions = { maxBytes: 64 * 1024 * 1024 };

/**
 * The limit on setting up one new store connection (TCP, TLS, authentication, a backend
 * started), for pools whose requests wait `connectionWaitMs` (db/sql.ts): far above a
 * request's wait, so that on a loaded machine (a backend can take more than a second to start
 * while the node restarts) the setup completes and serves the next request, and low enough
 * that a server that never answers is given up.
 */
export const STORE_CONNECT_TIMEOUT_MS = 10_000;
