/** /v1/assets and every /v1/assets/{id}/… path. */
import { NotFoundError } from '../../src/lib/errors';
import { parseKindId, parseLimit } from '../http/params';
import { checkHeight, heightAsked } from '../http/height';
import { CURSORS, keysetPage, readCursor, readCursorAt, writeCursor, writeCursorAt } from '../paging/cursors';
import { seqOf } from '../paging/seq';
import { presentDistribution } from '../presenters/activity';
import {
  presentAsset,
  presentAssetSummary,
  presentGraphHolder,
  presentHolder,
  presentLiquidationRecord,
  presentRedemptionPool,
  presentWaterfall,
} from '../presenters/assets';
import type { RouteContext } from './context';

/** Holders per kind in /v1/assets/{id}/graph (openapi.yaml getAssetGraph: the top 100 per kind). */
export const GRAPH_HOLDERS_PER_KIND = 100;

/** The paged /v1/assets… paths' `limit` and `cursor` (openapi.yaml `Limit`, `Cursor`). */
function pageParams(req: { query: { limit?: string; cursor?: string } }) {
  return { limit: parseLimit(req.query.limit), cursor: req.query.cursor };
}

export function registerAssetRoutes(ctx: RouteContext): void {
  const { assets, activity } = ctx.repos;

  /** 404 on every /v1/assets/{id}/… path when there is no such asset. */
  function requireAsset<T>(read: T | undefined): T {
    if (read === undefined) throw new NotFoundError('asset not found');
    return read;
  }

  ctx.get(
    '/v1/assets',
    async (req) => {
      const { limit, cursor: raw } = pageParams(req);
      const cursor = readCursor(CURSORS.assets, raw);
      const rows = await ctx.store.readOne((sql) => assets.list(sql, cursor ? cursor[0] : null, limit + 1));
      const page = keysetPage(rows, limit, (last) => writeCursor(CURSORS.assets, [last.id]));
      return { assets: page.items.map(presentAssetSummary), next_cursor: page.nextCursor };
    },
    { fixedPerHeight: true },
  );

  // its latest invariant check is a reconciler row: the answer is fixed per height and generation
  ctx.get(
    '/v1/assets/{id}',
    async (req) => {
      const id = req.params.id;
      const read = requireAsset(await ctx.reads.assets.detail(id));
      return { asset: presentAsset(read.asset, read.kinds, read.accruals, read.latestChecks) };
    },
    { fixedPerHeightAndChecks: true },
  );

  ctx.get(
    '/v1/assets/{id}/graph',
    async (req) => {
      const id = req.params.id;
      const { status, kinds, holders } = requireAsset(
        await ctx.store.readOne((sql) => assets.graph(sql, id, GRAPH_HOLDERS_PER_KIND)),
      );
      return {
        asset_id: id,
        status,
        kinds: kinds.map((k) => ({
          kind_id: k.kind_id,
          class: k.kind_class,
          supply: BigInt(k.supply).toString(),
          holder_count: k.holder_count,
          holders: holders.filter((h) => h.kind_id === k.kind_id).map(presentGraphHolder),
        })),
      };
    },
    { fixedPerHeight: true },
  );

  /** The height a request asks for (`?height`, http/height.ts): null for the head; 400 outside the kept range. */
  async function askedHeight(req: { query: { height?: unknown } }): Promise<number | null> {
    const raw = heightAsked(req.query);
    if (raw === undefined) return null;
    return checkHeight(raw, await ctx.store.readOne((sql) => ctx.repos.status.keptRange(sql)));
  }

  ctx.get(
    '/v1/assets/{id}/kinds/{kind}/holders',
    async (req) => {
      const id = req.params.id;
      const kindId = parseKindId(req.params.kind);
      const { limit, cursor: raw } = pageParams(req);
      const height = await askedHeight(req);
      const cursor = readCursorAt(CURSORS.holders, raw, height);
      const read = requireAsset(
        await ctx.store.readOne((sql) =>
          height === null
            ? assets.holdersPage(sql, id, kindId, cursor, limit + 1)
            : assets.holdersPageAt(sql, id, kindId, cursor, limit + 1, height),
        ),
      );
      if (!read.kindExists) throw new NotFoundError('kind not found');
      const page = keysetPage(read.holders, limit, (last) =>
        writeCursorAt(CURSORS.holders, [BigInt(last.units), last.holder], height),
      );
      const encumbrances = new Map(read.encumbrances.map((e) => [e.id, e]));
      return {
        asset_id: id,
        kind_id: kindId,
        ...(height === null ? {} : { height }),
        holders: page.items.map((h) => presentHolder(h, encumbrances)),
        next_cursor: page.nextCursor,
      };
    },
    { fixedPerHeight: true, atHeight: true },
  );

  ctx.get(
    '/v1/assets/{id}/distributions',
    async (req) => {
      const id = req.params.id;
      const { limit, cursor: raw } = pageParams(req);
      const cursor = readCursor(CURSORS.distributions, raw);
      const found = requireAsset(
        await ctx.store.readOne((sql) => assets.distributions(sql, id, cursor ? seqOf(...cursor) : null, limit + 1)),
      );
      const page = keysetPage(found.rows, limit, (last) =>
        writeCursor(CURSORS.distributions, [last.height, last.tx_index, last.event_index]),
      );
      return { asset_id: id, distributions: page.items.map(presentDistribution), next_cursor: page.nextCursor };
    },
    { fixedPerHeight: true },
  );

  ctx.get(
    '/v1/assets/{id}/liquidation',
    async (req) => {
      const id = req.params.id;
      const { status, tiers, liquidation, pools } = requireAsset(
        await ctx.store.readOne((sql) => assets.liquidationRead(sql, id)),
      );
      return {
        asset_id: id,
        status,
        waterfall: presentWaterfall(tiers),
        liquidation: presentLiquidationRecord(liquidation),
        redemption_pools: pools.map(presentRedemptionPool),
      };
    },
    { fixedPerHeight: true },
  );

  ctx.get(
    '/v1/assets/{id}/events',
    async (req) => {
      const id = req.params.id;
      const { limit, cursor: raw } = pageParams(req);
      const cursor = readCursor(CURSORS.assetEvents, raw);
      const found = requireAsset(
        await ctx.store.readOne((sql) => activity.assetPage(sql, id, cursor ? seqOf(...cursor) : null, limit + 1)),
      );
      const page = keysetPage(found.rows, limit, (last) =>
        writeCursor(CURSORS.assetEvents, [last.height, last.tx_index, last.event_index]),
      );
      return { asset_id: id, events: ctx.presentActivities(page.items), next_cursor: page.nextCursor };
    },
    { fixedPerHeight: true },
  );
}
