/** SQL over the accrual tables that more than one reader needs. */

/**
 * The pending income of claimable `c` under accrual `a`: floor(units × (index − snapshot) / 10^18)
 * per entry, as src/lib/accrual pendingIncome, in exact numeric.
 */
export const PENDING_SQL = (c: string, a: string) =>
  `div(${c}.units * GREATEST(${a}.index - ${c}.snapshot_index, 0), 1000000000000000000::numeric)`;
