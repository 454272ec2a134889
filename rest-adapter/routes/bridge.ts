/** /v1/bridge/routes, /v1/bridge/routes/{id}, /v1/bridge/transfers. */
import { NotFoundError } from '../../src/lib/errors';
import type { Sql } from '../db/sql';
import { parseAccountFilter, parseLimit, parseMessageId, parseTransferStatus, queryValue } from '../http/params';
import { CURSORS, keysetPage, readCursor, writeCursor } from '../paging/cursors';
import { presentRoute, presentTransfer } from '../presenters/bridge';
import { timestampMs } from '../presenters/values';
import type { RouteContext } from './context';

export function registerBridgeRoutes(ctx: RouteContext): void {
  const { bridge, chain } = ctx.repos;

  /** Latest block time in whole seconds: the clock of the route windows. */
  async function latestBlockSeconds(sql: Sql): Promise<bigint> {
    const totals = await chain.totals(sql);
    return totals ? BigInt(Math.floor(timestampMs(totals.latest_block_time) / 1000)) : 0n;
  }

  ctx.get('/v1/bridge/routes', async (_req) => {
    const body = await ctx.store.read(async (sql) => {
      const [rows, now] = await Promise.all([bridge.routes(sql), latestBlockSeconds(sql)]);
      return { routes: rows.map((r) => presentRoute(r, now)) };
    });
    return body;
  });

  ctx.get('/v1/bridge/routes/:id', async (req) => {
    const id = String(req.params.id);
    const body = await ctx.store.read(async (sql) => {
      const [row, now] = await Promise.all([bridge.route(sql, id), latestBlockSeconds(sql)]);
      if (!row) throw new NotFoundError('route not found');
      return { route: presentRoute(row, now) };
    });
    return body;
  });

  ctx.get('/v1/bridge/transfers', async (req) => {
    const filter = {
      route: queryValue(req.query, 'route'),
      status: parseTransferStatus(queryValue(req.query, 'status')),
      account: parseAccountFilter(queryValue(req.query, 'account'), ctx.hrp, 'account'),
      messageId: parseMessageId(queryValue(req.query, 'message_id')),
    };
    const limit = parseLimit(queryValue(req.query, 'limit'));
    const cursor = readCursor(CURSORS.bridgeTransfers, queryValue(req.query, 'cursor'));
    const rows = await ctx.store.readOne((sql) => bridge.transfers(sql, filter, cursor ? cursor[0] : null, limit + 1));
    const page = keysetPage(rows, limit, (last) => writeCursor(CURSORS.bridgeTransfers, [BigInt(last.seq)]));
    return { transfers: page.items.map(presentTransfer), next_cursor: page.nextCursor };
  }, { fixedPerHeight: true });
}
