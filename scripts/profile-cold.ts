/**
 * Where a cold /v1/txs?limit=20 (newest page) and a cold /v1/txs/{hash} spend their time, phase
 * by phase, in one process on the harness's indexed store (tests/harness/indexed-store.ts,
 * 150 blocks, 1,500 txs):
 *
 *   flock /tmp/cpu.lock npx ts-node --transpile-only scripts/profile-cold.ts [--rounds 400]
 *
 * Phases (mean ms per request over the rounds, 1 caller): the page statement through the
 * adapter's store (SQL, node-postgres parsing included); the same rows' heavy text columns
 * (msgs, fee, events) alone against the keys alone (what a keys-first read could skip);
 * presenting (events parsed and decoded, EVM view); toJson; the whole HTTP request against
 * the app with the response cache off and the render cache off, cold, and warm. Figures are
 * ratios within one run (docs/rest-adapter.md "Cold answers").
 */
import type { AddressInfo } from 'net';
import { Pool } from 'pg';
import { createRestApp } from '../rest-adapter/app';
import { createStore } from '../rest-adapter/db/sql';
import { toJson } from '../rest-adapter/json';
import { txPageOf, txPageRequest } from '../rest-adapter/paging/tx-pages';
import { RenderCache } from '../rest-adapter/presenters/render-cache';
import { presentTxRows, renderTxRows } from '../rest-adapter/presenters/txs';
import { createRepositories } from '../rest-adapter/repositories';
import { startIndexedStore } from '../tests/harness/indexed-store';
import { startPostgres } from '../tests/harness/postgres';

const GAS_DENOM = 'usvc';

async function meanMs(rounds: number, run: () => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < Math.min(50, rounds); i++) await run(); // warm-up: JIT, prepared statements
  const t = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) await run();
  return Number(process.hrtime.bigint() - t) / 1e6 / rounds;
}

async function main(): Promise<void> {
  const roundsAt = process.argv.indexOf('--rounds');
  const rounds = roundsAt >= 0 ? Number(process.argv[roundsAt + 1]) : 400;
  const pg = await startPostgres();
  const indexed = await startIndexedStore(pg.url, { log: (l) => console.log(`[store] ${l}`) });
  const pool = new Pool({ connectionString: indexed.info.databaseUrl, max: 4 });
  try {
    const schema = indexed.info.schema;
    const store = createStore(pool, { statementTimeoutMs: 5000 });
    const repos = createRepositories(schema);
    const request = txPageRequest(null, 20);
    const read = () => store.readOne((sql) => repos.txs.page(sql, undefined, request));
    const sample = await read();
    const page = txPageOf(request, sample);
    const answerOf = (txs: unknown[]) => ({
      txs,
      total: sample.total,
      next_cursor: page.nextCursor,
      prev_cursor: page.prevCursor,
      last_cursor: page.lastCursor,
      methods: sample.methods,
    });
    const presented = presentTxRows(page.rows, GAS_DENOM);
    const body = toJson(answerOf(presented));
    const warm = new RenderCache({ maxBytes: 64 << 20 });
    renderTxRows(page.rows, GAS_DENOM, warm);
    const q = (text: string) => () => pool.query(text);
    const heavy = `SELECT msgs, fee, events FROM "${schema}".txes ORDER BY seq DESC LIMIT 21`;
    const keys = `SELECT seq, hash FROM "${schema}".txes ORDER BY seq DESC LIMIT 21`;

    const app = createRestApp({ pool, schema, hrp: 'svc', responseCache: false, renderCache: false });
    const rendering = createRestApp({ pool, schema, hrp: 'svc', responseCache: false });
    const serve = (a: typeof app) =>
      new Promise<{ url: string; close: () => void }>((resolve) => {
        const s = a.listen(0, '127.0.0.1', () =>
          resolve({ url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, close: () => s.close() }),
        );
      });
    const plain = await serve(app);
    const withRender = await serve(rendering);
    const get = (base: string, path: string) => async () => (await fetch(base + path)).arrayBuffer();
    const hash = page.rows[0].hash;
    const floor = await serve(
      (await import('express')).default().get('/fixed', (_req, res) => void res.type('json').send(body)),
    );

    const figures: [string, number][] = [
      ['page statement (21 rows + figures), adapter store', await meanMs(rounds, read)],
      ['  the 21 rows: msgs, fee, events only', await meanMs(rounds, q(heavy))],
      ['  the 21 rows: seq, hash only', await meanMs(rounds, q(keys))],
      [
        'present 20 txs (events parsed + decoded, EVM view)',
        await meanMs(rounds, () => presentTxRows(page.rows, GAS_DENOM)),
      ],
      ['toJson of the presented page', await meanMs(rounds, () => toJson(answerOf(presented)))],
      [
        'render cache hit: 20 fragments + toJson',
        await meanMs(rounds, () => toJson(answerOf(renderTxRows(page.rows, GAS_DENOM, warm)))),
      ],
      [
        'render cache miss: 20 txs rendered and kept + toJson',
        await meanMs(rounds, () =>
          toJson(answerOf(renderTxRows(page.rows, GAS_DENOM, new RenderCache({ maxBytes: 64 << 20 })))),
        ),
      ],
      ['HTTP GET /v1/txs?limit=20, no caches', await meanMs(rounds, get(plain.url, '/v1/txs?limit=20'))],
      ['HTTP GET /v1/txs?limit=20, render cache warm', await meanMs(rounds, get(withRender.url, '/v1/txs?limit=20'))],
      ['HTTP GET /v1/txs/{hash}, no caches', await meanMs(rounds, get(plain.url, `/v1/txs/${hash}`))],
      ['HTTP GET /v1/txs/{hash}, render cache warm', await meanMs(rounds, get(withRender.url, `/v1/txs/${hash}`))],
      [`HTTP floor: Express sending the same ${body.length} bytes`, await meanMs(rounds, get(floor.url, '/fixed'))],
    ];
    for (const s of [plain, withRender, floor]) s.close();
    console.log(
      `\n${indexed.info.indexedHeight} blocks; page ${body.length} bytes; ${rounds} rounds, 1 caller, mean ms`,
    );
    for (const [name, ms] of figures) console.log(`${name.padEnd(62)} ${ms.toFixed(3)}`);
  } finally {
    await pool.end();
    await indexed.stop();
    await pg.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
