/** The REST app's defaults, apart from the app (configuration reads them before the app is loaded: launcher/start.ts). */
import type { ResponseCacheOptions } from './http/response-cache';
import type { RenderCacheOptions } from './presenters/render-cache';

export const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;
export const DEFAULT_RESPONSE_CACHE: ResponseCacheOptions = { maxBytes: 64 * 1024 * 1024, pollMs: 200 };
export const DEFAULT_RENDER_CACHE: RenderCacheOptions = { maxBytes: 64 * 1024 * 1024 };
