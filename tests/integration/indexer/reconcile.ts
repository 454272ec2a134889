/**
 * Reconciliation of the store the real node built with the devnet's own
 * state at the same height: one function per entity kind, each returning how
 * many rows (or values) it compared and every disagreement as a readable line.
 *
 * Chain side = the app's contract queries (`queryJson` at the history's
 * height), the app state API (`stateAt(height)`, only to enumerate ids the
 * queries cannot list: assets, routes, pools, accrual denoms, issuer counts)
 * and the chain's own block/block_results (timelines, transfers,
 * distributions, EVM outcomes, activity positions). Nothing is read from the
 * indexer's own code except the seq formula and the read-side formulas of openapi.yaml; events
 * are read as the API reads them (stored-events.ts).
 */
import { getAddress, Transaction } from 'ethers';
import { queryJson, type SvcApp } from '../../../devnet/app';
import type { KvReader } from '../../../devnet/app/store';
import { decodeBech32Address } from '../../../src/lib/address';
import { attr, decodeMsg, type ChainRecord, type ChainTx, type TypedEvent } from './chain-record';
import { storedActivity, storedEvents } from './stored-events';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows are checked by value
export type Row = Record<string, any>;
export type Sql = (text: string, params?: unknown[]) => Promise<Row[]>;
type Json = Record<string, unknown>;

export interface CheckResult {
  name: string;
  /** values (row fields) compared */
  compared: number;
  /** rows compared */
  rows: number;
  mismatches: string[];
}

/** Collects comparisons of one entity kind. */
class Check {
  compared = 0;
  rows = 0;
  readonly mismatches: string[] = [];
  constructor(readonly name: string) {}

  /** Compares canonical JSON forms (bigint and numeric as decimal strings, Dates as ISO). */
  eq(where: string, field: string, actual: unknown, expected: unknown): void {
    this.compared += 1;
    const a = canonical(actual);
    const e = canonical(expected);
    if (a !== e && this.mismatches.length < 200)
      this.mismatches.push(`${this.name} ${where} ${field}: indexed ${a} != chain ${e}`);
  }

  fail(message: string): void {
    this.compared += 1;
    if (this.mismatches.length < 200) this.mismatches.push(`${this.name} ${message}`);
  }

  /** Compares two keyed sets of records: every key on both sides, every field of the expected record. */
  sets(label: string, actual: Map<string, Json>, expected: Map<string, Json>): void {
    for (const [key, exp] of expected) {
      const act = actual.get(key);
      this.rows += 1;
      if (!act) {
        this.fail(`${label} ${key}: missing in the store (chain ${canonical(exp)})`);
        continue;
      }
      for (const field of Object.keys(exp)) this.eq(`${label} ${key}`, field, act[field], exp[field]);
    }
    for (const key of actual.keys())
      if (!expected.has(key)) this.fail(`${label} ${key}: in the store, not on chain (${canonical(actual.get(key))})`);
  }

  result(): CheckResult {
    return { name: this.name, compared: this.compared, rows: this.rows, mismatches: this.mismatches };
  }
}

function canonical(v: unknown): string {
  return (
    JSON.stringify(v, (_k, x) => {
      if (typeof x === 'bigint') return x.toString();
      if (x && typeof x === 'object' && !Array.isArray(x)) {
        const sorted: Json = {};
        for (const k of Object.keys(x as Json).sort()) sorted[k] = (x as Json)[k];
        return sorted;
      }
      return x;
    }) ?? 'undefined'
  );
}

const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
const ms = (iso: unknown): string | null =>
  iso === null || iso === undefined || iso === '' ? null : String(Date.parse(String(iso)));
/** SQL: a timestamp column as unix milliseconds text */
const msCol = (col: string, as = col) => `floor(extract(epoch from ${col}) * 1000)::bigint::text AS ${as}`;
const lowerShort = (v: unknown, prefix: string) =>
  String(v ?? '')
    .replace(prefix, '')
    .toLowerCase();

export function seqOf(height: number, txIndex: number, eventIndex: number): string {
  return (BigInt(height) * 10_000_000_000n + BigInt(txIndex + 1) * 100_000n + BigInt(eventIndex + 1)).toString();
}

/** Everything the checks need from the chain side. */
export interface ChainSide {
  app: SvcApp;
  height: number;
  record: ChainRecord;
  /** accounts the scenario knows (for claimable queries): cast, module accounts, escrows */
  accounts: string[];
  /** EVM senders of the scenario (bech32) */
  evmAccounts: string[];
}

function q(c: ChainSide, path: string, request: Json): Json | null {
  const r = queryJson(c.app, path, request, c.height);
  return r.code === 0 && r.json ? (r.json as Json) : null;
}

function state(c: ChainSide): KvReader {
  return c.app.stateAt(c.height);
}

interface AssetState {
  asset_id: string;
  issuer: string;
  settlement_denom: string;
  liens_allowed: boolean;
  distribution_denoms: string[];
  kinds: { kind_id: number }[];
}

export function chainAssets(c: ChainSide): AssetState[] {
  const kv = state(c);
  return kv.keys('asset/a/').map((k) => kv.get<AssetState>(k)!);
}

function chainKinds(c: ChainSide): { assetId: string; kindId: number }[] {
  return chainAssets(c).flatMap((a) => a.kinds.map((k) => ({ assetId: a.asset_id, kindId: k.kind_id })));
}

function byId(rows: Row[], key: (r: Row) => string): Map<string, Json> {
  return new Map(rows.map((r) => [key(r), r as Json]));
}

function typedTimeMs(e: TypedEvent): string {
  return String(e.timeMs);
}

// ---------------------------------------------------------------- chain: blocks, txs, events, counters

export async function checkBlocks(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Block');
  const rows = await sql(
    `SELECT id, height, hash, ${msCol('time', 'time_ms')}, proposer, tx_count, event_count FROM svc.blocks`,
  );
  const expected = new Map<string, Json>(
    c.record.blocks.map((b) => [
      String(b.height),
      {
        height: b.height,
        hash: b.hash,
        time_ms: String(b.timeMs),
        proposer: b.proposer,
        tx_count: b.txs.length,
        event_count: b.txs.reduce((n, t) => n + t.events.length, 0) + b.blockEvents.length,
      },
    ]),
  );
  check.sets(
    'block',
    byId(rows, (r) => r.id),
    expected,
  );
  return check.result();
}

function feeOf(tx: ChainTx): { denom: string; amount: string }[] {
  return tx.fee;
}

