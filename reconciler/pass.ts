/**
 * One reconciliation pass: the store's snapshot at H, the chain's answers at H, one row per
 * check, written in one transaction. A pass either records every row of H or nothing.
 */
import type { Pool } from 'pg';
import type { AccrualAnswer, I8CheckRow, InvariantCheckRow, SupplySnapshot, Svc20CheckRow, Tables } from '../src/store';
import { ChainUnavailable, QueryNotServed } from '../src/client';
import { ChainAtHeight } from './chain-at-height';
import {
  ABSENT,
  accrualsOf,
  i8Check,
  invariantCheck,
  registryChecks,
  type RegistryAnswer,
  type RouteAnswer,
} from './checks';
import { writeChecks, type PassRows } from './check-writer';
import { readStoreSnapshot, type IndexedAsset, type IndexedKind, type IndexedRouteRow } from './store-snapshot';

export interface PassOptions {
  pool: Pool;
  tables: Tables;
  rpcUrl: string;
  /** per abci_query */
  queryTimeoutMs: number;
  /** abci queries in flight at once */
  concurrency: number;
  /**
   * Benchmarks only: ask the chain at this height instead of the store's. A store scaled up with
   * SQL (bench/store.ts) has no chain behind its own height; its pass measures cost, not agreement.
   */
  chainHeight?: number;
}

export interface PassResult {
  height: number;
  invariants: number;
  registry: number;
  routes: number;
  /** rows of this pass with agree=false (not-evaluated rows excluded) */
  disagreements: number;
  /** the registry query is served by this chain (0.9.0 on) */
  registryEvaluated: boolean;
  /** abci queries asked */
  queries: number;
  storeMs: number;
  chainMs: number;
  writeMs: number;
}

