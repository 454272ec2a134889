/**
 * A liquidated loan's recovery (docs/app-services.md, "Risk"): the units its liquidation
 * seized are sold back into the asset's own pool, one slice at a time (market/pool-sale.ts:
 * at most LENDER_SALE_IMPACT_BPS of price impact, never into a dump), at most one slice of an
 * asset every LENDER_SALE_EVERY_BLOCKS. The recovery ends when nothing is left to sell, or
 * nothing left fetches more than dust; the worker then charges what the sales fetched short
 * of the principal as the loan's loss. Pure: the worker (lender/worker.ts) reads the state
 * and signs the sale.
 */
import { poolSlice, type PoolState, type Sale, type SliceRule } from '../market/pool-sale';

export interface RecoveryRule extends SliceRule {
  /** LENDER_SALE_EVERY_BLOCKS */
  everyBlocks: number;
  /** LENDER_DUST: a slice that fetches no more than this ends the recovery */
  dust: bigint;
}

export interface RecoveryState {
  /** seized units neither sold nor being sold */
  remaining: bigint;
  /** the pool now, with the height it was read at; 'no_pool' when the asset has none left */
  pool: (PoolState & { height: number }) | 'no_pool';
  /** the units of the asset the lender may move (the least over its kinds) */
  held: bigint;
  /** the height of the lender's latest sale of the asset, or null */
  lastSaleHeight: number | null;
}

export type RecoveryStep = { do: 'sell'; sale: Sale } | { do: 'wait'; why: string } | { do: 'close'; why: string };

export function nextRecoveryStep(s: RecoveryState, rule: RecoveryRule): RecoveryStep {
  if (s.remaining <= 0n) return { do: 'close', why: 'every seized unit sold' };
  if (s.pool === 'no_pool') return { do: 'close', why: 'the asset has no pool left to sell into' };
  const wanted = s.held < s.remaining ? s.held : s.remaining;
  if (wanted <= 0n) return { do: 'close', why: 'the lender holds none of the seized units' };
  const sale = poolSlice(wanted, s.pool, rule);
  if (!sale) return { do: 'wait', why: 'spot is below the twap past the divergence bound: a dump is not sold into' };
  if (sale.expected <= rule.dust) return { do: 'close', why: 'the pool pays no more than dust for the rest' };
  if (s.lastSaleHeight !== null && s.pool.height - s.lastSaleHeight < rule.everyBlocks)
    return { do: 'wait', why: 'a slice was sold within LENDER_SALE_EVERY_BLOCKS' };
  return { do: 'sell', sale };
}
