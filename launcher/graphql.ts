/**
 * GraphQL at /graphql over the same store, read-only: PostGraphile 4 on the node's schema,
 * with the inflector and filter plugins SubQuery's own query service uses, so queries look
 * alike (`blocks(first: 5, orderBy: HEIGHT_DESC, filter: {...}) { nodes { ... } }`).
 *
 * Why not @subql/query as a child process: it pins NestJS 9 while this package overrides
 * NestJS to 11 for the node (DESIGN.md), and under that override its request body parsing
 * fails ("stream is not readable"). docker-compose.yml runs the official image instead.
 *
 * Read-only twice over: no mutations in the schema, and every connection of its pool starts
 * with default_transaction_read_only=on.
 */
import type { RequestHandler } from 'express';
import { Pool } from 'pg';
import { postgraphile } from 'postgraphile';
import type { PgConnection } from './postgres';

export interface GraphqlService {
  handler: RequestHandler;
  close(): Promise<void>;
}

const POOL_MAX = 5;
const STATEMENT_TIMEOUT_MS = 10_000;

export function readOnlyPool(conn: Pick<PgConnection, 'url'>): Pool {
  const pool = new Pool({
    connectionString: conn.url,
    max: POOL_MAX,
    options: `-c default_transaction_read_only=on -c statement_timeout=${STATEMENT_TIMEOUT_MS}`,
  });
  pool.on('error', () => undefined); // an idle connection cut by a restarting server: the next query reconnects
  return pool;
}

/** Call once the node has created its tables: the GraphQL schema is introspected at that moment. */
export function createGraphqlService(conn: Pick<PgConnection, 'url'>, schema: string): GraphqlService {
  const pool = readOnlyPool(conn);
  const handler = postgraphile(pool, schema, {
    graphqlRoute: '/graphql',
    graphiqlRoute: '/graphiql',
    graphiql: true,
    enhanceGraphiql: true,
    disableDefaultMutations: true,
    dynamicJson: true,
    setofFunctionsContainNulls: false,
    disableQueryLog: true,
    retryOnInitFail: true,
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS plugins without types
    appendPlugins: [require('@graphile-contrib/pg-simplify-inflector'), require('postgraphile-plugin-connection-filter')],
    // answer errors as GraphQL errors without printing stacks to our stdout
    handleErrors: (errors) => errors.map((e) => ({ message: e.message, locations: e.locations, path: e.path })),
  });
  return {
    handler: handler as unknown as RequestHandler,
    async close() {
      await handler.release?.();
      await pool.end().catch(() => undefined);
    },
  };
}