export async function checkTxs(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Tx');
  const rows =
    await sql(`SELECT id, hash, height, tx_index, seq::text, code, codespace, raw_log, gas_wanted::text, gas_used::text, msgs, fee, memo,
    ${msCol('block_time', 'time_ms')}, method, msg_count, event_count FROM svc.txes`);
  const actual = new Map<string, Json>(
    rows.map((r) => [
      r.id,
      { ...r, types: (JSON.parse(r.msgs) as Json[]).map((m) => m['@type']), fee: JSON.parse(r.fee) },
    ]),
  );
  const expected = new Map<string, Json>();
  for (const b of c.record.blocks) {
    for (const tx of b.txs) {
      expected.set(tx.hash, {
        hash: tx.hash,
        height: tx.height,
        tx_index: tx.index,
        seq: seqOf(tx.height, tx.index, -1),
        code: tx.code,
        codespace: tx.codespace,
        raw_log: tx.code !== 0 ? tx.log : null, // openapi.yaml: present only when code != 0
        gas_wanted: tx.gasWanted,
        gas_used: tx.gasUsed,
        types: tx.typeUrls,
        fee: feeOf(tx),
        memo: tx.memo,
        time_ms: String(b.timeMs),
        method: tx.typeUrls[0] ?? '',
        msg_count: tx.typeUrls.length,
        event_count: tx.events.length,
      });
    }
  }
  check.sets('tx', actual, expected);
  return check.result();
}

/**
 * Every event stored with its tx or block (JSON text), with the fields the API derives from it
 * (stored-events.ts: the adapter's presenters/events.ts), against the chain's block_results.
 */
export async function checkEvents(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Event');
  const actual = new Map<string, Json>((await storedEvents(sql)).map((e) => [e.id, e as unknown as Json]));
  const expected = new Map<string, Json>();
  const typedFields = new Map(c.record.typed.map((e) => [`${e.height}-${e.txIndex}-${e.eventIndex}`, e.fields]));
  for (const b of c.record.blocks) {
    const add = (
      txIndex: number,
      txHash: string | null,
      ok: boolean,
      e: { type: string; attributes: { key: string; value: string }[] },
      i: number,
    ) => {
      const id = `${b.height}-${txIndex}-${i}`;
      const msgIndex = attr(e, 'msg_index');
      const typed = e.type.startsWith('svc.');
      expected.set(id, {
        tx_hash: txHash,
        height: b.height,
        tx_index: txIndex,
        event_index: i,
        type: e.type,
        msg_index: msgIndex === undefined ? null : Number(msgIndex),
        mode: txIndex < 0 ? (attr(e, 'mode') ?? null) : null,
        attributes: e.attributes,
        decoded: typed ? typedFields.get(id) : null,
        applied: txIndex < 0 ? true : typed && ok, // a typed event of a successful tx, or block-level
      });
    };
    for (const tx of b.txs) tx.events.forEach((e, i) => add(tx.index, tx.hash, tx.code === 0, e, i));
    b.blockEvents.forEach((e, i) => add(-1, null, true, e, i));
  }
  check.sets('event', actual, expected);
  return check.result();
}

export async function checkCounters(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Counters');
  const last = c.record.blocks[c.record.blocks.length - 1];
  const [totals] = await sql(
    `SELECT block_count, tx_count, event_count::text, drift_total, latest_height, ${msCol('latest_block_time', 'time_ms')} FROM svc.chain_totals WHERE id = 'chain'`,
  );
  check.rows += 1;
  for (const [field, exp] of Object.entries({
    block_count: c.height,
    tx_count: c.record.txCount,
    event_count: String(c.record.eventCount),
    drift_total: 0,
    latest_height: c.height,
    time_ms: String(last.timeMs),
  })) {
    check.eq('chain_totals', field, totals?.[field], exp);
  }
  const methods = new Map<string, Json>();
  const days = new Map<string, Json>();
  for (const b of c.record.blocks) {
    const day = new Date(b.timeMs).toISOString().slice(0, 10);
    for (const tx of b.txs) {
      const m = tx.typeUrls[0] ?? '';
      methods.set(m, { method: m, count: Number(methods.get(m)?.count ?? 0) + 1 });
      days.set(day, { day, count: Number(days.get(day)?.count ?? 0) + 1 });
    }
  }
  check.sets(
    'method_count',
    byId(await sql('SELECT id, method, count FROM svc.method_counts'), (r) => r.id),
    methods,
  );
  check.sets(
    'tx_day',
    byId(await sql('SELECT id, day, count FROM svc.tx_days'), (r) => r.id),
    days,
  );
  return check.result();
}

// ---------------------------------------------------------------- assets, kinds, positions

export async function checkAssets(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Asset');
  const kv = state(c);
  const assets = new Map<string, Json>();
  const kinds = new Map<string, Json>();
  for (const rec of chainAssets(c)) {
    const a = q(c, '/svc.asset.v1.Query/Asset', { asset_id: rec.asset_id })!;
    assets.set(rec.asset_id, {
      issuer: a.issuer,
      nonce: String(a.nonce),
      status: a.status,
      meta_hash: a.meta_hash,
      issuance_locked: Boolean(a.issuance_locked),
      kind_count: (a.kinds as Json[]).length,
      settlement_denom: rec.settlement_denom,
      liens_allowed: rec.liens_allowed,
      distribution_denoms: rec.distribution_denoms,
    });
    for (const k of a.kinds as Json[]) {
      const supply = q(c, '/svc.asset.v1.Query/KindSupply', { asset_id: rec.asset_id, kind_id: k.kind_id })!;
      kinds.set(`${rec.asset_id}-${k.kind_id}`, {
        kind_class: String(k.class).replace('KIND_CLASS_', ''),
        decimals: Number(k.decimals),
        bundle: Boolean(k.bundle),
        transferable: Boolean(k.transferable),
        bridgeable: Boolean(k.bridgeable),
        policy_override: k.policy_override ?? null,
        multiplier: String(supply.multiplier),
        supply: String(supply.supply),
        holder_count: Number(supply.holder_count),
        accrual_denoms: [...(kv.get<string[]>(`payout/denoms/${rec.asset_id}/${k.kind_id}`) ?? [])].sort(),
      });
    }
  }
  check.sets(
    'asset',
    byId(
      await sql(
        'SELECT id, issuer, nonce::text, status, meta_hash, issuance_locked, kind_count, settlement_denom, liens_allowed, distribution_denoms FROM svc.assets',
      ),
      (r) => r.id,
    ),
    assets,
  );
  const kindRows = await sql(
    'SELECT id, kind_class, decimals, bundle, transferable, bridgeable, policy_override, multiplier::text, supply::text, holder_count, accrual_denoms FROM svc.kinds',
  );
  check.sets(
    'kind',
    new Map(kindRows.map((r) => [r.id, { ...r, accrual_denoms: [...(r.accrual_denoms as string[])].sort() }])),
    kinds,
  );
  return check.result();
}

