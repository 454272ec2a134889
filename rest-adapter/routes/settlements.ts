/** /v1/settlements and /v1/settlements/{id}. */
import { NotFoundError } from '../../src/lib/errors';
import { parseAccountFilter, parseLimit, parseNumericId, parseSettlementStatus } from '../http/params';
import { CURSORS, keysetPage, readCursor, writeCursor } from '../paging/cursors';
import { presentSettlement, presentSettlementTimeline } from '../presenters/settlements';
import type { RouteContext } from './context';

export function registerSettlementRoutes(ctx: RouteContext): void {
  const { settlements } = ctx.repos;

  ctx.get(
    '/v1/settlements',
    async (req) => {
      const filter = {
        party: parseAccountFilter(req.query.party, ctx.hrp, 'party'),
        status: parseSettlementStatus(req.query.status),
      };
      const limit = parseLimit(req.query.limit);
      const cursor = readCursor(CURSORS.settlements, req.query.cursor);
      const rows = await ctx.store.readOne((sql) =>
        settlements.list(sql, filter, cursor ? cursor[0] : null, limit + 1),
      );
      const page = keysetPage(rows, limit, (last) => writeCursor(CURSORS.settlements, [BigInt(last.id)]));
      return { settlements: page.items.map(presentSettlement), next_cursor: page.nextCursor };
    },
    { fixedPerHeight: true },
  );

  ctx.get(
    '/v1/settlements/{id}',
    async (req) => {
      const id = parseNumericId(req.params.id);
      const found = await ctx.store.readOne((sql) => settlements.withTimeline(sql, id));
      if (!found) throw new NotFoundError('settlement not found');
      return {
        settlement: { ...presentSettlement(found.parent), timeline: found.children.map(presentSettlementTimeline) },
      };
    },
    { fixedPerHeight: true },
  );
}
