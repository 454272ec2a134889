/**
 * GraphQL at /graphql over the same store, read-only: PostGraphile 4 on the node's schema,
 * with the inflector and filter plugins SubQuery's own query service uses, so queries look
 * alike (`blocks(first: 5, orderBy: HEIGHT_DESC, filter: {...}) { nodes { ... } }`).
 *
 * Why not @subql/query as a child process: it pins NestJS 9 while this package overrides
 * NestJS to 11 for the node (package.json `overrides`; docs/running.md, "GraphQL"), and under that override its request body parsing
 * fails ("stream is not readable"). docker-compose.yml runs the official image instead.
 *
 * Read-only twice over: no mutations in the schema, and every connection of its pool starts
 * with default_transaction_read_only=on. The one write is before that, on a connection of its
 * own: the JSON computed columns of graphql-json.ts (`eventsJson`, `msgsJson`…), created
 * idempotently so the schema PostGraphile introspects has them.
 *
 * Subscriptions (graphql-subscriptions.ts) as subql-query has them, over a websocket on
 * /graphql: `graphql-transport-ws` (the graphql-ws library, what subql-query speaks) or the
 * older `graphql-ws` (subscriptions-transport-ws), chosen by the client's subprotocol. The
 * launcher's server hands the upgrades to `upgrade` (http.ts routeUpgrades).
 *
 * In front of PostGraphile (graphql-limits.ts): page size, depth and cost limits and the optional
 * allow-list; each query charged to its client's budget (src/http/fair-share.ts) by its cost;
 * at most POOL_MAX queries at once, the others waiting at most DB_WAIT_MS for one of them to end
 * (else 503 with Retry-After); every statement under GRAPHQL_STATEMENT_TIMEOUT_MS; a client that
 * goes away cancels its statement (src/http/cancel-on-disconnect.ts).
 */
import { EventEmitter } from 'events';
import type { IncomingMessage, Server } from 'http';
import type { Duplex } from 'stream';
import PgPubSub from '@graphile/pg-pubsub';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { gql, makeExtendSchemaPlugin, makeJSONPgSmartTagsPlugin } from 'graphile-utils';
import { parse } from 'graphql';
import { Pool, type PoolClient } from 'pg';
import {
  enhanceHttpServerWithWebSockets,
  makePluginHook,
  postgraphile,
  type HttpRequestHandler,
  type PostGraphileOptions,
} from 'postgraphile';
import { installJsonColumns } from './graphql-json';
import { GraphqlLimits, pageBoundPlugin, readAllowlist, unitsOfCost } from './graphql-limits';
import { requestScope, StatementCanceller } from '../http/cancel-on-disconnect';
import type { Decision, FairShare } from '../http/fair-share';
import { DEFAULT_DB_WAIT_MS } from '../http/fair-share-settings';
import { Gate } from '../http/gate';
import { SubqlSubscriptionsPlugin } from './graphql-subscriptions';
import { GRAPHQL_DEFAULTS, type GraphqlOptions } from './config';
import type { PgConnection } from './database-url';
import { readMetadata } from '../store';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface GraphqlService {
  handler: RequestHandler;
  /** a websocket upgrade of /graphql: subscriptions */
  upgrade: UpgradeHandler;
  close(): Promise<void>;
}

const POOL_MAX = 5;

export function readOnlyPool(
  conn: Pick<PgConnection, 'url'>,
  max = POOL_MAX,
  statementTimeoutMs = GRAPHQL_DEFAULTS.statementTimeoutMs,
): Pool {
  const pool = new Pool({
    connectionString: conn.url,
    max,
    options: `-c default_transaction_read_only=on -c statement_timeout=${Math.trunc(statementTimeoutMs)}`,
  });
  pool.on('error', () => undefined); // an idle connection cut by a restarting server: the next query reconnects
  return pool;
}

/** The `_metadata` keys SubQuery's query service answers as fields; the others stay in the table. */
const METADATA_FIELDS = gql`
  type SubqlMetadata {
    lastProcessedHeight: Int
    lastProcessedTimestamp: String
    targetHeight: Int
    startHeight: Int
    chain: String
    genesisHash: String
    indexerHealthy: Boolean
    indexerNodeVersion: String
  }
  extend type Query {
    _metadata: SubqlMetadata
  }
`;

