/** The chain-wide counters row (ChainTotals id 'chain'). */
import { ChainTotals } from '../../types';
import { load, put } from '../infra/block-cache';

export const TOTALS_ID = 'chain';

export async function chainTotals(height: number, blockTime: Date): Promise<ChainTotals> {
  const found = await load(ChainTotals, TOTALS_ID);
  if (found) return found;
  return put(
    ChainTotals,
    ChainTotals.create({
      id: TOTALS_ID,
      blockCount: 0,
      txCount: 0,
      eventCount: 0n,
      driftTotal: 0,
      latestHeight: height,
      latestBlockTime: blockTime,
    }),
  );
}
