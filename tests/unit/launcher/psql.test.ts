/**
 * `npm run psql` (launcher/psql.ts) on a DATA_DIR: the running server from its postmaster.pid,
 * and a search_path on the serving schema, which a reindex's switch moves (DATA_DIR/store.json).
 * tests/integration/reindex.test.ts runs its query on a real store after a real switch.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { psqlInvocation, type PsqlInvocation } from '../../../launcher/psql';
import { saveServingSchema } from '../../../src/runtime/index-version';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-psql-unit-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function running(): void {
  fs.mkdirSync(path.join(dataDir, 'postgres'));
  fs.writeFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), `123\n${dataDir}/postgres\n1700000000\n41237\n`);
  fs.writeFileSync(path.join(dataDir, 'postgres.password'), 'secret\n');
}

const invoke = (env: NodeJS.ProcessEnv, args: string[] = []) => psqlInvocation({ DATA_DIR: dataDir, ...env }, args);

test('no npm start on DATA_DIR: one line naming DATA_DIR and what to do', () => {
  const r = invoke({});
  expect('error' in r && r.error).toBe(
    `no npm start is running on DATA_DIR ${dataDir} (no ${dataDir}/postgres/postmaster.pid): start it there first, set DATA_DIR to the directory it runs on, or set DATABASE_URL`,
  );
});

test('the embedded store: its port and password, search_path on DB_SCHEMA before any reindex', () => {
  running();
  const r = invoke({}, ['-c', 'SELECT count(*) FROM txes']) as PsqlInvocation;
  expect(r.args).toEqual([
    '-h',
    '127.0.0.1',
    '-p',
    '41237',
    '-U',
    'postgres',
    'postgres',
    '-c',
    'SELECT count(*) FROM txes',
  ]);
  expect(r.env.PGPASSWORD).toBe('secret');
  expect(r.schema).toBe('svc');
  expect(r.env.PGOPTIONS).toBe('-c search_path=svc,app,public');
});

test('after a reindex switch: search_path follows the serving schema; PGOPTIONS of the caller kept', () => {
  running();
  saveServingSchema(dataDir, 'svc_aef09d47');
  const r = invoke({ PGOPTIONS: '-c statement_timeout=1000', APP_SCHEMA: 'desk' }) as PsqlInvocation;
  expect(r.schema).toBe('svc_aef09d47');
  expect(r.env.PGOPTIONS).toBe('-c statement_timeout=1000 -c search_path=svc_aef09d47,desk,public');
});

test('DATABASE_URL: DB_SCHEMA as set, DATA_DIR not read', () => {
  saveServingSchema(dataDir, 'svc_aef09d47');
  const r = invoke({ DATABASE_URL: 'postgres://u:p@db:5433/idx', DB_SCHEMA: 'chain' }) as PsqlInvocation;
  expect(r.args.slice(0, 7)).toEqual(['-h', 'db', '-p', '5433', '-U', 'u', 'idx']);
  expect(r.env.PGOPTIONS).toBe('-c search_path=chain,app,public');
});

test('a bad DB_SCHEMA is refused as npm start refuses it', () => {
  running();
  const r = invoke({ DB_SCHEMA: 'Svc; DROP' });
  expect('error' in r && r.error).toMatch(/^npm run psql: DB_SCHEMA: must be a lower-case PostgreSQL identifier/);
});
