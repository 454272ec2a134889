/**
 * The indexer end to end: a devnet history touching every module -> the real
 * @subql/node-cosmos running this project -> PostgreSQL. The derived state is
 * reconciled with the devnet app's own queries; post-value drifts, failed and
 * rejected txs, block-level events, the EVM view and amounts above 2^64 are
 * checked. Builds the project first when dist/ is older than its sources.
 */
import { Client } from 'pg';
import { queryJson, type Application } from '../../devnet/app';
import { startRpcServer } from '../../devnet/chain';
import { createTestDatabase } from '../harness/db';
import { ensureProjectBuilt } from '../harness/indexed-store';
import { subqlDbEnv, type TestDatabase } from '../harness/postgres';
import { startNode } from '../harness/subql-node';
import { buildHistory, History } from './indexer/history';
import { storedActivity, storedEvents } from './indexer/stored-events';

jest.setTimeout(600_000);

interface Indexed {
  db: TestDatabase;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows are checked by value in the assertions
  sql: <T = Record<string, any>>(text: string, params?: unknown[]) => Promise<T[]>;
  close(): Promise<void>;
}

/** Serves the history's chain, runs the node to its tip, returns a SQL helper on schema `svc`. */
async function index(history: History, prefix: string): Promise<Indexed> {
  const db = await createTestDatabase(prefix);
  const rpc = await startRpcServer(history.chain);
  const node = await startNode({ dbEnv: subqlDbEnv(db), endpoint: rpc.url, schema: 'svc' });
  try {
    await node.waitForHeight(history.chain.height, 300_000);
  } finally {
    await node.stop();
    await rpc.close();
  }
  const client = new Client({
    host: db.host,
    port: db.port,
    user: db.user,
    password: db.password,
    database: db.database,
  });
  client.on('error', () => undefined);
  await client.connect();
  return {
    db,
    sql: async (text, params) => (await client.query(text, params)).rows,
    close: async () => {
      await client.end();
      await db.drop();
    },
  };
}

/**
 * The app lying in its events: every EventTransferred reports its second position one unit richer
 * than it is, and every svc EVM outcome event states one more gas than the tx result (MsgEthereumTxResponse) says.
 */
const tamper = (app: Application): Application =>
  new Proxy(app, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop !== 'deliverTx') return typeof value === 'function' ? value.bind(target) : value;
      return (...args: Parameters<Application['deliverTx']>) => {
        const result = target.deliverTx(...args);
        for (const e of result.events.filter((x) => x.type === 'svc.rights.v1.EventTransferred')) {
          const attr = e.attributes.find((a) => a.key === 'positions_after')!;
          const positions = JSON.parse(attr.value) as { units: string }[];
          positions[1].units = String(BigInt(positions[1].units) + 1n);
          attr.value = JSON.stringify(positions);
        }
        for (const e of result.events.filter((x) => x.type === 'svc.evm.v1.EventEthereumTxExecuted')) {
          const attr = e.attributes.find((a) => a.key === 'gas_used')!;
          attr.value = JSON.stringify(String(BigInt(JSON.parse(attr.value) as string) + 1n));
        }
        return result;
      };
    },
  });

/** The drift policy's history (built on the tampering app) indexed into its own database. */
async function indexTamperedHistory(): Promise<{ history: History; indexed: Indexed }> {
  const history = await buildHistory(tamper);
  return { history, indexed: await index(history, 'indexer_drift') };
}

/** started beside the first describe's node (each mostly starts up), judged by the drift policy's test */
let driftRun: Promise<{ history: History; indexed: Indexed }> | undefined;

afterAll(async () => {
  await driftRun?.then((r) => r.indexed.close()).catch(() => undefined); // the drift test did not run
});

