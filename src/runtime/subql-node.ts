/**
 * Runs the real @subql/node-cosmos on this project (dist/ must be built:
 * `npm run build`) against a CometBFT RPC endpoint and a PostgreSQL database.
 *
 *   const node = await startNode({ dbEnv: subqlDbEnv(conn), endpoint: rpc.url, schema: 'svc_e2e' });
 *   await node.waitForHeight(tip);          // _metadata.lastProcessedHeight >= tip
 *   await node.stop();
 *
 * The node is started as docs/indexer.md ("Running the node") says it must be: TZ=UTC,
 * --historical=false, --kyve-endpoint=false, its own --port, DB_* from env.
 */
import { ChildProcess, spawn } from 'child_process';
import path from 'path';
import { Client } from 'pg';
import { withoutKeyVariables } from '../../app-services/keys';
import { freePort } from './ports';
import { stopWhenParentDies } from './watchdog';
import { METADATA_KEY, quoteIdent, readMetadataValue } from '../store';

export type SubqlDbEnv = Record<'DB_HOST' | 'DB_PORT' | 'DB_USER' | 'DB_PASS' | 'DB_DATABASE', string>;

export interface StartNodeOptions {
  /** DB_HOST, DB_PORT, DB_USER, DB_PASS, DB_DATABASE (src/runtime/database-url.ts subqlDbEnv) */
  dbEnv: SubqlDbEnv;
  /** CometBFT RPC URL (--network-endpoint) */
  endpoint: string;
  /** PostgreSQL schema of the project (--db-schema) */
  schema: string;
  /** port of the node's /health and /meta (default: a free one) */
  port?: number;
  /** --batch-size (default 100: the one-block-handler project measured fastest there on 2 cores, docs/indexer.md "Throughput") */
  batchSize?: number;
  /** project directory (default: the repository root) */
  projectDir?: string;
  /** --workers (default: none; slower on 2 cores, see docs/indexer.md) */
  workers?: number;
  /**
   * Run the node in its own process group, stopped by a watchdog if this process dies
   * (npm start: a terminal's Ctrl-C reaches the launcher only, which stops the node in order).
   */
  ownProcessGroup?: boolean;
  /** extra node flags, e.g. ['--log-level=debug'] */
  extraArgs?: string[];
  /** extra environment variables */
  env?: Record<string, string>;
  /** receives every line the node prints (default: kept in memory only) */
  onLog?: (line: string) => void;
  /** called when the node process exits, unless stop() was called first */
  onUnexpectedExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
  /** wait until the node serves /health before returning (default true) */
  waitReady?: boolean;
  /** milliseconds to wait for readiness (default 120000) */
  readyTimeoutMs?: number;
}

export interface SubqlNode {
  pid: number;
  port: number;
  schema: string;
  /** the last lines the node printed (at most 500) */
  logs(): string[];
  /** _metadata.lastProcessedHeight, or -1 before the first flush */
  lastProcessedHeight(): Promise<number>;
  /** Resolves once lastProcessedHeight >= height; rejects when the node exits or on timeout. */
  waitForHeight(height: number, timeoutMs?: number): Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

const REPO_ROOT = path.resolve(__dirname, '../..');
const LOG_LINES = 500;

function nodeArgs(o: StartNodeOptions, port: number): string[] {
  return [
    '--max-semi-space-size=64', // fewer GC stalls with many small entities (docs/indexer.md, the node's flags)
    path.join(REPO_ROOT, 'node_modules', '@subql', 'node-cosmos', 'bin', 'run'),
    `-f=${o.projectDir ?? REPO_ROOT}`,
    `--db-schema=${o.schema}`,
    '--historical=false',
    '--kyve-endpoint=false',
    `--port=${port}`,
    `--network-endpoint=${o.endpoint}`,
    `--batch-size=${o.batchSize ?? 100}`,
    ...(o.workers ? [`--workers=${o.workers}`] : []),
    ...(o.extraArgs ?? []),
  ];
}

async function queryHeight(db: Client, schema: string): Promise<number> {
  try {
    const value = await readMetadataValue(db, `${quoteIdent(schema)}._metadata`, METADATA_KEY.indexedHeight);
    return value === undefined ? -1 : Number(value);
  } catch {
    return -1; // schema or _metadata not created yet
  }
}

async function waitForHealth(
  port: number,
  child: ChildProcess,
  timeoutMs: number,
  logs: () => string[],
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `subql node exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${logs().slice(-40).join('\n')}`,
      );
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`subql node not ready after ${timeoutMs} ms:\n${logs().slice(-40).join('\n')}`);
}

export async function startNode(options: StartNodeOptions): Promise<SubqlNode> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, nodeArgs(options, port), {
    cwd: options.projectDir ?? REPO_ROOT,
    env: withoutKeyVariables({ ...process.env, ...options.dbEnv, ...options.env, TZ: 'UTC' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownProcessGroup ?? false,
  });
  if (options.ownProcessGroup && child.pid) stopWhenParentDies(child.pid);
  const lines: string[] = [];
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      lines.push(line);
      if (lines.length > LOG_LINES) lines.shift();
      options.onLog?.(line);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopped = false;
  child.once('exit', (code, signal) => {
    if (!stopped) options.onUnexpectedExit?.(code, signal);
  });

  const db = new Client({
    host: options.dbEnv.DB_HOST,
    port: Number(options.dbEnv.DB_PORT),
    user: options.dbEnv.DB_USER,
    password: options.dbEnv.DB_PASS,
    database: options.dbEnv.DB_DATABASE,
  });
  db.on('error', () => undefined); // the server may drop us (database dropped, server stopped): never crash the test process
  await db.connect();

  const stop = async (graceMs = 10_000): Promise<void> => {
    if (!stopped) {
      stopped = true;
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      await db.end().catch(() => undefined);
    }
    await exited;
  };

  const node: SubqlNode = {
    pid: child.pid ?? -1,
    port,
    schema: options.schema,
    logs: () => [...lines],
    lastProcessedHeight: () => queryHeight(db, options.schema),
    async waitForHeight(height, timeoutMs = 300_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(
            `subql node exited (${child.exitCode ?? child.signalCode}) at height ${await queryHeight(db, options.schema)}:\n${lines.slice(-60).join('\n')}`,
          );
        }
        const h = await queryHeight(db, options.schema);
        if (h >= height) return;
        if (Date.now() > deadline)
          throw new Error(
            `subql node at height ${h} after ${timeoutMs} ms, waiting for ${height}:\n${lines.slice(-40).join('\n')}`,
          );
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    stop,
  };
  try {
    if (options.waitReady ?? true) await waitForHealth(port, child, options.readyTimeoutMs ?? 120_000, () => lines);
  } catch (e) {
    await stop(2000);
    throw e;
  }
  return node;
}
