/**
 * Schema-qualified table names of the SubQuery store. The schema name is configuration,
 * so it is quoted with pg's escapeIdentifier; table names are constants (the snake_case
 * plural SubQuery gives each entity of schema.graphql).
 */
import { escapeIdentifier } from 'pg';

const TABLES = {
  metadata: '_metadata',
  blocks: 'blocks',
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
  accruals: 'accruals',
  distributions: 'distributions',
  claimables: 'claimables',
  encumbrances: 'encumbrances',
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

/** `"schema".table` for every table the adapter (and the app services) read. */
export function tablesIn(schema: string): Tables {
  const qualifier = escapeIdentifier(schema);
  const out = {} as Record<TableName, string>;
  for (const [key, table] of Object.entries(TABLES)) out[key as TableName] = `${qualifier}.${escapeIdentifier(table)}`;
  return Object.freeze(out);
}
