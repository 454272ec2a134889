/**
 * `npm run example` (examples/services.ts) finds the npm start of its DATA_DIR
 * (DATA_DIR/npm-start.json, src/runtime/running-file.ts), and refuses, in one line, an --url and
 * an --rpc that are not one deployment, or one that does not answer, before it signs anything.
 * Real HTTP servers stand in for the API and the chain RPC.
 */
import fs from 'fs';
import http from 'http';
import os from 'os';
import path from 'path';
import { checkOneDeployment, endpointsOf, NotOneDeployment } from '../../../examples/services';
import { removeRunningStart, runningStart, writeRunningStart } from '../../../src/runtime/running-file';

let dataDir: string;
const servers: http.Server[] = [];
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-example-unit-'));
});
afterEach(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(routes: Record<string, unknown>): Promise<string> {
  const server = http.createServer((req, res) => {
    const body = routes[req.url ?? ''];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: 'not found' }));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const api = (hash: string) =>
  serve({
    '/v1/status': { indexed_height: 120 },
    '/v1/blocks/120': { block: { height: 120, hash }, txs: [], events: [] },
  });
const rpc = (hash: string) => serve({ '/block?height=120': { result: { block_id: { hash } } } });

describe('where the example finds its deployment', () => {
  test('the npm start running on DATA_DIR, unless --url / --rpc (or EXAMPLE_URL / EXAMPLE_RPC) say otherwise', () => {
    expect(endpointsOf({}, { DATA_DIR: dataDir })).toMatchObject({
      url: 'http://127.0.0.1:3000',
      rpc: 'http://127.0.0.1:26657',
      from: `no npm start found on DATA_DIR ${dataDir}: the defaults`,
    });
    writeRunningStart(dataDir, { pid: process.pid, url: 'http://127.0.0.1:3999', rpc: 'http://127.0.0.1:27001' });
    expect(runningStart(dataDir)?.rpc).toBe('http://127.0.0.1:27001');
    expect(endpointsOf({}, { DATA_DIR: dataDir })).toEqual({
      url: 'http://127.0.0.1:3999',
      rpc: 'http://127.0.0.1:27001',
      from: `the npm start running on DATA_DIR ${dataDir} (pid ${process.pid})`,
    });
    expect(endpointsOf({ rpc: 'http://h:1/' }, { DATA_DIR: dataDir, EXAMPLE_URL: 'http://u:2' })).toMatchObject({
      url: 'http://u:2',
      rpc: 'http://h:1',
    });
    removeRunningStart(dataDir);
    expect(runningStart(dataDir)).toBeUndefined();
  });

  test('a file a killed npm start left is not taken for a running one', () => {
    writeRunningStart(dataDir, { pid: 2 ** 22 + 12345, url: 'http://127.0.0.1:3999' });
    expect(runningStart(dataDir)).toBeUndefined();
  });
});

describe('one deployment, or a one-line refusal', () => {
  test('an API that answers its indexed block with a 503 is asked again, not taken for another deployment', async () => {
    let asked = 0;
    const busy = http.createServer((req, res) => {
      const answer =
        req.url === '/v1/status'
          ? { indexed_height: 120 }
          : ++asked < 3
            ? { error: 'the store is busy', code: 'unavailable' }
            : { block: { height: 120, hash: 'ab12' }, txs: [], events: [] };
      res.writeHead('block' in answer || req.url === '/v1/status' ? 200 : 503, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
    servers.push(busy);
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const u = `http://127.0.0.1:${(busy.address() as { port: number }).port}`;
    await expect(checkOneDeployment(u, await rpc('AB12'), 10)).resolves.toBeUndefined();
    expect(asked).toBe(3);
  });

  test('one that never answers it: refused with what it answered, not as another deployment', async () => {
    const u = await serve({ '/v1/status': { indexed_height: 120 } });
    const e = (await checkOneDeployment(u, await rpc('AB12'), 10).catch((x: unknown) => x)) as Error;
    expect(e).toBeInstanceOf(NotOneDeployment);
    expect(e.message).toBe(
      `${u} reports block 120 indexed but answered no block (not found) for it, 5 times: is the API overloaded? Try again`,
    );
  });

  test('the same block hash at the indexed height: accepted', async () => {
    await expect(checkOneDeployment(await api('ab12'), await rpc('AB12'))).resolves.toBeUndefined();
  });

  test("another instance's devnet: refused, naming both and what to pass", async () => {
    const [u, r] = [await api('AB12CD34EF56AA'), await rpc('99887766554433')];
    const e = (await checkOneDeployment(u, r).catch((x: unknown) => x)) as Error;
    expect(e).toBeInstanceOf(NotOneDeployment);
    expect(e.message).toBe(
      `--url ${u} and --rpc ${r} are not one deployment: block 120 is AB12CD34EF56… in the API, 998877665544… on the chain; pass the --rpc of the npm start serving ${u} (its ready banner prints it)`,
    );
    expect(e.message).not.toMatch(/\n/);
  });

  test('nothing listening: what could not be reached and why, not "fetch failed" with a stack', async () => {
    const u = await api('AB');
    const closed = await serve({});
    await new Promise((r) => servers.pop()!.close(r)); // a port nothing listens on
    const e = (await checkOneDeployment(u, closed).catch((x: unknown) => x)) as Error;
    expect(e).toBeInstanceOf(NotOneDeployment);
    expect(e.message).toMatch(
      /^cannot reach the chain RPC \(--rpc\) at http:\/\/127\.0\.0\.1:\d+\/block\?height=120 \(fetch failed: ECONNREFUSED\): is npm start running\?/,
    );
  });
});
