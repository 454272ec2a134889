/**
 * Jest globalSetup (integration project): one PostgreSQL for the whole run, then, when the
 * run selects the rest-adapter integration tests, the node-built store of a devnet
 * history (tests/harness/indexed-store.ts).
 */
import fs from 'fs';
import { PgServer, startPostgres } from './postgres';
import { runInfoFile, TEST_DATABASE_URL_ENV } from './db';
import {
  INDEXED_STORE_ENV,
  RunningIndexedStore,
  runNeedsIndexedStore,
  startIndexedStore,
  storeInfoFile,
} from './indexed-store';

declare global {
  var __SVC_TEST_PG__: PgServer | undefined;
  var __SVC_TEST_STORE__: RunningIndexedStore | undefined;
}

/** A failure is recorded for the tests that need the store, so the rest of the run still goes ahead. */
async function setUpIndexedStore(serverUrl: string, verbose: boolean): Promise<void> {
  const file = storeInfoFile(process.pid);
  process.env[INDEXED_STORE_ENV] = file;
  try {
    const store = await startIndexedStore(serverUrl, {
      log: verbose ? (line) => console.log(`[harness] ${line}`) : undefined,
    });
    globalThis.__SVC_TEST_STORE__ = store;
    fs.writeFileSync(file, JSON.stringify(store.info), { mode: 0o600 });
  } catch (e) {
    fs.writeFileSync(file, JSON.stringify({ error: e instanceof Error ? e.message : String(e) }), { mode: 0o600 });
  }
}

/** The live project (jest.config.js) reads no prebuilt store: its files start their own worlds. */
interface ProjectConfig {
  globals?: { svcIndexedStore?: boolean };
}

export default async function globalSetup(
  globalConfig?: {
    testPathPattern?: string;
    testPathPatterns?: unknown;
  },
  projectConfig?: ProjectConfig,
): Promise<void> {
  const verbose = Boolean(process.env.SVC_TEST_VERBOSE);
  if (!globalThis.__SVC_TEST_PG__) {
    // several projects of one run name this file: one server for all of them
    const started = Date.now();
    const infoFile = runInfoFile(process.pid);
    const server = await startPostgres({ cleanupFiles: [infoFile] });
    globalThis.__SVC_TEST_PG__ = server;
    process.env[TEST_DATABASE_URL_ENV] = server.url;
    fs.writeFileSync(infoFile, JSON.stringify({ url: server.url }), { mode: 0o600 });
    if (verbose) {
      console.log(
        `\n[harness] postgres ${server.embedded ? 'embedded' : 'from DATABASE_URL'} on ${server.host}:${server.port} (${Date.now() - started} ms)`,
      );
    }
  }
  const wanted = projectConfig?.globals?.svcIndexedStore !== false && runNeedsIndexedStore(globalConfig);
  if (wanted && !globalThis.__SVC_TEST_STORE__) await setUpIndexedStore(globalThis.__SVC_TEST_PG__.url, verbose);
}
