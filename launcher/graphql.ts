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
 * with default_transaction_read_only=on. The one write is before that, on a connection of its
 * own: the JSON computed columns of graphql-json.ts (`eventsJson`, `msgsJson`…), created
 * idempotently so the schema PostGraphile introspects has them.
 */
import express, { type RequestHandler } from 'express';
import { gql, makeExtendSchemaPlugin, makeJSONPgSmartTagsPlugin } from 'graphile-utils';
import { parse } from 'graphql';
import { Pool, type PoolClient } from 'pg';
import { postgraphile } from 'postgraphile';
import { installJsonColumns } from './graphql-json';
import type { PgConnection } from './database-url';

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
          const { rows } = await context.pgClient.query<{ key: string; value: unknown }>(
            `SELECT key, value FROM ${table}`,
          );
          const by = Object.fromEntries(rows.map((r) => [r.key, r.value]));
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
        errors: [{ message: 'this GraphQL endpoint is read-only: mutations and subscriptions are not available' }],
      });
    }
    next();
  });

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

/**
 * Call once the node has created its tables: the JSON computed columns are created, then the
 * GraphQL schema is introspected. When they cannot be created (`onJsonError` is told why),
 * GraphQL is served without them: the string fields answer as before.
 */
export async function createGraphqlService(
  conn: Pick<PgConnection, 'url'>,
  schema: string,
  onJsonError: (error: Error) => void = () => undefined,
): Promise<GraphqlService> {
  await installJson(conn, schema).catch((e: unknown) => onJsonError(e instanceof Error ? e : new Error(String(e))));
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
    bodySizeLimit: '1mb',
    appendPlugins: [
      /* eslint-disable @typescript-eslint/no-require-imports -- CommonJS plugins without types */
      require('@graphile-contrib/pg-simplify-inflector'),
      require('postgraphile-plugin-connection-filter'),
      /* eslint-enable @typescript-eslint/no-require-imports */
      ...subqlMetadataPlugins(schema),
    ],
  });
  return {
    handler: (req, res, next) => {
      if (req.method !== 'POST') return void (handler as unknown as RequestHandler)(req, res, next);
      refuseWrites(req, res, (err?: unknown) =>
        err ? next(err) : (handler as unknown as RequestHandler)(req, res, next),
      );
    },
    async close() {
      await handler.release?.();
      await pool.end().catch(() => undefined);
    },
  };
}
