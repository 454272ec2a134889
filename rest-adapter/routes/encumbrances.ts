/** /v1/encumbrances/{id}. */
import type { Router } from 'express';
import { NotFoundError } from '../../src/lib/errors';
import { getOnly, sendJson } from '../http/respond';
import { parseNumericId } from '../http/params';
import { presentEncumbrance, presentEncumbranceTimeline } from '../presenters/timeline';
import type { RouteContext } from './context';

export function registerEncumbranceRoutes(router: Router, ctx: RouteContext): void {
  const { encumbrances } = ctx.repos;

  getOnly(router, '/v1/encumbrances/:id', async (req, res) => {
    const id = parseNumericId(String(req.params.id));
    const body = await ctx.store.read(async (sql) => {
      const [row, timeline] = await Promise.all([encumbrances.get(sql, id), encumbrances.timeline(sql, id)]);
      if (!row) throw new NotFoundError('encumbrance not found');
      return { encumbrance: presentEncumbrance(row), timeline: timeline.map(presentEncumbranceTimeline) };
    });
    sendJson(res, body);
  });
}
