/**
 * docker-compose's one-shot `graphql-json` service: creates the JSON computed columns
 * (src/runtime/graphql-json.ts) in the schema the rest-adapter reads, before `subql-query` starts.
 *
 *   DB_HOST=… DB_SCHEMA=svc ts-node --transpile-only launcher/graphql-json.ts
 */
import { Pool } from 'pg';
import { installJsonColumns } from '../src/runtime/graphql-json';

/** Script entry (docker-compose `graphql-json`): the database and schema as the rest-adapter reads them. */
async function main(): Promise<void> {
  const { loadRestConfig } = await import('../rest-adapter/config');
  const config = loadRestConfig(process.env);
  const pool = new Pool({ ...config.database, max: 1 });
  try {
    const client = await pool.connect();
    try {
      await installJsonColumns(client, config.schema);
    } finally {
      client.release();
    }
    console.log(`graphql-json: JSON computed columns ready in schema ${config.schema}`);
  } finally {
    await pool.end();
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(`graphql-json: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
