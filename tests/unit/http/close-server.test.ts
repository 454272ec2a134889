/**
 * closeServer: a stop is not held by a proxy's idle keep-alive connection, nor for longer than
 * the grace by a request still in flight.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import { closeServer } from '../../../src/http/close-server';

function listen(handler: http.RequestListener): Promise<http.Server> {
  const server = http.createServer(handler);
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function get(server: http.Server, agent: http.Agent, path: string): Promise<number> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

describe('closeServer', () => {
  test('an idle keep-alive connection does not hold the stop', async () => {
    const server = await listen((_req, res) => res.end('ok'));
    const agent = new http.Agent({ keepAlive: true });
    expect(await get(server, agent, '/')).toBe(200); // the connection stays open, idle
    const t0 = Date.now();
    await closeServer(server, 10_000);
    expect(Date.now() - t0).toBeLessThan(5_000);
    agent.destroy();
  });

  test('a request still in flight after the grace has its connection closed', async () => {
    const server = await listen(() => undefined); // never answers
    const agent = new http.Agent({ keepAlive: true });
    const pending = get(server, agent, '/slow').catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 100)); // the request has reached the server
    const t0 = Date.now();
    await closeServer(server, 300);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(await pending).toHaveProperty('code', 'ECONNRESET'); // the socket was closed under it
    agent.destroy();
  });
});
