/**
 * Where the CPU of one cold /v1 answer goes on this machine, by process, against the HTTP floor's
 * request: the API (or the floor server), PostgreSQL (the postmaster and its backends) and the
 * load generator (this process), in µs of CPU per answered request, under 20 closed-loop clients.
 *
 *   flock /tmp/cpu.lock npx ts-node --transpile-only scripts/cpu-per-request.ts [--txs 100000] [--only <regex>]
 *
 * When the two cores are saturated, req/s is inversely proportional to CPU per request, so an
 * endpoint's ratio to the floor is about (floor's CPU per request) / (its CPU per request). The
 * ceiling column is that ratio for an API that would cost no more than the floor's Express
 * answering fixed bytes, plus the PostgreSQL CPU the answer measurably needs: no API design that
 * reads the store per request gets above it here (docs/rest-adapter.md "Cold answers").
 *
 * The store is bench:api's (bench/store.ts), prewarmed; the API runs in its own process as
 * deployed (bench/lib/api-server.ts), response cache off, render cache on and cold at the start.
 */
import fs from 'fs';
import { Pool } from 'pg';
import { restEndpoints, sampleStore } from '../bench/endpoints';
import { FLOOR_PATH, startHttpFloor } from '../bench/http-floor';
import { startApiServer } from '../bench/lib/api-server';
import { LARGE_ANSWER_BYTES } from '../bench/lib/api-targets';
import { cpuSeconds } from '../bench/lib/processes';
import { runLoad } from '../bench/load';
import { prewarmedBenchStore, SCHEMA } from '../bench/store';

const CLIENTS = 20;
const LOAD = { clients: CLIENTS, durationMs: 4000, warmupMs: 1000 };

/** The postmaster and every process it forked (its backends, the background workers). */
function postgresPids(postmaster: number): number[] {
  const pids = [postmaster];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === postmaster) pids.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return pids;
}

interface Split {
  rps: number;
  /** µs of CPU per request */
  server: number;
  postgres: number;
  load: number;
}

/** Runs the load and splits the CPU it took per request among the server, PostgreSQL and this process. */
async function measure(url: string, next: () => string, serverPid: number, postmaster: number): Promise<Split> {
  const sum = (pids: number[]) => pids.reduce((s, pid) => s + cpuSeconds(pid), 0);
  // the warm-up runs first, unmeasured: it opens the server's connections (the backends counted
  // below) and leaves the CPU counted to the measured window only
  await runLoad(url, next, { ...LOAD, durationMs: LOAD.warmupMs, warmupMs: 0 });
  const pgPids = postgresPids(postmaster);
  const before = { server: cpuSeconds(serverPid), postgres: sum(pgPids), load: process.cpuUsage() };
  const result = await runLoad(url, next, { ...LOAD, warmupMs: 0 });
  const load = process.cpuUsage(before.load);
  const requests = result.requests;
  const perRequest = (seconds: number) => (seconds * 1e6) / requests;
  return {
    rps: result.rps,
    server: perRequest(cpuSeconds(serverPid) - before.server),
    postgres: perRequest(sum(pgPids) - before.postgres),
    load: (load.user + load.system) / requests,
  };
}

function line(name: string, s: Split, floor?: Split): string {
  const total = s.server + s.postgres + s.load;
  const cols = [
    name.padEnd(24),
    `${Math.round(s.rps)} req/s`.padStart(12),
    `server ${Math.round(s.server)}`.padStart(11),
    `postgres ${Math.round(s.postgres)}`.padStart(13),
    `load ${Math.round(s.load)}`.padStart(9),
    `total ${Math.round(total)} µs`.padStart(14),
  ];
  if (floor) {
    const floorTotal = floor.server + floor.postgres + floor.load;
    cols.push(`req/s ${(s.rps / floor.rps).toFixed(2)} of the floor`);
    cols.push(`ceiling ${(floorTotal / (floorTotal + s.postgres)).toFixed(2)}`);
  }
  return cols.join('  ');
}

async function main(): Promise<void> {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const txs = Number(arg('--txs') ?? 100_000);
  const only = arg('--only') ? new RegExp(arg('--only')!) : /^(tx by hash|asset|account \(busy\)|txs \(first page\))$/;
  const db = await prewarmedBenchStore(txs);
  try {
    const pool = new Pool({ connectionString: db.url, max: 2 });
    pool.on('error', () => undefined);
    const dataDir = (await pool.query<{ data_directory: string }>('SHOW data_directory')).rows[0].data_directory;
    const postmaster = Number(fs.readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
    const sample = await sampleStore(pool);
    await pool.end();

    const floors = new Map<number, Split>();
    for (const bytes of [300, 75_000]) {
      const floor = await startHttpFloor(bytes);
      try {
        floors.set(bytes, await measure(floor.url, () => FLOOR_PATH, floor.pid, postmaster));
      } finally {
        floor.stop();
      }
      console.log(line(`floor ${bytes} B`, floors.get(bytes)!));
    }
    for (const e of restEndpoints(sample).filter((x) => only.test(x.name))) {
      const api = await startApiServer(db.url, SCHEMA, CLIENTS, false);
      try {
        // compared with the floor of its size, as bench:api compares it
        const bytes = (await (await fetch(api.url + e.next())).arrayBuffer()).byteLength;
        const floor = floors.get(bytes >= LARGE_ANSWER_BYTES ? 75_000 : 300);
        console.log(line(e.name, await measure(api.url, e.next, api.child.pid!, postmaster), floor));
      } finally {
        api.child.kill('SIGTERM');
      }
    }
  } finally {
    await db.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