/**
 * `{ _metadata { lastProcessedHeight targetHeight chain } }` as SubQuery's query service has it
 * (clients written for SubQuery ask for it), instead of PostGraphile's key/value connection.
 */
function subqlMetadataPlugins(schema: string) {
  const table = `"${schema.replace(/"/g, '""')}"._metadata`;
  const hideTable = makeJSONPgSmartTagsPlugin({
    version: 1,
    config: { class: { _metadata: { tags: { omit: true } } } },
  });
  const metadataField = makeExtendSchemaPlugin(() => ({
    typeDefs: METADATA_FIELDS,
    resolvers: {
      Query: {
        _metadata: async (_parent: unknown, _args: unknown, context: { pgClient: PoolClient }) => {
          const by = Object.fromEntries(await readMetadata(context.pgClient, table));
          return {
            ...by,
            lastProcessedTimestamp: by.lastProcessedTimestamp === undefined ? null : String(by.lastProcessedTimestamp),
          };
        },
      },
    },
  }));
  return [hideTable, metadataField];
}

/** True when the document holds a mutation or subscription (a syntax error is PostGraphile's to report). */
function writesOrSubscribes(query: string): boolean {
  try {
    return parse(query).definitions.some((d) => d.kind === 'OperationDefinition' && d.operation !== 'query');
  } catch {
    return false;
  }
}

const readJson = express.json({ limit: '1mb' });

/**
 * Refuses mutations up front: PostGraphile would answer them with a 500 and print a stack.
 * The body is read here, so PostGraphile's own body-parser is told it is done (`_body`).
 */
const refuseWrites: RequestHandler = (req, res, next) =>
  readJson(req, res, (err?: unknown) => {
    if (err)
      return void res.status(400).json({ errors: [{ message: `invalid request body: ${(err as Error).message}` }] });
    (req as unknown as { _body: boolean })._body = true;
    const query = (req.body as { query?: unknown } | undefined)?.query;
    if (typeof query === 'string' && writesOrSubscribes(query)) {
      return void res.status(400).json({
        errors: [
          {
            message:
              'this GraphQL endpoint is read-only: no mutations; subscriptions are served over a websocket on /graphql',
          },
        ],
      });
    }
    next();
  });

/** What GraphQL's front answers itself: GraphQL's `errors` beside the product's `{error, code}`. */
function refuse(
  res: Response,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  res
    .status(status)
    .set(headers)
    .type('application/json')
    .send(JSON.stringify({ error: message, code, errors: [{ message, extensions: { code } }] }));
}

const REFUSAL_STATUS: Record<Exclude<Decision, { ok: true }>['code'], number> = {
  unauthorized: 401,
  too_many_requests: 429,
  unavailable: 503,
};

/** Answers a refused decision (a client that ignores Retry-After waits for its answer); true when refused. */
function refused(fair: FairShare, decision: Decision, req: Request, res: Response): boolean {
  if (decision.ok) return false;
  const send = () => refuse(res, REFUSAL_STATUS[decision.code], decision.code, decision.message, decision.headers);
  if (decision.retryAfterSeconds > 0) fair.refuse(req, res, decision.client, decision.retryAfterSeconds, send);
  else send();
  return true;
}

/** How GraphQL meets the rest of the product: who pays for a query, and how long it may wait. */
export interface GraphqlFront {
  /** each query charged to its client's budget, shared with /v1 in npm start; none: no per-client limit */
  fair?: FairShare;
  /** how long a query waits for one of the pool's connections before a 503 (DB_WAIT_MS) */
  dbWaitMs: number;
}

/** Creates the JSON computed columns (graphql-json.ts) on a short-lived connection that may write. */
async function installJson(conn: Pick<PgConnection, 'url'>, schema: string): Promise<void> {
  const pool = new Pool({ connectionString: conn.url, max: 1 });
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    try {
      await installJsonColumns(client, schema);
    } finally {
      client.release();
    }
  } finally {
    await pool.end().catch(() => undefined);
  }
}

