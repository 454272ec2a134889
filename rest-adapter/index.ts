/** The rest-adapter: createRestApp and its configuration loader. */
export { createRestApp, DEFAULT_OPENAPI_PATH, DEFAULT_STATEMENT_TIMEOUT_MS } from './app';
export type { RestAppOptions } from './app';
export { loadRestConfig } from './config';
export type { RestConfig } from './config';
