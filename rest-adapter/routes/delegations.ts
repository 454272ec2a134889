/** /v1/delegations/{id}. */
import { NotFoundError } from '../../src/lib/errors';
import { parseNumericId } from '../http/params';
import { presentDelegation } from '../presenters/delegations';
import type { RouteContext } from './context';

export function registerDelegationRoutes(ctx: RouteContext): void {
  const { delegations } = ctx.repos;

  ctx.get(
    '/v1/delegations/{id}',
    async (req) => {
      const id = parseNumericId(req.params.id);
      const row = await ctx.store.readOne((sql) => delegations.get(sql, id));
      if (!row) throw new NotFoundError('delegation not found');
      return { delegation: presentDelegation(row) };
    },
    { fixedPerHeight: true },
  );
}