/** Runs `tasks` with at most `limit` in flight; the first failure fails the whole run. */
async function runLimited<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < tasks.length) {
      const i = next++;
      try {
        results[i] = await tasks[i]();
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  return results;
}

/** The query's answer, or 'not-served' when this chain's binary does not serve it. */
async function servedOrNot<T>(ask: () => Promise<T>): Promise<T | 'not-served'> {
  try {
    return await ask();
  } catch (e) {
    if (e instanceof QueryNotServed) return 'not-served';
    throw e;
  }
}

function indexerSide(kind: IndexedKind | undefined): SupplySnapshot {
  if (!kind) return ABSENT;
  return {
    exists: true,
    supply: kind.supply,
    holder_count: kind.holderCount,
    holders_sum: kind.holdersSum,
    accruals: accrualsOf(kind.accruals),
  };
}

/** Invariant queries must be served by every chain version: not served means the chain cannot be checked now. */
function required<T>(answer: T | 'not-served', what: string): T {
  if (answer === 'not-served') throw new ChainUnavailable(`the chain does not serve ${what}`);
  return answer;
}

async function chainSide(
  chain: ChainAtHeight,
  assetId: string,
  kindId: number,
  denoms: string[],
): Promise<SupplySnapshot> {
  const supply = required(await servedOrNot(() => chain.kindSupply(assetId, kindId)), 'KindSupply');
  if (!supply) return ABSENT;
  const holdersSum = required(await servedOrNot(() => chain.holdersSum(assetId, kindId)), 'Holders');
  const accruals: AccrualAnswer[] = [];
  for (const denom of denoms) {
    const a = required(await servedOrNot(() => chain.accrual(assetId, kindId, denom)), 'Accrual');
    if (a) accruals.push(a);
  }
  return {
    exists: true,
    supply: supply.supply,
    holder_count: supply.holder_count,
    holders_sum: (holdersSum ?? 0n).toString(),
    accruals: accrualsOf(accruals),
  };
}

/** Every (asset, kind) either side knows: the indexed kinds and the kinds the chain lists for the asset. */
async function assetChecks(chain: ChainAtHeight, height: number, asset: IndexedAsset): Promise<InvariantCheckRow[]> {
  const chainKinds = required(await servedOrNot(() => chain.kindIds(asset.assetId)), 'Asset') ?? [];
  const indexed = new Map(asset.kinds.map((k) => [k.kindId, k]));
  const kindIds = [...new Set([...indexed.keys(), ...chainKinds])].sort((a, b) => a - b);
  const rows: InvariantCheckRow[] = [];
  for (const kindId of kindIds) {
    const kind = indexed.get(kindId);
    const denoms = [...new Set([...(kind?.accruals.map((a) => a.denom) ?? []), ...asset.distributionDenoms])].sort();
    const chainSnapshot = chainKinds.includes(kindId) ? await chainSide(chain, asset.assetId, kindId, denoms) : ABSENT;
    rows.push(invariantCheck(height, asset.assetId, kindId, chainSnapshot, indexerSide(kind)));
  }
  return rows;
}

async function registryOf(chain: ChainAtHeight, height: number, asset: IndexedAsset): Promise<Svc20CheckRow[]> {
  const answer: RegistryAnswer = await servedOrNot(() => chain.tokenRegistry(asset.assetId));
  const tokens = {
    assetId: asset.assetId,
    bundleAddress: asset.bundleAddress,
    kinds: asset.kinds.map((k) => ({ kindId: k.kindId, svc20Address: k.svc20Address })),
  };
  return registryChecks(height, tokens, answer);
}

async function routeOf(chain: ChainAtHeight, height: number, route: IndexedRouteRow): Promise<I8CheckRow> {
  const answer: RouteAnswer = await servedOrNot(async () => {
    const actual = await chain.escrowBalance(route.routeId);
    const counters = await chain.route(route.routeId);
    return actual === null || counters === null ? null : { actual, ...counters };
  });
  return i8Check(height, route, answer);
}

/** Reads both sides at the store's height and builds every row; throws ChainUnavailable when the chain cannot answer at H. */
export async function collectChecks(
  o: PassOptions,
): Promise<{ height: number; rows: PassRows; queries: number; storeMs: number; chainMs: number } | null> {
  let t = Date.now();
  const snapshot = await readStoreSnapshot(o.pool, o.tables);
  if (!snapshot) return null;
  const storeMs = Date.now() - t;
  t = Date.now();
  const chain = new ChainAtHeight(o.rpcUrl, o.chainHeight ?? snapshot.height, o.queryTimeoutMs);
  // one group after the other, so at most `concurrency` queries are in flight
  const invariants = await runLimited(
    snapshot.assets.map((a) => () => assetChecks(chain, snapshot.height, a)),
    o.concurrency,
  );
  const registry = await runLimited(
    snapshot.assets.map((a) => () => registryOf(chain, snapshot.height, a)),
    o.concurrency,
  );
  const routes = await runLimited(
    snapshot.routes.map((r) => () => routeOf(chain, snapshot.height, r)),
    o.concurrency,
  );
  return {
    height: snapshot.height,
    rows: { invariants: invariants.flat(), registry: registry.flat(), routes },
    queries: chain.queries,
    storeMs,
    chainMs: Date.now() - t,
  };
}

/** One whole pass: collect, then write. Null when the node has not processed a block yet. */
export async function runPass(o: PassOptions): Promise<PassResult | null> {
  const collected = await collectChecks(o);
  if (!collected) return null;
  const { height, rows, queries, storeMs, chainMs } = collected;
  const t = Date.now();
  await writeChecks(o.pool, o.tables, height, rows);
  const disagreements =
    rows.invariants.filter((r) => !r.agree).length +
    rows.registry.filter((r) => r.evaluated && !r.agree).length +
    rows.routes.filter((r) => r.evaluated && !r.agree).length;
  return {
    height,
    invariants: rows.invariants.length,
    registry: rows.registry.length,
    routes: rows.routes.length,
    disagreements,
    registryEvaluated: rows.registry.every((r) => r.evaluated),
    queries,
    storeMs,
    chainMs,
    writeMs: Date.now() - t,
  };
}
