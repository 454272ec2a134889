import type { Server } from 'http';

/**
 * Stops an HTTP server for a restart: no new connections, the idle keep-alive ones (a gateway
 * or load balancer holds them for up to `keepAliveTimeout`, 65 s here) closed at once, and the
 * requests in flight given `graceMs` to finish before their connections are closed too. Without
 * the last step one proxy's connection that was busy when the stop came holds `close()` open
 * for its whole keep-alive, and whatever the caller stops after the server waits behind it.
 */
export async function closeServer(server: Server, graceMs = 2000): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), graceMs);
  await closed;
  clearTimeout(force);
}
