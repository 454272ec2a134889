/** Jest globalSetup (integration project): one PostgreSQL for the whole run. */
import fs from 'fs';
import { PgServer, startPostgres } from './postgres';
import { runInfoFile, TEST_DATABASE_URL_ENV } from './db';

declare global {
  var __SVC_TEST_PG__: PgServer | undefined;
}

export default async function globalSetup(): Promise<void> {
  if (globalThis.__SVC_TEST_PG__) return; // several projects may name this file
  const started = Date.now();
  const infoFile = runInfoFile(process.pid);
  const server = await startPostgres({ cleanupFiles: [infoFile] });
  globalThis.__SVC_TEST_PG__ = server;
  process.env[TEST_DATABASE_URL_ENV] = server.url;
  fs.writeFileSync(infoFile, JSON.stringify({ url: server.url }), { mode: 0o600 });
  if (process.env.SVC_TEST_VERBOSE) {
    console.log(`\n[harness] postgres ${server.embedded ? 'embedded' : 'from DATABASE_URL'} on ${server.host}:${server.port} (${Date.now() - started} ms)`);
  }
}
