/** /v1/bridge/routes, /v1/bridge/routes/{id}, /v1/bridge/transfers. */
import type { Router } from 'express';
import { NotFoundError } from '../../src/lib/errors';
import type { Sql } from '../db/sql';
import { getOnly, sendJson } from '../http/respond';
import { parseAccountFilter, parseLimit, parseMessageId, parseTransferStatus, queryValue } from '../http/params';
import { CURSORS, keysetPage, readCursor, writeCursor } from '../paging/cursors';
import { presentRoute, presentTransfer } from '../presenters/bridge';
import { timestampMs } from '../presenters/values';
import type { RouteContext } from './context';

export function registerBridgeRoutes(router: Router, ctx: RouteContext): void {
  const { bridge, chain } = ctx.repos;

  /** Latest block time in whole seconds: the clock of the route windows. */
  async function latestBlockSeconds(sql: Sql): Promise<bigint> {
    const totals = await chain.totals(sql);
    return totals ? BigInt(Math.floor(timestampMs(totals.latest_block_time) / 1000)) : 0n;
  }

  getOnly(router, '/v1/bridge/routes', async (_req, res) => {
    const body = await ctx.store.read(async (sql) => {
      const [rows, now] = await Promise.all([bridge.routes(sql), latestBlockSeconds(sql)]);
      return { routes: rows.map((r) => presentRoute(r, now)) };
    });
    sendJson(res, body);
  });

  getOnly(router, '/v1/bridge/routes/:id', async (req, res) => {
    const id = String(req.params.id);
    const body = await ctx.store.read(async (sql) => {
      const [row, now] = await Promise.all([bridge.route(sql, id), latestBlockSeconds(sql)]);
      if (!row) throw new NotFoundError('route not found');
      return { route: presentRoute(row, now) };
    });
    sendJson(res, body);
  });

  getOnly(router, '/v1/bridge/transfers', async (req, res) => {
    const filter = {
      route: queryValue(req.query, 'route'),
      status: parseTransferStatus(queryValue(req.query, 'status')),
      account: parseAccountFilter(queryValue(req.query, 'account'), ctx.hrp, 'account'),
      messageId: parseMessageId(queryValue(req.query, 'message_id')),
    };
    const limit = parseLimit(queryValue(req.query, 'limit'));
    const cursor = readCursor(CURSORS.bridgeTransfers, queryValue(req.query, 'cursor'));
    const rows = await ctx.store.read((sql) => bridge.transfers(sql, filter, cursor ? cursor[0] : null, limit + 1));
    const page = keysetPage(rows, limit, (last) => writeCursor(CURSORS.bridgeTransfers, [BigInt(last.seq)]));
    sendJson(res, { transfers: page.items.map(presentTransfer), next_cursor: page.nextCursor });
  });
}
