/** launcher/rest-adapter-main.ts in its own process (as deployed), for load runs that measure it apart. */
import { spawn, type ChildProcess } from 'child_process';
import fs from 'fs';
import path from 'path';
import { freePort } from '../../src/runtime/ports';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Starts the API on the store and waits until /v1/status answers 200. `clients` sizes its pool;
 * `cache` the response cache; `root` is the checkout whose API runs (default this one: another
 * checkout's, e.g. the previous design's, for a side-by-side run); `env` adds or overrides
 * variables (docs/rest-adapter.md, Configuration).
 */
export async function startApiServer(
  databaseUrl: string,
  schema: string,
  clients: number,
  cache: boolean,
  { root = ROOT, env = {} }: { root?: string; env?: Record<string, string> } = {},
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', path.join(root, 'launcher', 'rest-adapter-main.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DB_SCHEMA: schema,
        PORT: String(port),
        HOST: '127.0.0.1',
        DB_POOL_MAX: String(clients),
        RESPONSE_CACHE_MB: cache ? '64' : '0',
        // the capacity benches measure the server, not one client's budget: no per-client limit, no shedding
        RATE_LIMIT_PER_S: '0',
        LOAD_SHED_DELAY_MS: '0',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/v1/status`)).ok) return { url, child };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('rest-adapter did not start');
}

/** Resident set size of a process in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
  return Math.round(kb / 1024);
}