/** Every position of every kind on chain (Query/Holders, paged). */
function chainPositions(c: ChainSide): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const { assetId, kindId } of chainKinds(c)) {
    for (let offset = 0; ; offset += 1000) {
      const page = q(c, '/svc.rights.v1.Query/Holders', {
        asset_id: assetId,
        kind_id: kindId,
        offset: String(offset),
        limit: 1000,
      })!;
      const holders = (page.holders as Json[]) ?? [];
      for (const h of holders) {
        out.set(`${assetId}-${kindId}-${h.holder}`, {
          units: String(h.units),
          locked: String(h.locked),
          locks: ((h.locks as Json[]) ?? []).map((l) => ({ ref: l.ref, units: String(l.units) })),
        });
      }
      if (holders.length < 1000) break;
    }
  }
  return out;
}

export async function checkHoldings(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Holding');
  const rows = await sql('SELECT id, asset_id, kind_id, holder, units::text, locked::text, locks FROM svc.holdings');
  const chain = chainPositions(c);
  const zero = { units: '0', locked: '0', locks: [] };
  // locks are compared as sets: the store keeps creation order (schema), the chain's query sorts by ref
  const byRef = (locks: Json[]) =>
    [...locks].sort((x, y) => (String(x.ref) < String(y.ref) ? -1 : String(x.ref) > String(y.ref) ? 1 : 0));
  for (const v of chain.values()) v.locks = byRef(v.locks as Json[]);
  // rows stay at 0 units (schema): a stored zero position equals a position the chain no longer lists
  const actual = new Map<string, Json>();
  for (const r of rows) {
    const value = { units: r.units, locked: r.locked, locks: byRef(r.locks as Json[]) };
    if (!chain.has(r.id) && canonical(value) === canonical(zero)) continue;
    actual.set(r.id, value);
  }
  // every store row (also zero ones) is asked to the chain by its own key: Query/Position answers zero for none
  for (const r of rows) {
    if (chain.has(r.id) || actual.has(r.id)) continue;
    const p = q(c, '/svc.rights.v1.Query/Position', { asset_id: r.asset_id, kind_id: r.kind_id, holder: r.holder });
    check.eq(`holding ${r.id}`, 'units', r.units, String(p?.units ?? '0'));
  }
  check.sets('holding', actual, chain);
  return check.result();
}

// ---------------------------------------------------------------- payout

export async function checkAccruals(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Accrual');
  const kv = state(c);
  const expected = new Map<string, Json>();
  for (const { assetId, kindId } of chainKinds(c)) {
    for (const denom of kv.get<string[]>(`payout/denoms/${assetId}/${kindId}`) ?? []) {
      const a =
        (q(c, '/svc.payout.v1.Query/Accrual', { asset_id: assetId, kind_id: kindId, denom })!.accrual as Json) ?? {};
      expected.set(`${assetId}-${kindId}-${denom}`, {
        index: String(a.index),
        carry_scaled: String(a.carry_scaled),
        total_distributed: String(a.total_distributed),
        total_paid: String(a.total_paid),
        distributions_count: Number(a.distributions_count),
        module_held: String(a.module_held),
      });
    }
  }
  const rows = await sql(
    'SELECT id, index::text, carry_scaled::text, total_distributed::text, total_paid::text, distributions_count, module_held::text FROM svc.accruals',
  );
  check.sets(
    'accrual',
    byId(rows, (r) => r.id),
    expected,
  );
  return check.result();
}

/** Claimable totals (the read-side formula of openapi.yaml) vs Query/Claimable of every account either side knows. */
export async function checkClaimables(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Claimable');
  const rows = await sql(`SELECT c.account, c.routed_from, c.ref, c.asset_id, c.kind_id, c.denom,
      (c.accrued + floor(c.units * (a.index - c.snapshot_index) / 1e18))::numeric(78,0)::text AS total
    FROM svc.claimables c JOIN svc.accruals a ON a.id = c.accrual_id`);
  const key = (account: unknown, r: Json) =>
    `${account}|${r.routed_from}|${r.ref}|${r.asset_id}|${r.kind_id}|${r.denom}`;
  const accounts = new Set<string>([...c.accounts, ...rows.map((r) => r.account as string)]);
  for (const k of chainPositions(c).keys()) accounts.add(k.slice(k.lastIndexOf('-') + 1));
  const expected = new Map<string, Json>();
  for (const account of accounts) {
    for (const e of (q(c, '/svc.payout.v1.Query/Claimable', { address: account })?.entries as Json[]) ?? []) {
      if (String(e.amount) !== '0') expected.set(key(account, e), { total: String(e.amount) });
    }
  }
  // an entry at 0 equals an entry the chain does not list
  const actual = new Map<string, Json>(
    rows
      .filter((r) => r.total !== '0' || expected.has(key(r.account, r)))
      .map((r) => [key(r.account, r), { total: r.total }]),
  );
  check.sets('claimable', actual, expected);
  return check.result();
}

export async function checkDistributions(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Distribution');
  const expected = new Map<string, Json>();
  for (const e of c.record.byType('svc.payout.v1.EventDistributed', { appliedOnly: true })) {
    const f = e.fields;
    expected.set(`${e.height}-${e.txIndex}-${e.eventIndex}`, {
      seq: seqOf(e.height, e.txIndex, e.eventIndex),
      asset_id: f.asset_id,
      kind_id: Number(f.kind_id),
      denom: f.denom,
      payer: f.payer,
      amount: String(f.amount),
      supply: String(f.supply),
      new_index: String(f.new_index),
      carry_scaled: String(f.carry_scaled),
      tx_hash: e.txHash,
      time_ms: typedTimeMs(e),
    });
  }
  const rows = await sql(
    `SELECT id, seq::text, asset_id, kind_id, denom, payer, amount::text, supply::text, new_index::text, carry_scaled::text, tx_hash, ${msCol('block_time', 'time_ms')} FROM svc.distributions`,
  );
  check.sets(
    'distribution',
    byId(rows, (r) => r.id),
    expected,
  );
  return check.result();
}

// ---------------------------------------------------------------- settlement

const SETTLEMENT_EVENTS: Record<string, { event: string; actor?: string; reason?: boolean }> = {
  'svc.settlement.v1.EventSettlementProposed': { event: 'proposed', actor: 'proposer' },
  'svc.settlement.v1.EventSettlementSettled': { event: 'settled', actor: 'accepted_by' },
  'svc.settlement.v1.EventSettlementCancelled': { event: 'cancelled', actor: 'cancelled_by', reason: true },
  'svc.settlement.v1.EventSettlementExpired': { event: 'expired' },
};

