/** Settings of GET /v1/stream (rest-adapter/config.ts reads them from STREAM_* variables). */

export interface StreamOptions {
  /** open streams in total; beyond it a new one is answered 429 */
  maxConnections: number;
  /** open streams per client address (the socket peer); beyond it 429 */
  maxPerClient: number;
  /** a `:` comment is sent after this long without a byte, so proxies and clients see a live connection */
  heartbeatMs: number;
  /** the `retry:` hint: how long a client waits before reconnecting (EventSource honours it) */
  retryMs: number;
  /** unsent bytes a connection may hold; above it the client is sent `event: close` and closed */
  maxBufferBytes: number;
  /** how long a closed stream may take to flush its final `close` event before its socket is destroyed */
  closeGraceMs: number;
  /** how many heights behind the indexed height a resume point may be; older is 410 cursor_expired */
  replayMaxBlocks: number;
}

export const DEFAULT_STREAM_OPTIONS: StreamOptions = {
  maxConnections: 2000,
  maxPerClient: 50,
  heartbeatMs: 15_000,
  retryMs: 2000,
  maxBufferBytes: 1024 * 1024,
  closeGraceMs: 10_000,
  replayMaxBlocks: 10_000,
};

/** Throws a TypeError naming the first setting out of range (createRestApp checks its options). */
export function checkStreamOptions(o: StreamOptions): void {
  const positive: (keyof StreamOptions)[] = [
    'maxConnections',
    'maxPerClient',
    'heartbeatMs',
    'retryMs',
    'maxBufferBytes',
    'closeGraceMs',
    'replayMaxBlocks',
  ];
  for (const key of positive)
    if (!(Number.isSafeInteger(o[key]) && o[key] > 0))
      throw new TypeError(`createRestApp: stream.${key} must be a positive integer`);
}
