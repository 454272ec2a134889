/**
 * The HTTP floor of bench:api: an Express process that answers every GET with the same
 * bytes (no database, no presenting), driven by the same load generator and clients as the
 * API. What the API adds to a request shows against it. Run as a script, it serves:
 * `ts-node bench/http-floor.ts <bytes> <port>`.
 */
import { spawn } from 'child_process';
import express from 'express';
import { freePort } from '../src/runtime/ports';
import { LoadResult, runLoad } from './load';

export const FLOOR_PATH = '/floor';

/** An answer of `bytes` bytes: a JSON object with one string, like a large API answer. */
function fixedBody(bytes: number): Buffer {
  return Buffer.from(JSON.stringify({ padding: 'x'.repeat(Math.max(0, bytes - 14)) }));
}

function serve(bytes: number, port: number): void {
  const body = fixedBody(bytes);
  const app = express();
  app.get(FLOOR_PATH, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  app.listen(port, '127.0.0.1');
}

/** A floor server answering `bytes`-byte bodies at `url` + `FLOOR_PATH`, in its own process, until stop(). */
export async function startHttpFloor(bytes: number): Promise<{ url: string; pid: number; stop(): void }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', __filename, String(bytes), String(port)],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${url}${FLOOR_PATH}`)).ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

/** Drives a floor server answering `bytes`-byte bodies with `clients` closed-loop clients. */
export async function measureHttpFloor(
  bytes: number,
  o: { clients: number; durationMs: number; warmupMs: number },
): Promise<LoadResult> {
  const floor = await startHttpFloor(bytes);
  try {
    return await runLoad(floor.url, () => FLOOR_PATH, o);
  } finally {
    floor.stop();
  }
}

if (require.main === module) serve(Number(process.argv[2]), Number(process.argv[3]));