export async function checkSettlements(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Settlement');
  const expected = new Map<string, Json>();
  for (let id = 1; ; id++) {
    const s = q(c, '/svc.settlement.v1.Query/Settlement', { settlement_id: String(id) })?.settlement as
      Json | undefined;
    if (!s) break;
    const legs = s.legs as Json[];
    expected.set(String(id), {
      proposer: s.proposer,
      counterparty: s.counterparty,
      legs,
      expiry_ms: ms(s.expiry),
      status: s.status,
      cancel_reason: s.cancel_reason,
      memo_hash: s.memo_hash,
      asset_ids: [...new Set(legs.filter((l) => l.right).map((l) => (l.right as Json).asset_id))],
    });
  }
  const rows = await sql(
    `SELECT id, proposer, counterparty, legs, ${msCol('expiry', 'expiry_ms')}, status, cancel_reason, memo_hash, asset_ids FROM svc.settlements`,
  );
  check.sets(
    'settlement',
    byId(rows, (r) => r.id),
    expected,
  );

  const timeline = new Map<string, Json>();
  for (const [type, how] of Object.entries(SETTLEMENT_EVENTS)) {
    for (const e of c.record.byType(type, { appliedOnly: true })) {
      const id = String(e.fields.settlement_id);
      timeline.set(`${id}-${e.height}-${e.txIndex}-${e.eventIndex}`, {
        settlement_id: id,
        seq: seqOf(e.height, e.txIndex, e.eventIndex),
        event: how.event,
        tx_hash: e.txHash,
        mode: e.mode,
        actor: how.actor ? s(e.fields[how.actor]) || null : null,
        reason: how.reason ? s(e.fields.reason) : null,
        time_ms: typedTimeMs(e),
      });
    }
  }
  const entries = await sql(
    `SELECT id, settlement_id, seq::text, event, tx_hash, mode, actor, reason, ${msCol('block_time', 'time_ms')} FROM svc.settlement_timeline_entries`,
  );
  check.sets(
    'timeline',
    byId(entries, (r) => r.id),
    timeline,
  );
  return check.result();
}

// ---------------------------------------------------------------- encumbrance

const ENCUMBRANCE_EVENTS: Record<string, string> = {
  'svc.encumbrance.v1.EventEncumbranceCreated': 'created',
  'svc.encumbrance.v1.EventEncumbranceReleased': 'released',
  'svc.encumbrance.v1.EventEncumbranceExercised': 'exercised',
  'svc.encumbrance.v1.EventEncumbranceExpired': 'expired',
};

export async function checkEncumbrances(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Encumbrance');
  const expected = new Map<string, Json>();
  const units = new Map<string, Json>();
  for (let id = 1; ; id++) {
    const e = q(c, '/svc.encumbrance.v1.Query/Encumbrance', { encumbrance_id: String(id) })?.encumbrance as
      Json | undefined;
    if (!e) break;
    units.set(String(id), { asset_id: e.asset_id, kind_id: Number(e.kind_id), units: String(e.units) });
    expected.set(String(id), {
      kind: lowerShort(e.kind, 'ENCUMBRANCE_KIND_'),
      asset_id: e.asset_id,
      kind_id: Number(e.kind_id),
      holder: e.holder,
      units: String(e.units),
      beneficiary: e.beneficiary,
      income_to_beneficiary: Boolean(e.income_to_beneficiary),
      holder_release_after_ms: ms(e.holder_release_after),
      exercisable: Boolean(e.exercisable),
      expiry_ms: ms(e.expiry),
      evidence_hash: e.evidence_hash,
      status: lowerShort(e.status, 'ENCUMBRANCE_STATUS_'),
    });
  }
  const rows =
    await sql(`SELECT id, kind, asset_id, kind_id, holder, units::text, beneficiary, income_to_beneficiary, ${msCol('holder_release_after', 'holder_release_after_ms')},
    exercisable, ${msCol('expiry', 'expiry_ms')}, evidence_hash, status FROM svc.encumbrances`);
  check.sets(
    'encumbrance',
    byId(rows, (r) => r.id),
    expected,
  );

  const timeline = new Map<string, Json>();
  for (const [type, event] of Object.entries(ENCUMBRANCE_EVENTS)) {
    for (const e of c.record.byType(type, { appliedOnly: true })) {
      const id = String(e.fields.encumbrance_id);
      const sweep = event === 'expired';
      timeline.set(`${id}-${e.height}-${e.txIndex}-${e.eventIndex}`, {
        encumbrance_id: id,
        seq: seqOf(e.height, e.txIndex, e.eventIndex),
        event,
        tx_hash: e.txHash,
        // the end-of-block sweep has tx_hash null and actor_role protocol
        actor: sweep ? null : s(e.fields.actor) || null,
        actor_role: sweep ? 'protocol' : lowerShort(e.fields.actor_role, 'ACTOR_ROLE_') || null,
        units: units.get(id) ?? null,
        time_ms: typedTimeMs(e),
      });
    }
  }
  const entries = await sql(
    `SELECT id, encumbrance_id, seq::text, event, tx_hash, actor, actor_role, units, ${msCol('block_time', 'time_ms')} FROM svc.encumbrance_timeline_entries`,
  );
  check.sets(
    'timeline',
    byId(entries, (r) => r.id),
    timeline,
  );
  return check.result();
}

// ---------------------------------------------------------------- delegation, attestation

export async function checkDelegations(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Delegation');
  const ended = new Map(
    c.record
      .byType('svc.delegation.v1.EventDelegationEnded', { appliedOnly: true })
      .map((e) => [String(e.fields.delegation_id), e]),
  );
  const expected = new Map<string, Json>();
  const power = new Map<string, Json>();
  const addPower = (
    account: string,
    assetId: string,
    kindId: number,
    field: 'delegated_out' | 'delegated_in',
    units: bigint,
  ) => {
    const id = `${account}|${assetId}|${kindId}`;
    const row = power.get(id) ?? { delegated_out: '0', delegated_in: '0' };
    row[field] = (BigInt(String(row[field])) + units).toString();
    power.set(id, row);
  };
  for (let id = 1; ; id++) {
    const d = q(c, '/svc.delegation.v1.Query/Delegation', { delegation_id: String(id) });
    if (!d?.found) break;
    const active = d.ended === 'END_REASON_UNSPECIFIED';
    const end = ended.get(String(id));
    expected.set(String(id), {
      holder: d.holder,
      delegate: d.delegate,
      asset_id: d.asset_id,
      kind_id: Number(d.kind_id),
      units: String(d.units),
      until_ms: ms(d.until),
      ended: active ? '' : d.ended,
      ended_height: end ? end.height : null,
      ended_actor: end ? s(end.fields.actor) || null : null,
    });
    if (active) {
      addPower(String(d.holder), String(d.asset_id), Number(d.kind_id), 'delegated_out', BigInt(String(d.units)));
      addPower(String(d.delegate), String(d.asset_id), Number(d.kind_id), 'delegated_in', BigInt(String(d.units)));
    }
  }
  const rows = await sql(
    `SELECT id, holder, delegate, asset_id, kind_id, units::text, ${msCol('until', 'until_ms')}, ended, ended_height, ended_actor FROM svc.delegations`,
  );
  check.sets(
    'delegation',
    byId(rows, (r) => r.id),
    expected,
  );
  const vp = await sql(
    'SELECT id, delegated_out::text, delegated_in::text FROM svc.voting_powers WHERE delegated_out <> 0 OR delegated_in <> 0',
  );
  check.sets(
    'voting_power',
    byId(vp, (r) => r.id),
    power,
  );
  return check.result();
}

