/**
 * Bench stores. The base store is written by the REAL node (@subql/node-cosmos) from a
 * seeded devnet history, so the DDL, indexes and every row shape are the node's. A bench
 * store is a copy of it (CREATE DATABASE … TEMPLATE) scaled up with SQL:
 *
 * - the history is replicated K times at later heights and times: blocks and txs (each
 *   with its raw events), activity entries, EVM views, distributions, bridge transfers,
 *   settlements and encumbrances (with their timelines) and delegations, with the mappings' id and
 *   ordering-key formulas (seq = height·10^10 + (tx_index+1)·10^5 + (event_index+1),
 *   ids <height>-<tx_index>-<event_index>, feeds asset:/account:) and derived hashes;
 * - what a chain would have ended by the scaled head is ended in the copies, so the lists of
 *   what is still open do not grow with the number of copies: encumbrances released,
 *   delegations expired, and settlements still pending past their expiry expired by the
 *   end-block sweep (sweepStatements); the base history's own rows keep their state;
 * - the counters the API reads are rewritten as the handlers would have kept them
 *   (ChainTotals, MethodCount, TxDay, _metadata heights, Kind holder_count/supply);
 * - one kind gets `extraHolders` synthetic holders, each with an income entry on one
 *   accrual (the shapes the handlers write), so holders, the graph and sum_claimable
 *   run at a realistic size.
 *
 * This is not the node indexing a 1M-tx chain (hours at the node's measured speed); the
 * replicated rows are the node's own rows, shifted.
 */
import { Client, Pool } from 'pg';
import { toBech32 } from '../src/lib/address';
import {
  buildDatabaseUrl,
  createDatabase,
  parseDatabaseUrl,
  subqlDbEnv,
  startPostgres,
  TestDatabase,
  uniqueName,
} from '../tests/harness/postgres';
import { startNode } from '../tests/harness/subql-node';
import { ensureProjectBuilt } from '../tests/harness/indexed-store';
import type { Devnet } from '../devnet/cli';

export const SCHEMA = 'svc';

export interface BaseStore {
  db: TestDatabase;
  txs: number;
  height: number;
  /** the devnet it came from, still serving RPC when asked for with `keepChain` (the caller closes it) */
  devnet?: Devnet;
}

/** The base store: a devnet history indexed by the real node. */
export async function buildBaseStore(
  serverUrl: string,
  o: { seed: string; blocks: number; txsPerBlock: number; holders?: number; keepChain?: boolean },
  log: (s: string) => void,
): Promise<BaseStore> {
  const { startDevnet } = await import('../devnet/cli');
  let t = Date.now();
  const devnet = await startDevnet({
    seed: o.seed,
    blocks: o.blocks,
    txsPerBlock: o.txsPerBlock,
    holders: o.holders,
    blockIntervalMs: 6000,
  });
  log(`devnet history: ${devnet.generation.blocks} blocks, ${devnet.generation.txs} txs (${Date.now() - t} ms)`);
  ensureProjectBuilt();
  const db = await createDatabase(serverUrl, uniqueName('bench_base'));
  try {
    t = Date.now();
    const node = await startNode({ dbEnv: subqlDbEnv(db), endpoint: devnet.url, schema: SCHEMA });
    try {
      await node.waitForHeight(devnet.chain.height, 1_800_000);
    } finally {
      await node.stop();
    }
    log(`node indexed ${devnet.chain.height} blocks in ${Date.now() - t} ms`);
    return { db, txs: devnet.generation.txs, height: devnet.chain.height, devnet: o.keepChain ? devnet : undefined };
  } catch (e) {
    await db.drop();
    if (o.keepChain) await devnet.close();
    throw e;
  } finally {
    if (!o.keepChain) await devnet.close();
  }
}

/** A new database copied from `template` (which must have no open connection). */
export async function copyDatabase(serverUrl: string, template: string): Promise<TestDatabase> {
  const name = uniqueName('bench');
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const conn = { ...parseDatabaseUrl(serverUrl), database: name };
  return {
    ...conn,
    url: buildDatabaseUrl(conn),
    name,
    async drop() {
      const c = new Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        await c.query(`DROP DATABASE IF EXISTS ${name}`);
      } finally {
        await c.end();
      }
    },
  };
}

