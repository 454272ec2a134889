/** /v1/encumbrances/{id}. */
import { NotFoundError } from '../../src/lib/errors';
import { parseNumericId } from '../http/params';
import { presentEncumbrance, presentEncumbranceTimeline } from '../presenters/encumbrances';
import type { RouteContext } from './context';

export function registerEncumbranceRoutes(ctx: RouteContext): void {
  const { encumbrances } = ctx.repos;

  ctx.get(
    '/v1/encumbrances/{id}',
    async (req) => {
      const id = parseNumericId(req.params.id);
      const found = await ctx.store.readOne((sql) => encumbrances.withTimeline(sql, id));
      if (!found) throw new NotFoundError('encumbrance not found');
      return {
        encumbrance: presentEncumbrance(found.parent),
        timeline: found.children.map(presentEncumbranceTimeline),
      };
    },
    { fixedPerHeight: true },
  );
}
