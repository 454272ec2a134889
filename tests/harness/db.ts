/**
 * What tests use to reach the run's PostgreSQL (started by global-setup.ts).
 *
 * global-setup publishes the URL as process.env.TEST_DATABASE_URL (jest hands the parent's
 * env to test workers and in-band environments); as a fallback it also writes it to
 * runInfoFile(<jest pid>), which a test finds through its own pid (in band) or ppid (worker).
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import {
  createDatabase,
  createSchema,
  parseDatabaseUrl,
  PgConnection,
  subqlDbEnv,
  TestDatabase,
  TestSchema,
  uniqueName,
} from './postgres';

export const TEST_DATABASE_URL_ENV = 'TEST_DATABASE_URL';

/** The file global-setup writes for the jest process `pid`. */
export function runInfoFile(pid: number): string {
  return path.join(os.tmpdir(), `svc-test-pg-${pid}.json`);
}

export function getTestDatabaseUrl(): string {
  const fromEnv = process.env[TEST_DATABASE_URL_ENV];
  if (fromEnv) return fromEnv;
  for (const pid of [process.pid, process.ppid]) {
    try {
      const info = JSON.parse(fs.readFileSync(runInfoFile(pid), 'utf8')) as { url?: string };
      if (info.url) return info.url;
    } catch {
      /* not there */
    }
  }
  throw new Error(
    'no test database: run through jest with the integration project (global-setup starts PostgreSQL) or set DATABASE_URL',
  );
}

/** host, port, user, password, database of the run's server (database = the admin one). */
export function getTestConnection(): PgConnection {
  return parseDatabaseUrl(getTestDatabaseUrl());
}

/** A fresh schema `t_<prefix>_<random>` with its own pool; call drop() in afterAll. */
export function createTestSchema(prefix: string): Promise<TestSchema> {
  return createSchema(getTestDatabaseUrl(), prefix);
}

/** A fresh database `<prefix>_<random>` (e.g. one per e2e run of the SubQuery node). */
export function createTestDatabase(prefix: string): Promise<TestDatabase> {
  return createDatabase(getTestDatabaseUrl(), uniqueName(prefix));
}

export { subqlDbEnv };
