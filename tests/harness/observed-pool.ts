/**
 * A pool whose connections report each query before running it, for tests and benches that
 * check what the store sends. A real pool hands out the same client object each time, and the
 * store keeps per-connection state keyed by it (rest-adapter/db/sql.ts: the session settings,
 * the planning), so each connection gets one proxy, kept across checkouts.
 */
import type { Pool, PoolClient } from 'pg';

/** Sees a query (the text, or the config object node-postgres was given) on `client`. */
export type QueryObserver = (query: unknown, client: PoolClient) => void;

/**
 * `base` with every connection's queries reported to the observer `onCheckout` returns when
 * that connection is checked out (one observer per checkout, so a test can group a request's
 * statements by the connection it used).
 */
export function observedPool(base: Pool, onCheckout: () => QueryObserver): Pool {
  const pool = Object.create(base) as Pool;
  const proxies = new WeakMap<PoolClient, PoolClient>();
  const observers = new WeakMap<PoolClient, QueryObserver>();
  pool.connect = (async () => {
    const client: PoolClient = await base.connect();
    observers.set(client, onCheckout());
    const known = proxies.get(client);
    if (known) return known;
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const proxy = new Proxy(client, {
      get(target, prop, receiver) {
        if (prop === 'query') {
          return (config: unknown, ...rest: unknown[]) => {
            observers.get(target)?.(config, target);
            return query(config, ...rest);
          };
        }
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    proxies.set(client, proxy);
    return proxy;
  }) as Pool['connect'];
  return pool;
}
