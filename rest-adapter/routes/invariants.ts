/** /v1/invariants. */
import { presentInvariantCheck } from '../presenters/invariants';
import type { Svc20CheckRead } from '../../src/store';
import type { RouteContext } from './context';

function presentSvc20Check(row: Svc20CheckRead) {
  return {
    asset_id: row.asset_id,
    kind_id: row.bundle ? null : row.kind_id,
    bundle: row.bundle,
    height: row.height,
    indexer_address: row.indexer_address,
    chain_address: row.chain_address,
    evaluated: row.evaluated,
    agree: row.agree,
  };
}

export function registerInvariantRoutes(ctx: RouteContext): void {
  const { invariants } = ctx.repos;

  ctx.get(
    '/v1/invariants',
    async (req) => {
      const asset = req.query.asset;
      const { checks, registry } = await ctx.store.readOne((sql) => invariants.latest(sql, asset));
      return { checks: checks.map(presentInvariantCheck), svc20_registry: registry.map(presentSvc20Check) };
    },
    { fixedPerHeightAndChecks: true },
  );
}
