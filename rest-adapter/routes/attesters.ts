/** /v1/attesters/{addr}. */
import { parseAddressParam } from '../http/params';
import { apiTime, latestBlockStoreTime } from './block-time';
import type { RouteContext } from './context';

export function registerAttesterRoutes(ctx: RouteContext): void {
  const { attesters, chain } = ctx.repos;

  ctx.get('/v1/attesters/:addr', async (req) => {
    const attester = parseAddressParam(String(req.params.addr), ctx.hrp).bech32;
    return ctx.store.read(async (sql) => {
      const latest = await latestBlockStoreTime(chain, sql);
      const types = await attesters.typeCounts(sql, attester, latest);
      return { attester, types, latest_block_time: apiTime(latest) };
    });
  }, { fixedPerHeight: true });
}