export async function checkAttestations(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Attestation');
  const attested = c.record.byType('svc.attestation.v1.EventAttested', { appliedOnly: true });
  const revokedEvents = c.record.byType('svc.attestation.v1.EventAttestationRevoked', { appliedOnly: true });
  const expected = new Map<string, Json>();
  const stats = new Map<
    string,
    { subjects: Set<string>; issued: number; revocations: number; revoked: number; latest: number }
  >();
  const stat = (attester: string, type: string) => {
    const id = `${attester}|${type}`;
    const st = stats.get(id) ?? { subjects: new Set<string>(), issued: 0, revocations: 0, revoked: 0, latest: 0 };
    stats.set(id, st);
    return st;
  };
  for (const e of attested) {
    const f = e.fields as { attester: string; subject: string; type: string; expiry: string };
    const st = stat(f.attester, f.type);
    st.subjects.add(f.subject);
    st.issued += 1;
    st.latest = Math.max(st.latest, Date.parse(f.expiry));
    expected.set(`${f.attester}|${f.subject}|${f.type}`, {});
  }
  for (const e of revokedEvents) stat(String(e.fields.attester), String(e.fields.type)).revocations += 1;
  for (const id of expected.keys()) {
    const [attester, subject, type] = id.split('|');
    const a = q(c, '/svc.attestation.v1.Query/Attestation', { attester, subject, type })!;
    expected.set(id, { expiry_ms: ms(a.expiry), revoked: Boolean(a.revoked), evidence_hash: a.evidence_hash ?? '' });
    if (a.revoked) stat(attester, type).revoked += 1;
  }
  const rows = await sql(`SELECT id, ${msCol('expiry', 'expiry_ms')}, revoked, evidence_hash FROM svc.attestations`);
  check.sets(
    'attestation',
    byId(rows, (r) => r.id),
    expected,
  );
  const statRows = await sql(
    `SELECT id, subjects, issued, revocations, revoked, ${msCol('latest_expiry', 'latest_ms')} FROM svc.attester_type_stats`,
  );
  const expectedStats = new Map<string, Json>(
    [...stats].map(([id, st]) => [
      id,
      {
        subjects: st.subjects.size,
        issued: st.issued,
        revocations: st.revocations,
        revoked: st.revoked,
        latest_ms: st.latest ? String(st.latest) : null,
      },
    ]),
  );
  check.sets(
    'attester_type_stat',
    byId(statRows, (r) => r.id),
    expectedStats,
  );
  return check.result();
}

// ---------------------------------------------------------------- bridge

export async function checkBridge(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Bridge');
  const kv = state(c);
  const swept = new Map<string, Record<string, bigint>>();
  for (const e of c.record.byType('svc.bridge.v1.EventEscrowIncomeSwept')) {
    const m = swept.get(String(e.fields.route_id)) ?? {};
    m[String(e.fields.denom)] = (m[String(e.fields.denom)] ?? 0n) + BigInt(String(e.fields.amount));
    swept.set(String(e.fields.route_id), m);
  }
  const routes = new Map<string, Json>();
  for (const key of kv.keys('bridge/route/')) {
    const routeId = String(kv.get<Json>(key)!.route_id);
    const r = q(c, '/svc.bridge.v1.Query/Route', { route_id: routeId })!;
    const route = r.route as Json;
    const counters = r.counters as Json;
    routes.set(routeId, {
      remote_domain: Number(route.remote_domain),
      remote_contract: route.remote_contract,
      direction: route.direction,
      local_denom: route.local_denom,
      status: route.status,
      window_seconds: String(route.window_seconds),
      outbound_limit: String(route.outbound_limit),
      inbound_limit: String(route.inbound_limit),
      asset_id: route.asset_id,
      kind_id: Number(route.kind_id),
      bundle: Boolean(route.bundle),
      escrow_address: route.escrow_address,
      outbound: String(counters.outbound),
      inbound: String(counters.inbound),
      outbound_used: String(counters.outbound_used),
      inbound_used: String(counters.inbound_used),
      window_start: String(counters.window_start),
      transfers: Number(counters.transfers),
      income_swept: Object.fromEntries(Object.entries(swept.get(routeId) ?? {}).map(([d, v]) => [d, v.toString()])),
    });
  }
  const rows =
    await sql(`SELECT id, remote_domain, remote_contract, direction, local_denom, status, window_seconds::text, outbound_limit::text, inbound_limit::text, asset_id, kind_id, bundle,
    escrow_address, outbound::text, inbound::text, outbound_used::text, inbound_used::text, window_start::text, transfers, income_swept FROM svc.bridge_routes`);
  check.sets(
    'route',
    byId(rows, (r) => r.id),
    routes,
  );

  const transfers = new Map<string, Json>();
  const eventTransfer = (e: TypedEvent, direction: string, status: string) => {
    const f = e.fields;
    transfers.set(`${e.height}-${e.txIndex}-${e.eventIndex}`, {
      seq: seqOf(e.height, e.txIndex, e.eventIndex),
      tx_hash: e.txHash,
      route_id: f.route_id,
      direction,
      status,
      sender: f.sender,
      recipient: f.recipient,
      amount: String(f.amount),
      message_id: f.message_id,
      reason: '',
    });
  };
  c.record
    .byType('svc.bridge.v1.EventBridgedOut', { appliedOnly: true })
    .forEach((e) => eventTransfer(e, 'out', 'in_flight'));
  c.record
    .byType('svc.bridge.v1.EventBridgedIn', { appliedOnly: true })
    .forEach((e) => eventTransfer(e, 'in', 'completed'));
  // a MsgBridgeOut rejected in codespace bridge is a transfer with status rejected and reason bridge/<code>
  for (const tx of c.record.txs) {
    if (tx.code === 0 || tx.codespace !== 'bridge') continue;
    tx.typeUrls.forEach((t, i) => {
      if (t !== '/svc.bridge.v1.MsgBridgeOut') return;
      const m = decodeMsg(tx, i);
      transfers.set(`${tx.height}-${tx.index}-m${i}`, {
        seq: (BigInt(seqOf(tx.height, tx.index, -1)) + BigInt(i)).toString(),
        tx_hash: tx.hash,
        route_id: m.route_id,
        direction: 'out',
        status: 'rejected',
        sender: m.sender,
        recipient: m.recipient,
        amount: String(m.amount),
        message_id: '',
        reason: `bridge/${tx.code}`,
      });
    });
  }
  const tRows = await sql(
    'SELECT id, seq::text, tx_hash, route_id, direction, status, sender, recipient, amount::text, message_id, reason FROM svc.bridge_transfers',
  );
  check.sets(
    'transfer',
    byId(tRows, (r) => r.id),
    transfers,
  );
  return check.result();
}