const S = `"${SCHEMA}"`;

/** SQL helpers of the copy: derived hashes and the shifts of copy k. */
const HELPERS = `
  CREATE SCHEMA IF NOT EXISTS bench;
  CREATE OR REPLACE FUNCTION bench.rehash(h text, k int) RETURNS text IMMUTABLE LANGUAGE sql AS
    $$ SELECT CASE WHEN h IS NULL OR h = '' THEN h ELSE upper(encode(sha256(convert_to(h || ':' || k, 'UTF8')), 'hex')) END $$;
  CREATE OR REPLACE FUNCTION bench.reeth(h text, k int) RETURNS text IMMUTABLE LANGUAGE sql AS
    $$ SELECT CASE WHEN h IS NULL OR h = '' THEN h ELSE '0x' || encode(sha256(convert_to(h || ':' || k, 'UTF8')), 'hex') END $$;
  CREATE TABLE bench.copies AS SELECT k FROM generate_series(1, $K - 1) AS k;
`;

/** Per-table copy statements; $H = base height, $SPAN = base time span, $ID_* = id offsets. */
function copyStatements(): string[] {
  const h = `($H * c.k)`;
  const seq = `(($H::numeric * c.k) * 10000000000)`;
  const time = `(interval '1 millisecond' * ($SPAN::bigint * c.k))`;
  const id3 = (t: string) => `(${t}.height + ${h}) || '-' || ${t}.tx_index || '-' || ${t}.event_index`;
  return [
    // raw events travel with their block / tx (JSON text, copied as is)
    `INSERT INTO ${S}.blocks (id, height, hash, time, proposer, tx_count, event_count, events)
       SELECT (b.height + ${h})::text, b.height + ${h}, bench.rehash(b.hash, c.k), b.time + ${time}, b.proposer, b.tx_count, b.event_count, b.events FROM ${S}.blocks b, bench.copies c`,
    `INSERT INTO ${S}.txes (id, hash, height, tx_index, seq, code, codespace, raw_log, gas_wanted, gas_used, msgs, fee, memo, block_time, method, eth_hash, msg_count, event_count, events)
       SELECT bench.rehash(t.id, c.k), bench.rehash(t.hash, c.k), t.height + ${h}, t.tx_index, t.seq + ${seq}, t.code, t.codespace, t.raw_log, t.gas_wanted, t.gas_used, t.msgs, t.fee, t.memo, t.block_time + ${time}, t.method, bench.reeth(t.eth_hash, c.k), t.msg_count, t.event_count, t.events FROM ${S}.txes t, bench.copies c`,
    `INSERT INTO ${S}.evm_txes SELECT bench.reeth(v.id, c.k), bench.reeth(v.eth_hash, c.k), bench.rehash(v.tx_hash, c.k), v.height + ${h}, v.tx_index, v.msg_index, v."from", v."to", v.from_account, v.to_account, v.value, v.gas_used, v.status, v.revert_reason, v.vm_error, v.return_data, v.contract_address FROM ${S}.evm_txes v, bench.copies c`,
    // id <feed>:<height>:<tx_index>:<event_index> (the feed holds one ':'): the height part moves with the copy
    `INSERT INTO ${S}.activity_entries (id, feed, seq, tx_hash)
       SELECT a.feed || ':' || (split_part(r.rest, ':', 1)::int + ${h}) || ':' || split_part(r.rest, ':', 2) || ':' || split_part(r.rest, ':', 3), a.feed, a.seq + ${seq}, bench.rehash(a.tx_hash, c.k)
       FROM ${S}.activity_entries a CROSS JOIN LATERAL (SELECT substr(a.id, length(a.feed) + 2) AS rest) r, bench.copies c`,
    `INSERT INTO ${S}.distributions SELECT ${id3('d')}, d.seq + ${seq}, d.asset_id, d.kind_id, d.denom, d.payer, d.amount, d.supply, d.new_index, d.carry_scaled, d.height + ${h}, d.tx_index, d.event_index, bench.rehash(d.tx_hash, c.k), d.block_time + ${time} FROM ${S}.distributions d, bench.copies c`,
    `INSERT INTO ${S}.bridge_transfers SELECT (t.height + ${h}) || substr(t.id, length(t.height::text) + 1), t.seq + ${seq}, t.height + ${h}, t.tx_index, t.event_index, bench.rehash(t.tx_hash, c.k), t.route_id, t.direction, t.status, t.sender, t.recipient, t.amount, bench.reeth(t.message_id, c.k), t.reason, t.block_time_ns + $SPAN::numeric * 1000000 * c.k, t.asset_id, t.kind_id, t.bundle FROM ${S}.bridge_transfers t, bench.copies c`,
    `INSERT INTO ${S}.settlements SELECT (s.number + $ID_S * c.k)::text, s.number + $ID_S * c.k, s.proposer, s.counterparty, s.legs, s.expiry + ${time}, s.status, s.cancel_reason, s.memo_hash, s.asset_ids, s.created_height + ${h}, bench.rehash(s.created_tx_hash, c.k), s.created_at + ${time}, s.updated_height + ${h} FROM ${S}.settlements s, bench.copies c`,
    `INSERT INTO ${S}.settlement_timeline_entries SELECT (e.settlement_id::numeric + $ID_S * c.k) || '-' || (e.height + ${h}) || '-' || e.tx_index || '-' || e.event_index, (e.settlement_id::numeric + $ID_S * c.k)::text, e.seq + ${seq}, e.event, e.height + ${h}, e.tx_index, e.event_index, e.block_time + ${time}, bench.rehash(e.tx_hash, c.k), e.actor, e.reason, e.mode FROM ${S}.settlement_timeline_entries e, bench.copies c`,
    `INSERT INTO ${S}.encumbrances SELECT (e.id::numeric + $ID_E * c.k)::text, e.kind, e.asset_id, e.kind_id, e.holder, e.units, e.beneficiary, e.income_to_beneficiary, e.holder_release_after + ${time}, e.exercisable, e.expiry + ${time}, e.evidence_hash, CASE WHEN e.status = 'active' THEN 'released' ELSE e.status END, e.created_height + ${h}, bench.rehash(e.created_tx_hash, c.k), e.created_at + ${time}, e.resolved_height + ${h}, e.updated_height + ${h} FROM ${S}.encumbrances e, bench.copies c`,
    `INSERT INTO ${S}.encumbrance_timeline_entries SELECT (e.encumbrance_id::numeric + $ID_E * c.k) || '-' || (e.height + ${h}) || '-' || e.tx_index || '-' || e.event_index, (e.encumbrance_id::numeric + $ID_E * c.k)::text, e.seq + ${seq}, e.event, e.height + ${h}, e.tx_index, e.event_index, e.block_time + ${time}, bench.rehash(e.tx_hash, c.k), e.actor, e.actor_role, e.units FROM ${S}.encumbrance_timeline_entries e, bench.copies c`,
    `INSERT INTO ${S}.delegations SELECT (d.id::numeric + $ID_D * c.k)::text, d.holder, d.delegate, d.asset_id, d.kind_id, d.units, d.until + ${time}, d.purposes, d.revocable, CASE WHEN d.ended = '' THEN 'END_REASON_EXPIRED' ELSE d.ended END, d.ended_actor, d.created_height + ${h}, bench.rehash(d.created_tx_hash, c.k), COALESCE(d.ended_height, d.created_height) + ${h} FROM ${S}.delegations d, bench.copies c`,
  ];
}