describe('indexer on the real subql node', () => {
  let history: History;
  let indexed: Indexed;

  beforeAll(async () => {
    ensureProjectBuilt();
    history = await buildHistory();
    driftRun = indexTamperedHistory();
    driftRun.catch(() => undefined); // a failure is reported by the drift test
    indexed = await index(history, 'indexer_it');
  });

  afterAll(async () => {
    await indexed?.close();
  });

  it('builds the history as planned', () => {
    expect(history.surprises).toEqual([]);
  });

  it('indexes every block, tx (failed ones included) and event', async () => {
    const { sql } = indexed;
    const blocks = Array.from({ length: history.chain.height }, (_, i) => history.chain.block(i + 1)!);
    const txCount = blocks.reduce((n, b) => n + (JSON.parse(b.resultsJson).txs_results ?? []).length, 0);
    const [totals] = await sql('SELECT block_count, tx_count, drift_total, latest_height FROM svc.chain_totals');
    expect(totals).toEqual({
      block_count: history.chain.height,
      tx_count: txCount,
      drift_total: 0,
      latest_height: history.chain.height,
    });
    expect(await sql('SELECT * FROM svc.drifts')).toEqual([]);
    const [{ sum }] = await sql('SELECT sum(count)::int AS sum FROM svc.method_counts');
    expect(sum).toBe(txCount);
    const [{ count: days }] = await sql('SELECT sum(count)::int AS count FROM svc.tx_days');
    expect(days).toBe(txCount);
    // every tx event and every finalize_block event, stored with its tx / block
    const results = blocks.map(
      (b) =>
        JSON.parse(b.resultsJson) as {
          txs_results: { events: unknown[] }[] | null;
          finalize_block_events: unknown[] | null;
        },
    );
    const eventCount = results.reduce(
      (n, r) =>
        n + (r.txs_results ?? []).reduce((m, t) => m + t.events.length, 0) + (r.finalize_block_events ?? []).length,
      0,
    );
    const [stored] =
      await sql(`SELECT (SELECT sum(jsonb_array_length(events::jsonb)) FROM svc.txes)::int AS txs, (SELECT sum(jsonb_array_length(events::jsonb)) FROM svc.blocks)::int AS blocks,
      (SELECT event_count::int FROM svc.chain_totals) AS total`);
    expect(stored.txs + stored.blocks).toBe(eventCount);
    expect(stored.total).toBe(eventCount);
    const failed = await sql('SELECT code, codespace, raw_log, method FROM svc.txes WHERE code <> 0 ORDER BY seq');
    expect(failed.map((f) => f.method)).toEqual(['/svc.rights.v1.MsgTransfer', '/svc.bridge.v1.MsgBridgeOut']);
    expect(failed[1]).toMatchObject({ code: 4, codespace: 'bridge' });
    for (const f of failed) expect(f.raw_log).not.toBe('');
    expect(await sql('SELECT count(*)::int AS n FROM svc.txes WHERE code = 0 AND raw_log IS NOT NULL')).toEqual([
      { n: 0 },
    ]);
  });

  it('stores msgs as proto-JSON with @type first; non-contract messages best-effort', async () => {
    const [propose] = await indexed.sql(
      "SELECT msgs FROM svc.txes WHERE method = '/svc.settlement.v1.MsgPropose' ORDER BY seq LIMIT 1",
    );
    const msgs = JSON.parse(propose.msgs);
    expect(msgs).toHaveLength(3);
    expect(Object.keys(msgs[0])[0]).toBe('@type');
    expect(msgs[0].legs[0]).toEqual({
      direction: 'LEG_DIRECTION_GIVE',
      right: { asset_id: history.assetId, kind_id: 0, units: '10000000' },
    });
    const [send] = await indexed.sql("SELECT msgs FROM svc.txes WHERE method = '/cosmos.bank.v1beta1.MsgSend'");
    expect(JSON.parse(send.msgs)[0]).toEqual({
      '@type': '/cosmos.bank.v1beta1.MsgSend',
      from_address: history.actors.bob.address,
      to_address: history.actors.carol.address,
      amount: [{ denom: 'usvc', amount: '5' }],
    });
  });

  it('keeps event positions: typed-event rows point at their raw events; block-level events carry their mode', async () => {
    const { sql } = indexed;
    const events = await storedEvents(sql);
    const positions = new Set(events.map((e) => `${e.height}/${e.tx_index}/${e.event_index}/${e.type}`));
    const activity = await storedActivity(sql);
    expect(activity.length).toBeGreaterThan(0);
    const orphans = activity
      .filter(
        (a) =>
          a.problem !== null ||
          a.id !== `${a.feed}:${a.height}:${a.tx_index}:${a.event_index}` ||
          !positions.has(`${a.height}/${a.tx_index}/${a.event_index}/${a.type}`),
      )
      .map((a) => ({ id: a.id, problem: a.problem }));
    expect(orphans).toEqual([]);
    const sweeps = events
      .filter((e) => e.tx_index === -1 && e.type.startsWith('svc.'))
      .map(({ type, mode, applied, tx_hash }) => ({ type, mode, applied, tx_hash }));
    expect(sweeps).toEqual([
      { type: 'svc.encumbrance.v1.EventEncumbranceExpired', mode: 'EndBlock', applied: true, tx_hash: null },
      { type: 'svc.settlement.v1.EventSettlementExpired', mode: 'EndBlock', applied: true, tx_hash: null },
      { type: 'svc.bridge.v1.EventEscrowIncomeSwept', mode: 'BeginBlock', applied: true, tx_hash: null },
    ]);
    const typedOfFailed = events.filter((e) => e.tx_index >= 0 && e.code !== 0 && e.applied);
    expect(typedOfFailed).toEqual([]);
  });

  it('derives positions, supply, holder counts, accruals and claimables exactly as the chain', async () => {
    const { sql } = indexed;
    const app = history.app;
    for (const h of await sql('SELECT asset_id, kind_id, holder, units, locked FROM svc.holdings')) {
      const chain = queryJson(app, '/svc.rights.v1.Query/Position', {
        asset_id: h.asset_id,
        kind_id: h.kind_id,
        holder: h.holder,
      }).json!;
      expect([h.holder, h.units, h.locked]).toEqual([h.holder, String(chain.units), String(chain.locked)]);
    }
    for (const k of await sql('SELECT asset_id, kind_id, supply, holder_count FROM svc.kinds')) {
      const chain = queryJson(app, '/svc.asset.v1.Query/KindSupply', {
        asset_id: k.asset_id,
        kind_id: k.kind_id,
      }).json!;
      expect([k.kind_id, k.supply, k.holder_count]).toEqual([
        k.kind_id,
        String(chain.supply),
        Number(chain.holder_count),
      ]);
    }
    for (const a of await sql(
      'SELECT asset_id, kind_id, denom, index, carry_scaled, total_distributed, total_paid, module_held FROM svc.accruals',
    )) {
      const chain = (
        queryJson(app, '/svc.payout.v1.Query/Accrual', { asset_id: a.asset_id, kind_id: a.kind_id, denom: a.denom })
          .json as { accrual: Record<string, string> }
      ).accrual;
      expect(a).toEqual({
        ...a,
        index: chain.index,
        carry_scaled: chain.carry_scaled,
        total_distributed: chain.total_distributed,
        total_paid: chain.total_paid,
        module_held: chain.module_held,
      });
    }
    const entries = await sql(`SELECT c.account, c.routed_from, c.ref, c.kind_id, c.denom,
      (c.accrued + floor(c.units * (a.index - c.snapshot_index) / 1e18))::text AS total
      FROM svc.claimables c JOIN svc.accruals a ON a.id = c.accrual_id`);
    expect(entries.length).toBeGreaterThan(3);
    for (const e of entries) {
      const rows =
        (
          queryJson(app, '/svc.payout.v1.Query/Claimable', { address: e.account }).json as {
            entries?: Record<string, unknown>[];
          }
        ).entries ?? [];
      const chain = rows.find(
        (r) => r.routed_from === e.routed_from && r.ref === e.ref && r.kind_id === e.kind_id && r.denom === e.denom,
      );
      expect([e.account, e.ref, e.total]).toEqual([e.account, e.ref, String(chain?.amount ?? '0')]);
    }
  });

  it('keeps amounts above 2^64 exact (numeric)', async () => {
    const holdings = await indexed.sql(
      'SELECT holder, units FROM svc.holdings WHERE asset_id = $1 ORDER BY units DESC',
      [history.bigAssetId],
    );
    expect(holdings.map((h) => h.units)).toEqual([
      (2n ** 80n - 2n ** 70n - 12345n).toString(),
      (2n ** 70n + 12345n).toString(),
    ]);
    const [accrual] = await indexed.sql('SELECT total_distributed FROM svc.accruals WHERE asset_id = $1', [
      history.bigAssetId,
    ]);
    expect(accrual.total_distributed).toBe((10n ** 29n + 7n).toString());
  });

  it('follows settlements, encumbrances, delegations, attestations and the liquidation', async () => {
    const { sql } = indexed;
    expect(await sql('SELECT id, status, cancel_reason FROM svc.settlements ORDER BY number')).toEqual([
      { id: '1', status: 'STATUS_SETTLED', cancel_reason: '' },
      { id: '2', status: 'STATUS_CANCELLED', cancel_reason: '' },
      { id: '3', status: 'STATUS_EXPIRED', cancel_reason: '' },
      { id: '4', status: 'STATUS_CANCELLED', cancel_reason: 'LIQUIDATION' },
    ]);
    expect(
      await sql(
        'SELECT settlement_id, event, tx_hash IS NULL AS sweep FROM svc.settlement_timeline_entries WHERE settlement_id = $1 ORDER BY seq',
        ['3'],
      ),
    ).toEqual([
      { settlement_id: '3', event: 'proposed', sweep: false },
      { settlement_id: '3', event: 'expired', sweep: true },
    ]);
    expect(await sql('SELECT id, kind, status FROM svc.encumbrances ORDER BY id')).toEqual([
      { id: '1', kind: 'pledge', status: 'released' },
      { id: '2', kind: 'lockup', status: 'expired' },
    ]);
    expect(
      await sql(
        'SELECT event, actor_role, tx_hash IS NULL AS sweep FROM svc.encumbrance_timeline_entries WHERE encumbrance_id = $1 ORDER BY seq',
        ['2'],
      ),
    ).toEqual([
      { event: 'created', actor_role: 'holder', sweep: false },
      { event: 'expired', actor_role: 'protocol', sweep: true },
    ]);
    expect(await sql('SELECT ended FROM svc.delegations')).toEqual([{ ended: 'END_REASON_REVOKED' }]);
    expect(await sql('SELECT revoked FROM svc.attestations')).toEqual([{ revoked: true }]);
    expect(await sql('SELECT subjects, issued, revocations, revoked FROM svc.attester_type_stats')).toEqual([
      { subjects: 1, issued: 1, revocations: 1, revoked: 1 },
    ]);
    const [liquidation] = await sql('SELECT completed_height, proceeds FROM svc.liquidations');
    expect(liquidation.proceeds).toBe('600000000');
  });

  it('records bridge transfers: in flight, completed and rejected with the failed code', async () => {
    const transfers = await indexed.sql(
      'SELECT route_id, direction, status, reason, message_id, amount FROM svc.bridge_transfers ORDER BY seq',
    );
    expect(transfers).toEqual([
      expect.objectContaining({ route_id: 'usdc-out', direction: 'out', status: 'in_flight', reason: '' }),
      expect.objectContaining({ route_id: 'eq-out', direction: 'out', status: 'in_flight', reason: '' }),
      expect.objectContaining({
        route_id: 'eq-out',
        direction: 'in',
        status: 'completed',
        message_id: '0x' + '01'.repeat(32),
      }),
      {
        route_id: 'usdc-out',
        direction: 'out',
        status: 'rejected',
        reason: 'bridge/4',
        message_id: '',
        amount: '1000',
      },
    ]);
    const [route] = await indexed.sql(
      "SELECT outbound, inbound, transfers, income_swept FROM svc.bridge_routes WHERE id = 'eq-out'",
    );
    expect(route).toMatchObject({ outbound: '2000000', inbound: '500000', transfers: 2 });
    expect(Object.keys(route.income_swept)).toEqual(['uusdc']);
  });

  it('gives the EVM view: eth hash, sender, outcome and revert reason, in both layouts', async () => {
    const rows = await indexed.sql(
      'SELECT eth_hash, "from", status, revert_reason FROM svc.evm_txes ORDER BY height, tx_index',
    );
    expect(rows).toEqual([
      { eth_hash: history.eth.ok, from: history.eth.sender, status: 1, revert_reason: null },
      {
        eth_hash: history.eth.revert,
        from: history.eth.sender,
        status: 0,
        revert_reason: 'svc: insufficient transferable units',
      },
      { eth_hash: history.eth.ethermint, from: history.eth.sender, status: 1, revert_reason: null },
    ]);
    const linked = await indexed.sql('SELECT count(*)::int AS n FROM svc.txes WHERE eth_hash IS NOT NULL');
    expect(linked).toEqual([{ n: 3 }]);
  });
});