// ---------------------------------------------------------------- waterfall (liquidation data), dex

export async function checkWaterfall(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Waterfall');
  const waterfalls = new Map<string, Json>();
  const pools = new Map<string, Json>();
  for (const a of chainAssets(c)) {
    const l = q(c, '/svc.waterfall.v1.Query/Liquidation', { asset_id: a.asset_id })!;
    const tiers = (l.tiers as Json[]) ?? [];
    const payments = (l.payments as Json[]) ?? [];
    if (tiers.length) {
      waterfalls.set(a.asset_id, {
        tiers: [...tiers]
          .sort((x, y) => Number(x.rank) - Number(y.rank))
          .map((t) => {
            const p = payments.find((x) => Number(x.rank) === Number(t.rank));
            return {
              rank: Number(t.rank),
              kind_id: Number(t.kind_id),
              claim_per_unit: String(t.claim_per_unit),
              owed: String(p?.owed ?? '0'),
              paid: String(p?.paid ?? '0'),
              cumulative_paid: String(p?.cumulative_paid ?? '0'),
            };
          }),
      });
    }
    for (const p of (l.pools as Json[]) ?? []) {
      pools.set(`${a.asset_id}-${p.kind_id}-${p.denom}`, {
        amount: String(p.amount),
        units_outstanding: String(p.units_outstanding),
      });
    }
  }
  check.sets(
    'waterfall',
    byId(await sql('SELECT id, tiers FROM svc.waterfalls'), (r) => r.id),
    waterfalls,
  );
  check.sets(
    'redemption_pool',
    byId(await sql('SELECT id, amount::text, units_outstanding::text FROM svc.redemption_pools'), (r) => r.id),
    pools,
  );

  const completed = new Map(
    c.record
      .byType('svc.waterfall.v1.EventLiquidationCompleted', { appliedOnly: true })
      .map((e) => [String(e.fields.asset_id), e.height]),
  );
  const liquidations = new Map<string, Json>();
  for (const e of c.record.byType('svc.waterfall.v1.EventLiquidationStarted', { appliedOnly: true })) {
    const f = e.fields;
    const payments = q(c, '/svc.waterfall.v1.Query/Liquidation', { asset_id: f.asset_id })!.payments as Json[];
    liquidations.set(String(f.asset_id), {
      authority: f.authority,
      denom: f.denom,
      proceeds: String(f.proceeds),
      surplus: String(f.surplus),
      tiers: payments.map((p) => ({
        rank: Number(p.rank),
        kind_id: Number(p.kind_id),
        owed: String(p.owed),
        paid: String(p.paid),
        cumulative_paid: String(p.cumulative_paid),
      })),
      started_height: e.height,
      started_tx_hash: e.txHash,
      completed_height: completed.get(String(f.asset_id)) ?? null,
    });
  }
  const lRows = await sql(
    'SELECT id, authority, denom, proceeds::text, surplus::text, tiers, started_height, started_tx_hash, completed_height FROM svc.liquidations',
  );
  check.sets(
    'liquidation',
    new Map(
      lRows.map((r) => [
        r.id,
        {
          ...r,
          tiers: (r.tiers as Json[]).map((t) => ({
            rank: Number(t.rank),
            kind_id: Number(t.kind_id),
            owed: String(t.owed),
            paid: String(t.paid),
            cumulative_paid: String(t.cumulative_paid),
          })),
        },
      ]),
    ),
    liquidations,
  );
  return check.result();
}

export async function checkDex(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('DexPool');
  const kv = state(c);
  const expected = new Map<string, Json>();
  for (const key of kv.keys('dex/pool/')) {
    const pool = kv.get<Json>(key)!;
    const p = q(c, '/svc.dex.v1.Query/PoolPrice', { asset_id: pool.asset_id, quote_denom: pool.quote_denom })!;
    expected.set(String(pool.pool_id), {
      asset_id: pool.asset_id,
      quote_denom: pool.quote_denom,
      pool_address: pool.address,
      creator: pool.creator,
      base_reserve: String(p.base_reserve),
      quote_reserve: String(p.quote_reserve),
    });
  }
  const rows = await sql(
    'SELECT id, asset_id, quote_denom, pool_address, creator, base_reserve::text, quote_reserve::text FROM svc.dex_pools',
  );
  check.sets(
    'pool',
    byId(rows, (r) => r.id),
    expected,
  );
  return check.result();
}

// ---------------------------------------------------------------- evm

/** ABI-decoded Error(string) of revert data, or null. */
export function errorString(data: string): string | null {
  if (!data.startsWith('0x08c379a0') || data.length < 10 + 128) return null;
  const body = Buffer.from(data.slice(10), 'hex');
  const length = Number(BigInt('0x' + body.subarray(32, 64).toString('hex')));
  return body.subarray(64, 64 + length).toString('utf8');
}

const EVM_TYPES = new Set(['/cosmos.evm.vm.v1.MsgEthereumTx', '/ethermint.evm.v1.MsgEthereumTx']);

