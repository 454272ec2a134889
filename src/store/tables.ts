/**
 * Schema-qualified table names of the SubQuery store. The schema name is configuration (the
 * rest-adapter takes any DB_SCHEMA), so it is escaped; table names are constants (the
 * snake_case plural SubQuery gives each entity of schema.graphql).
 */
import { escapeIdent } from './identifiers';

const TABLES = {
  metadata: '_metadata',
  blocks: 'blocks',
  blockProofs: 'block_proofs',
  txes: 'txes',
  chainTotals: 'chain_totals',
  methodCounts: 'method_counts',
  txDays: 'tx_days',
  accounts: 'accounts',
  activityEntries: 'activity_entries',
  evmTxes: 'evm_txes',
  assets: 'assets',
  kinds: 'kinds',
  holdings: 'holdings',
  holdingVersions: 'holding_versions',
  accruals: 'accruals',
  distributions: 'distributions',
  claimables: 'claimables',
  encumbrances: 'encumbrances',
  encumbranceVersions: 'encumbrance_versions',
  encumbranceTimeline: 'encumbrance_timeline_entries',
  settlements: 'settlements',
  settlementTimeline: 'settlement_timeline_entries',
  attestations: 'attestations',
  delegations: 'delegations',
  votingPowers: 'voting_powers',
  waterfalls: 'waterfalls',
  liquidations: 'liquidations',
  redemptionPools: 'redemption_pools',
  dexPools: 'dex_pools',
  bridgeRoutes: 'bridge_routes',
  bridgeTransfers: 'bridge_transfers',
  i8Checks: 'i8_checks',
  invariantChecks: 'invariant_checks',
  svc20Checks: 'svc20_checks',
} as const;

export type TableName = keyof typeof TABLES;
export type Tables = Readonly<Record<TableName, string>>;

/** `"schema".table` for every table the adapter, the app services and the reconciler use. */
export function tablesIn(schema: string): Tables {
  const qualifier = escapeIdent(schema);
  const out = {} as Record<TableName, string>;
  for (const [key, table] of Object.entries(TABLES)) out[key as TableName] = `${qualifier}.${escapeIdent(table)}`;
  return Object.freeze(out);
}
