/**
 * A reverse proxy on loopback that forwards every request to `target` and appends the peer
 * address it saw to X-Forwarded-For, as nginx's `$proxy_add_x_forwarded_for` does: whatever
 * the client wrote in that header is kept to the left of the entry the proxy adds.
 */
import http from 'http';
import type { AddressInfo } from 'net';

export interface ForwardingProxy {
  url: string;
  close(): Promise<void>;
}

export async function startForwardingProxy(target: string): Promise<ForwardingProxy> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const peer = req.socket.remoteAddress ?? '';
    const written = req.headers['x-forwarded-for'];
    const forwarded = written ? `${Array.isArray(written) ? written.join(', ') : written}, ${peer}` : peer;
    const out = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host, 'x-forwarded-for': forwarded },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