export async function checkEvm(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('EvmTx');
  const expected = new Map<string, Json>();
  const linked = new Map<string, Json>();
  const senders = new Set(c.evmAccounts);
  for (const tx of c.record.txs) {
    const msgs = tx.typeUrls.map((t, i) => ({ t, i })).filter((m) => EVM_TYPES.has(m.t));
    if (!msgs.length) continue;
    const executed = tx.events.filter((e) => e.type === 'svc.evm.v1.EventEthereumTxExecuted');
    const ethTx = tx.events.filter((e) => e.type === 'ethereum_tx');
    msgs.forEach(({ t, i }, n) => {
      let from: string | null = null;
      let ethHash: string | null = null;
      if (t === '/cosmos.evm.vm.v1.MsgEthereumTx') {
        const signed = Transaction.from('0x' + Buffer.from(String(decodeMsg(tx, i).raw), 'base64').toString('hex'));
        from = signed.from;
        ethHash = signed.hash!.toLowerCase();
      }
      if (tx.code !== 0) {
        // consensus-level failure: EVM never ran
        if (ethHash)
          expected.set(ethHash, {
            tx_hash: tx.hash,
            height: tx.height,
            tx_index: tx.index,
            msg_index: i,
            status: 0,
            revert_reason: tx.log,
            from,
          });
        return;
      }
      const e = executed[n];
      const chainHash = String(JSON.parse(attr(e, 'eth_hash')!)).toLowerCase();
      if (ethHash && ethHash !== chainHash)
        check.fail(`tx ${tx.hash} msg ${i}: ethers hash ${ethHash} != chain eth_hash ${chainHash}`);
      const status = Number(JSON.parse(attr(e, 'status')!));
      const returnData = String(JSON.parse(attr(e, 'return_data')!));
      const vmError = String(JSON.parse(attr(e, 'vm_error')!));
      const contract = String(JSON.parse(attr(e, 'contract_address')!));
      // ethereum_tx.recipient is the created contract for a creation, whose `to` is null (openapi.yaml, EvmTx)
      const recipient = contract ? '' : (attr(ethTx[n], 'recipient') ?? '');
      expected.set(chainHash, {
        tx_hash: tx.hash,
        height: tx.height,
        tx_index: tx.index,
        msg_index: i,
        status,
        gas_used: String(JSON.parse(attr(e, 'gas_used')!)),
        vm_error: vmError || null,
        return_data: returnData || null,
        // openapi.yaml EvmTx: Error(string) of a revert or the VM error; null on success
        revert_reason: status === 1 ? null : (errorString(returnData) ?? (vmError || 'execution reverted')),
        to: recipient ? getAddress(recipient) : null,
        contract_address: contract || null,
        ...(from ? { from } : {}),
      });
      linked.set(tx.hash, { eth_hash: chainHash });
    });
  }
  const rows = await sql(
    'SELECT id, tx_hash, height, tx_index, msg_index, status, gas_used::text, vm_error, return_data, revert_reason, "from", "to", contract_address, from_account FROM svc.evm_txes',
  );
  check.sets(
    'evm_tx',
    byId(rows, (r) => r.id),
    expected,
  );
  for (const r of rows) {
    check.eq(`evm_tx ${r.id}`, 'from EIP-55', r.from, getAddress(r.from));
    check.eq(`evm_tx ${r.id}`, 'from_account is a scenario EVM sender', senders.has(r.from_account), true);
  }
  check.sets(
    'tx eth_hash',
    byId(await sql('SELECT id, eth_hash FROM svc.txes WHERE eth_hash IS NOT NULL'), (r) => r.id),
    linked,
  );
  return check.result();
}

// ---------------------------------------------------------------- accounts, activity, drifts

export async function checkAccounts(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Account');
  const kv = state(c);
  const rows = await sql('SELECT id, evm_address, assets_created FROM svc.accounts');
  for (const r of rows) {
    check.rows += 1;
    const bytes = decodeBech32Address(r.id).bytes;
    check.eq(
      `account ${r.id}`,
      'evm_address',
      r.evm_address,
      bytes.length === 20 ? getAddress('0x' + Buffer.from(bytes).toString('hex')) : null,
    );
    check.eq(`account ${r.id}`, 'assets_created', r.assets_created, Number(kv.get(`asset/count/${r.id}`) ?? 0));
  }
  const known = new Set(rows.map((r) => r.id as string));
  for (const a of chainAssets(c))
    if (!known.has(a.issuer)) check.fail(`issuer ${a.issuer} of ${a.asset_id} has no Account row`);
  const subjects = await sql(
    "SELECT DISTINCT substr(feed, length('account:') + 1) AS subject_id FROM svc.activity_entries WHERE feed LIKE 'account:%'",
  );
  for (const r of subjects)
    if (!known.has(r.subject_id)) check.fail(`activity subject ${r.subject_id} has no Account row`);
  const holders = await sql('SELECT DISTINCT holder FROM svc.holdings WHERE units > 0');
  for (const r of holders) if (!known.has(r.holder)) check.fail(`holder ${r.holder} has no Account row`);
  // every party the chain's own events name (bank transfers, fees, signers of failed txs) is known too
  const raw = await sql('SELECT events FROM svc.txes UNION ALL SELECT events FROM svc.blocks');
  const parties = new Set<string>();
  for (const r of raw) {
    for (const e of JSON.parse(r.events as string) as { attributes: { key: string; value: string }[] }[]) {
      for (const a of e.attributes) {
        if (
          ['sender', 'recipient', 'spender', 'receiver', 'minter', 'burner', 'fee_payer'].includes(a.key) &&
          /^svc1/.test(a.value)
        )
          parties.add(a.value);
      }
    }
  }
  check.rows += parties.size;
  for (const p of parties) if (!known.has(p)) check.fail(`event party ${p} has no Account row`);
  return check.result();
}

/**
 * The activity subjects of a typed event, from its proto "Subjects:" rule
 * (proto/svc/<module>/v1/events.proto), built from the chain's events only;
 * EVM senders come from the EVM view checked by checkEvm.
 */
