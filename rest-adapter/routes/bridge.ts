/** /v1/bridge/routes, /v1/bridge/routes/{id}, /v1/bridge/transfers. */
import { NotFoundError } from '../../src/lib/errors';
import type { RouteRow } from '../repositories/bridge';
import { isStorableText, parseLimit, parseMessageId, parseTransferAccount } from '../http/params';
import { CURSORS, keysetPage, readCursor, writeCursor } from '../paging/cursors';
import { presentRoute, presentTransfer } from '../presenters/bridge';
import { timestampMs } from '../presenters/values';
import type { RouteContext } from './context';

export function registerBridgeRoutes(ctx: RouteContext): void {
  const { bridge } = ctx.repos;

  /** Latest block time in whole seconds: the clock of the route windows (read with the route rows). */
  function latestBlockSeconds(row: RouteRow | undefined): bigint {
    return row?.chain_latest_block_time ? BigInt(Math.floor(timestampMs(row.chain_latest_block_time) / 1000)) : 0n;
  }

  ctx.get(
    '/v1/bridge/routes',
    async (_req) => {
      const rows = await ctx.store.readOne((sql) => bridge.routes(sql));
      const now = latestBlockSeconds(rows[0]);
      return { routes: rows.map((r) => presentRoute(r, now)) };
    },
    { fixedPerHeightAndChecks: true },
  );

  ctx.get(
    '/v1/bridge/routes/{id}',
    async (req) => {
      const id = req.params.id;
      if (!isStorableText(id)) throw new NotFoundError('route not found');
      const row = await ctx.store.readOne((sql) => bridge.route(sql, id));
      if (!row) throw new NotFoundError('route not found');
      return { route: presentRoute(row, latestBlockSeconds(row)) };
    },
    { fixedPerHeightAndChecks: true },
  );

  ctx.get(
    '/v1/bridge/transfers',
    async (req) => {
      const filter = {
        route: req.query.route,
        status: req.query.status,
        account: parseTransferAccount(req.query.account, ctx.hrp),
        messageId: parseMessageId(req.query.message_id),
      };
      const limit = parseLimit(req.query.limit);
      const cursor = readCursor(CURSORS.bridgeTransfers, req.query.cursor);
      if (filter.route !== undefined && !isStorableText(filter.route)) return { transfers: [], next_cursor: null };
      const rows = await ctx.store.readOne((sql) =>
        bridge.transfers(sql, filter, cursor ? cursor[0] : null, limit + 1),
      );
      const page = keysetPage(rows, limit, (last) => writeCursor(CURSORS.bridgeTransfers, [BigInt(last.seq)]));
      return { transfers: page.items.map(presentTransfer), next_cursor: page.nextCursor };
    },
    { fixedPerHeight: true },
  );
}
