/**
 * A webhook receiver for the tests: a real HTTP server that keeps every delivery (its body,
 * headers, sender and arrival), answers each with `answer(n)` after `holdMs()` ms, and counts the
 * deliveries in flight at once (from the request to its answer or its connection's end) and the
 * most seen. Deliveries are verified with `standardwebhooks` (`verifyDelivery`), not with the
 * product's code, once the subscription's secret is known (it is made after the receiver, whose
 * URL it names). The integration tests and the compose drill (tests/compose/run.ts) use it.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import { Webhook } from 'standardwebhooks';

export interface Delivered {
  /** the request's path (and query) */
  path: string;
  body: string;
  headers: Record<string, string>;
  /** the status answered (0: the connection was dropped) */
  status: number;
  /** the sender's address */
  from: string;
  /** when it arrived (Date.now()) */
  at: number;
  /** not yet answered (nor its connection ended) */
  open: boolean;
}

export interface WebhookReceiver {
  url: string;
  got: Delivered[];
  /** deliveries in flight now, the most at once so far (a test may reset it), and those ended */
  seen: { inFlight: number; most: number; ended: number };
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** where it listens (127.0.0.1 unless given) */
  host?: string;
  /** the status of the n-th delivery (n from 0), or 'close' to drop its connection; 200 unless given */
  answer?: (n: number) => number | 'close';
  /** how long each answer waits (0 unless given), asked as the delivery has arrived */
  holdMs?: () => number;
  /** told of each delivery as it arrives */
  onDelivery?: (d: Delivered) => void;
}

export async function startWebhookReceiver(o: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const got: Delivered[] = [];
  const seen = { inFlight: 0, most: 0, ended: 0 };
  const server = http.createServer((req, res) => {
    seen.inFlight += 1;
    seen.most = Math.max(seen.most, seen.inFlight);
    let done = false;
    let d: Delivered | undefined;
    const end = () => {
      if (done) return;
      done = true;
      if (d) d.open = false;
      seen.inFlight -= 1;
      seen.ended += 1;
    };
    res.once('finish', end);
    res.once('close', end);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const a = o.answer ? o.answer(got.length) : 200;
      d = {
        path: req.url ?? '',
        body,
        headers: req.headers as Record<string, string>,
        status: a === 'close' ? 0 : a,
        from: req.socket.remoteAddress ?? '',
        at: Date.now(),
        open: !done,
      };
      got.push(d);
      o.onDelivery?.(d);
      const reply = () =>
        a === 'close' ? req.socket.destroy() : res.writeHead(a, { 'content-type': 'text/plain' }).end('ok');
      const ms = o.holdMs?.() ?? 0;
      if (ms > 0) setTimeout(reply, ms);
      else reply();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, o.host ?? '127.0.0.1', () => resolve());
  });
  return {
    url: `http://${o.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}/hook`,
    got,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The delivery's payload, verified with `standardwebhooks` under `secret` (it throws if the signature does not verify). */
export function verifyDelivery(
  d: Pick<Delivered, 'body' | 'headers'>,
  secret: string,
): { id: string; type: string; data: unknown } {
  return new Webhook(secret).verify(d.body, d.headers) as { id: string; type: string; data: unknown };
}
