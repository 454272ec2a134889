/** /v1/blocks and /v1/blocks/{height}. */
import { NotFoundError } from '../../src/lib/errors';
import { parseHeight, parseLimit } from '../http/params';
import { CURSORS, keysetPage, readCursor, writeCursor } from '../paging/cursors';
import { presentBlock } from '../presenters/blocks';
import { BLOCK_LEVEL, presentEvents } from '../presenters/events';
import { presentProof } from '../presenters/proofs';
import type { RouteContext } from './context';

/** Whether the node has indexed the block a path names, as the app's height watcher knows it (false when unknown). */
function indexedBlock(raw: string, ctx: RouteContext): boolean {
  const indexed = ctx.indexedHeight();
  if (indexed === undefined || !/^[0-9]{1,15}$/.test(raw)) return false;
  const height = Number(raw);
  return height > 0 && height <= indexed;
}

export function registerBlockRoutes(ctx: RouteContext): void {
  const { blocks, txs } = ctx.repos;

  ctx.get(
    '/v1/blocks',
    async (req) => {
      const limit = parseLimit(req.query.limit);
      const cursor = readCursor(CURSORS.blocks, req.query.cursor);
      const rows = await ctx.store.readOne((sql) => blocks.blocksBelow(sql, cursor ? cursor[0] : null, limit + 1));
      const page = keysetPage(rows, limit, (last) => writeCursor(CURSORS.blocks, [last.height]));
      return { blocks: page.items.map(presentBlock), next_cursor: page.nextCursor };
    },
    { fixedPerHeight: true },
  );

  ctx.get(
    '/v1/blocks/{height}',
    async (req) => {
      const height = parseHeight(req.params.height);
      const {
        indexedHeight,
        block,
        txs: blockTxs,
        proof,
      } = await ctx.store.readOne((sql) => txs.blockWithTxs(sql, height));
      if (height === 0n || height > BigInt(indexedHeight) || !block) throw new NotFoundError('block not found');
      return {
        block: presentBlock(block),
        txs: ctx.presentTxs(blockTxs),
        events: presentEvents(block.events, BLOCK_LEVEL),
        proof: presentProof(proof),
      };
    },
    { fixedPerHeight: true, immutable: { exists: (params) => indexedBlock(params.height, ctx) } },
  );
}
