/** The test harness itself: one server per run, isolated schemas, exact numerics, btree_gist. */
import { Client } from 'pg';
import { createTestDatabase, createTestSchema, getTestConnection, getTestDatabaseUrl } from '../harness/db';
import { subqlDbEnv, TestSchema } from '../harness/postgres';

async function schemaExists(name: string): Promise<boolean> {
  const c = new Client({ connectionString: getTestDatabaseUrl() });
  await c.connect();
  try {
    const r = await c.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [name]);
    return r.rowCount === 1;
  } finally {
    await c.end();
  }
}

describe('test PostgreSQL harness', () => {
  let a: TestSchema;
  let b: TestSchema;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTestSchema('harness_a'), createTestSchema('harness_b')]);
  });

  afterAll(async () => {
    await Promise.all([a?.drop(), b?.drop()]);
  });

  it('connects to the run database and exposes its connection pieces', async () => {
    const conn = getTestConnection();
    expect(conn.port).toBeGreaterThan(0);
    expect(conn.user).not.toBe('');
    const env = subqlDbEnv(conn);
    expect(env).toEqual({
      DB_HOST: conn.host,
      DB_PORT: String(conn.port),
      DB_USER: conn.user,
      DB_PASS: conn.password,
      DB_DATABASE: conn.database,
    });
    const c = new Client({
      host: env.DB_HOST,
      port: Number(env.DB_PORT),
      user: env.DB_USER,
      password: env.DB_PASS,
      database: env.DB_DATABASE,
    });
    await c.connect();
    const r = await c.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
    await c.end();
    expect(Number(r.rows[0].v)).toBeGreaterThanOrEqual(120000);
  });

  it('gives each suite its own schema: a table in one is absent in the other', async () => {
    expect(a.schema).toMatch(/^t_harness_a_[0-9a-f]{12}$/);
    expect(a.schema).not.toBe(b.schema);
    const sp = await a.pool.query<{ s: string }>('SELECT current_schema() AS s');
    expect(sp.rows[0].s).toBe(a.schema);

    await a.pool.query('CREATE TABLE only_in_a (id text PRIMARY KEY)');
    await a.pool.query("INSERT INTO only_in_a VALUES ('x')");
    expect((await a.pool.query('SELECT id FROM only_in_a')).rows).toEqual([{ id: 'x' }]);

    await expect(b.pool.query('SELECT * FROM only_in_a')).rejects.toThrow(/relation "only_in_a" does not exist/);
    const seen = await b.pool.query("SELECT to_regclass('only_in_a') AS t, to_regclass($1) AS qualified", [
      `${a.schema}.only_in_a`,
    ]);
    expect(seen.rows[0].t).toBeNull();
    expect(seen.rows[0].qualified).not.toBeNull();

    // same table name in b is a different table
    await b.pool.query('CREATE TABLE only_in_a (id text PRIMARY KEY)');
    expect((await b.pool.query('SELECT count(*)::int AS n FROM only_in_a')).rows[0].n).toBe(0);
  });

  it('round-trips numeric amounts above 2^64 exactly, as strings', async () => {
    const amount = (2n ** 64n + 12345678901234567890n) * 1000n + 7n; // 40 digits
    await a.pool.query('CREATE TABLE balances (id text PRIMARY KEY, amount numeric NOT NULL)');
    await a.pool.query('INSERT INTO balances VALUES ($1, $2)', ['h1', amount.toString()]);
    const r = await a.pool.query<{ amount: string; doubled: string }>(
      'SELECT amount, amount * 2 AS doubled FROM balances WHERE id = $1',
      ['h1'],
    );
    expect(typeof r.rows[0].amount).toBe('string');
    expect(r.rows[0].amount).toBe(amount.toString());
    expect(BigInt(r.rows[0].amount)).toBe(amount);
    expect(BigInt(r.rows[0].doubled)).toBe(amount * 2n);
    expect(BigInt(r.rows[0].amount)).toBeGreaterThan(2n ** 64n);
  });

  it('has btree_gist available (SubQuery historical indexes need it)', async () => {
    await a.pool.query('CREATE EXTENSION IF NOT EXISTS btree_gist');
    const ext = await a.pool.query("SELECT extname FROM pg_extension WHERE extname = 'btree_gist'");
    expect(ext.rowCount).toBe(1);
    // a GiST index mixing a scalar and a range, as the node's _block_range indexes do
    await a.pool.query('CREATE TABLE hist (id text NOT NULL, _block_range int8range NOT NULL)');
    await a.pool.query('CREATE INDEX hist_gist ON hist USING gist (id, _block_range)');
    await a.pool.query("INSERT INTO hist VALUES ('e1', int8range(1, 10)), ('e1', int8range(10, NULL))");
    const at = await a.pool.query(
      "SELECT lower(_block_range)::int AS lo FROM hist WHERE id = 'e1' AND _block_range @> 12::int8",
    );
    expect(at.rows).toEqual([{ lo: 10 }]);
  });

  it('drop() removes the schema and its tables', async () => {
    const s = await createTestSchema('harness_drop');
    await s.pool.query('CREATE TABLE t (x int)');
    expect(await schemaExists(s.schema)).toBe(true);
    await s.drop();
    expect(await schemaExists(s.schema)).toBe(false);
    await s.drop(); // idempotent
  });

  it('creates and drops a whole database', async () => {
    const db = await createTestDatabase('harness_db');
    expect(db.database).toBe(db.name);
    const c = new Client({ connectionString: db.url });
    await c.connect();
    expect((await c.query<{ d: string }>('SELECT current_database() AS d')).rows[0].d).toBe(db.name);
    await c.end();
    await db.drop();
    const admin = new Client({ connectionString: getTestDatabaseUrl() });
    await admin.connect();
    const left = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db.name]);
    await admin.end();
    expect(left.rowCount).toBe(0);
  });
});
