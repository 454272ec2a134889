/** /v1/delegations/{id}. */
import type { Router } from 'express';
import { NotFoundError } from '../../src/lib/errors';
import { getOnly, sendJson } from '../http/respond';
import { parseNumericId } from '../http/params';
import { presentDelegation } from '../presenters/account';
import type { RouteContext } from './context';

export function registerDelegationRoutes(router: Router, ctx: RouteContext): void {
  const { delegations } = ctx.repos;

  getOnly(router, '/v1/delegations/:id', async (req, res) => {
    const id = parseNumericId(String(req.params.id));
    const row = await ctx.store.read((sql) => delegations.get(sql, id));
    if (!row) throw new NotFoundError('delegation not found');
    sendJson(res, { delegation: presentDelegation(row) });
  });
}
