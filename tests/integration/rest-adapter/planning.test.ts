/**
 * How the store plans statements (rest-adapter/db/sql.ts), on the node-built store: a
 * statement the repositories declare planned once (rest-adapter/db/statement.ts) runs under a
 * generic plan (PostgreSQL's own counters in pg_prepared_statements say so), every other one
 * under a custom plan; a
 * connection changes its plan_cache_mode only when the next statement needs the other one,
 * and a rolled-back transaction (which takes its SET back with it) leaves no wrong mode.
 */
import { Pool } from 'pg';
import { createStore, PLANNED_ONCE, type Sql, type Store } from '../../../rest-adapter/db/sql';
import { createRepositories } from '../../../rest-adapter/repositories';
import { txPageRequest } from '../../../rest-adapter/paging/tx-pages';
import { getIndexedStore, IndexedStore } from '../../harness/indexed-store';
import { observedPool } from '../../harness/observed-pool';

jest.setTimeout(120_000);

const SETTING = `SELECT current_setting('plan_cache_mode') AS mode`;

interface PlanCounts {
  generic: number;
  custom: number;
}

describe('statement planning (custom by default, generic for statements planned once)', () => {
  let indexed: IndexedStore;
  let pool: Pool;
  let store: Store;
  const sent: string[] = [];

  beforeAll(async () => {
    indexed = await getIndexedStore(1);
    // one connection, so every read below runs on the same session; its simple-query texts (the SETs) are recorded
    const base = new Pool({ connectionString: indexed.databaseUrl, max: 1 });
    pool = observedPool(base, () => (query) => {
      if (typeof query === 'string') sent.push(query);
    });
    pool.end = () => base.end();
    store = createStore(pool, { statementTimeoutMs: 5000 });
  });

  afterAll(async () => {
    await pool?.end();
    await indexed?.close();
  });

  /** The plans PostgreSQL made so far for the prepared statement of `text` on the one connection. */
  async function plansOf(text: string): Promise<PlanCounts> {
    const row = await store.readOne((sql) =>
      sql.one<{ generic: string; custom: string }>(
        `SELECT generic_plans::text AS generic, custom_plans::text AS custom FROM pg_prepared_statements WHERE statement = $1`,
        [text],
      ),
    );
    return { generic: Number(row?.generic ?? 0), custom: Number(row?.custom ?? 0) };
  }

  /** The text of the statement `read` sends (it runs once, through a store that notes it). */
  async function textOf(read: (s: Store) => Promise<unknown>): Promise<string> {
    let text = '';
    const noting = (sql: Sql): Sql => ({
      rows: (t, v, o) => ((text = t), sql.rows(t, v, o)),
      one: (t, v, o) => ((text = t), sql.one(t, v, o)),
    });
    await read({
      read: (work) => store.read((sql) => work(noting(sql))),
      readOne: (work) => store.readOne((sql) => work(noting(sql))),
    });
    return text;
  }

  it('a statement planned once gets a generic plan, reused; a filtered list gets a custom plan each time', async () => {
    const repos = createRepositories(indexed.schema);
    const holder = indexed.summary.accounts['holder-0'];
    const overview = (s: Store) => s.readOne((sql) => repos.accounts.overview(sql, holder));
    // filtered by status and ordered by number: two indexes, so planned for its values
    const pendingSettlements = (s: Store) =>
      s.readOne((sql) => repos.settlements.list(sql, { status: 'STATUS_PENDING' }, null, 5));
    // a method's txs: the (method, seq) and the (seq) index both give the order, and only the
    // method says which to walk (a rare one must not walk the seq index), so planned for it
    const methodPage = (s: Store) =>
      s.readOne((sql) => repos.txs.pageRows(sql, '/cosmos.bank.v1beta1.MsgSend', txPageRequest(null, 5)));
    const allTxsPage = (s: Store) => s.readOne((sql) => repos.txs.pageRows(sql, undefined, txPageRequest(null, 10)));
    const reads = { overview, pendingSettlements, methodPage, allTxsPage };
    const texts = new Map<string, string>();
    for (const [name, read] of Object.entries(reads)) texts.set(name, await textOf(read));
    for (let i = 0; i < 3; i++) for (const read of Object.values(reads)) await read(store);
    const plans: Record<string, PlanCounts> = {};
    for (const [name, text] of texts) plans[name] = await plansOf(text);
    // the generic plan is made once and then reused: PostgreSQL counts each execution under it
    expect(plans).toEqual({
      overview: { generic: 4, custom: 0 },
      pendingSettlements: { generic: 0, custom: 4 },
      methodPage: { generic: 0, custom: 4 },
      allTxsPage: { generic: 4, custom: 0 },
    });
  });

  it('a page size outside the planned ones is bound and planned for its value: a client cannot make a plan kept per size', async () => {
    const repos = createRepositories(indexed.schema);
    const pageOf = (limit: number) => (s: Store) =>
      s.readOne((sql) => repos.txs.pageRows(sql, undefined, txPageRequest(null, limit)));
    const unplanned = await textOf(pageOf(8));
    const before = await plansOf(unplanned);
    const texts = new Set<string>();
    for (const limit of [8, 9, 12, 13]) texts.add(await textOf(pageOf(limit)));
    expect([...texts]).toEqual([unplanned]); // one statement for every size outside the planned ones
    const after = await plansOf(unplanned);
    expect({ generic: after.generic - before.generic, custom: after.custom - before.custom }).toEqual({
      generic: 0,
      custom: 4,
    });
    const planned = await textOf(pageOf(20));
    expect(planned).not.toBe(unplanned);
    expect((await plansOf(planned)).custom).toBe(0);
    // the routes of keyset lists ask for limit + 1 rows (the one more says a further page exists):
    // the default page of a feed reads 21, planned once too
    const feedPage = await textOf((s) => s.readOne((sql) => repos.activity.page(sql, 'asset:none', null, 21)));
    expect(await plansOf(feedPage)).toEqual({ generic: 1, custom: 0 });
  });

  it('a connection sets its planning only when the next statement needs the other one', async () => {
    const mode = (options?: typeof PLANNED_ONCE) =>
      store.readOne((sql) => sql.one<{ mode: string }>(SETTING, [], options));
    const switches = () => sent.filter((t) => t.includes('plan_cache_mode')).length;
    const seen: string[] = [];
    const before = switches();
    seen.push((await mode())!.mode);
    const first = switches() - before; // 0 or 1: the connection may still be in the custom planning
    seen.push((await mode())!.mode);
    seen.push((await mode(PLANNED_ONCE))!.mode);
    seen.push((await mode(PLANNED_ONCE))!.mode);
    seen.push((await mode())!.mode);
    expect(seen).toEqual([
      'force_custom_plan',
      'force_custom_plan',
      'force_generic_plan',
      'force_generic_plan',
      'force_custom_plan',
    ]);
    expect(switches() - before - first).toBe(2);
  });

  it('after a rolled-back transaction that changed the planning, the next statement runs in the planning it needs', async () => {
    await store.readOne((sql) => sql.one(SETTING)); // custom
    await expect(
      store.read(async (sql) => {
        await sql.one(SETTING, [], PLANNED_ONCE); // sets generic inside the transaction
        await sql.one('SELECT 1 / 0', [], PLANNED_ONCE); // fails: ROLLBACK takes the SET back
      }),
    ).rejects.toThrow(/division by zero/);
    const after = await store.readOne((sql) => sql.one<{ mode: string }>(SETTING, [], PLANNED_ONCE));
    expect(after?.mode).toBe('force_generic_plan');
    const custom = await store.readOne((sql) => sql.one<{ mode: string }>(SETTING));
    expect(custom?.mode).toBe('force_custom_plan');
  });
});