/**
 * What the chain's end-block sweep did to the copies by the scaled head: a copied settlement
 * still pending whose expiry passed before the last block is expired at the first block at
 * or after its expiry (status, updated_height and an `expired` timeline entry, as the
 * handler writes them), so an account's pending settlements stay what a chain leaves
 * pending instead of growing with the number of copies. The base history's own rows keep
 * their state (the holdings' escrow locks agree with them), as encumbrances and delegations do.
 */
function sweepStatements(): string[] {
  return [
    `CREATE TABLE bench.block_times AS SELECT time, height, event_count FROM ${S}.blocks`,
    `CREATE INDEX ON bench.block_times (time)`,
    `CREATE TABLE bench.expired_settlements AS
       SELECT s.id, b.height, b.time, b.event_count FROM ${S}.settlements s
       CROSS JOIN LATERAL (SELECT height, time, event_count FROM bench.block_times WHERE time >= s.expiry ORDER BY time LIMIT 1) b
       WHERE s.status = 'STATUS_PENDING' AND s.number > $ID_S`,
    `UPDATE ${S}.settlements s SET status = 'STATUS_EXPIRED', updated_height = x.height FROM bench.expired_settlements x WHERE s.id = x.id`,
    // a block-level event after the block's recorded ones (tx_index -1, as the handler records EndBlock events)
    `INSERT INTO ${S}.settlement_timeline_entries SELECT x.id || '-' || x.height || '--1-' || x.event_count, x.id, x.height::numeric * 10000000000 + x.event_count + 1, 'expired', x.height, -1, x.event_count, x.time, NULL, NULL, NULL, 'EndBlock' FROM bench.expired_settlements x`,
  ];
}

