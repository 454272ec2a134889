/** /v1/accounts/{addr}, its attestations and its activity feed. */
import { parseAddressParam, parseLimit } from '../http/params';
import { CURSORS, keysetPage, readCursor, writeCursor } from '../paging/cursors';
import { seqOf } from '../paging/seq';
import {
  presentAccountLocks,
  presentAssets,
  presentAttestation,
  presentClaimable,
  presentVotingPower,
} from '../presenters/accounts';
import { presentDelegation } from '../presenters/delegations';
import { presentSettlement } from '../presenters/settlements';
import { accountFeed } from '../repositories/activity';
import { apiTime } from './block-time';
import type { RouteContext } from './context';

export function registerAccountRoutes(ctx: RouteContext): void {
  const { accounts, activity } = ctx.repos;

  ctx.get(
    '/v1/accounts/{addr}',
    async (req) => {
      const address = parseAddressParam(req.params.addr, ctx.hrp);
      const account = address.bech32;
      const read = await ctx.store.readOne((sql) => accounts.overview(sql, account));
      const latest = apiTime(read.latestBlockTime);
      const latestMs = Date.parse(latest);
      return {
        address: account,
        evm_address: address.evm,
        assets: presentAssets(read.positions),
        locks: presentAccountLocks(read.positions),
        pending_settlements: read.pendingSettlements.map(presentSettlement),
        attestations: read.attestations.map((a) => presentAttestation(a, latestMs)),
        claimable: presentClaimable(read.claimables),
        delegations: read.delegations.map(presentDelegation),
        voting_power: presentVotingPower(read.positions, read.delegatedVotes),
        latest_block_time: latest,
      };
    },
    { fixedPerHeight: true },
  );

  ctx.get(
    '/v1/accounts/{addr}/attestations',
    async (req) => {
      const account = parseAddressParam(req.params.addr, ctx.hrp).bech32;
      const read = await ctx.store.readOne((sql) => accounts.attestationsWithTime(sql, account));
      const latest = apiTime(read.latestBlockTime);
      const latestMs = Date.parse(latest);
      return {
        address: account,
        attestations: read.attestations.map((a) => presentAttestation(a, latestMs)),
        latest_block_time: latest,
      };
    },
    { fixedPerHeight: true },
  );

  ctx.get(
    '/v1/accounts/{addr}/events',
    async (req) => {
      const account = parseAddressParam(req.params.addr, ctx.hrp).bech32;
      const limit = parseLimit(req.query.limit);
      const cursor = readCursor(CURSORS.accountEvents, req.query.cursor);
      const rows = await ctx.store.readOne((sql) =>
        activity.page(sql, accountFeed(account), cursor ? seqOf(...cursor) : null, limit + 1),
      );
      const page = keysetPage(rows, limit, (last) =>
        writeCursor(CURSORS.accountEvents, [last.height, last.tx_index, last.event_index]),
      );
      return { address: account, events: ctx.presentActivities(page.items), next_cursor: page.nextCursor };
    },
    { fixedPerHeight: true },
  );
}
