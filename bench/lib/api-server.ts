/** launcher/rest-adapter-main.ts in its own process (as deployed), for load runs that measure it apart. */
import { spawn, type ChildProcess } from 'child_process';
import fs from 'fs';
import path from 'path';
import { freePort } from '../../launcher/ports';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Starts the API on the store and waits until /v1/status answers 200. `clients` sizes its
 * pool; `cache` turns the response cache on (64 MB) or off; `env` sets any other variable
 * of the API's configuration (docs/rest-adapter.md), e.g. a cache size.
 */
export async function startApiServer(
  databaseUrl: string,
  schema: string,
  clients: number,
  cache: boolean,
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', path.join(ROOT, 'launcher', 'rest-adapter-main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DB_SCHEMA: schema,
        PORT: String(port),
        HOST: '127.0.0.1',
        DB_POOL_MAX: String(clients),
        RESPONSE_CACHE_MB: cache ? '64' : '0',
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