describe('indexer drift policy', () => {
  it('records a post-value the chain got wrong as a drift, keeps the derived value and keeps indexing', async () => {
    const { history, indexed } = await (driftRun ??= indexTamperedHistory());
    try {
      const drifts = await indexed.sql(
        "SELECT entity, field, chain_value::numeric - derived_value::numeric AS diff FROM svc.drifts WHERE event_type = 'svc.rights.v1.EventTransferred'",
      );
      expect(drifts.length).toBeGreaterThan(0);
      for (const d of drifts) expect(d).toEqual({ entity: 'Holding', field: 'units', diff: '1' });
      // the EVM event is a cross-check of the tx result: one gas_used drift per executed EVM tx, the result's gas kept
      const evmDrifts = await indexed.sql(
        "SELECT entity_id, field, chain_value::numeric - derived_value::numeric AS diff FROM svc.drifts WHERE event_type = 'svc.evm.v1.EventEthereumTxExecuted' ORDER BY entity_id",
      );
      const executed = await indexed.sql(
        'SELECT e.id, e.gas_used::text FROM svc.evm_txes e JOIN svc.txes t ON t.id = e.tx_hash WHERE t.code = 0 ORDER BY e.id',
      );
      expect(evmDrifts).toEqual(executed.map((x) => ({ entity_id: x.id, field: 'gas_used', diff: '1' })));
      for (const x of executed) {
        const [tx] = await indexed.sql('SELECT events FROM svc.txes WHERE eth_hash = $1', [x.id]);
        const ethereumTx = (
          JSON.parse(tx.events) as { type: string; attributes: { key: string; value: string }[] }[]
        ).find((ev) => ev.type === 'ethereum_tx')!;
        expect(x.gas_used).toBe(ethereumTx.attributes.find((a) => a.key === 'txGasUsed')!.value);
      }
      const [totals] = await indexed.sql('SELECT drift_total, latest_height FROM svc.chain_totals');
      expect(totals).toEqual({ drift_total: drifts.length + evmDrifts.length, latest_height: history.chain.height });
      const [bob] = await indexed.sql(
        'SELECT units FROM svc.holdings WHERE asset_id = $1 AND kind_id = 0 AND holder = $2',
        [history.assetId, history.actors.bob.address],
      );
      const chain = queryJson(history.app, '/svc.rights.v1.Query/Position', {
        asset_id: history.assetId,
        kind_id: 0,
        holder: history.actors.bob.address,
      }).json!;
      expect(bob.units).toBe(String(chain.units)); // derived value kept: it is the true one
    } finally {
      driftRun = undefined;
      await indexed.close();
    }
  });
});
