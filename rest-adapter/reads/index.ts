/**
 * The reads of the resources whose answers are read faster than by one statement per request:
 * each owns what it keeps (memos per indexed height, pages asked recently) and chooses which
 * statement to run. A route asks a read for what its answer needs and presents it.
 */
import { createAssetReads } from './assets';
import type { ReadContext } from './context';
import { createTxReads } from './txs';

export type { ReadContext };

export function createReads(ctx: ReadContext) {
  return { txs: createTxReads(ctx), assets: createAssetReads(ctx) };
}

export type Reads = ReturnType<typeof createReads>;

/** `ctx` with the reads made from it (once per app: what they keep lives as long as the app). */
export function withReads<C extends ReadContext>(ctx: C): C & { reads: Reads } {
  return { ...ctx, reads: createReads(ctx) };
}
