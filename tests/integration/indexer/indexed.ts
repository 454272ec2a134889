/**
 * Indexes a devnet chain with the real @subql/node-cosmos (tests/harness/subql-node.ts)
 * into a fresh database of the run's PostgreSQL, then hands back a SQL helper on the
 * store it built. The chain is served over CometBFT RPC only while the node runs.
 */
import { Client } from 'pg';
import { startRpcServer, type DevnetChain } from '../../../devnet/chain';
import { createTestDatabase } from '../../harness/db';
import { subqlDbEnv, type TestDatabase } from '../../harness/postgres';
import { startNode, type StartNodeOptions } from '../../harness/subql-node';
import type { Row } from './reconcile';

export interface IndexedStore {
  db: TestDatabase;
  sql: (text: string, params?: unknown[]) => Promise<Row[]>;
  /** node start (until /health) and indexing (until lastProcessedHeight = chain height), ms */
  timings: { startMs: number; indexMs: number };
  /** the node's last log lines */
  logs: string[];
  close(): Promise<void>;
}

export async function indexChain(
  chain: DevnetChain,
  prefix: string,
  node: Partial<StartNodeOptions> = {},
  timeoutMs = 300_000,
): Promise<IndexedStore> {
  const db = await createTestDatabase(prefix);
  const rpc = await startRpcServer(chain);
  let logs: string[] = [];
  const t0 = Date.now();
  let startMs = 0;
  try {
    const n = await startNode({ dbEnv: subqlDbEnv(db), endpoint: rpc.url, schema: 'svc', ...node });
    startMs = Date.now() - t0;
    try {
      await n.waitForHeight(chain.height, timeoutMs);
    } finally {
      logs = n.logs();
      await n.stop();
    }
  } catch (e) {
    await rpc.close();
    await db.drop().catch(() => undefined);
    throw e;
  }
  const indexMs = Date.now() - t0 - startMs;
  await rpc.close();
  const client = new Client({
    host: db.host,
    port: db.port,
    user: db.user,
    password: db.password,
    database: db.database,
  });
  client.on('error', () => undefined);
  await client.connect();
  return {
    db,
    sql: async (text, params) => (await client.query(text, params)).rows,
    timings: { startMs, indexMs },
    logs,
    close: async () => {
      await client.end();
      await db.drop();
    },
  };
}
