/**
 * PostGraphile as `npm start` serves it (src/runtime/graphql.ts: the same plugins, read-only pool
 * and JSON computed columns), in its own process like the API, for bench:api's PostGraphile
 * column. Run as a script it serves POST /graphql:
 * `ts-node bench/lib/graphql-server.ts <database url> <schema> <port>`.
 */
import { spawn, type ChildProcess } from 'child_process';
import express from 'express';
import { freePort } from '../../src/runtime/ports';
import { createGraphqlService } from '../../src/runtime/graphql';

/** A query every store answers: PostGraphile is up once it does. */
const READY_QUERY = JSON.stringify({ query: '{ _metadata { lastProcessedHeight } }' });

async function serve(databaseUrl: string, schema: string, port: number): Promise<void> {
  const service = await createGraphqlService({ url: databaseUrl }, schema, (e) =>
    console.error(`graphql-server: JSON computed columns not created: ${e.message}`),
  );
  const app = express();
  app.use(service.handler);
  app.listen(port, '127.0.0.1');
}

/** Starts PostGraphile on the store and waits until it answers a query. */
export async function startGraphqlServer(
  databaseUrl: string,
  schema: string,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', __filename, databaseUrl, schema, String(port)],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: READY_QUERY,
      });
      if (res.ok && !('errors' in ((await res.json()) as object))) return { url, child };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('PostGraphile did not start');
}

if (require.main === module)
  serve(process.argv[2], process.argv[3], Number(process.argv[4])).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
