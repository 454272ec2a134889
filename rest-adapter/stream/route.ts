/**
 * GET /v1/stream (openapi.yaml streamEvents): checks the request (400, 410, 429, 503 as JSON
 * before any stream byte), opens the event stream, replays from the store everything after
 * the resume point, then joins the hub for live events.
 */
import type { EventEmitter } from 'events';
import type { Request, Response, Router } from 'express';
import type { Server } from 'net';
import { InvalidInputError } from '../../src/lib/errors';
import type { Logger } from '../../src/lib/logger';
import { sendError } from '../../src/http/http-errors';
import type { FairShare } from '../../src/http/fair-share';
import { clientKeyOf } from '../../src/http/trust-proxy';
import type { ParameterChecks } from '../../src/http/openapi-params';
import { queryValue } from '../http/params';
import { getOnly } from '../http/respond';
import { StreamConnection } from './connection';
import { frameOpening } from './events';
import { parseStreamFilter } from './filter';
import type { StreamHub } from './hub';
import type { ConnectionLimits } from './limits';
import type { StreamOptions } from './options';
import { comparePositions, decodeEventId, endOfHeight, isHeightEnd, type StreamPosition } from './position';
import { HEIGHTS_PER_READ, type StreamSource } from './source';

export const STREAM_PATH = '/v1/stream';

export interface StreamRouteDeps {
  hub: StreamHub;
  source: StreamSource;
  limits: ConnectionLimits;
  options: StreamOptions;
  hrp: string;
  checks: ParameterChecks;
  /** the document paths served, for the start-up check against openapi.yaml */
  served: string[];
  logger: Pick<Logger, 'error'>;
  /** charges each replay read to the client's budget (src/http/fair-share.ts); none: no limit */
  fair?: FairShare;
}

/** What one replay read costs before its rows are known, and per event it read (as a row of a page of whole txs). */
const REPLAY_READ_COST = 1;
const REPLAY_EVENT_COST = 1 / 5;

/**
 * The resume point: `Last-Event-ID` wins over `after` (a browser's EventSource reconnects
 * to the URL it opened, `after` included, with the header set to the last id it got).
 * Both are checked when both are given.
 */
function resumePoint(req: Request): StreamPosition | null {
  const header = req.get('last-event-id');
  const fromQuery = decodeEventId(queryValue(req.query, 'after'));
  const fromHeader = decodeEventId(header === '' ? undefined : header);
  return fromHeader ?? fromQuery;
}

/** The client by the product's one rule (TRUST_PROXY): its open streams are counted together. */
function clientAddress(req: Request): string {
  return clientKeyOf(req.ip);
}

function openStream(res: Response, retryMs: number): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store, no-transform', // never kept, never compressed by a proxy
    'X-Accel-Buffering': 'no', // nginx: pass events through as written
    Connection: 'close', // the stream is the connection's whole life; ending one ends the other
  });
  res.socket?.setNoDelay(true);
  res.socket?.setTimeout(0);
  res.write(frameOpening(retryMs));
}

/**
 * Resolves true once the response may be written again, false if the client did not take
 * enough within `ms` or went away. Waits only when a write was refused (`writableNeedDrain`):
 * 'drain' comes only after such a write, so bytes merely in flight must not be waited on.
 */
export function drained(
  res: { readonly writableNeedDrain: boolean } & Pick<EventEmitter, 'on' | 'off'>,
  ms: number,
): Promise<boolean> {
  if (!res.writableNeedDrain) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

/**
 * Sends from the store everything after the connection's position up to the hub's
 * delivered height, then joins the hub while it is idle: a batch that ran meanwhile is
 * replayed too, so nothing falls between replay and live. A client that does not take a
 * replayed chunk within one heartbeat interval is slow (closed like a slow live client).
 */
async function replayThenJoin(
  connection: StreamConnection,
  req: Request,
  res: Response,
  deps: StreamRouteDeps,
): Promise<void> {
  const client = deps.fair?.identify(req);
  for (;;) {
    await deps.hub.idle();
    const through = await deps.hub.deliveredHeight();
    if (through === undefined) throw new Error('indexed height unknown');
    while (connection.isOpen && comparePositions(connection.position, endOfHeight(through)) < 0) {
      const position = connection.position;
      const after = isHeightEnd(position) ? position.height : position.height - 1; // a height partly sent is read again
      const upTo = Math.min(through, after + HEIGHTS_PER_READ);
      // the replay goes at the pace of the client's budget: a read waits until the budget holds it
      if (client && !(await deps.fair!.take(client, REPLAY_READ_COST, () => !connection.isOpen))) return;
      const events = await deps.source.all(connection.filter, after, upTo);
      if (client) deps.fair!.charge(client, events.length * REPLAY_EVENT_COST);
      if (!connection.send(events, upTo)) return;
      if (!(await drained(res, deps.options.heartbeatMs)))
        return connection.close('slow_client', 'the client did not take the replay; reconnect with Last-Event-ID');
    }
    if (!connection.isOpen) return;
    if (!deps.hub.busy && (await deps.hub.deliveredHeight()) === through) return deps.hub.join(connection);
  }
}

export function registerStreamRoute(router: Router, deps: StreamRouteDeps): void {
  deps.served.push(STREAM_PATH);
  const check = deps.checks('GET', STREAM_PATH);
  getOnly(router, STREAM_PATH, async (req, res) => {
    // one filter at most, an account's checksum, then the document's word on each value
    const filter = parseStreamFilter(req.query, deps.hrp);
    const problem = check(req);
    if (problem !== undefined) throw new InvalidInputError(problem);
    const resume = resumePoint(req);

    const indexed = await deps.hub.deliveredHeight();
    if (indexed === undefined) return sendError(res, 'unavailable', 'the store cannot be read; retry later');
    if (resume && resume.height < indexed - deps.options.replayMaxBlocks)
      return sendError(
        res,
        'cursor_expired',
        `the resume point is more than ${deps.options.replayMaxBlocks} blocks behind the indexed height; re-read from the list endpoints and reconnect without an id`,
      );
    if (req.method === 'HEAD') {
      openStream(res, deps.options.retryMs); // the headers a GET gets, no body
      return void res.end();
    }
    const client = clientAddress(req);
    const refusal = deps.limits.acquire(client);
    if (refusal) {
      const retryAfter = Math.ceil(deps.options.retryMs / 1000);
      const send = () =>
        sendError(
          res,
          'too_many_requests',
          refusal === 'total' ? 'too many open streams' : 'too many open streams from this client address',
          { 'Retry-After': String(retryAfter) },
        );
      // a client over its own bound that keeps reconnecting waits for its answers (fair-share.ts)
      if (refusal === 'per_client' && deps.fair)
        return deps.fair.refuse(req, res, deps.fair.identify(req), retryAfter, send);
      return send();
    }

    const connection = new StreamConnection(
      res,
      filter,
      resume ?? endOfHeight(indexed),
      deps.options.maxBufferBytes,
      deps.options.closeGraceMs,
    );
    deps.hub.register(connection, (req.socket as { server?: Server }).server);
    res.once('close', () => {
      deps.hub.remove(connection);
      deps.limits.release(client);
    });
    openStream(res, deps.options.retryMs);
    try {
      await replayThenJoin(connection, req, res, deps);
    } catch (e) {
      // the store failed mid-replay: end the stream; the client resumes from its last id
      deps.logger.error('stream: replay failed', { error: e });
      connection.close('unavailable', 'the store could not be read; reconnect with Last-Event-ID to resume');
    }
  });
}
