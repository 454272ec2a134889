/**
 * Holders of record at a past height (`?height=H`, docs/rest-adapter.md "State at a past height"):
 * a devnet history is released to the real node block by block (the RPC server sees the chain
 * only up to a cap, raised step by step). At each of the recorded heights, with the index standing
 * there, every kind's holders answer (every page, cursors followed) is recorded from the head.
 * Once the whole history is indexed, each is asked again with `?height=H` and must be the same
 * bytes, apart from the two documented differences: the `height` field and cursors bound to H.
 * Bad heights and cursors of another height get 400 with the documented message.
 */
import type { AddressInfo } from 'net';
import type { Server } from 'http';
import { Pool } from 'pg';
import { startRpcServer, type DevnetChain } from '../../devnet/chain';
import { generateHistory } from '../../devnet/scenario';
import { createRestApp } from '../../rest-adapter/app';
import { decodeCursor, encodeCursor } from '../../src/lib/cursor';
import { createTestDatabase } from '../harness/db';
import { ensureProjectBuilt } from '../harness/indexed-store';
import { loadOpenApiValidator } from '../harness/openapi-validator';
import { subqlDbEnv, type TestDatabase } from '../harness/postgres';
import { startNode, type SubqlNode } from '../harness/subql-node';

jest.setTimeout(900_000);

const BLOCKS = 120;
const SCHEMA = 'svc';
/** small pages, so that every answer has cursors to follow */
const LIMIT = 2;

/** The recorded heights: the first, every one of the first few, then spread to the head. */
const HEIGHTS = [1, 2, 3, 4, 5, 7, 9, 12, 15, 19, 24, 30, 36, 43, 50, 58, 66, 75, 84, 93, 102, 111, 116, 120];

