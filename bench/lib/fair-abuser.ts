/**
 * An abusive client for bench:fair, in its own process (so its event loop is not the measuring
 * client's): `connections` loops from the loopback address `from`, sending as fast as answers
 * come and ignoring Retry-After. Kinds:
 *
 *   v1       walks cold 100-tx pages of /v1/txs by cursor (21 units each)
 *   graphql  POSTs 100-tx pages at random offsets with messages and events (up to ~300 units each)
 *   stream   opens /v1/stream from the first height (a full replay), reads a moment, drops it and
 *            opens again, `connections` at once (more than STREAM_MAX_PER_CLIENT)
 *
 * Prints one JSON line: requests by status and the seconds it ran.
 *
 *   ts-node bench/lib/fair-abuser.ts '{"kind":"v1","base":"http://127.0.0.1:3000","seconds":10,"connections":64,"from":"127.0.0.2"}'
 */
import http from 'http';

export type AbuseKind = 'v1' | 'graphql' | 'stream';

export interface AbuseOptions {
  kind: AbuseKind;
  base: string;
  seconds: number;
  connections: number;
  from: string;
  /** /v1/stream resume id of the first height (the whole history is replayed) */
  streamFrom?: string;
}

export interface AbuseResult {
  kind: AbuseKind;
  statuses: Record<string, number>;
  seconds: number;
}

const TX_FIELDS = 'id hash height code msgsJson feeJson eventsJson';

function request(
  agent: http.Agent,
  o: AbuseOptions,
  path: string,
  body?: string,
): Promise<{ status: number; text: string }> {
  const url = new URL(o.base);
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path,
        localAddress: o.from,
        method: body === undefined ? 'GET' : 'POST',
        headers:
          body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => resolve({ status: 0, text: '' }));
      },
    );
    req.on('error', () => resolve({ status: 0, text: '' }));
    req.end(body);
  });
}

/** One stream: opened, read for a moment, dropped; resolves with the opening status. */
function streamOnce(o: AbuseOptions): Promise<number> {
  const url = new URL(o.base);
  return new Promise((resolve) => {
    const req = http.get(
      {
        host: url.hostname,
        port: url.port,
        path: `/v1/stream?after=${o.streamFrom}`,
        localAddress: o.from,
        agent: false,
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          return;
        }
        res.on('data', () => undefined);
        setTimeout(
          () => {
            req.destroy();
            resolve(200);
          },
          200 + Math.random() * 800,
        );
      },
    );
    req.on('error', () => resolve(0));
  });
}

export async function abuse(o: AbuseOptions): Promise<AbuseResult> {
  const statuses: Record<string, number> = {};
  const count = (s: number) => (statuses[String(s)] = (statuses[String(s)] ?? 0) + 1);
  const started = Date.now();
  const until = started + o.seconds * 1000;
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  const loops = Array.from({ length: o.connections }, async () => {
    let cursor: string | null = null;
    while (Date.now() < until) {
      if (o.kind === 'stream') {
        count(await streamOnce(o));
        continue;
      }
      if (o.kind === 'v1') {
        const r = await request(agent, o, `/v1/txs?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        count(r.status);
        cursor = r.status === 200 ? (/"next_cursor":"([^"]+)"/.exec(r.text)?.[1] ?? null) : cursor;
        continue;
      }
      const offset = Math.floor(Math.random() * 2000);
      const query = `{ txes(first: 100, offset: ${offset}, orderBy: SEQ_DESC) { nodes { ${TX_FIELDS} } } }`;
      count((await request(agent, o, '/graphql', JSON.stringify({ query }))).status);
    }
  });
  await Promise.all(loops);
  agent.destroy();
  return { kind: o.kind, statuses, seconds: (Date.now() - started) / 1000 };
}

if (require.main === module) {
  abuse(JSON.parse(process.argv[2]) as AbuseOptions).then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r)}\n`);
      process.exit(0);
    },
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