/** Counters as the handlers keep them, for the scaled history. */
function counterStatements(): string[] {
  return [
    `UPDATE ${S}.method_counts SET count = count * $K`,
    `TRUNCATE ${S}.tx_days`,
    `INSERT INTO ${S}.tx_days SELECT to_char(block_time, 'YYYY-MM-DD'), to_char(block_time, 'YYYY-MM-DD'), count(*) FROM ${S}.txes GROUP BY 1`,
    `UPDATE ${S}.chain_totals SET tx_count = tx_count * $K, block_count = block_count * $K, event_count = event_count * $K, latest_height = $H * $K,
       latest_block_time = (SELECT max(time) FROM ${S}.blocks)`,
    `UPDATE ${S}._metadata SET value = to_jsonb($H * $K) WHERE key IN ('lastProcessedHeight', 'targetHeight')`,
  ];
}

function substitute(sql: string, vars: Record<string, string | number>): string {
  return sql.replace(/\$(K|H|SPAN|ID_S|ID_E|ID_D)\b/g, (_m, name: string) => String(vars[name]));
}

/** Synthetic holders of one kind, each with an income entry on one accrual of its asset. */
async function addHolders(pool: Pool, count: number, log: (s: string) => void): Promise<void> {
  if (count <= 0) return;
  const target = await pool.query<{ asset_id: string; kind_id: number; denom: string; index: string }>(
    `SELECT a.asset_id, a.kind_id, a.denom, a.index FROM ${S}.accruals a ORDER BY a.distributions_count DESC, a.id LIMIT 1`,
  );
  const t = target.rows[0];
  if (!t) return;
  const batch = 10_000;
  let totalUnits = 0n;
  for (let start = 0; start < count; start += batch) {
    const holders: string[] = [];
    const units: string[] = [];
    const snapshots: string[] = [];
    for (let i = start; i < Math.min(count, start + batch); i++) {
      const bytes = new Uint8Array(20);
      new DataView(bytes.buffer).setUint32(0, 0xbe0c0000 + i);
      holders.push(toBech32(bytes, 'svc'));
      const u = BigInt(1 + ((i * 7919) % 5_000_000)) * 1000n;
      totalUnits += u;
      units.push(u.toString());
      snapshots.push(((BigInt(t.index) * BigInt(i % 10)) / 10n).toString());
    }
    await pool.query(
      `INSERT INTO ${S}.holdings (id, kind_ref, asset_id, kind_id, holder, units, locked, locks, routed_out, updated_height)
       SELECT $1::text || '-' || $2::int || '-' || h, $1::text || '-' || $2::int, $1::text, $2::int, h, u::numeric, 0, '[]'::jsonb, 0, 1 FROM unnest($3::text[], $4::text[]) AS x(h, u)`,
      [t.asset_id, t.kind_id, holders, units],
    );
    await pool.query(
      `INSERT INTO ${S}.claimables (id, account, accrual_id, routed_from, ref, asset_id, kind_id, denom, units, snapshot_index, accrued, updated_height)
       SELECT h || '|||' || $1::text || '|' || $2::int || '|' || $3::text, h, $1::text || '-' || $2::int || '-' || $3::text, '', '', $1::text, $2::int, $3::text, u::numeric, s::numeric, (u::numeric % 997), 1
       FROM unnest($4::text[], $5::text[], $6::text[]) AS x(h, u, s)`,
      [t.asset_id, t.kind_id, t.denom, holders, units, snapshots],
    );
    await pool.query(
      `INSERT INTO ${S}.accounts (id, evm_address, first_height, assets_created) SELECT h, NULL, 1, 0 FROM unnest($1::text[]) AS h`,
      [holders],
    );
  }
  await pool.query(
    `UPDATE ${S}.kinds SET holder_count = holder_count + $3, supply = supply + $4::numeric WHERE asset_id = $1 AND kind_id = $2`,
    [t.asset_id, t.kind_id, count, totalUnits.toString()],
  );
  log(`added ${count} holders (with income entries) to ${t.asset_id.slice(0, 12)}…/${t.kind_id}`);
}