/** `chain` as a node sees it while only blocks up to `cap` are released. */
function releasedBlockByBlock(chain: DevnetChain): { view: DevnetChain; release(height: number): void } {
  let cap = 0;
  const view = new Proxy(chain, {
    get(target, prop) {
      switch (prop) {
        case 'height':
          return Math.min(cap, target.height);
        case 'latestBlock':
          return () => target.block(Math.min(cap, target.height));
        case 'block':
          return (h: number) => (h <= cap ? target.block(h) : undefined);
        case 'blockByHash':
          return (hash: string) => {
            const b = target.blockByHash(hash);
            return b && b.height <= cap ? b : undefined;
          };
        case 'tx':
          return (hash: string) => {
            const t = target.tx(hash);
            return t && t.height <= cap ? t : undefined;
          };
        case 'allTxs':
          return function* () {
            for (const t of target.allTxs()) if (t.height <= cap) yield t;
          };
      }
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { view, release: (h) => (cap = h) };
}

interface Answer {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are read field by field
  body: any;
}

/** The rest adapter on `pool`, every answer checked against openapi.yaml. */
async function serve(pool: Pool, responseCache: boolean) {
  const openapi = loadOpenApiValidator();
  const errors: string[] = [];
  const app = createRestApp({
    pool,
    schema: SCHEMA,
    hrp: 'svc',
    logger: { error: (m, f) => errors.push(`${m}: ${String(f?.error)}`) },
    ...(responseCache ? {} : { responseCache: false }),
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string): Promise<Answer> => {
    const res = await fetch(base + path);
    const text = await res.text();
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => (headers[name] = value));
    const body = JSON.parse(text);
    openapi.check({ method: 'GET', path, status: res.status, headers, body });
    if (res.status >= 500) throw new Error(`${res.status} on ${path}: ${text} ${errors.join('\n')}`);
    return { status: res.status, text, body };
  };
  return { get, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

type Get = (path: string) => Promise<Answer>;

/** Every page of `path` (cursors followed), as answered. */
async function pages(get: Get, path: string): Promise<Answer[]> {
  const out: Answer[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const a = await get(cursor === null ? path : `${path}${sep}cursor=${cursor}`);
    out.push(a);
    cursor = a.status === 200 ? a.body.next_cursor : null;
  } while (cursor !== null && out.length < 10_000);
  return out;
}

/** Every asset id (all pages of /v1/assets). */
async function assetIds(get: Get): Promise<string[]> {
  const all = await pages(get, '/v1/assets?limit=100');
  return all.flatMap((p) => p.body.assets.map((a: { id: string }) => a.id));
}

/** The kinds of an asset (its graph). */
async function kindIds(get: Get, asset: string): Promise<number[]> {
  const g = await get(`/v1/assets/${asset}/graph`);
  return g.body.kinds.map((k: { kind_id: number }) => k.kind_id);
}

const holdersPath = (asset: string, kind: number) => `/v1/assets/${asset}/kinds/${kind}/holders?limit=${LIMIT}`;

/** A head answer's text as the answer at `height` must be: each cursor bound to the height (paging/cursors.ts). */
function boundTo(text: string, height: number): string {
  return text.replace(/"next_cursor":"([A-Za-z0-9_-]+)"/, (_m, c: string) => {
    const [units, holder] = decodeCursor('holders', c, ['amount', 'string'] as const);
    return `"next_cursor":"${encodeCursor('holders', [units, holder, height])}"`;
  });
}

describe(`holders of record at a past height: ${BLOCKS} blocks released block by block`, () => {
  let db: TestDatabase;
  let pool: Pool;
  let rpc: Awaited<ReturnType<typeof startRpcServer>>;
  let node: SubqlNode | undefined;
  /** by height: by holders path, the pages answered when the index stood there */
  const recorded = new Map<number, Map<string, Answer[]>>();
  let indexed = 0;

  beforeAll(async () => {
    ensureProjectBuilt();
    const history = await generateHistory({
      seed: 'at-height',
      blocks: BLOCKS,
      txsPerBlock: 10,
      skipSignatureVerification: true,
    });
    const chain = releasedBlockByBlock(history.chain);
    rpc = await startRpcServer(chain.view);
    db = await createTestDatabase('state_at_height');
    pool = new Pool({ connectionString: db.url, max: 4 });
    const recorder = await serve(pool, false);
    try {
      chain.release(HEIGHTS[0]);
      node = await startNode({ dbEnv: subqlDbEnv(db), endpoint: rpc.url, schema: SCHEMA });
      for (const h of HEIGHTS) {
        chain.release(h);
        await node.waitForHeight(h, 300_000);
        const status = await recorder.get('/v1/status');
        expect(status.body.indexed_height).toBe(h);
        const answers = new Map<string, Answer[]>();
        for (const asset of await assetIds(recorder.get))
          for (const kind of await kindIds(recorder.get, asset))
            answers.set(holdersPath(asset, kind), await pages(recorder.get, holdersPath(asset, kind)));
        recorded.set(h, answers);
      }
      indexed = HEIGHTS[HEIGHTS.length - 1];
    } finally {
      await recorder.close();
    }
  });

  afterAll(async () => {
    await node?.stop();
    await rpc?.close();
    await pool?.end();
    await db?.drop().catch(() => undefined);
  });

  it('answers every recorded holders list at its height with the bytes the head gave then (every page, cursors followed)', async () => {
    const api = await serve(pool, true);
    try {
      const finalPaths = [...recorded.get(indexed)!.keys()];
      let compared = 0;
      const mismatches: string[] = [];
      for (const [h, answers] of recorded) {
        for (const [path, expected] of answers) {
          const got = await pages(api.get, `${path}&height=${h}`);
          compared += got.length;
          const want = expected.map((a) => boundTo(a.text, h));
          const seen = got.map((a) => {
            expect(a.status).toBe(200);
            expect(a.body.height).toBe(h);
            return a.text.replace(`,"height":${h},`, ',');
          });
          if (JSON.stringify(seen) !== JSON.stringify(want)) mismatches.push(`${path} at ${h}`);
        }
        // an asset created after H was not there at H
        const assetOf = (p: string) => p.split('/')[3];
        const assetsThen = new Set([...answers.keys()].map(assetOf));
        for (const path of finalPaths.filter((p) => !assetsThen.has(assetOf(p))).slice(0, 3)) {
          const a = await api.get(`${path}&height=${h}`);
          expect([a.status, a.body.code]).toEqual([404, 'not_found']);
        }
      }
      expect(mismatches).toEqual([]);
      expect(compared).toBeGreaterThan(HEIGHTS.length * 5);

      // the history is one that the versions must serve: the busiest kind's answer changed at most recorded heights
      const busiest = finalPaths
        .map((p) => ({
          p,
          answers: new Set(
            HEIGHTS.map((h) =>
              JSON.stringify(
                recorded
                  .get(h)!
                  .get(p)
                  ?.map((a) => a.text),
              ),
            ),
          ),
        }))
        .sort((a, b) => b.answers.size - a.answers.size)[0];
      expect(busiest.answers.size).toBeGreaterThanOrEqual(10);
      const versions = await pool.query(
        `SELECT (SELECT count(*) FROM ${SCHEMA}.holding_versions)::int AS holdings, (SELECT count(*) FROM ${SCHEMA}.encumbrance_versions)::int AS encumbrances`,
      );
      expect(versions.rows[0].holdings).toBeGreaterThan(0);
      console.info(
        `state at height: ${recorded.size} heights, ${[...recorded.values()].reduce((n, a) => n + a.size, 0)} holders lists, ${compared} pages compared; ` +
          `the busiest kind answered ${busiest.answers.size} different ways; versions: ${versions.rows[0].holdings} holdings, ${versions.rows[0].encumbrances} encumbrances`,
      );
    } finally {
      await api.close();
    }
  });

  it('refuses bad heights and cursors of another height with 400 and a message naming the kept range', async () => {
    const api = await serve(pool, true);
    try {
      const [path, first] = [...recorded.get(indexed)!].find(([, a]) => a.length > 2)!;
      const kept = `the kept range is 1..${indexed}`;
      const refusals: Record<string, string> = {
        abc: `height must be a non-negative integer; ${kept}`,
        '-1': `height must be a non-negative integer; ${kept}`,
        '1.5': `height must be a non-negative integer; ${kept}`,
        '': `height must be a non-negative integer; ${kept}`,
        '0': `height 0 is below what is kept; ${kept}`,
        [String(indexed + 1)]: `height ${indexed + 1} is above the indexed height; ${kept}`,
        '99999999999999999999': `height 99999999999999999999 is above the indexed height; ${kept}`,
        '999999999999999999999999999999': `height 999999999999999999999999999999 is above the indexed height; ${kept}`,
        '+5': `height must be a non-negative integer; ${kept}`,
      };
      for (const [raw, message] of Object.entries(refusals)) {
        const a = await api.get(`${path}&height=${encodeURIComponent(raw)}`);
        expect([raw, a.status, a.body]).toEqual([raw, 400, { error: message, code: 'bad_request' }]);
      }
      const repeated = await api.get(`${path}&height=3&height=4`);
      expect([repeated.status, repeated.body.code]).toEqual([400, 'bad_request']);

      const headCursor: string = first[0].body.next_cursor;
      const atTen = await api.get(`${path}&height=${indexed}`);
      const tenCursor: string = atTen.body.next_cursor;
      const cases: [string, string][] = [
        [
          `${path}&height=${indexed}&cursor=${headCursor}`,
          'cursor was issued without height; repeat the request without height',
        ],
        [
          `${path}&cursor=${tenCursor}`,
          `cursor was issued at height ${indexed}; repeat the request with height=${indexed}`,
        ],
        [
          `${path}&height=5&cursor=${tenCursor}`,
          `cursor was issued at height ${indexed}; repeat the request with height=${indexed}`,
        ],
      ];
      for (const [p, message] of cases) {
        const a = await api.get(p);
        expect([a.status, a.body]).toEqual([400, { error: message, code: 'bad_request' }]);
      }
      // the head answer is what it was: no height field, the head's cursors
      const head = await api.get(path);
      expect(head.text).toBe(first[0].text);
    } finally {
      await api.close();
    }
  });
});
