/**
 * A Server-Sent Events client for tests and benches: real HTTP (node:http), frames parsed
 * with eventsource-parser. It can stop reading (`pause`) like a stalled consumer, and
 * keeps every event, comment and `retry:` it got.
 */
import http from 'http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  events: SseEvent[];
  comments: string[];
  retry: number | undefined;
  /** bytes of the body received so far */
  bytes: number;
  /** the id of the last event that had one (what an EventSource sends as Last-Event-ID) */
  lastId: string | undefined;
  /** true once the server ended the response (or the socket closed) */
  ended: boolean;
  /** resolves when the response ends */
  end: Promise<void>;
  /** waits until `ok(events)` holds; throws after `ms` */
  waitFor(what: string, ok: (events: SseEvent[]) => boolean, ms?: number): Promise<void>;
  /** stops reading the socket (the server's writes pile up) */
  pause(): void;
  resume(): void;
  /** drops the connection, as a client that goes away */
  close(): void;
}

export interface RefusedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Opens `url`; a 200 `text/event-stream` gives a stream, anything else the whole answer. */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream | RefusedAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status !== 200 || !String(res.headers['content-type']).startsWith('text/event-stream')) {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status, headers: res.headers, body }));
        return;
      }
      const stream: SseStream = {
        status,
        headers: res.headers,
        events: [],
        comments: [],
        retry: undefined,
        bytes: 0,
        lastId: undefined,
        ended: false,
        end: new Promise<void>((done) => {
          res.on('close', () => {
            stream.ended = true;
            done();
          });
        }),
        async waitFor(what, ok, ms = 30_000) {
          const deadline = Date.now() + ms;
          while (!ok(stream.events)) {
            if (Date.now() > deadline)
              throw new Error(`timed out waiting for ${what} (${stream.events.length} events, ended ${stream.ended})`);
            await new Promise((r) => setTimeout(r, 50));
          }
        },
        pause: () => res.pause(),
        resume: () => res.resume(),
        close: () => req.destroy(),
      };
      const parser = createParser({
        onEvent: (m: EventSourceMessage) => {
          stream.events.push({ id: m.id, event: m.event ?? 'message', data: m.data });
          if (m.id !== undefined) stream.lastId = m.id;
        },
        onComment: (c) => stream.comments.push(c),
        onRetry: (ms) => (stream.retry = ms),
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        stream.bytes += Buffer.byteLength(chunk);
        parser.feed(chunk);
      });
      res.on('error', () => undefined); // a dropped connection is what some tests do
      resolve(stream);
    });
    req.on('error', reject);
  });
}

export function isStream(x: SseStream | RefusedAnswer): x is SseStream {
  return 'events' in x;
}