/** Scales a copy of the base store to `copies` times its history. */
export async function scaleStore(
  url: string,
  copies: number,
  extraHolders: number,
  log: (s: string) => void,
): Promise<{ txs: number }> {
  const pool = new Pool({ connectionString: url, max: 2 });
  pool.on('error', () => undefined); // idle clients dropped when the bench database goes away
  try {
    const base = (
      await pool.query<{ h: number; span: string; s: string; e: string; d: string }>(
        `SELECT (SELECT max(height) FROM ${S}.blocks) AS h,
                (SELECT (extract(epoch FROM max(time) - min(time)) * 1000)::bigint + 6000 FROM ${S}.blocks) AS span,
                (SELECT COALESCE(max(number), 0) FROM ${S}.settlements) AS s,
                (SELECT COALESCE(max(id::numeric), 0) FROM ${S}.encumbrances) AS e,
                (SELECT COALESCE(max(id::numeric), 0) FROM ${S}.delegations) AS d`,
      )
    ).rows[0];
    const vars = { K: copies, H: base.h, SPAN: base.span, ID_S: base.s, ID_E: base.e, ID_D: base.d };
    await pool.query(substitute(HELPERS, vars));
    for (const statement of [...copyStatements(), ...sweepStatements(), ...counterStatements()]) {
      const t = Date.now();
      const r = await pool.query(substitute(statement, vars));
      log(`  ${statement.slice(0, 48).replace(/\s+/g, ' ')}… ${r.rowCount ?? 0} rows (${Date.now() - t} ms)`);
    }
    await addHolders(pool, extraHolders, log);
    await pool.query('VACUUM ANALYZE');
    const txs = Number((await pool.query(`SELECT tx_count FROM ${S}.chain_totals`)).rows[0].tx_count);
    return { txs };
  } finally {
    await pool.end();
  }
}

/** Loads the schema's tables, indexes and TOAST tables into shared_buffers; the MB loaded. */
export async function prewarmStore(databaseUrl: string): Promise<number> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  pool.on('error', () => undefined);
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
    const { rows } = await pool.query<{ mb: string }>(
      `SELECT coalesce(sum(pg_prewarm(rel)), 0) * current_setting('block_size')::int / 1048576 AS mb FROM (
         SELECT c.oid AS rel FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND c.relkind IN ('r', 'i')
         UNION ALL
         SELECT c.reltoastrelid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND c.relkind = 'r' AND c.reltoastrelid <> 0
       ) relations`,
      [SCHEMA],
    );
    return Math.round(Number(rows[0].mb));
  } finally {
    await pool.end();
  }
}

/**
 * bench:api's store at about `txs` txs on an embedded server of its own (shared_buffers 1 GB),
 * prewarmed: for the scripts that measure one part of a cold answer (scripts/statement-bound.ts,
 * scripts/cpu-per-request.ts). stop() drops it and stops the server.
 */
export async function prewarmedBenchStore(txs: number): Promise<{ url: string; stop(): Promise<void> }> {
  const pg = await startPostgres({ settings: { shared_buffers: '1024MB', work_mem: '16MB', max_connections: 200 } });
  try {
    const base = await buildBaseStore(pg.url, { seed: 'bench-api', blocks: 300, txsPerBlock: 10 }, () => undefined);
    const db = await copyDatabase(pg.url, base.db.name);
    await scaleStore(db.url, Math.ceil(txs / base.txs), Math.ceil(txs / 10), () => undefined);
    await prewarmStore(db.url);
    return {
      url: db.url,
      stop: async () => {
        await db.drop();
        await pg.stop();
      },
    };
  } catch (e) {
    await pg.stop();
    throw e;
  }
}
