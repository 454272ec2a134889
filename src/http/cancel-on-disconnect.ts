/**
 * A client that goes away cancels its query. Each request runs in a scope (AsyncLocalStorage)
 * that knows when its client disconnected before the answer was sent; a connection taken from a
 * pool inside that scope is watched, and when the client goes away while the connection is out,
 * the statement running on it is cancelled with pg_cancel_backend from a side connection.
 *
 * A cancel must never reach the connection's next user: the connection is handed back only once
 * the cancel has been delivered (pg_cancel_backend returns after signalling the backend, and a
 * backend that is idle by then ignores the signal).
 *
 * Work that outlives a request or serves several (the indexed-height polls, the stream hub's
 * batches) must not run in a request's scope: timers and promises made inside a scope keep it,
 * so such work is started `detached`. And a scope's client going away cancels only what runs at
 * that moment: work that still finds itself in a gone client's scope later runs as usual.
 */
import { AsyncLocalStorage } from 'async_hooks';
import type { RequestHandler } from 'express';
import { Pool, type PoolClient } from 'pg';

interface Scope {
  gone: boolean;
  /** another request waits for this one's work (a collapsed cache miss): it is never cancelled */
  shared: boolean;
  listeners: Set<() => void>;
}

const scopes = new AsyncLocalStorage<Scope>();

/** Runs the rest of the request in a scope that learns when its client goes away early. */
export const requestScope: RequestHandler = (req, res, next) => {
  const scope: Scope = { gone: false, shared: false, listeners: new Set() };
  res.once('close', () => {
    if (res.writableFinished || scope.shared) return;
    scope.gone = true;
    for (const listener of scope.listeners) listener();
    scope.listeners.clear();
  });
  scopes.run(scope, next);
};

/**
 * For work other requests may come to wait for (the response cache's computation of an answer):
 * the returned function marks the current request's work as shared, so its client going away
 * no longer cancels it.
 */
export function sharedWork(): () => void {
  const scope = scopes.getStore();
  return () => {
    if (scope) scope.shared = true;
  };
}

/** Runs `fn` (and everything it starts: timers, promises) outside any request's scope. */
export function detached<T>(fn: () => T): T {
  return scopes.exit(fn);
}

/** True when the current request's client has gone away (false outside a request). */
export function clientGone(): boolean {
  return scopes.getStore()?.gone ?? false;
}

/** The error a statement gets when it was cancelled because its client went away. */
export class ClientGoneError extends Error {
  constructor() {
    super('the client went away; its statement was cancelled');
    this.name = 'ClientGoneError';
  }
}

/** Cancels the statements of `pool`'s connections whose request's client went away. */
export class StatementCanceller {
  private side: Pool | undefined;

  constructor(private readonly pool: Pool) {}

  /**
   * Watches `client`, just taken from the pool, for the current request; call the returned
   * function before handing it back (it waits for a cancel under way). Outside a request scope
   * it watches nothing.
   */
  watch(client: PoolClient): () => Promise<void> {
    const scope = scopes.getStore();
    if (!scope || scope.gone) return async () => undefined;
    let cancelling: Promise<void> | undefined;
    const cancel = () => {
      const pid = (client as unknown as { processID?: number }).processID;
      if (pid) cancelling = this.cancel(pid);
    };
    scope.listeners.add(cancel);
    return async () => {
      scope.listeners.delete(cancel);
      await cancelling;
    };
  }

  private async cancel(pid: number): Promise<void> {
    // one side connection, made when first needed: the pool's own may all be busy
    if (!this.side) {
      this.side = new Pool({ ...this.pool.options, max: 1, idleTimeoutMillis: 10_000, allowExitOnIdle: true });
      this.side.on('error', () => undefined);
    }
    await this.side.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
  }

  /**
   * `pool` with every connection taken through `connect()` watched, and handed back only once a
   * cancel under way is done (for a library that takes connections itself, PostGraphile).
   */
  watchPool(): Pool {
    const pool = this.pool;
    const connect = pool.connect.bind(pool) as () => Promise<PoolClient>;
    const watched = async (): Promise<PoolClient> => {
      const client = await connect();
      const done = this.watch(client);
      const release = client.release;
      client.release = ((err?: Error | boolean) => {
        client.release = release;
        void done().then(() => release.call(client, err));
      }) as PoolClient['release'];
      return client;
    };
    pool.connect = watched as unknown as Pool['connect'];
    return pool;
  }

  async close(): Promise<void> {
    await this.side?.end().catch(() => undefined);
    this.side = undefined;
  }
}

/** A cancelled statement's error (SQLSTATE 57014) was our own, for a client that went away. */
export function isCancelledForGoneClient(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === '57014' && clientGone();
}

/** SQLSTATE 57014 from statement_timeout (not a cancel). */
export function isStatementTimeout(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  return err?.code === '57014' && typeof err.message === 'string' && err.message.includes('statement timeout');
}