function subjectRules(evmViews: Map<string, Row>): (e: TypedEvent) => string[] {
  const routes = new Map<string, Json>();
  const delegations = new Map<string, Json>();
  const encumbrances = new Map<string, Json>();
  const settlements = new Map<string, Json>();
  const rightOut = (routeId: unknown) => {
    const r = routes.get(String(routeId));
    return r && r.direction === 'DIRECTION_RIGHT_OUT' ? [`asset:${r.asset_id}`] : [];
  };
  const accounts = (...a: unknown[]) => a.filter((x) => typeof x === 'string' && x !== '').map((x) => `account:${x}`);
  const asset = (f: Json) => [`asset:${f.asset_id}`];
  const settlementSubjects = (id: unknown) => {
    const s = settlements.get(String(id));
    if (!s) return [];
    const assets = [
      ...new Set((s.legs as Json[]).filter((l) => l.right).map((l) => String((l.right as Json).asset_id))),
    ];
    return [...assets.map((x) => `asset:${x}`), ...accounts(s.proposer, s.counterparty)];
  };
  const encumbranceSubjects = (id: unknown, ...more: unknown[]) => {
    const x = encumbrances.get(String(id));
    return x ? [`asset:${x.asset_id}`, ...accounts(x.holder, x.beneficiary, ...more)] : [];
  };
  const rules: Record<string, (f: Json) => string[]> = {
    'svc.asset.v1.EventAssetCreated': (f) => [...asset(f), ...accounts(f.issuer)],
    'svc.asset.v1.EventIssued': (f) => [...asset(f), ...accounts(f.recipient)],
    'svc.asset.v1.EventIssuanceLocked': (f) => [...asset(f), ...accounts(f.issuer)],
    'svc.asset.v1.EventKindPolicySet': asset,
    'svc.asset.v1.EventKindSplit': asset,
    'svc.asset.v1.EventKindBridgeableSet': asset,
    'svc.asset.v1.EventAssetStatusChanged': asset,
    'svc.attestation.v1.EventAttested': (f) => accounts(f.attester, f.subject),
    'svc.attestation.v1.EventAttestationRevoked': (f) => accounts(f.attester, f.subject),
    'svc.bridge.v1.EventRouteCreated': (f) => {
      const route = f.route as Json;
      routes.set(String(route.route_id), route);
      return rightOut(route.route_id);
    },
    'svc.bridge.v1.EventRouteStatusChanged': (f) => rightOut(f.route_id),
    'svc.bridge.v1.EventBridgedOut': (f) => [...rightOut(f.route_id), ...accounts(f.sender)],
    'svc.bridge.v1.EventBridgedIn': (f) => [...rightOut(f.route_id), ...accounts(f.recipient)],
    'svc.bridge.v1.EventEscrowIncomeSwept': (f) => [...asset(f), ...accounts(f.escrow_address)],
    'svc.delegation.v1.EventDelegated': (f) => {
      delegations.set(String(f.delegation_id), f);
      return [...asset(f), ...accounts(f.holder, f.delegate)];
    },
    'svc.delegation.v1.EventDelegationEnded': (f) => {
      const d = delegations.get(String(f.delegation_id));
      return d ? [...asset(d), ...accounts(d.holder, d.delegate)] : [];
    },
    'svc.dex.v1.EventPoolCreated': (f) => [...asset(f), ...accounts(f.creator)],
    'svc.dex.v1.EventSwapped': (f) => [...asset(f), ...accounts(f.trader)],
    'svc.encumbrance.v1.EventEncumbranceCreated': (f) => {
      encumbrances.set(String(f.encumbrance_id), f);
      return encumbranceSubjects(f.encumbrance_id, f.actor);
    },
    'svc.encumbrance.v1.EventEncumbranceReleased': (f) => encumbranceSubjects(f.encumbrance_id, f.actor),
    'svc.encumbrance.v1.EventEncumbranceExercised': (f) => encumbranceSubjects(f.encumbrance_id, f.actor),
    'svc.encumbrance.v1.EventEncumbranceExpired': (f) => encumbranceSubjects(f.encumbrance_id),
    'svc.evm.v1.EventEthereumTxExecuted': (f) => {
      const v = evmViews.get(String(f.eth_hash).toLowerCase());
      return v ? accounts(v.from_account, v.to_account) : [];
    },
    'svc.payout.v1.EventDistributed': (f) => [...asset(f), ...accounts(f.payer)],
    'svc.payout.v1.EventClaimed': (f) => [
      ...asset(f),
      ...accounts(f.claimer, ...((f.entries as Json[]) ?? []).map((x) => x.routed_from)),
    ],
    'svc.rights.v1.EventTransferred': (f) => [...asset(f), ...accounts(f.sender, f.recipient)],
    'svc.rights.v1.EventBundleTransferred': (f) => [...asset(f), ...accounts(f.sender, f.recipient)],
    'svc.settlement.v1.EventSettlementProposed': (f) => {
      settlements.set(String(f.settlement_id), f);
      return settlementSubjects(f.settlement_id);
    },
    'svc.settlement.v1.EventSettlementSettled': (f) => settlementSubjects(f.settlement_id),
    'svc.settlement.v1.EventSettlementCancelled': (f) => settlementSubjects(f.settlement_id),
    'svc.settlement.v1.EventSettlementExpired': (f) => settlementSubjects(f.settlement_id),
    'svc.waterfall.v1.EventWaterfallSet': asset,
    'svc.waterfall.v1.EventLiquidationStarted': (f) => [...asset(f), ...accounts(f.authority)],
    'svc.waterfall.v1.EventRedemptionFunded': (f) => [...asset(f), ...accounts(f.issuer)],
    'svc.waterfall.v1.EventRedeemed': (f) => [...asset(f), ...accounts(f.holder)],
    'svc.waterfall.v1.EventLiquidationCompleted': asset,
  };
  return (e) => {
    const rule = rules[e.type];
    return rule ? [...new Set(rule(e.fields))].sort() : [`(no subject rule for ${e.type})`];
  };
}

/** Activity feeds: one entry per (subject, applied typed event), the subjects its proto rule declares, nothing else. */
export async function checkActivity(sql: Sql, c: ChainSide): Promise<CheckResult> {
  const check = new Check('Activity');
  // each row with the fields the API derives from it: position from seq, time from the block, the event from its tx or block
  const rows = await storedActivity(sql);
  const evmViews = new Map(
    (await sql('SELECT id, from_account, to_account FROM svc.evm_txes')).map((r) => [r.id as string, r]),
  );
  const subjects = subjectRules(evmViews);
  const expected = new Map<string, Json>();
  // chain order: rules learn routes, settlements, encumbrances, delegations from earlier events
  for (const e of c.record.typed) {
    if (!e.applied) continue;
    for (const feed of subjects(e)) {
      expected.set(`${feed}:${e.height}:${e.txIndex}:${e.eventIndex}`, {
        feed,
        height: e.height,
        tx_index: e.txIndex,
        event_index: e.eventIndex,
        type: e.type,
        tx_hash: e.txHash,
        mode: e.mode,
        decoded: e.fields,
        seq: seqOf(e.height, e.txIndex, e.eventIndex),
        time_ms: typedTimeMs(e),
        problem: null,
      });
    }
  }
  check.sets('entry', new Map(rows.map((r) => [r.id, r as unknown as Json])), expected);
  return check.result();
}

export async function checkDrifts(sql: Sql): Promise<CheckResult> {
  const check = new Check('Drift');
  const rows = await sql(
    'SELECT event_type, entity, entity_id, field, chain_value, derived_value, height FROM svc.drifts ORDER BY seq',
  );
  check.rows = rows.length;
  for (const r of rows)
    check.fail(
      `drift at ${r.height} ${r.event_type}: ${r.entity} ${r.entity_id} ${r.field} chain ${r.chain_value} derived ${r.derived_value}`,
    );
  return check.result();
}

/** Every check, in a stable order. */
export async function reconcileAll(sql: Sql, c: ChainSide): Promise<CheckResult[]> {
  const checks = [
    checkBlocks,
    checkTxs,
    checkEvents,
    checkCounters,
    checkAssets,
    checkHoldings,
    checkAccruals,
    checkClaimables,
    checkDistributions,
    checkSettlements,
    checkEncumbrances,
    checkDelegations,
    checkAttestations,
    checkBridge,
    checkWaterfall,
    checkDex,
    checkEvm,
    checkAccounts,
    checkActivity,
  ];
  const out: CheckResult[] = [];
  for (const check of checks) out.push(await check(sql, c));
  out.push(await checkDrifts(sql));
  return out;
}
