/** /v1/attesters/{addr}. */
import { parseAddressParam } from '../http/params';
import { apiTime } from './block-time';
import type { RouteContext } from './context';

export function registerAttesterRoutes(ctx: RouteContext): void {
  const { attesters } = ctx.repos;

  ctx.get(
    '/v1/attesters/{addr}',
    async (req) => {
      const attester = parseAddressParam(req.params.addr, ctx.hrp).bech32;
      const read = await ctx.store.readOne((sql) => attesters.typeCounts(sql, attester));
      return { attester, types: read.types, latest_block_time: apiTime(read.latestBlockTime) };
    },
    { fixedPerHeight: true },
  );
}
