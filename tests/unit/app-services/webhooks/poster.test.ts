/**
 * One delivery (app-services/webhooks/target.ts, Poster) against real local HTTP and HTTPS
 * receivers: a redirect is a failure and is not followed, a certificate the system does not trust
 * is a failure, a receiver that never stops sending is read only as far as RESPONSE_READ_BYTES,
 * and the private-address rule holds at the connection, on the addresses the resolver gave then
 * (docs/webhooks.md, "Safety").
 */
import fs from 'fs';
import http from 'http';
import https from 'https';
import type { AddressInfo } from 'net';
import path from 'path';
import { Poster, RESPONSE_READ_BYTES, type Resolver } from '../../../../app-services/webhooks/target';

const FIXTURES = path.join(__dirname, 'fixtures');

interface Receiver {
  port: number;
  /** the paths of the requests that reached the handler */
  paths: string[];
  close(): Promise<void>;
}

async function listen(server: http.Server | https.Server, paths: string[]): Promise<Receiver> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A receiver answering every POST with `answer`, after reading its body. */
function receiver(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Receiver> {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    req.resume();
    req.on('end', () => answer(req, res));
  });
  return listen(server, paths);
}

const open: { posters: Poster[]; receivers: Receiver[] } = { posters: [], receivers: [] };

function poster(o: { allowPrivate?: boolean; resolve?: Resolver } = {}): Poster {
  const p = new Poster({ timeoutMs: 5000, perTarget: 4, allowPrivate: o.allowPrivate ?? true, resolve: o.resolve });
  open.posters.push(p);
  return p;
}

async function track(r: Promise<Receiver>): Promise<Receiver> {
  const receiver = await r;
  open.receivers.push(receiver);
  return receiver;
}

afterEach(async () => {
  for (const p of open.posters.splice(0)) p.close();
  await Promise.all(open.receivers.splice(0).map((r) => r.close()));
});

const BODY = '{"id":"e1","type":"block","data":{}}';

describe('a delivery', () => {
  test.each([301, 302, 303, 307, 308])(
    'a %i answer is a failure, and its Location is not requested',
    async (status) => {
      const r = await track(
        receiver((req, res) => res.writeHead(status, { location: `http://127.0.0.1:${r.port}/elsewhere` }).end()),
      );
      const result = await poster().post(new URL(`http://127.0.0.1:${r.port}/hook`), {}, BODY);
      expect(result).toMatchObject({ ok: false, status, error: `redirect ${status} (not followed)` });
      expect(r.paths).toEqual(['/hook']);
    },
  );

  test('a receiver whose certificate is not trusted is a TLS failure; nothing is sent to it', async () => {
    const paths: string[] = [];
    const server = https.createServer(
      {
        key: fs.readFileSync(path.join(FIXTURES, 'self-signed.key')),
        cert: fs.readFileSync(path.join(FIXTURES, 'self-signed.crt')),
      },
      (req, res) => {
        paths.push(req.url ?? '');
        res.writeHead(200).end();
      },
    );
    const r = await track(listen(server, paths));
    const result = await poster().post(new URL(`https://127.0.0.1:${r.port}/hook`), {}, BODY);
    expect(result.ok).toBe(false);
    expect(result.status).toBeUndefined();
    expect(result.error).toMatch(/^DEPTH_ZERO_SELF_SIGNED_CERT: /);
    expect(r.paths).toEqual([]);
  });

  test('a receiver sending an endless answer is read only as far as RESPONSE_READ_BYTES: the connection is dropped, the 2xx counts', async () => {
    let sent = 0;
    let dropped!: () => void;
    const closed = new Promise<void>((resolve) => (dropped = resolve));
    const chunk = Buffer.alloc(1024, 'x');
    const r = await track(
      receiver((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        // never ends: writes whenever the connection takes more, until the deliverer drops it
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) sent += chunk.length;
        };
        res.on('drain', pump);
        res.once('close', () => dropped());
        pump();
      }),
    );
    const result = await poster().post(new URL(`http://127.0.0.1:${r.port}/hook`), {}, BODY);
    // without the bound the deliverer would read until its timeout and count a failure
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(result.error).toBeUndefined();
    await closed;
    expect(sent).toBeGreaterThan(RESPONSE_READ_BYTES);
  });
});

describe('the private-address rule at delivery', () => {
  /** A resolver answering `address` for every name, counting its calls. */
  const resolver = (address: string) => {
    const calls: string[] = [];
    const resolve: Resolver = async (hostname) => {
      calls.push(hostname);
      return [{ address, family: 4 }];
    };
    return { calls, resolve };
  };

  test('a name that resolves to a private address when the delivery connects is refused; nothing reaches it', async () => {
    const r = await track(receiver((_req, res) => res.writeHead(200).end()));
    const dns = resolver('127.0.0.1');
    const result = await poster({ allowPrivate: false, resolve: dns.resolve }).post(
      new URL(`http://hook.example.com:${r.port}/hook`),
      {},
      BODY,
    );
    expect(result.ok).toBe(false);
    expect(result.error).toBe('refused: hook.example.com resolves to 127.0.0.1, a private address');
    expect(dns.calls).toEqual(['hook.example.com']);
    expect(r.paths).toEqual([]);
  });

  test('with WEBHOOK_ALLOW_PRIVATE the same name is delivered to the address the resolver gave', async () => {
    const r = await track(receiver((_req, res) => res.writeHead(204).end()));
    const dns = resolver('127.0.0.1');
    const result = await poster({ allowPrivate: true, resolve: dns.resolve }).post(
      new URL(`http://hook.example.com:${r.port}/hook`),
      {},
      BODY,
    );
    expect(result).toMatchObject({ ok: true, status: 204 });
    expect(dns.calls).toEqual(['hook.example.com']);
    expect(r.paths).toEqual(['/hook']);
  });
});
