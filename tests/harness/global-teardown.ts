/** Jest globalTeardown (integration project): stop the run's PostgreSQL and remove its files. */
import fs from 'fs';
import { runInfoFile } from './db';
import { storeInfoFile } from './indexed-store';

export default async function globalTeardown(): Promise<void> {
  const store = globalThis.__SVC_TEST_STORE__;
  globalThis.__SVC_TEST_STORE__ = undefined;
  fs.rmSync(storeInfoFile(process.pid), { force: true });
  if (store) await store.stop(); // before the server: it drops the store's database
  const server = globalThis.__SVC_TEST_PG__;
  globalThis.__SVC_TEST_PG__ = undefined;
  fs.rmSync(runInfoFile(process.pid), { force: true });
  if (server) await server.stop();
}
