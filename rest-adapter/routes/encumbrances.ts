/** /v1/encumbrances/{id}. */
import { NotFoundError } from '../../src/lib/errors';
import { parseNumericId } from '../http/params';
import { presentEncumbrance, presentEncumbranceTimeline } from '../presenters/timeline';
import type { RouteContext } from './context';

export function registerEncumbranceRoutes(ctx: RouteContext): void {
  const { encumbrances } = ctx.repos;

  ctx.get('/v1/encumbrances/:id', async (req) => {
    const id = parseNumericId(String(req.params.id));
    const body = await ctx.store.read(async (sql) => {
      const [row, timeline] = await Promise.all([encumbrances.get(sql, id), encumbrances.timeline(sql, id)]);
      if (!row) throw new NotFoundError('encumbrance not found');
      return { encumbrance: presentEncumbrance(row), timeline: timeline.map(presentEncumbranceTimeline) };
    });
    return body;
  }, { fixedPerHeight: true });
}
