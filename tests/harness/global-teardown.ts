/** Jest globalTeardown (integration project): stop the run's PostgreSQL and remove its files. */
import fs from 'fs';
import { runInfoFile } from './db';

export default async function globalTeardown(): Promise<void> {
  const server = globalThis.__SVC_TEST_PG__;
  globalThis.__SVC_TEST_PG__ = undefined;
  fs.rmSync(runInfoFile(process.pid), { force: true });
  if (server) await server.stop();
}