/** Answers an upgrade request with an HTTP error instead of a websocket, then closes the socket. */
export function refuseUpgrade(socket: Duplex, status: number, reason: string, message: string): void {
  const body = JSON.stringify({ errors: [{ message }] });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * PostGraphile attaches its own upgrade listener to the server of the first HTTP request it
 * serves unless the server is marked as done; the launcher's server routes upgrades itself
 * (http.ts), and two listeners would upgrade one socket twice.
 */
export function keepPostgraphileOffServer(server: Server): void {
  (server as unknown as Record<string, unknown>).__postgraphileSubscriptionsEnabled = true;
}

/**
 * @graphile/pg-pubsub's one LISTEN connection, from a pool of its own: the plugin keeps it
 * checked out for good, and `pool.end()` waits for it. Handing it back ends it, and the pool's
 * 'remove' event tells the plugin to stop its keep-alive without reconnecting.
 */
function listenerPool(conn: Pick<PgConnection, 'url'>) {
  const pool = readOnlyPool(conn, 1);
  let held: PoolClient | undefined;
  pool.on('acquire', (client) => (held = client));
  pool.on('release', () => (held = undefined));
  return {
    pool,
    async close() {
      // the UNLISTENs of subscriptions that just ended are queued on this connection, which
      // answers in order: let them finish rather than fail on a released client
      await held?.query('SELECT 1').catch(() => undefined);
      const ended = pool.end().catch(() => undefined);
      held?.release();
      await ended;
    },
  };
}

/** Adds @graphile/pg-pubsub (the `pubsub` build option and its resolver plugin) to the options. */
function withPubSub(options: PostGraphileOptions, listenOn: Pool): PostGraphileOptions {
  return makePluginHook([PgPubSub])('postgraphile:options', options, { pgPool: listenOn });
}

const subscriptionsOff: UpgradeHandler = (_req, socket) =>
  refuseUpgrade(socket, 404, 'Not Found', 'GraphQL subscriptions are off here (GRAPHQL_SUBSCRIPTIONS=false)');

/**
 * The websocket side of PostGraphile on an emitter of our own: `upgrade` feeds it once the
 * schema is built, within the bound on open sockets; `closeAll` ends every open one.
 */
function websocketUpgrades(handler: HttpRequestHandler, maxSockets: number, fair: FairShare | undefined) {
  const upgrades = new EventEmitter();
  const enhanced = enhanceHttpServerWithWebSockets(upgrades as unknown as Server, handler);
  enhanced.catch(() => undefined); // reported to the client of each upgrade below
  const open = new Set<Duplex>();
  const upgrade: UpgradeHandler = (req, socket, head) => {
    if (open.size >= maxSockets)
      return refuseUpgrade(socket, 429, 'Too Many Requests', `at most ${maxSockets} GraphQL websockets at once`);
    const decision = fair?.decide(req, 1);
    if (decision && !decision.ok) {
      const status = REFUSAL_STATUS[decision.code];
      const reason = { 401: 'Unauthorized', 429: 'Too Many Requests', 503: 'Service Unavailable' }[status];
      return refuseUpgrade(socket, status, reason ?? 'Refused', decision.message);
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    enhanced.then(
      () => upgrades.emit('upgrade', req, socket, head),
      () => refuseUpgrade(socket, 503, 'Service Unavailable', 'GraphQL subscriptions are not available'),
    );
  };
  /** Ends every open socket; resolves once their subscriptions have been told (after their 'close'). */
  const closeAll = async () => {
    const closed = [...open].map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    for (const socket of open) socket.destroy();
    await Promise.all(closed);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { upgrade, closeAll };
}

/**
 * Call once the node has created its tables: the JSON computed columns are created, then the
 * GraphQL schema is introspected. When they cannot be created (`onJsonError` is told why),
 * GraphQL is served without them: the string fields answer as before.
 */
export async function createGraphqlService(
  conn: Pick<PgConnection, 'url'>,
  schema: string,
  onJsonError: (error: Error) => void = () => undefined,
  options: GraphqlOptions = GRAPHQL_DEFAULTS,
  front: GraphqlFront = { dbWaitMs: DEFAULT_DB_WAIT_MS },
): Promise<GraphqlService> {
  await installJson(conn, schema).catch((e: unknown) => onJsonError(e instanceof Error ? e : new Error(String(e))));
  const allowlist = options.allowlistFile ? readAllowlist(options.allowlistFile) : undefined;
  const pool = readOnlyPool(conn, POOL_MAX, options.statementTimeoutMs);
  const canceller = new StatementCanceller(pool);
  canceller.watchPool(); // every connection PostGraphile takes is cancelled with its client
  const listener = options.subscriptions ? listenerPool(conn) : undefined;
  const postgraphileOptions: PostGraphileOptions & { subscriptionEventEmitterMaxListeners: number } = {
    graphqlRoute: '/graphql',
    graphiqlRoute: '/graphiql',
    graphiql: true,
    enhanceGraphiql: true,
    disableDefaultMutations: true,
    dynamicJson: true,
    setofFunctionsContainNulls: false,
    disableQueryLog: true,
    retryOnInitFail: true,
    bodySizeLimit: '1mb',
    subscriptions: options.subscriptions,
    // one emitter listener per subscription (several may share a socket): no warning below this
    subscriptionEventEmitterMaxListeners: options.maxWebsockets * 10,
    appendPlugins: [
      /* eslint-disable @typescript-eslint/no-require-imports -- CommonJS plugins without types */
      require('@graphile-contrib/pg-simplify-inflector'),
      require('postgraphile-plugin-connection-filter'),
      /* eslint-enable @typescript-eslint/no-require-imports */
      ...subqlMetadataPlugins(schema),
      pageBoundPlugin,
      ...(options.subscriptions ? [SubqlSubscriptionsPlugin] : []),
    ],
  };
  const handler = postgraphile(
    pool,
    schema,
    listener ? withPubSub(postgraphileOptions, listener.pool) : postgraphileOptions,
  );
  const websockets = options.subscriptions
    ? websocketUpgrades(handler, options.maxWebsockets, front.fair)
    : { upgrade: subscriptionsOff, closeAll: async () => undefined };
  const limits = new GraphqlLimits({ maxDepth: options.maxDepth, maxCost: options.maxCost, allowlist }, () =>
    handler.getGraphQLSchema(),
  );
  const gate = new Gate(POOL_MAX, front.dbWaitMs);
  /** The query runs once its client has paid `cost` and one of the pool's connections is free. */
  const run = (req: Request, res: Response, next: NextFunction, cost: number) => {
    const decision = front.fair?.decide(req, cost);
    if (decision && refused(front.fair!, decision, req, res)) return;
    if (decision?.ok) front.fair!.settleAnswer(res, decision.client, cost, decision.charged);
    void gate.enter().then((release) => {
      if (!release)
        return refuse(res, 503, 'unavailable', 'every GraphQL connection stayed busy past the deadline; retry later', {
          'Retry-After': '1',
        });
      if (req.socket.destroyed) return release(); // the client went away while it waited
      res.once('close', release);
      requestScope(req, res, () => (handler as unknown as RequestHandler)(req, res, next));
    });
  };
  return {
    handler: (req, res, next) => {
      if (req.method !== 'POST') return run(req, res, next, 1);
      refuseWrites(req, res, (err?: unknown) => {
        if (err) return next(err);
        limits.check(req.body as object).then((checked) => {
          if (checked && !checked.ok) return refuse(res, 400, checked.code, checked.message);
          if (checked) (req.body as { query: string }).query = checked.query; // an allow-listed one named by its hash
          run(req, res, next, checked ? unitsOfCost(checked.cost) : 1);
        }, next);
      });
    },
    upgrade: websockets.upgrade,
    async close() {
      await websockets.closeAll();
      await handler.release?.();
      await listener?.close();
      await canceller.close();
      await pool.end().catch(() => undefined);
    },
  };
}
