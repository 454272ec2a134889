/**
 * The comparison rules of the reconciler: pure functions from the two sides (the store's
 * snapshot at height H and the chain's answers at H) to the rows openapi.yaml describes as
 * InvariantCheck, Svc20Check and I8Check (their types: src/store/checks.ts). docs/indexer.md
 * ("Reconciler") explains each rule.
 */
import { getAddress } from 'ethers';
import { outstanding } from '../src/lib/bridge-route';
import type { AccrualAnswer, I8CheckRow, InvariantCheckRow, SupplySnapshot, Svc20CheckRow } from '../src/store';
import type { TokenRegistryEntry } from '../src/mappings/generated/proto-json';

export const ABSENT: SupplySnapshot = Object.freeze({
  exists: false,
  supply: '0',
  holder_count: 0,
  holders_sum: '0',
  accruals: [],
});

/** An accrual that never received anything is the same as no accrual: both sides leave it out. */
export function accrualsOf(answers: readonly AccrualAnswer[]): AccrualAnswer[] {
  const isEmpty = (a: AccrualAnswer) =>
    a.distributions_count === 0 &&
    [a.index, a.carry_scaled, a.module_held, a.total_distributed, a.total_paid].every((v) => BigInt(v) === 0n);
  return answers.filter((a) => !isEmpty(a)).sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0));
}

/** A side is consistent when its holders' units add up to its supply. */
function consistent(s: SupplySnapshot): boolean {
  return BigInt(s.holders_sum) === BigInt(s.supply);
}

function sameSnapshot(a: SupplySnapshot, b: SupplySnapshot): boolean {
  if (a.exists !== b.exists || a.holder_count !== b.holder_count) return false;
  if (BigInt(a.supply) !== BigInt(b.supply) || BigInt(a.holders_sum) !== BigInt(b.holders_sum)) return false;
  if (a.accruals.length !== b.accruals.length) return false;
  return a.accruals.every((x, i) => {
    const y = b.accruals[i];
    return (
      x.denom === y.denom &&
      x.distributions_count === y.distributions_count &&
      (['index', 'carry_scaled', 'module_held', 'total_distributed', 'total_paid'] as const).every(
        (f) => BigInt(x[f]) === BigInt(y[f]),
      )
    );
  });
}

/**
 * InvariantCheck of one (asset, kind): agree when both sides know the kind, show the same
 * supply, holder count, Σ holders' units and accruals, and each side's Σ equals its supply.
 */
export function invariantCheck(
  height: number,
  assetId: string,
  kindId: number,
  chain: SupplySnapshot,
  indexer: SupplySnapshot,
): InvariantCheckRow {
  const agree =
    chain.exists && indexer.exists && sameSnapshot(chain, indexer) && consistent(chain) && consistent(indexer);
  return { id: `${height}/${assetId}/${kindId}`, asset_id: assetId, kind_id: kindId, height, agree, chain, indexer };
}

/** The indexer's precompile addresses of one asset (formula addresses, EIP-55). */
export interface IndexedTokens {
  assetId: string;
  bundleAddress: string;
  kinds: { kindId: number; svc20Address: string }[];
}

/** Registry answer: the entries, 'not-served' (chain older than 0.9.0), or null (the chain has no such asset). */
export type RegistryAnswer = TokenRegistryEntry[] | 'not-served' | null;

function sameAddress(a: string, b: string): boolean {
  try {
    return a !== '' && b !== '' && getAddress(a) === getAddress(b);
  } catch {
    return false;
  }
}

/**
 * Svc20Check rows of one asset: one per indexed kind (by kind_id), one per kind only the chain
 * registers (indexer_address ''), then the bundle row (kind_id null). When the chain does not
 * serve the registry every row is evaluated false, chain_address '' and agree false: not
 * evaluated is never counted as drift.
 */
export function registryChecks(height: number, tokens: IndexedTokens, chain: RegistryAnswer): Svc20CheckRow[] {
  const evaluated = chain !== 'not-served';
  const entries = Array.isArray(chain) ? chain : [];
  const chainKind = new Map(entries.filter((e) => !e.bundle).map((e) => [e.kind_id, e.address]));
  const chainBundle = entries.find((e) => e.bundle)?.address ?? '';
  const row = (kindId: number | null, indexerAddress: string, chainAddress: string): Svc20CheckRow => ({
    id: `${height}/${tokens.assetId}/${kindId === null ? 'bundle' : kindId}`,
    asset_id: tokens.assetId,
    kind_id: kindId,
    bundle: kindId === null,
    height,
    indexer_address: indexerAddress,
    chain_address: evaluated ? chainAddress : '',
    evaluated,
    agree: evaluated && sameAddress(indexerAddress, chainAddress),
  });
  const indexedKinds = new Set(tokens.kinds.map((k) => k.kindId));
  const kindIds = [...new Set([...indexedKinds, ...chainKind.keys()])].sort((a, b) => a - b);
  const kindRows = kindIds.map((kindId) =>
    row(kindId, tokens.kinds.find((k) => k.kindId === kindId)?.svc20Address ?? '', chainKind.get(kindId) ?? ''),
  );
  return [...kindRows, row(null, tokens.bundleAddress, chainBundle)];
}

/** The indexer's route: its direction and counters. */
export interface IndexedRoute {
  routeId: string;
  direction: string;
  outbound: bigint;
  inbound: bigint;
}

/** The chain's route: what it holds and its own counters; null when it has no such route; 'not-served' on a binary without the query. */
export type RouteAnswer =
  { actual: bigint; direction: string; outbound: bigint; inbound: bigint } | 'not-served' | null;

/**
 * I8Check of one route: chain_actual is what the chain holds (escrow balance, synthetic supply or
 * escrow units), indexer_actual the indexer's outstanding; chain_ok says the chain's holding
 * matches its own counters; agree says the indexer's outstanding equals the chain's holding.
 */
export function i8Check(height: number, route: IndexedRoute, chain: RouteAnswer): I8CheckRow {
  const base = { id: `${height}/${route.routeId}`, route_id: route.routeId, height };
  if (chain === 'not-served')
    return { ...base, chain_actual: '', indexer_actual: '', chain_ok: false, evaluated: false, agree: false };
  const indexerActual = outstanding(route.direction, route.outbound, route.inbound);
  if (chain === null)
    return {
      ...base,
      chain_actual: '',
      indexer_actual: indexerActual.toString(),
      chain_ok: false,
      evaluated: true,
      agree: false,
    };
  const chainOk = chain.actual === outstanding(chain.direction, chain.outbound, chain.inbound);
  return {
    ...base,
    chain_actual: chain.actual.toString(),
    indexer_actual: indexerActual.toString(),
    chain_ok: chainOk,
    evaluated: true,
    agree: chain.actual === indexerActual,
  };
}
